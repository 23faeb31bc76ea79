"""Prefill cost of three context layouts on the embedded model (SPEC C4, seed 000 "Caché KV").

One scripted 20-turn debugging session (a user question, a tool call, a tool result and a
short answer per turn, about 190 tokens a turn with the default two-line results) is sent to
the embedded model turn by turn, assembled three ways with the same :class:`Assembler`:

- ``a`` workset's layout: stable system prompt and tools, append-only trajectory, the status
  block (``workset.status.render_status``) appended at the very end of each request
  (replaced each round, never recorded);
- ``b`` the same with ``Current time: <now>`` at the start of the system prompt (the seed's
  ``{{now}}`` story): every request differs from its first tokens on;
- ``c`` the status block placed right after the system prompt: rotating state near the start.

Generation is capped at a few tokens, so each call measures prefill. For each turn the
benchmark prints the prompt tokens, the tokens the server reused from its cache, the reuse
workset's manifest predicted, time to first token and llama.cpp's own prefill time; then the
totals and the ratios of total prefill time b/a and c/a.

Run: ``python -u benchmarks/prefix_cache.py`` (needs the ``[embedded]`` extra). Layouts b and c
prefill the whole request every turn, so their cost grows with the square of the session:
about 110k prefilled tokens in all: some 15 minutes at the ~130 tokens/s two idle cores give,
much longer on a loaded machine (``--threads 1`` helps there). ``--turns``,
``--result-lines`` (8 gives tool results of a few hundred tokens and about 1.7 times the run
time) and ``--layouts`` change the run.
"""

from __future__ import annotations

import argparse
import datetime
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import anyio

from workset.context.assemble import Assembler, BudgetConfig
from workset.events import ToolFinished
from workset.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolMessage,
    ToolSpec,
    UserMessage,
)
from workset.models.base import ModelResponse
from workset.models.embedded import EmbeddedModel
from workset.status.render import render_status
from workset.status.todo import TodoItem
from workset.status.tracker import StatusTracker

WINDOW = 8192
MAX_TOKENS = 2
SYSTEM = (
    "You are a debugging assistant for the billing service in this workspace. Work in small "
    "steps: read the code or the logs you need with a tool, then say what you found in one or "
    "two sentences. Never guess the contents of a file. Quote line numbers when you cite code. "
    "When a fix is needed, describe the smallest change and the test that proves it."
)


def _object(**properties: str) -> dict[str, object]:
    return {
        "type": "object",
        "properties": {
            name: {"type": "string", "description": d} for name, d in properties.items()
        },
        "required": list(properties)[:1],
    }


TOOLS = (
    ToolSpec("grep", "Search file contents for a regular expression.", _object(
        pattern="Regular expression to look for.", path="Folder or file to search in."
    )),
    ToolSpec("read_file", "Read a text file with numbered lines.", _object(
        path="File to read, relative to the workspace.", offset="First line to show."
    )),
    ToolSpec("read_log", "Read the newest lines of a service log.", _object(
        service="Service whose log to read.", lines="How many lines."
    )),
    ToolSpec("run_tests", "Run the test suite or one test file and report failures.", _object(
        target="Test file or folder; empty for all."
    )),
)  # fmt: skip

TOPICS = (
    ("invoice totals", "billing/invoice.py", "compute_total"),
    ("currency rounding", "billing/money.py", "round_half_even"),
    ("tax lookup", "billing/tax.py", "rate_for"),
    ("retry of failed charges", "billing/charges.py", "retry_charge"),
    ("webhook signatures", "billing/webhooks.py", "verify_signature"),
    ("discount codes", "billing/discounts.py", "apply_code"),
    ("refund window", "billing/refunds.py", "can_refund"),
    ("proration", "billing/proration.py", "prorate"),
    ("dunning emails", "billing/dunning.py", "next_reminder"),
    ("ledger export", "billing/ledger.py", "export_rows"),
)
TOOL_CYCLE = ("read_file", "grep", "read_log", "run_tests", "read_file")


def session(turns: int, result_lines: int) -> list[tuple[UserMessage, AssistantMessage,
                                                       ToolMessage, AssistantMessage]]:  # fmt: skip
    """The scripted session: per turn a question, one tool call, its result and an answer."""
    out = []
    for k in range(turns):
        topic, path, func = TOPICS[k % len(TOPICS)]
        tool = TOOL_CYCLE[k % len(TOOL_CYCLE)]
        question = (
            f"Turn {k + 1}: customers report wrong {topic} since yesterday's deploy. Look at "
            f"{func} in {path} and tell me whether it could explain ticket BILL-{4100 + k}."
        )
        args = {"read_file": {"path": path}, "grep": {"pattern": func, "path": "billing"},
                "read_log": {"service": "billing", "lines": str(result_lines)},
                "run_tests": {"target": f"tests/test_{path.split('/')[1]}"}}[tool]  # fmt: skip
        call = ToolCall(f"call_{k + 1}", tool, json.dumps(args))
        result = _result(tool, k, path, func, result_lines)
        answer = (
            f"{func} in {path} looks consistent with ticket BILL-{4100 + k}: the value is "
            f"computed before the {topic} step, so I would check line {12 + 3 * k} next."
        )
        out.append(
            (
                UserMessage(question),
                AssistantMessage(None, (call,)),
                ToolMessage(call.id, result, tool),
                AssistantMessage(answer),
            )
        )
    return out


