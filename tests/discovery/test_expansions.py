from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from workset.discovery.expansions import (
    FIELDS,
    SUMMARY,
    definition_key,
    expand_catalog,
    expansion_request,
    interleaved,
    parse_requests,
    prune_expansions,
    read_expansions,
    request_fields,
    requests_by_key,
)
from workset.errors import ModelError, UsageError
from workset.messages import ToolSpec
from workset.models.base import ModelRequest
from workset.testing import ScriptedModel

FORECAST = ToolSpec("get_forecast", "Weather forecast for the next days in a city.")
ALERTS = ToolSpec("get_alerts", "Active severe weather alerts for a US state.")
TRENDS = ToolSpec("get-weibo-trending", "获取微博热搜榜，包含时事热点、社会现象、娱乐新闻")
SERVERS = {"weather": [FORECAST, ALERTS], "trends": [TRENDS]}


def answer(request: ModelRequest) -> str:
    """A model double that answers every field the request's schema asks for."""
    assert request.json_schema is not None
    fields = request.json_schema["required"]
    tool = request.messages[-1].content.split()[1]
    return json.dumps({name: f"{name} for {tool}" for name in fields})


def test_the_key_changes_with_the_definition_and_the_server_but_not_otherwise() -> None:
    key = definition_key("weather", FORECAST)
    assert key == definition_key("weather", ToolSpec(FORECAST.name, FORECAST.description))
    assert key != definition_key("weather", ToolSpec(FORECAST.name, "Forecast for 16 days."))
    assert key != definition_key("other", FORECAST)


def test_the_request_asks_for_english_fields_and_a_summary_only_for_foreign_text() -> None:
    english = expansion_request("weather", FORECAST)
    assert english.json_schema is not None
    assert english.json_schema["required"] == list(FIELDS)
    foreign = expansion_request("trends", TRENDS)
    assert foreign.json_schema is not None
    assert foreign.json_schema["required"] == [SUMMARY[0], *FIELDS]
    assert foreign.json_schema["properties"][SUMMARY[0]]["pattern"] == "^[ -~]{8,120}$"
    assert "get-weibo-trending" in foreign.messages[-1].content


def test_only_tools_missing_from_the_file_are_generated_and_each_line_is_kept(
    tmp_path: Path,
) -> None:
    path = tmp_path / "expansions.jsonl"
    model = ScriptedModel([answer] * 3)
    report = anyio.run(lambda: expand_catalog(model, SERVERS, path))
    assert (report.generated, report.reused, report.failed) == (3, 0, ())
    assert len(path.read_text().splitlines()) == 3

    edited = {**SERVERS, "weather": [ToolSpec("get_forecast", "Forecast for 16 days."), ALERTS]}
    again = ScriptedModel([answer])
    report = anyio.run(lambda: expand_catalog(again, edited, path))
    assert (report.generated, report.reused) == (1, 2)
    assert len(again.requests) == 1
    stored = requests_by_key(path)
    assert stored[definition_key("weather", edited["weather"][0])] == tuple(
        f"{name} for get_forecast" for name in FIELDS
    )


def test_a_failed_tool_is_reported_and_the_others_still_get_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "expansions.jsonl"
    model = ScriptedModel([answer, "not json", answer])
    report = anyio.run(lambda: expand_catalog(model, SERVERS, path))
    assert report.generated == 2
    assert len(report.failed) == 1 and "did not answer with JSON" in report.failed[0]
    assert len(read_expansions(path)) == 2


def test_generation_goes_through_the_servers_one_tool_at_a_time() -> None:
    order = [(server, spec.name) for server, spec in interleaved(SERVERS)]
    assert order == [
        ("weather", "get_forecast"),
        ("trends", "get-weibo-trending"),
        ("weather", "get_alerts"),
    ]


def test_answers_are_parsed_deduplicated_and_unusable_ones_refused() -> None:
    text = json.dumps({"situation": "I am going to Oslo", "question": "i am going to oslo"})
    assert parse_requests(text) == ("I am going to Oslo",)
    with pytest.raises(ModelError, match="no usable"):
        parse_requests(json.dumps({"question": "  "}))
    with pytest.raises(ModelError, match="JSON object"):
        parse_requests("[1, 2]")


def test_pruning_keeps_only_current_keys_and_a_bad_line_names_itself(tmp_path: Path) -> None:
    path = tmp_path / "expansions.jsonl"
    anyio.run(lambda: expand_catalog(ScriptedModel([answer] * 3), SERVERS, path))
    assert prune_expansions(path, [definition_key("weather", FORECAST)]) == 2
    assert list(read_expansions(path)) == [definition_key("weather", FORECAST)]
    path.write_text(path.read_text() + "{oops\n")
    with pytest.raises(UsageError, match=r"expansions.jsonl:2 is not an expansion line"):
        read_expansions(path)


def test_each_request_is_known_by_its_field_only_when_the_layout_fits() -> None:
    three = ("I'm in Oslo tonight", "will it rain in Oslo?", "forecast, outlook")
    assert request_fields(three) == tuple(FIELDS)
    assert request_fields(("in English: a forecast", *three)) == (SUMMARY[0], *FIELDS)
    assert request_fields(three[:2]) is None  # a value dropped as a duplicate
    assert request_fields(()) is None
