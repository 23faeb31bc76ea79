"""Reports for the component evals: a table per ablation, a case × ablation table, a chart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.table import Table

from .components import CHECKS, ComponentReport
from .report import pyplot, save_figure, short_name


def components_json(report: ComponentReport) -> dict[str, Any]:
    return {
        "suite": report.suite,
        "model": report.model,
        "ablations": {a: _ablation_summary(report, a) for a in report.ablations},
        "results": [
            {
                "case": r.case,
                "ablation": r.ablation,
                "passed": r.passed,
                "checks": r.checks,
                "status": r.status,
                "answer": r.answer,
                "tools_run": list(r.tools_run),
                "forbidden_proposed": list(r.forbidden_proposed),
                "leaked": list(r.leaked),
                "missing_evidence": list(r.missing_evidence),
                "prompt_tokens": r.prompt_tokens,
                "calls": r.calls,
            }
            for r in report.results
        ],
    }


def _ablation_summary(report: ComponentReport, ablation: str) -> dict[str, Any]:
    rows = report.rows(ablation)
    n = max(1, len(rows))
    return {
        "cases": len(rows),
        "passed": sum(r.passed for r in rows),
        **{check: sum(r.checks[check] for r in rows) for check in CHECKS},
        "forbidden_proposed": sum(len(r.forbidden_proposed) for r in rows),
        "leaks": sum(len(r.leaked) for r in rows),
        "mean_prompt_tokens": round(sum(r.prompt_tokens for r in rows) / n, 1),
    }


def components_table(report: ComponentReport) -> Table:
    """One row per ablation: cases passed, each check, violations and tokens; then per case."""
    table = Table(title=f"component evals: {short_name(report.suite)} ({report.model})")
    for column in ("ablation", "passed", *CHECKS, "forbidden proposed", "leaks", "tokens/case"):
        table.add_column(column, justify="right" if column != "ablation" else "left")
    full = _ablation_summary(report, report.ablations[0])["mean_prompt_tokens"]
    for ablation in report.ablations:
        s = _ablation_summary(report, ablation)
        tokens = f"{s['mean_prompt_tokens']:,.0f}"
        if ablation != report.ablations[0] and full:
            tokens += f" ({(s['mean_prompt_tokens'] - full) / full:+.0%})"
        table.add_row(
            ablation,
            f"{s['passed']}/{s['cases']}",
            *(f"{s[c]}/{s['cases']}" for c in CHECKS),
            str(s["forbidden_proposed"]),
            str(s["leaks"]),
            tokens,
        )
    return table


def components_case_table(report: ComponentReport) -> Table:
    """Case × ablation: pass, or the checks that failed."""
    table = Table(title="per case (failed checks)")
    table.add_column("case")
    for ablation in report.ablations:
        table.add_column(ablation)
    names = list(dict.fromkeys(r.case for r in report.results))
    for name in names:
        cells = []
        for ablation in report.ablations:
            found = [r for r in report.rows(ablation) if r.case == name]
            if not found:
                cells.append("-")
                continue
            failed = [c for c, ok in found[0].checks.items() if not ok]
            cells.append("pass" if not failed else ", ".join(failed))
        table.add_row(name, *cells)
    return table


def plot_components(report: ComponentReport, path: Path) -> None:
    """Per ablation: share of cases passing each check (bars) and mean tokens per case."""
    plt = pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.5))
    width = 0.8 / (len(CHECKS) + 1)
    xs = range(len(report.ablations))
    for k, check in enumerate(("passed", *CHECKS)):
        shares = []
        for ablation in report.ablations:
            s = _ablation_summary(report, ablation)
            shares.append(s[check] / max(1, s["cases"]))
        left.bar([x + (k - len(CHECKS) / 2) * width for x in xs], shares, width, label=check)
    left.set_xticks(list(xs), report.ablations, rotation=15)
    left.set_ylim(0, 1.05)
    left.set_ylabel("share of cases")
    left.legend(loc="lower left", fontsize=8)
    tokens = [_ablation_summary(report, a)["mean_prompt_tokens"] for a in report.ablations]
    right.bar(list(xs), tokens, color="#8fb3d9")
    right.set_xticks(list(xs), report.ablations, rotation=15)
    right.set_ylabel("prompt tokens per case (all calls)")
    fig.suptitle(f"component evals: {short_name(report.suite)} ({report.model})")
    save_figure(fig, plt, path)