def _result(tool: str, k: int, path: str, func: str, n: int) -> str:
    if tool == "read_log":
        return "\n".join(
            f"2026-11-2{k % 9} 10:{i:02d}:{(7 * i + k) % 60:02d} billing[{310 + i}] "
            f"{'WARN' if i % 4 == 0 else 'INFO'} {func} customer=c{1000 + 13 * i + k} "
            f"amount={(i * 37 + k * 11) % 900 + 0.99:.2f} took={(i * 29) % 400}ms"
            for i in range(n)
        )
    if tool == "run_tests":
        lines = [f"tests/test_{path.split('/')[1]}::test_case_{i} PASSED" for i in range(n - 3)]
        return "\n".join(
            [*lines, f"FAILED test_{func}_edge - AssertionError: {k + 3} != {k + 4}", "1 failed"]
        )
    if tool == "grep":
        return "\n".join(
            f"billing/{['api', 'jobs', 'models', 'views'][i % 4]}.py:{20 + 7 * i}: "
            f"    total = {func}(order, items[{i}], mode={'strict' if i % 2 else 'lenient'})"
            for i in range(n)
        )
    return "\n".join(
        f"{i + 1:4d}| "
        + (
            f"def {func}(order, items, mode='strict'):"
            if i == 0
            else f"    value_{i} = order.lines[{i}].amount * Decimal('{1 + (i + k) % 7}.{k:02d}')"
        )
        for i in range(n)
    )


TODO = (
    TodoItem("1", "find the cause of the billing tickets", "in_progress", 1_795_000_000.0),
    TodoItem("2", "write the smallest fix and its test", "pending", 1_795_000_000.0),
)


def status_block(tracker: StatusTracker, now: float) -> str:
    """The rotating status block (workset.status): the time and call counts change each round."""
    return render_status(
        tracker.state(),
        now=now,
        cwd="/srv/billing",
        os_name="Linux",
        tool_names=[t.name for t in TOOLS],
        todo=TODO,
    )


Layout = Callable[[Sequence[Message], str], tuple[str, list[Message], list[Message]]]


def layout_a(history: Sequence[Message], status: str) -> tuple[str, list[Message], list[Message]]:
    return SYSTEM, list(history), [UserMessage(status)]


def layout_b(history: Sequence[Message], status: str) -> tuple[str, list[Message], list[Message]]:
    now = datetime.datetime.now(datetime.UTC).isoformat(sep=" ")
    return f"Current time: {now}\n\n{SYSTEM}", list(history), [UserMessage(status)]


def layout_c(history: Sequence[Message], status: str) -> tuple[str, list[Message], list[Message]]:
    return SYSTEM, [UserMessage(status), *history], []


LAYOUTS: dict[str, tuple[str, Layout]] = {
    "a": ("workset layout, status appended at the end", layout_a),
    "b": ("timestamp at the start of the system prompt", layout_b),
    "c": ("status block right after the system prompt", layout_c),
}


@dataclass(frozen=True, slots=True)
class Turn:
    prompt: int
    cached: int
    predicted_reuse: int
    ttft_s: float
    prefill_ms: float


@dataclass
class LayoutRun:
    """One layout's session state: its own server (so its cache is its own) and assembler."""

    name: str
    layout: Layout
    model: EmbeddedModel
    assembler: Assembler
    tracker: StatusTracker = field(
        default_factory=lambda: StatusTracker(targets={"read_file": "path", "read_log": "service"})
    )
    history: list[Message] = field(default_factory=list)
    rows: list[Turn] = field(default_factory=list)

    async def turn(self, question: Message, call: AssistantMessage, result: ToolMessage,
                   answer: Message, now: float) -> Turn:  # fmt: skip
        self.history += [question, call, result]
        self.tracker(ToolFinished("run", "bench", call.tool_calls[0], result, 0.2, now))
        system, messages, suffix = self.layout(self.history, status_block(self.tracker, now))
        assembled = self.assembler.assemble(
            session_id="bench", system=system, tools=TOOLS, history=messages, suffix=suffix,
            max_tokens=MAX_TOKENS, temperature=0.0,
        )  # fmt: skip
        if assembled.manifest.omitted:
            raise SystemExit("the session outgrew the window; use fewer --turns/--result-lines")
        response = await self.model.complete(assembled.request)
        self.rows.append(_turn(response, assembled.manifest.prefix.reused_tokens))
        self.history.append(answer)
        return self.rows[-1]


