"""The policy table: probes asked on top of each policy's view, control row, resume."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from workset.errors import ModelResponseError, UsageError
from workset.eval.checkpoint import Checkpoint
from workset.eval.formats import Probe, Transcript
from workset.eval.probes import control_prompt, other_values, shape_pattern
from workset.eval.table import ANSWER_TOKENS, PolicyReport, evaluate_policies, total_cells
from workset.history.base import HistoryPolicy
from workset.messages import AssistantMessage, ToolMessage, ToolSpec, UserMessage
from workset.models.base import ModelRequest
from workset.testing import ScriptedModel, call

from .helpers import ListPolicy, plain_counter

LOGS = call("search_logs", '{"q": "error"}', "c1")
TRANSCRIPT = Transcript(
    system="You are an SRE agent.",
    messages=(
        UserMessage("File every ticket with my employee number, 4417."),
        AssistantMessage("Noted."),
        UserMessage("Check the logs."),
        AssistantMessage(None, (LOGS,)),
        ToolMessage("c1", "ERROR pool exhausted on pay-shard-3", "search_logs"),
        AssistantMessage("The pool is exhausted."),
        UserMessage("Thanks, that is all."),
        AssistantMessage("Bye."),
    ),
    turns=(1, 1, 2, 2, 2, 2, 3, 3),
    source="small.jsonl",
)
TOOLS = (ToolSpec("search_logs", "Search the logs."),)
PROBE = Probe(
    "employee",
    planted_turn=1,
    questions=("What is my employee number?", "Which number do tickets need?"),
    expected="4417",
    distractors=("5805",),
)


def _reader(request: ModelRequest) -> str:
    """Answers 4417 when it is in the request, a neighbour's number for a pinned note."""
    seen = " ".join(getattr(m, "content", None) or "" for m in request.messages[:-1])
    if "4417" in seen:
        return "Your employee number is 4417."
    return "I don't know."


def _policies() -> list[HistoryPolicy]:
    return [ListPolicy("full"), ListPolicy("last_turn", keep="last_turn")]


def _evaluate(model: ScriptedModel, checkpoint: Checkpoint) -> PolicyReport:
    async def go() -> PolicyReport:
        return await evaluate_policies(
            TRANSCRIPT, TOOLS, [PROBE], _policies(), model, plain_counter(), checkpoint=checkpoint
        )

    return anyio.run(go)


def test_each_policy_row_scores_every_phrasing_and_the_control_row_reads_the_fact(
    tmp_path: Path,
) -> None:
    model = ScriptedModel([_reader] * 20)
    report = _evaluate(model, Checkpoint(tmp_path / "c.jsonl"))
    rows = {row.name: row for row in report.rows}
    assert list(rows) == ["control", "full", "last_turn"]
    assert rows["full"].tally("employee").counts["correct"] == 2
    assert rows["last_turn"].tally("employee").counts["refusal"] == 2
    assert rows["control"].tally("employee").counts["correct"] == 2
    assert len(model.requests) == 6  # three rows, two phrasings each
    # replay numbers with whitespace words: system 5, tools 1, each message its words
    assert rows["full"].calls == 4
    assert rows["last_turn"].billed < rows["full"].billed
    # every probe request is greedy, short and carries the tools
    assert all(r.temperature == 0.0 and r.max_tokens == ANSWER_TOKENS for r in model.requests)
    assert all(r.tools == TOOLS for r in model.requests)
    assert model.requests[2].messages[-1] == UserMessage("What is my employee number?")


def test_the_control_prompt_holds_only_the_planted_users_words() -> None:
    prompt = control_prompt(TRANSCRIPT, [PROBE])
    assert prompt.messages == (UserMessage("File every ticket with my employee number, 4417."),)


def test_a_fact_planted_in_a_tool_result_brings_its_whole_turn_into_the_control_prompt() -> None:
    shard = Probe("shard", 2, ("Which shard?",), "pay-shard-3")
    prompt = control_prompt(TRANSCRIPT, [shard])
    assert prompt.messages == TRANSCRIPT.messages[2:6]


def test_a_restarted_run_skips_the_cells_already_in_the_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    crash = ModelResponseError("the server went away")
    first = ScriptedModel([_reader, _reader, _reader, _reader, crash])
    with pytest.raises(ModelResponseError):
        _evaluate(first, Checkpoint(path))
    keys = [json.loads(line)["key"] for line in path.read_text().splitlines()]
    assert keys[0] == "meta" and "replay/full" in keys
    assert "probe/control/employee/1" in keys and "probe/full/employee/1" in keys

    second = ScriptedModel([_reader] * 20)
    report = _evaluate(second, Checkpoint(path))
    # two replays and four answers (control and full) were done before the crash
    assert len(second.requests) == total_cells(2, [PROBE]) - 2 - 4
    assert [r.tally().n for r in report.rows] == [2, 2, 2]

    third = ScriptedModel([])
    again = _evaluate(third, Checkpoint(path))
    assert third.requests == []
    assert [r.tally().counts for r in again.rows] == [r.tally().counts for r in report.rows]


def test_a_checkpoint_from_another_transcript_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    _evaluate(ScriptedModel([_reader] * 20), Checkpoint(path))
    other = Probe("employee", 1, ("What is my number?",), "4417")

    async def go() -> None:
        await evaluate_policies(
            TRANSCRIPT,
            TOOLS,
            [other],
            _policies(),
            ScriptedModel([]),
            plain_counter(),
            checkpoint=Checkpoint(path),
        )

    with pytest.raises(UsageError, match="written for another transcript"):
        anyio.run(go)


def test_an_answer_given_as_a_tool_call_is_scored_by_its_arguments(tmp_path: Path) -> None:
    ticket = call("create_ticket", '{"reporter_employee_number": "4417"}', "t1")
    model = ScriptedModel([AssistantMessage(None, (ticket,))] + [_reader] * 10)
    report = _evaluate(model, Checkpoint(tmp_path / "c.jsonl"))
    first = report.rows[0].answers[0]
    assert first.outcome == "correct"
    assert '"reporter_employee_number": "4417"' in first.answer


def test_values_shaped_like_the_fact_in_the_transcript_count_as_another_records() -> None:
    shard = Probe("shard", 2, ("Which shard?",), "pay-shard-7", distractors=("pay-shard-1",))
    others = other_values(shard, [shard, PROBE], TRANSCRIPT)
    assert others == ("pay-shard-1", "4417", "pay-shard-3")  # the last one from a log line
    number = other_values(PROBE, [PROBE], TRANSCRIPT)
    assert number == ("5805",)  # no other 4-digit number in the transcript
    assert shape_pattern("4417") == r"(?<![\w-])\d{4}(?![\w-])"


def test_stored_answers_are_classified_again_when_a_run_resumes(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    _evaluate(ScriptedModel(["It is 4417."] * 6), Checkpoint(path))
    stale = path.read_text().replace('"outcome": "correct"', '"outcome": "other"')
    path.write_text(stale)  # as written by an older, worse classifier
    report = _evaluate(ScriptedModel([]), Checkpoint(path))
    assert all(a.outcome == "correct" for row in report.rows for a in row.answers)
