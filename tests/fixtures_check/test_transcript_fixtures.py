"""The evaluation fixtures in examples/transcripts/ are valid, whole and plant facts once."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from workset.models.embedded import EmbeddedModel
import yaml

from workset.messages import (
    AssistantMessage,
    Message,
    ToolMessage,
    UserMessage,
    from_wire,
    group_units,
)

ROOT = Path(__file__).resolve().parents[2] / "examples" / "transcripts"
FIXTURES = {  # folder → user turns
    "incident": 40,
    "coding": 30,
    "support": 40,
    "pipeline": 32,
    "payroll": 34,
    "orders": 32,
    "biobank": 32,
    "telecom": 38,
    "warehouse": 34,
    "insurance": 38,
}
INCIDENT_TOOLS = {
    "search_logs",
    "get_metrics",
    "list_alerts",
    "get_deployment_history",
    "describe_service",
    "query_db_stats",
    "get_runbook",
    "page_oncall",
    "create_ticket",
    "update_ticket",
    "get_current_time",
    "run_diagnostic",
}


@dataclass(frozen=True)
class Fixture:
    name: str
    lines: tuple[dict[str, Any], ...]
    messages: tuple[Message, ...]
    tools: tuple[dict[str, Any], ...]
    probes: tuple[dict[str, Any], ...]

    def text_of_turns(self, first: int) -> str:
        return "\n".join(json.dumps(line) for line in self.lines if line["turn"] >= first)


@cache
def load(name: str) -> Fixture:
    folder = ROOT / name
    lines = []
    for number, raw in enumerate((folder / "transcript.jsonl").read_text().splitlines(), 1):
        data = json.loads(raw)
        assert isinstance(data, dict), f"{name} line {number} is not an object"
        lines.append(data)
    messages = tuple(from_wire(line) for line in lines)
    tools = tuple(json.loads((folder / "tools.json").read_text()))
    probes = tuple(yaml.safe_load((folder / "probes.yaml").read_text()))
    return Fixture(name, tuple(lines), messages, tools, probes)


fixture_names = pytest.mark.parametrize("name", sorted(FIXTURES))


@fixture_names
def test_every_line_is_one_message_in_the_openai_shape(name: str) -> None:
    fixture = load(name)
    assert isinstance(fixture.messages[0], UserMessage)
    for line, message in zip(fixture.lines, fixture.messages, strict=True):
        assert line["role"] == message.role
        assert isinstance(line["turn"], int)
        if isinstance(message, ToolMessage):
            assert line["name"] and message.content
        if isinstance(message, AssistantMessage):
            assert message.content or message.tool_calls


@fixture_names
def test_turns_count_the_user_messages_and_never_go_back(name: str) -> None:
    fixture = load(name)
    turns = [line["turn"] for line in fixture.lines]
    assert turns == sorted(turns)
    users = [line["turn"] for line in fixture.lines if line["role"] == "user"]
    assert users == list(range(1, FIXTURES[name] + 1))


@fixture_names
def test_every_tool_call_is_answered_and_units_stay_whole(name: str) -> None:
    fixture = load(name)
    grouped, open_unit = group_units(fixture.messages)
    assert open_unit is None
    assert isinstance(fixture.messages[-1], AssistantMessage)
    assert not fixture.messages[-1].tool_calls
    names = {
        call.id: call.name
        for message in fixture.messages
        if isinstance(message, AssistantMessage)
        for call in message.tool_calls
    }
    results = [m for m in fixture.messages if isinstance(m, ToolMessage)]
    assert sorted(names) == sorted(r.tool_call_id for r in results)
    assert all(names[r.tool_call_id] == r.name for r in results)
    assert len(grouped) < len(fixture.messages)


@fixture_names
def test_tool_calls_match_the_tool_definitions(name: str) -> None:
    fixture = load(name)
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in fixture.tools}
    for message in fixture.messages:
        if not isinstance(message, AssistantMessage):
            continue
        for call in message.tool_calls:
            arguments = json.loads(call.arguments)
            schema = schemas[call.name]
            assert set(schema["required"]) <= set(arguments), call
            assert set(arguments) <= set(schema["properties"]), call


@fixture_names
def test_tool_definitions_document_every_parameter(name: str) -> None:
    for definition in load(name).tools:
        assert definition["type"] == "function"
        function = definition["function"]
        assert len(function["description"]) > 20, function["name"]
        for parameter, schema in function["parameters"]["properties"].items():
            assert schema.get("description"), f"{function['name']}.{parameter}"


def test_the_incident_offers_the_twelve_tools_of_seed_003() -> None:
    assert {t["function"]["name"] for t in load("incident").tools} == INCIDENT_TOOLS


def test_incident_tool_results_look_like_real_dumps() -> None:
    results = [m.content for m in load("incident").messages if isinstance(m, ToolMessage)]
    stamped = [r for r in results if re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", r)]
    assert len(results) >= 25 and len(stamped) >= 4
    assert any(len(r) > 1200 for r in results)
    assert sum(" ERROR " in r for r in results) >= 2 and sum("req=" in r for r in results) >= 2


def _said(fixture: Fixture, value: str) -> list[tuple[int, str]]:
    """(turn, role) of every line that says ``value``; ``call`` for tool-call arguments."""
    found = []
    for line in fixture.lines:
        if line["role"] == "assistant":
            if value in (line.get("content") or ""):
                found.append((line["turn"], "assistant"))
            if any(value in c["function"]["arguments"] for c in line.get("tool_calls") or []):
                found.append((line["turn"], "call"))
        elif value in line["content"]:
            found.append((line["turn"], line["role"]))
    return sorted(set(found))


@fixture_names
def test_plain_facts_appear_only_in_the_user_message_of_their_turn(name: str) -> None:
    fixture = load(name)
    for probe in fixture.probes:
        if probe.get("kind", "user") != "user" or not isinstance(probe.get("expected"), str):
            continue
        where = _said(fixture, str(probe["expected"]))
        assert where == [(probe["planted_turn"], "user")], (probe["id"], where)


@fixture_names
def test_facts_planted_in_a_tool_result_are_never_said_by_anyone(name: str) -> None:
    for probe in load(name).probes:
        if probe.get("kind") == "tool_result":
            where = _said(load(name), str(probe["expected"]))
            assert where == [(probe["planted_turn"], "tool")], (probe["id"], where)


@fixture_names
def test_a_summarised_fact_is_said_by_the_assistant_once_at_its_turn(name: str) -> None:
    for probe in load(name).probes:
        if probe.get("kind") == "summary":
            where = _said(load(name), str(probe["expected"]))
            said = [w for w in where if w[1] == "assistant"]
            assert said == [(probe["planted_turn"], "assistant")], (probe["id"], where)
            assert all(turn <= probe["planted_turn"] for turn, _ in where), (probe["id"], where)


@fixture_names
def test_a_revised_fact_replaces_an_earlier_value_that_was_said_first(name: str) -> None:
    fixture = load(name)
    for probe in fixture.probes:
        if probe.get("kind") != "revised":
            continue
        first_user = [t for t, role in _said(fixture, probe["expected"]) if role == "user"]
        assert first_user[0] == probe["planted_turn"], probe["id"]
        old = [t for d in probe["distractors"] for t, r in _said(fixture, d) if r == "user"]
        assert old and min(old) < probe["planted_turn"], (probe["id"], old)


@fixture_names
def test_rules_and_rejections_are_the_users_words_at_their_turn(name: str) -> None:
    fixture = load(name)
    for probe in fixture.probes:
        if probe.get("kind") not in ("rule", "rejected"):
            continue
        users = [
            line["content"]
            for line in fixture.lines
            if line["turn"] == probe["planted_turn"] and line["role"] == "user"
        ]
        pattern = probe.get("expected_regex") or re.escape(str(probe["expected"]))
        assert any(re.search(pattern, u) for u in users), probe["id"]


def test_the_affected_shard_is_never_hinted_at_elsewhere() -> None:
    fixture = load("incident")
    hints = re.compile(r"shard[-_ ]?7\b|_s7\b", re.IGNORECASE)
    found = [line["turn"] for line in fixture.lines if hints.search(json.dumps(line))]
    assert found == [19]


@fixture_names
def test_regex_answers_can_be_found_from_their_planted_turn_on(name: str) -> None:
    fixture = load(name)
    for probe in fixture.probes:
        if "expected_regex" in probe:
            later = fixture.text_of_turns(probe["planted_turn"]).replace("\\n", "\n")
            assert re.search(probe["expected_regex"], later), probe["id"]


@fixture_names
def test_probes_are_well_formed(name: str) -> None:
    fixture = load(name)
    ids = [p["id"] for p in fixture.probes]
    assert len(set(ids)) == len(ids)
    for probe in fixture.probes:
        questions = probe["question"]
        assert len(set(questions)) == len(questions) >= 3, probe["id"]
        assert 1 <= probe["planted_turn"] <= FIXTURES[name]
        assert ("expected" in probe) != ("expected_regex" in probe), probe["id"]
        if "expected" in probe:
            assert len(questions) == 6 and isinstance(probe["expected"], str | list)
        else:
            re.compile(probe["expected_regex"])


@fixture_names
def test_distractors_are_other_values_present_in_the_session(name: str) -> None:
    fixture = load(name)
    text = fixture.text_of_turns(1)
    for probe in fixture.probes:
        for distractor in probe.get("distractors", []):
            parts = distractor if isinstance(distractor, list) else [distractor]
            for part in parts:
                assert isinstance(part, str) and part in text, (probe["id"], distractor)
            assert distractor != probe.get("expected")


def test_the_coding_session_edits_files_and_tests_fail_before_they_pass() -> None:
    fixture = load("coding")
    results = [m for m in fixture.messages if isinstance(m, ToolMessage)]
    diffs = [r for r in results if r.name == "edit_file"]
    assert diffs and all(r.content.startswith("--- a/") for r in diffs)
    runs = [r.content for r in results if r.name == "run_tests"]
    first_fail = next(i for i, run in enumerate(runs) if " failed" in run)
    assert "passed" in runs[-1] and " failed" not in runs[-1] and first_fail < len(runs) - 1


@fixture_names
def test_the_harness_loaders_accept_the_fixtures(name: str) -> None:
    from workset.eval.formats import load_probes, load_tools, load_transcript

    transcript = load_transcript(ROOT / name / "transcript.jsonl")
    assert transcript.system is None and max(transcript.turns) == FIXTURES[name]
    assert len(load_tools(ROOT / name / "tools.json")) == len(load(name).tools)
    probes = load_probes(ROOT / name / "probes.yaml")
    assert [p.id for p in probes] == [p["id"] for p in load(name).probes]


@pytest.mark.real_model
def test_the_incident_with_its_tools_fits_a_16k_window_by_the_model_count(
    qwen: EmbeddedModel,
) -> None:
    from workset.eval.formats import load_tools, load_transcript

    transcript = load_transcript(ROOT / "incident" / "transcript.jsonl")
    tools = load_tools(ROOT / "incident" / "tools.json")
    count = qwen.token_counter().count_request(None, tools, transcript.messages)
    total = sum(part.tokens for part in count.parts)
    assert 10_000 <= total <= 15_000
