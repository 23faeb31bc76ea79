from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from discovery_catalog import SERVERS

from workset.discovery import ToolIndex
from workset.discovery.restate import (
    Restatements,
    parse_restatement,
    read_restatements,
    restate_need,
    restate_request,
)
from workset.errors import ModelError, UsageError
from workset.retrieval import Embedder
from workset.testing import ScriptedModel

FORECAST = json.dumps({"description": "Get the weather forecast for a city", "field": "weather"})


def test_the_request_asks_for_a_catalog_description_that_starts_with_a_verb() -> None:
    request = restate_request("  do I need a warm coat\nin Oslo tonight? ")
    assert request.messages[-1].content == "Request: do I need a warm coat in Oslo tonight?"
    assert request.json_schema is not None
    pattern = request.json_schema["properties"]["description"]["pattern"]
    assert pattern.startswith("^(Get|Search|")
    assert request.temperature == 0.0


def test_the_restatement_is_the_description_with_its_field() -> None:
    assert parse_restatement(FORECAST) == "Get the weather forecast for a city (weather)"
    assert parse_restatement('{"description": "Get a stock price"}') == "Get a stock price"


@pytest.mark.parametrize("content", ["not json", "[1, 2]", '{"field": "weather"}'])
def test_an_answer_that_is_not_the_object_asked_for_is_a_model_error(content: str) -> None:
    with pytest.raises(ModelError):
        parse_restatement(content)


def test_each_need_is_asked_once_and_kept_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "restated.jsonl"
    model = ScriptedModel([FORECAST])
    store = Restatements(path, model)
    first = anyio.run(store.restate, "do I need a coat in Oslo tonight?")
    again = anyio.run(store.restate, "do I need a coat in Oslo tonight?")
    assert first == again == "Get the weather forecast for a city (weather)"
    assert len(model.requests) == 1
    reopened = Restatements(path, ScriptedModel([]))  # a new run asks the model nothing
    assert reopened.known("do I need a coat in Oslo tonight?") == first
    assert len(read_restatements(path)) == 1


def test_a_malformed_line_names_the_file_and_line_and_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "restated.jsonl"
    path.write_text('{"key": "a", "restated": "Get x"}\nnot json\n')
    with pytest.raises(UsageError, match=r"restated\.jsonl:2 .*delete the line"):
        read_restatements(path)


def test_a_restatement_finds_the_tool_the_need_shares_no_word_with() -> None:
    index = ToolIndex.build(SERVERS, Embedder.load())
    need = "turn this contract into something the client can open on any device"
    assert index.rank(need, k=1)[0].tool != "convert_to_pdf"  # as stated: a near miss
    answer = json.dumps({"description": "Convert a Word document to PDF", "field": "documents"})
    restated = anyio.run(restate_need, ScriptedModel([answer]), need)
    best = index.rank(need, k=1, also=(restated,))[0]
    assert (best.server, best.tool) == ("word-document", "convert_to_pdf")


def test_an_empty_restatement_changes_nothing() -> None:
    index = ToolIndex.build(SERVERS, Embedder.load())
    need = "is it worth leaving the bike at home in Bergen today?"
    assert index.rank(need, k=3, also=("",)) == index.rank(need, k=3)
