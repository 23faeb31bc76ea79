"""Loading transcripts, tools and probes; errors name the file, the line and the fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workset.errors import UsageError
from workset.eval.formats import load_probes, load_tools, load_transcript, require_answered
from workset.messages import AssistantMessage, ToolMessage, UserMessage

LINES = [
    {"role": "system", "content": "You are an SRE agent."},
    {"role": "user", "content": "Investigate the latency alert."},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "search_logs", "arguments": "{}"}}
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "name": "search_logs", "content": "ERROR pool"},
    {"role": "assistant", "content": "The pool is exhausted."},
    {"role": "user", "content": "File it with my number, 4417.", "turn": 5},
    {"role": "assistant", "content": "Noted."},
]


def _write(path: Path, rows: list[object]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_a_transcript_loads_with_its_system_prompt_apart_and_turns_counted(tmp_path: Path) -> None:
    transcript = load_transcript(_write(tmp_path / "t.jsonl", LINES))
    assert transcript.system == "You are an SRE agent."
    assert [type(m) for m in transcript.messages] == [
        UserMessage,
        AssistantMessage,
        ToolMessage,
        AssistantMessage,
        UserMessage,
        AssistantMessage,
    ]
    # no "turn" field: the first user message opens turn 1; an explicit turn is kept
    assert transcript.turns == (1, 1, 1, 1, 5, 5)
    assert transcript.turn_messages(5)[0] == UserMessage("File it with my number, 4417.")


def test_a_broken_line_is_reported_with_its_file_and_line_number(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(LINES[1]) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(UsageError, match=r"t\.jsonl:2: not valid JSON"):
        load_transcript(path)
    _write(path, [LINES[1], {"role": "robot", "content": "hi"}])
    with pytest.raises(UsageError, match=r"t\.jsonl:2: unknown message role 'robot'"):
        load_transcript(path)


def test_a_tool_call_without_its_result_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path / "t.jsonl", [LINES[1], LINES[2], LINES[4]])
    with pytest.raises(UsageError, match=r"tool calls \['c1'\] have no result"):
        load_transcript(path)


def test_turn_numbers_must_not_go_backwards(tmp_path: Path) -> None:
    path = _write(tmp_path / "t.jsonl", [{**LINES[1], "turn": 3}, {**LINES[4], "turn": 2}])
    with pytest.raises(UsageError, match=r"t\.jsonl:2: 'turn' must be an integer not smaller"):
        load_transcript(path)


def test_tools_load_from_openai_definitions(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    definition = {
        "type": "function",
        "function": {
            "name": "search_logs",
            "description": "Search service logs.",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}},
        },
    }
    path.write_text(json.dumps([definition]), encoding="utf-8")
    (tool,) = load_tools(path)
    assert tool.name == "search_logs"
    assert tool.to_wire() == definition
    path.write_text(json.dumps([{"type": "function", "function": {"description": "x"}}]))
    with pytest.raises(UsageError, match=r"tools\.json: tool 0: needs a non-empty string"):
        load_tools(path)


def test_probes_load_from_yaml_with_numbers_read_as_text(tmp_path: Path) -> None:
    path = tmp_path / "probes.yaml"
    path.write_text(
        """
probes:
  - id: employee
    planted_turn: 2
    question:
      - What is my employee number?
      - Which number must tickets be filed with?
    expected: 4417
    distractors: [5805, "pay-shard-3"]
  - id: shard
    planted_turn: 19
    question: Which shard is affected?
    expected: {regex: "pay[-_ ]shard[-_ ]7"}
""",
        encoding="utf-8",
    )
    employee, shard = load_probes(path)
    assert employee.expected == "4417" and employee.regex is None
    assert employee.distractors == ("5805", "pay-shard-3")
    assert len(employee.questions) == 2
    assert shard.questions == ("Which shard is affected?",)
    assert shard.regex == "pay[-_ ]shard[-_ ]7" and shard.expected == ""


def test_a_probe_may_give_a_value_and_a_regex_and_composite_distractors(tmp_path: Path) -> None:
    path = tmp_path / "probes.yaml"
    path.write_text(
        """
- id: partition
  kind: tool_result
  planted_turn: 4
  question: ["Which partition was corrupt?"]
  expected: orders 2026-03-14
  expected_regex: "orders.{0,40}(2026-03-14|14 march)"
  distractors: [[orders, 2026-03-13], [events, 2026-03-14], 5000 USD]
""",
        encoding="utf-8",
    )
    (probe,) = load_probes(path)
    assert probe.kind == "tool_result"
    assert probe.expected == "orders 2026-03-14" and probe.regex is not None
    assert probe.distractors == (("orders", "2026-03-13"), ("events", "2026-03-14"), "5000 USD")
    path.write_text("- {id: p, planted_turn: 1, question: q, expected: x, distractors: [[]]}\n")
    with pytest.raises(UsageError, match="a list of strings that must all appear"):
        load_probes(path)


def test_a_tool_result_without_a_name_gets_the_name_its_call_asked_for(tmp_path: Path) -> None:
    lines = [dict(line) for line in LINES]
    del lines[3]["name"]
    transcript = load_transcript(_write(tmp_path / "t.jsonl", lines))
    result = transcript.messages[2]
    assert isinstance(result, ToolMessage) and result.name == "search_logs"


def test_a_transcript_that_ends_on_an_unanswered_message_is_refused_for_probes(
    tmp_path: Path,
) -> None:
    ended = load_transcript(_write(tmp_path / "ok.jsonl", LINES))
    require_answered(ended)  # ends on the assistant's reply
    open_task = load_transcript(_write(tmp_path / "t.jsonl", LINES[:-1]))
    with pytest.raises(UsageError, match=r"ends on an unanswered user message \(turn 5\)"):
        require_answered(open_task)
    unread = load_transcript(_write(tmp_path / "u.jsonl", LINES[:4]))
    with pytest.raises(UsageError, match="a tool result the assistant never read"):
        require_answered(unread)


def test_a_probe_without_questions_says_which_probe_and_what_to_write(tmp_path: Path) -> None:
    path = tmp_path / "probes.json"
    path.write_text(json.dumps([{"id": "p", "planted_turn": 1, "expected": "x"}]))
    with pytest.raises(UsageError, match=r"probe 1 \(p\): 'question' must be a string or"):
        load_probes(path)
    path.write_text(json.dumps([{"id": "p", "planted_turn": 1, "question": "q?"}]))
    with pytest.raises(UsageError, match=r"'expected' must be a non-empty string, or give"):
        load_probes(path)


def test_invalid_yaml_is_reported_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "probes.yaml"
    path.write_text("- id: p\n  question: [unclosed\n", encoding="utf-8")
    with pytest.raises(UsageError, match=r"probes\.yaml:\d+: not valid YAML"):
        load_probes(path)
