"""Needs a tool served before: a remembered need reorders the index's ranking (real MiniLM).

The measurement on the LiveMCPBench catalog is ``benchmarks/discovery_memory.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from discovery_catalog import SERVERS

from workset.discovery import ToolIndex, tool_search_tool
from workset.discovery.memory import (
    NeedMemory,
    Recollection,
    Remembered,
    RememberingIndex,
    served_needs,
)
from workset.errors import UsageError
from workset.messages import AssistantMessage, Message, ToolCall, ToolMessage, UserMessage
from workset.retrieval import Embedder
from workset.tools.registry import ToolRegistry

SERVED = Remembered("will it be cold in Oslo tomorrow night?", "weather", "get_forecast")
QUERY = "is it going to be cold in Bergen tomorrow night?"


@pytest.fixture(scope="module")
def index() -> ToolIndex:
    return ToolIndex.build(SERVERS, Embedder.load())


def test_a_remembered_need_puts_its_tool_first_for_a_like_query(index: ToolIndex) -> None:
    memory = NeedMemory(index, [Remembered(SERVED.need, "yahoo-finance", "get_stock_price")])
    alone = index.rank(QUERY, k=5)
    assert alone[0].tool != "get_stock_price"
    remembering = RememberingIndex(index, memory)
    ranked = remembering.rank(QUERY, k=5)
    assert ranked[0].tool == "get_stock_price"
    assert "served a similar need before" in ranked[0].why
    assert len(ranked) == 5


def test_an_unlike_query_keeps_the_index_order(index: ToolIndex) -> None:
    memory = NeedMemory(index, [SERVED])
    query = "list the files in the downloads folder"
    assert memory.votes(query, k=3, floor=0.65) == {}
    plain = [(m.server, m.tool) for m in index.rank(query, k=5)]
    remembered = [(m.server, m.tool) for m in RememberingIndex(index, memory).rank(query, k=5)]
    assert remembered == plain


def test_search_keeps_the_index_decision_and_k(index: ToolIndex) -> None:
    memory = NeedMemory(index, [SERVED])
    remembering = RememberingIndex(index, memory, Recollection(floor=0.3))
    result = remembering.search(QUERY, k=2)
    plain = index.search(QUERY, k=2)
    assert result.found == plain.found
    shown = result.matches if result.found else result.suggestions
    assert len(shown) == (2 if result.found else 3)
    assert shown[0].tool == "get_forecast"


def test_one_need_served_by_several_tools_is_one_neighbour(index: ToolIndex) -> None:
    memory = NeedMemory(
        index,
        [SERVED, Remembered(SERVED.need, "weather", "get_alerts"), SERVED],
    )
    assert len(memory) == 1
    votes = memory.votes(QUERY, k=1, floor=0.3)
    assert set(votes) == {("weather", "get_forecast"), ("weather", "get_alerts")}


def test_memory_round_trips_and_refuses_unknown_tools_and_bad_lines(
    index: ToolIndex, tmp_path: Path
) -> None:
    memory = NeedMemory(index, [SERVED])
    path = tmp_path / "memory.jsonl"
    memory.save(path)
    assert NeedMemory.load(path, index).remembered() == [SERVED]
    with pytest.raises(UsageError, match="no such tool in the index: weather/get_tides"):
        memory.add([Remembered("tide times in Brest", "weather", "get_tides")])
    assert memory.remembered() == [SERVED]
    path.write_text('{"need": "x"}\n', encoding="utf-8")
    with pytest.raises(UsageError, match=r"memory.jsonl:1 is not a remembered need"):
        NeedMemory.load(path, index)
    with pytest.raises(UsageError, match=r"save one with NeedMemory\.save"):
        NeedMemory.load(tmp_path / "missing.jsonl", index)


def _search_result(index: ToolIndex, query: str) -> str:
    registry = ToolRegistry([tool_search_tool(index, set())])
    call = ToolCall("s1", "tool_search", json.dumps({"query": query}))
    return anyio.run(registry.execute, call).content


def test_a_run_teaches_the_memory_the_tool_that_served_its_search(index: ToolIndex) -> None:
    query = "weather forecast for a city"
    listing = _search_result(index, query)
    assert "get_forecast (server weather" in listing
    run: list[Message] = [
        UserMessage("Pack for Lisbon"),
        AssistantMessage(
            "", tool_calls=(ToolCall("s1", "tool_search", json.dumps({"query": query})),)
        ),
        ToolMessage("s1", listing, name="tool_search"),
        AssistantMessage("", tool_calls=(ToolCall("c1", "get_forecast", '{"city": "Lisbon"}'),)),
        ToolMessage("c1", "Sunny, 24 C", name="get_forecast"),
        AssistantMessage("", tool_calls=(ToolCall("c2", "read_file", '{"path": "x"}'),)),
        ToolMessage("c2", "notes", name="read_file"),  # listed by no search: not learned
    ]
    assert served_needs(run) == [Remembered(query, "weather", "get_forecast")]
    memory = NeedMemory(index)
    assert memory.learn(run) == 1
    assert memory.learn(run) == 0
    assert memory.remembered() == [Remembered(query, "weather", "get_forecast")]


def test_a_failed_call_or_a_not_found_search_teaches_nothing(index: ToolIndex) -> None:
    query = "weather forecast for a city"
    listing = _search_result(index, query)
    failed: list[Message] = [
        AssistantMessage(
            "", tool_calls=(ToolCall("s1", "tool_search", json.dumps({"query": query})),)
        ),
        ToolMessage("s1", listing, name="tool_search"),
        AssistantMessage("", tool_calls=(ToolCall("c1", "get_forecast", "{}"),)),
        ToolMessage("c1", "missing city", name="get_forecast", is_error=True),
    ]
    assert served_needs(failed) == []
    refused: list[Message] = [
        AssistantMessage("", tool_calls=(ToolCall("s1", "tool_search", '{"query": "x"}'),)),
        ToolMessage(
            "s1",
            'Not found: no tool in the catalog does "x".\n1. get_forecast (server weather): ...',
            name="tool_search",
        ),
        AssistantMessage("", tool_calls=(ToolCall("c1", "get_forecast", "{}"),)),
        ToolMessage("c1", "Sunny", name="get_forecast"),
    ]
    assert served_needs(refused) == []