def _turn(response: ModelResponse, predicted: int) -> Turn:
    usage = response.usage
    timings = response.extra.get("timings") or {}
    return Turn(
        prompt=usage.prompt_tokens,
        cached=usage.cached_prompt_tokens or 0,
        predicted_reuse=predicted,
        ttft_s=usage.time_to_first_token_s or 0.0,
        prefill_ms=float(timings.get("prompt_ms", 0.0)),
    )


def _print_header(name: str, title: str) -> None:
    print(f"\n({name}) {title}")
    print(
        f"{'turn':>4} {'prompt':>7} {'cached':>7} {'manifest':>8} {'ttft s':>7} {'prefill ms':>10}"
    )


def _print_row(turn: int, r: Turn) -> None:
    print(
        f"{turn:>4} {r.prompt:>7} {r.cached:>7} {r.predicted_reuse:>8} "
        f"{r.ttft_s:>7.3f} {r.prefill_ms:>10.1f}",
        flush=True,
    )


def _print_sum(rows: list[Turn]) -> None:
    print(
        f" sum {sum(r.prompt for r in rows):>7} {sum(r.cached for r in rows):>7} "
        f"{sum(r.predicted_reuse for r in rows):>8} {sum(r.ttft_s for r in rows):>7.2f} "
        f"{sum(r.prefill_ms for r in rows):>10.1f}"
    )


async def main_async(turns: int, result_lines: int, layouts: str, threads: int | None) -> None:
    """Layouts run turn by turn in alternation, each on its own server: a change in the
    machine's load during the run falls on all of them alike."""
    began = time.perf_counter()
    runs: list[LayoutRun] = []
    try:
        for name in layouts:
            model = EmbeddedModel("qwen2.5-coder-0.5b", context_window=WINDOW, threads=threads)
            await model.start()
            budget = BudgetConfig(WINDOW, output_reserve=16, margin=64)
            runs.append(
                LayoutRun(name, LAYOUTS[name][1], model, Assembler(model.token_counter(), budget))
            )
        print(
            f"model qwen2.5-coder-0.5b, window {WINDOW}, threads {threads or 'default'}, "
            f"one server per layout; counts: {runs[0].model.token_counter().method}"
        )
        print(f"{turns} turns, tool results of {result_lines} lines, max_tokens {MAX_TOKENS}")
        now = 1_795_000_000.0
        for k, (question, call, result, answer) in enumerate(session(turns, result_lines), 1):
            now += 47.0
            done = [await run.turn(question, call, result, answer, now) for run in runs]
            shown = ", ".join(f"{r.name} {t.ttft_s:.2f} s" for r, t in zip(runs, done, strict=True))
            print(f"turn {k}: {shown}", flush=True)
    finally:
        for run in runs:
            await run.model.aclose()
    print("\ncolumns: prompt tokens, tokens the server reused from its cache, reuse workset's")
    print("manifest predicted, time to first token, llama.cpp's prefill time")
    for run in runs:
        _print_header(run.name, LAYOUTS[run.name][0])
        for k, row in enumerate(run.rows, 1):
            _print_row(k, row)
        _print_sum(run.rows)
    base = next((r.rows for r in runs if r.name == "a"), None)
    if base:
        ttft_a = sum(r.ttft_s for r in base)
        prefill_a = sum(r.prefill_ms for r in base)
        print()
        for run in (r for r in runs if r.name != "a"):
            rows = run.rows
            print(
                f"total prefill time ({run.name})/(a): "
                f"TTFT {sum(r.ttft_s for r in rows) / ttft_a:.1f}x, "
                f"llama.cpp prompt_ms {sum(r.prefill_ms for r in rows) / prefill_a:.1f}x; "
                f"uncached tokens {sum(r.prompt - r.cached for r in rows)} vs "
                f"{sum(r.prompt - r.cached for r in base)}"
            )
    print(f"\nwall time {time.perf_counter() - began:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--result-lines", type=int, default=2)
    parser.add_argument("--layouts", default="abc", help="Which layouts to run, e.g. 'ab'.")
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="llama.cpp threads (default: all cores; 1 is faster on a busy machine).",
    )
    args = parser.parse_args()
    anyio.run(main_async, args.turns, args.result_lines, args.layouts, args.threads)


if __name__ == "__main__":
    main()
