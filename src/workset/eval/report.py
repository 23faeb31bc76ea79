"""Reports for the harness: a terminal table, a JSON file and a PNG chart per run.

Charts need matplotlib (``pip install 'workset[eval]'``), imported only when a chart is drawn.
The progress bar writes to stderr, so the table on stdout can be piped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from workset.errors import UsageError

from .buckets import COLUMNS, BucketsReport
from .records import AxisReport
from .score import OUTCOMES, Rate
from .table import PolicyReport


@contextmanager
def progress_bar(total: int, description: str) -> Iterator[Callable[[str], None]]:
    """A bar on stderr; the yielded function advances it by one and shows a label."""
    console = Console(stderr=True)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[label]}"),
    )
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task(description, total=total, label="")
        yield lambda label: bar.update(task, advance=1, label=label)


UNINFORMATIVE = "uninformative for this model"


def policy_json(report: PolicyReport) -> dict[str, Any]:
    rows = []
    for row in report.rows:
        rows.append(
            {
                "policy": row.name,
                "fits": row.fits,
                "billed_input_tokens": row.billed,
                "cached_tokens": row.cached,
                "final_context_tokens": row.final_context,
                "largest_probe_prompt_tokens": row.largest_prompt,
                "calls": row.calls,
                "calls_over_window": row.over_window,
                "compression_prompt_tokens": row.cost_prompt,
                "compression_completion_tokens": row.cost_completion,
                "meets_goal": report.meets_goal(row),
                "probes": {p.id: dict(row.tally(p.id).as_dict()) for p in report.probes},
                "answers": [
                    {
                        "probe": a.probe_id,
                        "phrasing": a.phrasing,
                        "answer": a.answer,
                        "outcome": a.outcome,
                        "prompt_tokens": a.prompt_tokens,
                    }
                    for a in row.answers
                ],
            }
        )
    probes = {
        p.id: {
            "planted_turn": p.planted_turn,
            "kind": p.kind,
            "informative": report.informative(p.id),
            **({} if report.informative(p.id) else {"note": UNINFORMATIVE}),
        }
        for p in report.probes
    }
    return {
        "transcript": report.transcript,
        "model": report.model,
        "context_window": report.window,
        "prompt_limit": report.prompt_limit or report.window,
        "probes": probes,
        "rows": rows,
    }


def policy_table(report: PolicyReport) -> Group:
    """Two narrow tables and a legend, so the report stays readable at 80 columns.

    The first gives each policy's token numbers and whether it meets the goal; the second its
    correct answers per probe, the probes numbered (``P1`` …) and named in the legend below,
    the uninformative ones marked ``*``.
    """
    title = f"policies on {short_name(report.transcript)} ({report.model})"
    tokens = Table(title=title)
    tokens.add_column("policy", no_wrap=True)
    for column in ("billed", "cached", "final ctx", "over window", "compress cost", "goal"):
        tokens.add_column(column, justify="right")
    answers = Table(title="correct answers per probe (of its phrasings)")
    answers.add_column("policy", no_wrap=True)
    legend: list[str] = []
    for number, probe in enumerate(report.probes, 1):
        mark = "" if report.informative(probe.id) else "*"
        answers.add_column(f"P{number}{mark}", justify="right")
        legend.append(f"P{number}{mark} {probe.id} (turn {probe.planted_turn}, {probe.kind})")
    answers.add_column("wrong", justify="right")
    legend.append("wrong: answers naming another record / refusals / other answers")
    legend.append("(95 % intervals of each count: policies.json)")
    full = next((r.billed for r in report.rows if r.name == "full"), None)
    for row in report.rows:
        billed = f"{row.billed:,}"
        if full and row.name not in ("full", "control"):
            billed += f" ({(row.billed - full) / full:+.0%})"
        over = f"{row.over_window}/{row.calls}" if row.calls else "-"
        cost = f"{row.cost_prompt:,}+{row.cost_completion:,}" if row.cost_prompt else "-"
        cells = [row.name, billed, f"{row.cached:,}", f"{row.final_context:,}", over, cost]
        if not row.fits:
            limit = report.prompt_limit or report.window
            fit = f"does not fit ({row.largest_prompt:,} > {limit:,})"
            tokens.add_row(*cells, "-")
            answers.add_row(row.name, *("-" for _ in report.probes), fit)
            continue
        goal = report.meets_goal(row)
        tokens.add_row(*cells, "-" if goal is None else ("yes" if goal else "no"))
        counts = row.tally().counts
        answers.add_row(
            row.name,
            *(_count(row.tally(p.id).correct) for p in report.probes),
            f"{counts['other_record']}/{counts['refusal']}/{counts['other']}",
        )
    if any(not report.informative(p.id) for p in report.probes):
        legend.append(f"* {UNINFORMATIVE}: the control row answers it less than 5 times in 6")
    return Group(tokens, answers, Text("\n".join(legend)))


def _count(correct: Rate) -> str:
    return f"{correct.successes}/{correct.n}"


def axis_json(report: AxisReport) -> dict[str, Any]:
    return {
        "kind": report.kind,
        "task": report.task,
        "model": report.model,
        "rows": [
            {
                "axis": r.axis,
                "mean_prompt_tokens": round(r.mean_prompt_tokens, 1),
                **r.tally.as_dict(),
            }
            for r in report.rows
        ],
    }


def axis_table(report: AxisReport) -> Table:
    label = "depth" if report.kind == "position" else "records"
    table = Table(title=f"{report.kind} test, {report.task} ({report.model})")
    for column in (label, "prompt tokens", "correct [95% CI]", *OUTCOMES[1:]):
        table.add_column(column, justify="right")
    for row in report.rows:
        counts = row.tally.counts
        table.add_row(
            f"{row.axis:g}",
            f"{row.mean_prompt_tokens:,.0f}",
            str(row.tally.correct),
            *(str(counts[o]) for o in OUTCOMES[1:]),
        )
    return table


def buckets_json(report: BucketsReport) -> dict[str, Any]:
    return {
        "transcript": report.transcript,
        "method": report.method,
        "tolerance": report.tolerance,
        "disagreements": report.disagreements,
        "rows": [
            {
                "index": r.index,
                "turn": r.turn,
                "per_item": dict(r.exact.as_dict()),
                "subtracted": dict(r.subtracted.as_dict()),
                "result_wrappers": r.result_wrappers,
            }
            for r in report.rows
        ],
    }


def buckets_table(report: BucketsReport) -> Table:
    table = Table(
        title=f"token buckets per call of {short_name(report.transcript)} ({report.method})"
    )
    for column in ("call", "turn", *COLUMNS, "total", "agree"):
        table.add_column(column, justify="right")
    for n, row in enumerate(report.rows, start=1):
        sizes = row.exact.as_dict()
        shares = [f"{sizes[c]:,} ({sizes[c] / max(1, sizes['total']):.0%})" for c in COLUMNS]
        agree = "yes" if row.disagreement(report.tolerance) is None else "NO"
        table.add_row(str(n), str(row.turn), *shares, f"{sizes['total']:,}", agree)
    return table


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise UsageError("charts need matplotlib: pip install 'workset[eval]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_policies(report: PolicyReport, path: Path) -> None:
    """Billed tokens (cached part shaded) beside each probe's recall with Wilson bars.

    Probes the control row cannot answer are drawn hatched and labelled uninformative; a
    row that does not fit the window is labelled so instead of drawn at zero.
    """
    plt = pyplot()
    rows = list(report.rows)
    names = [r.name if r.fits else f"{r.name} (does not fit)" for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 0.55 * len(rows) + 2.5))
    left.barh(names, [r.billed for r in rows], color="#8fb3d9", label="billed input")
    left.barh(names, [r.cached for r in rows], color="#2f6ea8", label="of which cached")
    left.invert_yaxis()
    left.xaxis.set_major_formatter(lambda x, _: f"{x / 1000:.0f}k")
    left.set_xlabel("input tokens over the run")
    left.legend(loc="lower right")
    height = 0.8 / max(1, len(report.probes))
    for k, probe in enumerate(report.probes):
        rates = [r.tally(probe.id).correct for r in rows]
        ys = [i + (k - (len(report.probes) - 1) / 2) * height for i in range(len(rows))]
        errors = [[x.value - x.low for x in rates], [x.high - x.value for x in rates]]
        informative = report.informative(probe.id)
        label = f"{probe.id} (turn {probe.planted_turn})"
        right.barh(
            ys,
            [x.value if r.fits else 0.0 for x, r in zip(rates, rows, strict=True)],
            height=height,
            xerr=errors,
            capsize=2,
            hatch=None if informative else "//",
            alpha=1.0 if informative else 0.45,
            label=label if informative else f"{label}: {UNINFORMATIVE}",
        )
    for i, row in enumerate(rows):
        if not row.fits:
            right.text(0.02, i, "does not fit the window", va="center", fontsize=8)
    right.set_yticks(range(len(rows)), names)
    right.invert_yaxis()
    right.set_xlim(0, 1)
    right.set_xlabel("probe accuracy (Wilson 95 %)")
    right.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    fig.suptitle(f"{short_name(report.transcript)} ({report.model}, window {report.window:,})")
    save_figure(fig, plt, path)


def plot_axis(report: AxisReport, path: Path) -> None:
    """Accuracy with its Wilson band, and the share of answers that were a neighbour's value."""
    plt = pyplot()
    xs = [r.axis for r in report.rows]
    correct = [r.tally.correct for r in report.rows]
    neighbour = [r.tally.counts["other_record"] / max(1, r.tally.n) for r in report.rows]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(xs, [c.value for c in correct], marker="o", label="correct")
    ax.fill_between(xs, [c.low for c in correct], [c.high for c in correct], alpha=0.2)
    ax.plot(xs, neighbour, marker="x", linestyle="--", label="another record's value")
    ax.set_ylim(0, 1)
    ax.set_xlabel(
        "depth of the fact (0 = first line)" if report.kind == "position" else "records in the list"
    )
    if report.kind == "length":
        ax.set_xscale("log")
    ax.set_ylabel("share of trials")
    ax.set_title(f"{report.kind} test, {report.task} ({report.model})")
    ax.legend()
    save_figure(fig, plt, path)


def plot_buckets(report: BucketsReport, path: Path) -> None:
    """A stacked area of the four buckets per call."""
    plt = pyplot()
    xs = list(range(1, len(report.rows) + 1))
    series = [[getattr(r.exact, c) for r in report.rows] for c in COLUMNS]
    fig, ax = plt.subplots(figsize=(10, 4.5))
    ax.stackplot(xs, series, labels=[c.replace("_", " ") for c in COLUMNS], alpha=0.85)
    ax.set_xlabel("model call")
    ax.set_ylabel("prompt tokens")
    ax.set_title(f"token buckets per call: {short_name(report.transcript)}")
    ax.legend(loc="upper left")
    save_figure(fig, plt, path)


def short_name(path: str) -> str:
    """A transcript's folder and name: enough to tell runs apart on a chart."""
    parts = Path(path).parts
    return "/".join(parts[-2:]) if parts else path


def save_figure(fig: Any, plt: Any, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
