"""``workset eval``: the policy table, the position and length tests, token buckets.

Every command writes a JSON file and a PNG chart to ``--out`` and prints a table; the long
ones show a progress bar on stderr and resume from ``--out``'s checkpoint when run again.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import anyio
import anyio.to_thread
import click
from rich.console import Console

from workset.errors import UsageError
from workset.eval.buckets import RequestCounter, transcript_buckets
from workset.eval.cases import load_cases
from workset.eval.checkpoint import Checkpoint
from workset.eval.components import ABLATIONS, evaluate_components
from workset.eval.components_report import (
    components_case_table,
    components_json,
    components_table,
    plot_components,
)
from workset.eval.formats import load_probes, load_tools, load_transcript, require_answered
from workset.eval.length import LENGTHS, evaluate_length
from workset.eval.position import DEPTHS, evaluate_position
from workset.eval.records import TICKETS, RecordTask, kv_task
from workset.eval.report import (
    axis_json,
    axis_table,
    buckets_json,
    buckets_table,
    plot_axis,
    plot_buckets,
    plot_policies,
    policy_json,
    policy_table,
    progress_bar,
    write_json,
)
from workset.eval.table import ANSWER_TOKENS, evaluate_policies, total_cells
from workset.history.base import HistoryPolicy
from workset.models.base import Model
from workset.models.factory import DEFAULT_MODEL, create_model
from workset.tokens.counter import PartCounter

_out = Console()
T = TypeVar("T")
_file = click.Path(dir_okay=False, exists=True, path_type=Path)


@click.group("eval", help="Measure context policies and context rot on real model calls.")
def eval_group() -> None:
    pass


def _model_options(fn: Callable[..., None]) -> Callable[..., None]:
    """The options that pick the model and ``--out``; ``fn`` gets them as ``run``."""
    options = [
        click.option(
            "--model",
            "model_spec",
            default=DEFAULT_MODEL,
            show_default=True,
            help="Model spec: an embedded model, a .gguf file, openai:NAME, scripted:F.",
        ),
        click.option("--base-url", default=None, help="Endpoint for openai:MODEL."),
        click.option(
            "--context-window",
            type=int,
            default=None,
            help="Context window for the model (default 8192).",
        ),
        click.option(
            "--threads",
            type=click.IntRange(min=1),
            default=None,
            help="llama.cpp threads for an embedded model (default $WORKSET_THREADS, else "
            "llama.cpp's choice); on a busy machine 1 can be much faster than 2.",
        ),
        click.option(
            "--out",
            type=click.Path(file_okay=False, path_type=Path),
            default=Path("eval-out"),
            show_default=True,
            help="Folder for the JSON, the PNG and the resumable checkpoint.",
        ),
    ]

    @functools.wraps(fn)
    def command(
        *,
        model_spec: str,
        base_url: str | None,
        context_window: int | None,
        threads: int | None,
        out: Path,
        **given: Any,
    ) -> None:
        fn(run=_Run(model_spec, base_url, context_window, threads, out), **given)

    for option in reversed(options):
        command = option(command)
    return command


@dataclass(frozen=True, slots=True)
class _Run:
    """What the model options of a command chose: the model to start and where to write."""

    model_spec: str
    base_url: str | None
    context_window: int | None
    threads: int | None
    out: Path

    def with_model(self, work: Callable[[Model, PartCounter], Awaitable[T]]) -> T:
        """Start the model, check its window, run ``work`` on it and close it."""
        window = self.context_window
        model = create_model(
            self.model_spec, base_url=self.base_url, context_window=window, threads=self.threads
        )

        async def go() -> T:
            try:
                # token_counter starts a local model
                counter = await anyio.to_thread.run_sync(model.token_counter)
                check_window(model, window)
                return await work(model, counter)
            finally:
                await model.aclose()

        return anyio.run(go)


def check_window(model: Model, asked: int | None) -> None:
    """Refuse to run when the backend gave a smaller window than ``--context-window`` asked
    for (llama.cpp caps it at the model's training context without saying so)."""
    got = model.info.context_window
    if asked is not None and got < asked:
        raise UsageError(
            f"--context-window {asked:,} is more than {model.info.name} supports: the server "
            f"started with {got:,} tokens (the model's training context). Use "
            f"--context-window {got} or less, or a model with a longer window; a request that "
            "does not fit is recorded as 'does not fit', it does not stop the run"
        )


def parse_policies(text: str | None) -> list[tuple[str, HistoryPolicy]]:
    """Fresh policy instances (one per replay), each with its row label; all by default.

    ``text`` is comma-separated; each entry is a name with optional parameters after colons,
    e.g. ``retrieval:turns=2:share=0.1``. Numbers and ``true``/``false`` are read as such.
    """
    from workset.history.policies import make_policy, policy_names

    entries = [e.strip() for e in text.split(",") if e.strip()] if text else policy_names()
    chosen: list[tuple[str, HistoryPolicy]] = []
    for entry in entries:
        name, *pairs = entry.split(":")
        params: dict[str, Any] = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            if not sep or not key.strip():
                raise UsageError(
                    f"policy parameter {pair!r} in {entry!r} must be key=value, "
                    "e.g. retrieval:turns=2:share=0.1"
                )
            params[key.strip()] = _value(value.strip())
        label = ":".join([name, *(f"{k}={params[k]}" for k in sorted(params))])
        chosen.append((label, make_policy(name, **params)))
    return chosen


def _value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


@eval_group.command("policies")
@click.option("--transcript", type=_file, required=True, help="Transcript JSONL.")
@click.option("--tools", type=_file, required=True, help="Tool definitions JSON.")
@click.option("--probes", type=_file, required=True, help="Probes YAML or JSON.")
@click.option(
    "--policies",
    "policy_list",
    default=None,
    help="Comma-separated policy names, each with optional parameters after colons "
    "(retrieval:turns=2:share=0.1); default: all.",
)
@click.option(
    "--max-tokens",
    type=int,
    default=ANSWER_TOKENS,
    show_default=True,
    help="Answer length for each probe (room for a tool call that carries the fact).",
)
@click.option(
    "--compact-tools/--full-tools",
    default=None,
    help="Tool definitions as sent: compact or as written (default: as the agent sends "
    "them to this model, compact on a window of 16,384 tokens or less).",
)
@_model_options
def policies_command(
    transcript: Path,
    tools: Path,
    probes: Path,
    policy_list: str | None,
    max_tokens: int,
    compact_tools: bool | None,
    run: _Run,
) -> None:
    """Replay a transcript under each policy and ask its probes at the end.

    The control row (the planted turns alone) comes first; a probe it answers less than 5
    times in 6 is marked uninformative for the model. A policy whose prompt does not fit the
    window is recorded as "does not fit" and the run goes on. The transcript must end on the
    assistant's reply.
    """
    recorded, specs, asked = load_transcript(transcript), load_tools(tools), load_probes(probes)
    require_answered(recorded)
    chosen = parse_policies(policy_list)
    checkpoint = Checkpoint(run.out / "policies.checkpoint.jsonl")

    async def work(model: Model, counter: PartCounter) -> Any:
        with progress_bar(total_cells(len(chosen), asked), "policies") as advance:
            return await evaluate_policies(
                recorded,
                specs,
                asked,
                chosen,
                model,
                counter,
                checkpoint=checkpoint,
                max_tokens=max_tokens,
                progress=advance,
                compact_tools=compact_tools,
            )

    report = run.with_model(work)
    write_json(run.out / "policies.json", policy_json(report))
    plot_policies(report, run.out / "policies.png")
    _out.print(policy_table(report))
    _out.print(f"wrote {run.out / 'policies.json'} and {run.out / 'policies.png'}")


@eval_group.command("components")
@click.option("--cases", type=_file, required=True, help="Component cases YAML.")
@click.option(
    "--ablations",
    default=",".join(ABLATIONS),
    show_default=True,
    help="Comma-separated: full, no_memory, no_rerank, no_examples, no_compression.",
)
@_model_options
def components_command(
    cases: Path,
    ablations: str,
    run: _Run,
) -> None:
    """Run component-level cases through the agent, each ablation dropping one component.

    Checks per case: required evidence in the context, required and forbidden tools, strings
    that must not appear in any request or the answer, the expected outcome.
    """
    suite = load_cases(cases)
    chosen = [a.strip() for a in ablations.split(",") if a.strip()]
    checkpoint = Checkpoint(run.out / "components.checkpoint.jsonl")

    async def work(model: Model, counter: PartCounter) -> Any:
        with progress_bar(len(chosen) * len(suite.cases), "components") as advance:
            return await evaluate_components(
                suite, model, checkpoint=checkpoint, ablations=chosen, progress=advance
            )

    report = run.with_model(work)
    write_json(run.out / "components.json", components_json(report))
    plot_components(report, run.out / "components.png")
    _out.print(components_table(report))
    _out.print(components_case_table(report))
    _out.print(f"wrote {run.out / 'components.json'} and {run.out / 'components.png'}")


def _task(task: str, kv_file: Path | None) -> RecordTask:
    if task == "kv":
        if kv_file is None:
            raise UsageError(
                "--task kv needs --kv-file kv-retrieval-75_keys.jsonl.gz "
                "(from nelson-liu/lost-in-the-middle)"
            )
        return kv_task(kv_file)
    return TICKETS


_task_options = [
    click.option(
        "--task",
        type=click.Choice(["tickets", "kv"]),
        default="tickets",
        show_default=True,
        help="Generated ticket lists or lost-in-the-middle kv sets.",
    ),
    click.option(
        "--kv-file",
        type=_file,
        default=None,
        help="A lost-in-the-middle kv-retrieval-*.jsonl.gz file (for --task kv).",
    ),
]


def _numbers(text: str, kind: type[float] | type[int]) -> list[Any]:
    try:
        return [kind(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"expected comma-separated numbers, got {text!r}") from None


@eval_group.command("position")
@_task_options[0]
@_task_options[1]
@click.option("--records", type=int, default=25, show_default=True, help="Records per list.")
@click.option("--depths", default=",".join(f"{d:g}" for d in DEPTHS), show_default=True)
@click.option("--trials", type=int, default=32, show_default=True)
@_model_options
def position_command(
    task: str,
    kv_file: Path | None,
    records: int,
    depths: str,
    trials: int,
    run: _Run,
) -> None:
    """Accuracy by the fact's position in a list of look-alike records."""
    chosen, points = _task(task, kv_file), _numbers(depths, float)

    def evaluate(model: Model, checkpoint: Checkpoint, advance: Any) -> Any:
        return evaluate_position(
            model,
            chosen,
            n=records,
            depths=points,
            trials=trials,
            checkpoint=checkpoint,
            progress=advance,
        )

    _axis("position", chosen.name, len(points) * trials, evaluate, run)


@eval_group.command("length")
@_task_options[0]
@_task_options[1]
@click.option("--lengths", default=",".join(str(n) for n in LENGTHS), show_default=True)
@click.option("--trials", type=int, default=20, show_default=True)
@_model_options
def length_command(
    task: str,
    kv_file: Path | None,
    lengths: str,
    trials: int,
    run: _Run,
) -> None:
    """Accuracy by list length, the fact kept in the middle."""
    chosen, points = _task(task, kv_file), _numbers(lengths, int)

    def evaluate(model: Model, checkpoint: Checkpoint, advance: Any) -> Any:
        return evaluate_length(
            model, chosen, lengths=points, trials=trials, checkpoint=checkpoint, progress=advance
        )

    _axis("length", chosen.name, len(points) * trials, evaluate, run)


def _axis(
    kind: str,
    name: str,
    total: int,
    evaluate: Callable[[Model, Checkpoint, Any], Awaitable[Any]],
    run: _Run,
) -> None:
    """Run one position or length sweep with a progress bar; write JSON, PNG and the table."""
    checkpoint = Checkpoint(run.out / f"{kind}.checkpoint.jsonl")

    async def work(model: Model, counter: PartCounter) -> Any:
        with progress_bar(total, kind) as advance:
            return await evaluate(model, checkpoint, advance)

    report = run.with_model(work)
    write_json(run.out / f"{kind}-{name}.json", axis_json(report))
    plot_axis(report, run.out / f"{kind}-{name}.png")
    _out.print(axis_table(report))


@eval_group.command("buckets")
@click.option("--transcript", type=_file, required=True, help="Transcript JSONL.")
@click.option("--tools", type=_file, required=True, help="Tool definitions JSON.")
@_model_options
def buckets_command(
    transcript: Path,
    tools: Path,
    run: _Run,
) -> None:
    """Token buckets per call, per item and by four counts, checked against each other."""
    recorded, specs = load_transcript(transcript), load_tools(tools)

    async def work(model: Model, counter: PartCounter) -> Any:
        totals = _server_template_counter(model) or counter
        return transcript_buckets(recorded, specs, counter, totals, method=counter.method)

    report = run.with_model(work)
    write_json(run.out / "buckets.json", buckets_json(report))
    plot_buckets(report, run.out / "buckets.png")
    _out.print(buckets_table(report))
    for problem in report.disagreements:
        _out.print(f"[red]disagree:[/] {problem}")


def _server_template_counter(model: Model) -> RequestCounter | None:
    """For a local llama.cpp model, whole-request counts from the server's own template."""
    base_url = getattr(model, "base_url", None)
    if not isinstance(base_url, str):
        return None
    from workset.tokens.llama import LlamaServerClient, ServerTemplateCounter

    return ServerTemplateCounter(LlamaServerClient(base_url))
