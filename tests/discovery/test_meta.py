from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from discovery_catalog import SERVERS

from workset.discovery import Match, ToolIndex, tool_search_tool
from workset.discovery.restate import Restatements
from workset.errors import ModelError
from workset.messages import ToolCall, ToolMessage
from workset.retrieval import Embedder
from workset.testing import ScriptedModel
from workset.tools.registry import ToolRegistry


@pytest.fixture(scope="module")
def index() -> ToolIndex:
    return ToolIndex.build(SERVERS, Embedder.load())


def search(registry: ToolRegistry, arguments: dict[str, object]) -> ToolMessage:
    call = ToolCall("call_1", "tool_search", json.dumps(arguments))
    return anyio.run(registry.execute, call)


def schema_lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_a_search_returns_the_schema_of_the_best_tool_and_marks_it_loaded(
    index: ToolIndex,
) -> None:
    loaded: set[str] = set()
    registry = ToolRegistry([tool_search_tool(index, loaded)])
    result = search(registry, {"query": "I need the weather forecast", "k": 3})
    assert not result.is_error
    assert "get_forecast (server weather" in result.content
    schemas = schema_lines(result.content)
    forecast = SERVERS["weather"][0].to_wire()
    assert forecast in schemas
    assert "get_forecast" in loaded
    assert len(loaded) == len(schemas) <= 3


def test_a_schema_already_loaded_is_not_sent_again(index: ToolIndex) -> None:
    loaded: set[str] = set()
    registry = ToolRegistry([tool_search_tool(index, loaded)])
    search(registry, {"query": "weather forecast for a city"})
    again = search(registry, {"query": "weather forecast for a city"})
    assert SERVERS["weather"][0].to_wire() not in schema_lines(again.content)
    assert "Already loaded" in again.content
    assert "get_forecast" in again.content


def test_a_callback_receives_each_loaded_match(index: ToolIndex) -> None:
    seen: list[Match] = []
    registry = ToolRegistry([tool_search_tool(index, seen.append, schemas=1)])
    result = search(registry, {"query": "convert a Word document to PDF"})
    assert [(m.server, m.tool) for m in seen] == [("word-document", "convert_to_pdf")]
    assert len(schema_lines(result.content)) == 1


def test_not_found_lists_the_closest_tools_with_why_each_was_rejected(index: ToolIndex) -> None:
    loaded: set[str] = set()
    registry = ToolRegistry([tool_search_tool(index, loaded)])
    result = search(registry, {"query": "order a pizza delivery to my home"})
    lines = result.content.splitlines()
    assert lines[0] == 'Not found: no tool in the catalog does "order a pizza delivery to my home".'
    assert lines[1] == "Closest tools, and why each is not a match:"
    candidates = [line for line in lines if line[:2] in ("1.", "2.", "3.")]
    assert candidates and all("(server " in c and "Not a match: " in c for c in candidates)
    assert "shares no word with the need" in result.content
    assert lines[-1].startswith("Do not call these tools for this need. Instead: rephrase")
    assert loaded == set()
    assert schema_lines(result.content) == []


def test_the_tool_is_read_only_and_says_when_to_use_it_and_when_not(index: ToolIndex) -> None:
    found = tool_search_tool(index, set())
    assert found.name == "tool_search"
    assert found.read_only
    assert "Use when:" in found.spec.description
    assert "Do not use when:" in found.spec.description


def test_bad_arguments_come_back_as_a_tool_error(index: ToolIndex) -> None:
    registry = ToolRegistry([tool_search_tool(index, set())])
    assert search(registry, {"k": 3}).is_error
    assert search(registry, {"query": "weather", "k": 50}).is_error
    assert search(registry, {"query": "  "}).is_error


def test_a_restating_search_loads_the_tool_a_query_in_other_words_needs(
    index: ToolIndex, tmp_path: Path
) -> None:
    answer = json.dumps({"description": "Convert a Word document to PDF", "field": "documents"})
    model = ScriptedModel([answer])
    loaded: set[str] = set()
    store = Restatements(tmp_path / "restated.jsonl", model)
    registry = ToolRegistry([tool_search_tool(index, loaded, restate=store.restate)])
    need = "the client cannot open contract.docx; give it to them in a format any device reads"
    assert index.rank(need, k=1)[0].tool != "convert_to_pdf"  # as stated: a near miss first
    result = search(registry, {"query": need, "k": 3})
    assert not result.is_error
    assert "convert_to_pdf" in loaded
    assert len(model.requests) == 1


def test_a_restatement_that_fails_searches_the_query_as_stated(index: ToolIndex) -> None:
    async def broken(query: str) -> str:
        raise ModelError("the model did not answer with JSON: 'sure!'")

    loaded: set[str] = set()
    registry = ToolRegistry([tool_search_tool(index, loaded, restate=broken)])
    result = search(registry, {"query": "I need the weather forecast"})
    assert not result.is_error
    assert "get_forecast" in loaded
