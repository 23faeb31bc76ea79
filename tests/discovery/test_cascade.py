"""The cascade: MiniLM answers unless its decision is unsure, then all-mpnet-base-v2 does.

Real embedders on the small test catalog (skipped without the MPNet weights, which
``scripts/check`` installs). The numbers behind the threshold are in docs/results/discovery.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from discovery_catalog import SERVERS

from workset.discovery import CascadeIndex, ToolIndex, tool_search_tool
from workset.errors import UsageError
from workset.messages import ToolCall, ToolSpec
from workset.retrieval import Embedder, MPNetEmbedder
from workset.tools.registry import ToolRegistry

NAMED = "convert the Word document to PDF"  # shares its tool's words: the first is sure
NO_SHARED_WORD = "do I need a warm coat in Reykjavik tonight?"  # the first is unsure


@pytest.fixture(scope="module")
def embedders() -> tuple[Embedder, MPNetEmbedder]:
    try:
        second = MPNetEmbedder.load()
    except UsageError as exc:
        pytest.skip(str(exc))
    return Embedder.load(), second


@pytest.fixture(scope="module")
def cascade(embedders: tuple[Embedder, MPNetEmbedder]) -> CascadeIndex:
    return CascadeIndex.build(SERVERS, *embedders)


def test_a_sure_first_answer_is_kept(cascade: CascadeIndex) -> None:
    result = cascade.search(NAMED, k=3)
    alone = cascade.first.search(NAMED, k=3)
    assert result.confidence >= cascade.escalate_below
    assert not result.escalated
    assert result.matches == alone.matches
    assert result.matches[0].tool == "convert_to_pdf"


def test_an_unsure_first_answer_goes_to_the_second_index(cascade: CascadeIndex) -> None:
    first = cascade.first.search(NO_SHARED_WORD, k=3)
    assert first.confidence < cascade.escalate_below
    result = cascade.search(NO_SHARED_WORD, k=3)
    assert result.escalated
    assert result.matches == cascade.second.search(NO_SHARED_WORD, k=3).matches
    assert result.matches[0].server == "weather"


def test_rank_follows_the_index_that_answers(cascade: CascadeIndex) -> None:
    assert cascade.rank(NO_SHARED_WORD, k=4) == cascade.second.rank(NO_SHARED_WORD, k=4)
    assert cascade.rank(NAMED, k=4) == cascade.first.rank(NAMED, k=4)


def test_the_threshold_bounds_escalation(cascade: CascadeIndex) -> None:
    never = CascadeIndex(cascade.first, cascade.second, escalate_below=0.0)
    always = CascadeIndex(cascade.first, cascade.second, escalate_below=1.0)
    assert not never.search(NO_SHARED_WORD).escalated
    assert always.search(NAMED).escalated


def test_bad_pairs_and_thresholds_are_refused(
    cascade: CascadeIndex, embedders: tuple[Embedder, MPNetEmbedder]
) -> None:
    with pytest.raises(UsageError, match="between 0 and 1"):
        CascadeIndex(cascade.first, cascade.second, escalate_below=1.5)
    smaller = ToolIndex.build({"weather": SERVERS["weather"]}, embedders[1])
    with pytest.raises(UsageError, match="same catalog"):
        CascadeIndex(cascade.first, smaller)
    lexical = ToolIndex.build(SERVERS)
    with pytest.raises(UsageError, match="needs an embedder"):
        CascadeIndex(lexical, cascade.second)


def test_a_saved_cascade_loads_with_its_threshold(
    cascade: CascadeIndex, embedders: tuple[Embedder, MPNetEmbedder], tmp_path: Path
) -> None:
    tuned = CascadeIndex(cascade.first, cascade.second, escalate_below=0.3)
    tuned.save(tmp_path / "cascade")
    loaded = CascadeIndex.load(tmp_path / "cascade", *embedders)
    assert loaded.escalate_below == 0.3
    for need in (NAMED, NO_SHARED_WORD):
        assert loaded.search(need).matches == tuned.search(need).matches
    cascade.first.save(tmp_path / "single")
    with pytest.raises(UsageError, match=r"ToolIndex\.load"):
        CascadeIndex.load(tmp_path / "single", *embedders)


def test_a_changed_server_reaches_both_indexes(cascade: CascadeIndex) -> None:
    spec = ToolSpec(
        "send_sms",
        "Send an SMS text message to a phone number",
        {"type": "object", "properties": {"to": {"type": "string"}, "text": {"type": "string"}}},
    )
    grown = cascade.with_server("sms", [spec])
    assert len(grown) == len(cascade) + 1
    for index in (grown.first, grown.second):
        assert index.rank("text my friend that I am late", k=1)[0].tool == "send_sms"


def test_the_search_tool_runs_over_a_cascade(cascade: CascadeIndex) -> None:
    loaded: set[str] = set()
    registry = ToolRegistry([tool_search_tool(cascade, loaded)])
    call = ToolCall("call_1", "tool_search", json.dumps({"query": NO_SHARED_WORD, "k": 3}))
    result = anyio.run(registry.execute, call)
    assert not result.is_error
    assert "(server weather" in result.content
    assert loaded & {"get_forecast", "get_weather"}
