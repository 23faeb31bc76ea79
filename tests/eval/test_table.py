"""The policy table's harness defects, fixed: rows that do not fit, resumes, informativeness."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest

from workset.cli.eval import check_window, parse_policies
from workset.errors import UsageError
from workset.eval.checkpoint import Checkpoint
from workset.eval.formats import Probe
from workset.eval.report import policy_json, policy_table
from workset.eval.table import PolicyReport, evaluate_policies
from workset.history.base import HistoryPolicy, HistoryView, PolicyContext
from workset.history.policies import make_policy
from workset.messages import Message, ToolSpec, UserMessage
from workset.models.base import ModelRequest
from workset.testing import ScriptedModel

from .helpers import ListPolicy, plain_counter
from .test_probes import PROBE, TOOLS, TRANSCRIPT

SHARD = Probe(
    "shard",
    planted_turn=2,
    questions=("Which shard was exhausted?", "Name the exhausted shard."),
    expected="pay-shard-3",
)


def _seen(request: ModelRequest) -> str:
    return " ".join(getattr(m, "content", None) or "" for m in request.messages[:-1])


def _reader(request: ModelRequest) -> str:
    seen = _seen(request)
    if "pay-shard-3" in seen and "shard" in request.messages[-1].content:  # type: ignore[union-attr]
        return "pay-shard-3"
    return "It is 4417." if "4417" in seen else "I don't know."


def _run(
    model: ScriptedModel,
    policies: Sequence[HistoryPolicy | tuple[str, HistoryPolicy]],
    checkpoint: Checkpoint,
    probes: Sequence[Probe] = (PROBE,),
    max_tokens: int = 4,
) -> PolicyReport:
    async def go() -> PolicyReport:
        return await evaluate_policies(
            TRANSCRIPT,
            TOOLS,
            probes,
            policies,
            model,
            plain_counter(),
            checkpoint=checkpoint,
            max_tokens=max_tokens,
        )

    return anyio.run(go)


def test_a_full_history_larger_than_the_window_is_a_row_that_does_not_fit(
    tmp_path: Path,
) -> None:
    # full history is 33 words plus a 5-word question: over the 26 that a 94-token window
    # leaves once the 4 answer tokens and the agent's 64-token margin are kept free
    model = ScriptedModel([_reader] * 10, context_window=94)
    policies = [ListPolicy("full"), ListPolicy("last_turn", keep="last_turn")]
    report = _run(model, policies, Checkpoint(tmp_path / "c.jsonl"))
    rows = {r.name: r for r in report.rows}
    assert not rows["full"].fits and rows["full"].answers == ()
    assert rows["full"].largest_prompt == 38
    # its last call point (32 words) would not have fitted either
    assert (rows["full"].over_window, rows["full"].calls) == (1, 4)
    assert rows["last_turn"].fits and rows["last_turn"].tally().n == 2
    assert len(model.requests) == 4  # control and last_turn asked; full never sent
    assert "does not fit (38 > 26)" in _text(report)
    assert policy_json(report)["rows"][1]["fits"] is False


@dataclass
class Grep:
    """Keeps only the messages that share a word with the current query (a need-driven view)."""

    name: str = "grep"

    async def view(self, history: Sequence[Message], context: PolicyContext) -> HistoryView:
        words = {w.strip("?.,").lower() for w in context.query.split() if len(w) > 4}
        keep = [
            i
            for i, m in enumerate(history)
            if words & {w.strip("?.,").lower() for w in (m.content or "").split()}
        ]
        return HistoryView(tuple(history[i] for i in keep), tuple(keep))


def test_each_phrasing_gets_the_view_a_policy_builds_for_it_as_the_current_query(
    tmp_path: Path,
) -> None:
    model = ScriptedModel([_reader] * 20)
    employee = Probe("employee", 1, ("What is my employee number?", "Remind me of it."), "4417")
    report = _run(model, [Grep()], Checkpoint(tmp_path / "c.jsonl"), probes=(employee, SHARD))
    grep = report.rows[1]
    # "Remind me of it." shares no long word with the fact's message
    assert [a.outcome for a in grep.answers if a.probe_id == "employee"] == ["correct", "refusal"]
    employee_request, _, shard_request, _ = model.requests[4:8]
    assert "4417" in _seen(employee_request) and "pay-shard-3" not in _seen(employee_request)
    assert "pay-shard-3" in _seen(shard_request)


def test_an_interrupted_replay_keeps_the_summaries_it_had_written(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    notes = ["turn 1: employee number 4417", "NONE", "NONE"]
    killed = RuntimeError("the machine was switched off")
    with pytest.raises(RuntimeError):
        _run(ScriptedModel([*[_reader] * 2, notes[0], killed]), [make_policy("pinned_end")],
             Checkpoint(path))  # fmt: skip
    second = ScriptedModel([notes[1], notes[2], *[_reader] * 4])
    resumed = _run(second, [make_policy("pinned_end")], Checkpoint(path))
    # the summarizer's requests (a probe's ends on the pinned notes, a harness message)
    asked = [r.messages[-1] for r in second.requests]
    summaries = [m.content for m in asked if isinstance(m, UserMessage) and m.origin != "harness"]
    assert summaries and not any("4417" in text for text in summaries)  # turn 1's not redone
    fresh = _run(ScriptedModel([*[_reader] * 2, *notes, *[_reader] * 4]),
                 [make_policy("pinned_end")], Checkpoint(tmp_path / "fresh.jsonl"))  # fmt: skip
    assert resumed.rows[1].billed == fresh.rows[1].billed
    assert resumed.rows[1].tally().counts == fresh.rows[1].tally().counts
    calls = [json.loads(line)["key"] for line in path.read_text().splitlines()]
    assert any(k.startswith("call/pinned_end#") and k.endswith("/1") for k in calls)


def test_a_probe_the_control_row_cannot_answer_is_marked_uninformative(tmp_path: Path) -> None:
    def confused(request: ModelRequest) -> str:
        return "I don't know." if request.messages[-1].content.startswith("Which") else "4417"  # type: ignore[union-attr]

    report = _run(ScriptedModel([confused] * 10), [ListPolicy("full")], Checkpoint(tmp_path / "c"))
    assert [r.name for r in report.rows] == ["control", "full"]
    assert not report.informative("employee")
    data = policy_json(report)
    assert data["probes"]["employee"]["note"] == "uninformative for this model"
    assert "uninformative for this model" in _text(report)


def test_a_checkpoint_written_for_another_context_window_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    _run(ScriptedModel([_reader] * 10, context_window=4096), [ListPolicy("full")], Checkpoint(path))
    with pytest.raises(UsageError, match="context window"):
        _run(ScriptedModel([], context_window=8192), [ListPolicy("full")], Checkpoint(path))


def test_a_window_larger_than_the_model_gives_is_an_error_that_says_the_limit() -> None:
    check_window(ScriptedModel([], context_window=32768), 32768)
    with pytest.raises(UsageError, match=r"--context-window 40,960 is more than .*32,768"):
        check_window(ScriptedModel([], context_window=32768), 40960)


def test_a_replay_stored_for_other_settings_of_the_same_policy_is_not_reused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.jsonl"
    _run(ScriptedModel([_reader] * 10), [("window", make_policy("window"))], Checkpoint(path))
    again = ScriptedModel([_reader] * 10)
    _run(again, [("window", make_policy("window", turns=1))], Checkpoint(path))
    assert len(again.requests) == 2  # the window row was asked again; the control row was not


def test_policies_are_named_with_their_parameters_and_bad_ones_explained() -> None:
    (label, policy), (plain, _) = parse_policies("window:turns=2, full")
    assert (label, plain) == ("window:turns=2", "full")
    assert policy.name == "window"
    with pytest.raises(UsageError, match="must be key=value"):
        parse_policies("window:turns")
    with pytest.raises(UsageError, match="does not take"):
        parse_policies("window:share=0.1")


def _text(report: PolicyReport) -> str:
    from rich.console import Console

    console = Console(width=400, record=True)
    console.print(policy_table(report))
    return console.export_text()


def test_a_row_that_ties_full_history_at_zero_does_not_meet_the_goal() -> None:
    from workset.eval.table import PolicyRow, ProbeAnswer

    def row(name: str, billed: int, outcomes: Sequence[str]) -> PolicyRow:
        answers = tuple(
            ProbeAnswer("shard", n, "pay-shard-8", outcome, 10)  # type: ignore[arg-type]
            for n, outcome in enumerate(outcomes)
        )
        return PolicyRow(name, billed, 0, 100, 2, 0, 0, answers)

    control = row("control", 50, ["correct"] * 2)
    full = row("full", 1000, ["other_record"] * 2)
    tie = row("window", 100, ["other_record", "other"])
    better = row("user_verbatim", 100, ["correct", "other"])
    report = PolicyReport("t", "m", 8192, (SHARD,), (control, full, tie, better))
    assert report.meets_goal(tie) is False
    assert report.meets_goal(better) is True


def test_the_table_names_every_probe_in_full_at_80_columns() -> None:
    from rich.console import Console

    from workset.eval.table import PolicyRow, ProbeAnswer

    probes = tuple(
        Probe(f"a_long_probe_name_{n}", planted_turn=n, questions=("q?",), expected="x")
        for n in range(1, 8)
    )

    def row(name: str, correct: int) -> PolicyRow:
        answers = tuple(
            ProbeAnswer(p.id, 0, "x", "correct" if i < correct else "other", 10)  # type: ignore[arg-type]
            for i, p in enumerate(probes)
        )
        return PolicyRow(name, 123_456, 100_000, 2_500, 30, 0, 0, answers)

    report = PolicyReport("t", "m", 8192, probes, (row("control", 7), row("user_verbatim", 3)))
    console = Console(width=80, record=True)
    console.print(policy_table(report))
    text = console.export_text()
    assert all(len(line) <= 80 for line in text.splitlines())
    for n, probe in enumerate(probes, 1):
        assert f"P{n} {probe.id} (turn {n}, {probe.kind})" in text
    assert "123,456" in text and "user_verbatim" in text
    assert "…" not in text  # nothing cut


def test_a_fact_carried_in_a_tool_call_fits_the_default_answer_length(tmp_path: Path) -> None:
    """A model that answers by calling a tool (the 1.5B filed the ticket), the fact last among
    its arguments and its output cut at the request's ``max_tokens`` words: the default
    length leaves room for the whole call."""
    filler = " ".join(f'"field_{i}": "value {i}",' for i in range(15))

    def filing(request: ModelRequest) -> str:
        seen = "4417" in _seen(request)
        call = f'```json\n{{"name": "create_ticket", "arguments": {{{filler} '
        call += f'"reporter_employee_number": "{"4417" if seen else "unknown"}"}}}}\n```'
        return " ".join(call.split(" ")[: request.max_tokens])

    async def go() -> PolicyReport:
        return await evaluate_policies(
            TRANSCRIPT,
            TOOLS,
            (PROBE,),
            [ListPolicy("full")],
            ScriptedModel([filing] * 10),
            plain_counter(),
            checkpoint=Checkpoint(tmp_path / "c"),
        )

    report = anyio.run(go)
    assert report.informative("employee")
    assert report.control is not None
    assert report.control.tally("employee").correct.successes == len(PROBE.questions)


LONG_TOOL = ToolSpec(
    "search_logs",
    "Search the logs. Returns matching lines with their time and host, newest first.",
    {"type": "object", "properties": {"query": {"type": "string", "description": "Text. E.g. x."}}},
)


def _descriptions(folder: Path, window: int, compact: bool | None = None) -> set[str]:
    seen: set[str] = set()

    def reader(request: ModelRequest) -> str:
        seen.update(t.description for t in request.tools)
        return "It is 4417."

    async def go() -> None:
        await evaluate_policies(
            TRANSCRIPT,
            (LONG_TOOL,),
            (PROBE,),
            [ListPolicy("full")],
            ScriptedModel([reader] * 10, context_window=window),
            plain_counter(),
            checkpoint=Checkpoint(folder / f"{window}-{compact}.jsonl"),
            max_tokens=4,
            compact_tools=compact,
        )

    anyio.run(go)
    return seen


def test_the_harness_sends_the_tool_definitions_the_agent_would_send_on_that_window(
    tmp_path: Path,
) -> None:
    # the agent compacts its tools for windows of 16,384 tokens or less (workset.cli.runtime)
    assert _descriptions(tmp_path, 16_384) == {"Search the logs."}
    assert _descriptions(tmp_path, 32_768) == {LONG_TOOL.description}
    assert _descriptions(tmp_path, 16_384, compact=False) == {LONG_TOOL.description}
