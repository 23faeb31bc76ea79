"""Position and length tests on ticket lists and key-value sets, with a scripted reader."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import anyio
import pytest

from workset.errors import UsageError
from workset.eval.checkpoint import Checkpoint
from workset.eval.length import evaluate_length
from workset.eval.position import evaluate_position, slot_at
from workset.eval.records import TICKETS, AxisReport, kv_task, ticket_records, ticket_source
from workset.models.base import ModelRequest
from workset.testing import ScriptedModel


def _first_line_reader(request: ModelRequest) -> str:
    """Right only when the asked-for record is the first line; else the first line's value."""
    prompt = request.messages[-1].content or ""
    lines = [line for line in prompt.splitlines() if line.startswith("Ticket ")]
    first = re.search(r"extension (\d{4})", lines[0])
    assert first is not None
    return f"The extension is {first.group(1)}."


def test_ticket_lists_have_unique_owners_and_extensions_and_repeat_for_a_seed() -> None:
    records = ticket_records(25, 1001)
    assert len({r.key for r in records}) == 25
    assert len({r.value for r in records}) == 25
    assert all(re.fullmatch(r"\d{4}", r.value) for r in records)
    assert records == ticket_records(25, 1001)
    gold, rest = ticket_source(25, 3)
    assert gold not in rest and len(rest) == 24


def test_depths_map_to_slots_from_the_first_line_to_the_last() -> None:
    assert [slot_at(d, 25) for d in (0, 0.125, 0.5, 1)] == [0, 3, 12, 24]


def test_by_position_a_neighbours_value_is_counted_apart_from_other_errors(tmp_path: Path) -> None:
    model = ScriptedModel([_first_line_reader] * 40)

    async def go() -> AxisReport:
        return await evaluate_position(
            model,
            TICKETS,
            n=8,
            depths=(0, 0.5, 1),
            trials=4,
            checkpoint=Checkpoint(tmp_path / "c.jsonl"),
        )

    report = anyio.run(go)
    first, middle, last = report.rows
    assert first.tally.counts["correct"] == 4
    assert middle.tally.counts["other_record"] == 4
    assert last.tally.counts["other_record"] == 4
    assert last.tally.correct.high < 0.5  # 0/4 with its Wilson interval
    # the gold line really sits at the slot: with 8 records, depth 1 is the last line
    prompt = model.requests[-1].messages[-1].content or ""
    ticket_lines = [x for x in prompt.splitlines() if x.startswith("Ticket ")]
    asked = re.search(r"extension of (.+?)\?", prompt)
    assert asked is not None and asked.group(1) in ticket_lines[-1]


def test_by_length_the_fact_stays_in_the_middle_and_refusals_are_counted(tmp_path: Path) -> None:
    model = ScriptedModel(["I could not find that owner."] * 2 + [_first_line_reader] * 10)

    async def go() -> AxisReport:
        return await evaluate_length(
            model, TICKETS, lengths=(1, 3), trials=2, checkpoint=Checkpoint(tmp_path / "c.jsonl")
        )

    report = anyio.run(go)
    one, three = report.rows
    assert one.axis == 1 and one.tally.counts["refusal"] == 2
    assert three.tally.counts["other_record"] == 2  # middle of three, the reader reads line 1
    assert three.mean_prompt_tokens > 0


def test_key_value_sets_from_lost_in_the_middle_files_are_asked_by_key(tmp_path: Path) -> None:
    path = tmp_path / "kv.jsonl.gz"
    pairs = [
        [f"{i:08x}-0000-4000-8000-{i:012x}", f"{i + 100:08x}-0000-4000-8000-{i:012x}"]
        for i in range(6)
    ]
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write(
            json.dumps({"ordered_kv_records": pairs, "key": pairs[4][0], "value": pairs[4][1]})
            + "\n"
        )
    task = kv_task(path)
    answers = [pairs[4][1], f'"{pairs[0][1]}"', "no idea"]
    model = ScriptedModel(answers)

    async def go() -> AxisReport:
        return await evaluate_position(
            model, task, n=4, depths=(0,), trials=3, checkpoint=Checkpoint(tmp_path / "c.jsonl")
        )

    report = anyio.run(go)
    assert report.rows[0].tally.counts == {
        "correct": 1,
        "other_record": 1,
        "refusal": 1,
        "other": 0,
    }
    prompt = model.requests[0].messages[-1].content or ""
    assert prompt.startswith("Extract the value corresponding to the specified key")
    assert f'Key: "{pairs[4][0]}"' in prompt
    assert prompt.index(pairs[4][0]) < prompt.index(pairs[0][0])  # gold at depth 0


def test_asking_for_more_keys_than_the_file_holds_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "kv.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write(json.dumps({"ordered_kv_records": [["a", "b"]], "key": "a", "value": "b"}))
    with pytest.raises(UsageError, match="ask for n"):
        kv_task(path).source(5, 0)
