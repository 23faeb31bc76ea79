from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from discovery_catalog import SERVERS

from workset.discovery import ToolIndex, tool_search_tool
from workset.discovery.verify import (
    Checking,
    Verdicts,
    Verify,
    checked_search,
    parse_verdict,
    verdict_key,
    verify_request,
    verify_tool,
)
from workset.errors import ModelError, UsageError
from workset.messages import ToolCall, ToolSpec
from workset.retrieval import Embedder
from workset.testing import ScriptedModel
from workset.tools.registry import ToolRegistry

PRICE = SERVERS["yahoo-finance"][0]
YES, NO = json.dumps({"answer": "yes"}), json.dumps({"answer": "no"})


def test_the_request_puts_the_need_before_the_tool_and_allows_only_yes_or_no() -> None:
    request = verify_request("  buy 10 shares\nof NVIDIA ", "yahoo-finance", PRICE)
    text = request.messages[-1].content
    assert text.startswith("Request: buy 10 shares of NVIDIA\n\nTool: get_stock_price")
    assert "Current price of a stock by ticker symbol." in text
    assert request.json_schema is not None
    assert request.json_schema["properties"]["answer"]["enum"] == ["yes", "no"]
    assert request.temperature == 0.0


def test_a_long_description_is_cut_to_its_first_sentence_and_sixty_words() -> None:
    long = ToolSpec("t", " ".join(["word"] * 100) + ". Second sentence.", {"type": "object"})
    text = verify_request("x", "s", long).messages[-1].content
    assert "Second sentence" not in text
    assert text.count("word") == 60 and "..." in text


def test_the_verdict_is_the_answer() -> None:
    assert parse_verdict(YES) is True
    assert parse_verdict(NO) is False


@pytest.mark.parametrize("content", ["yes", "[1]", '{"answer": "maybe"}', "{}"])
def test_an_answer_that_is_not_yes_or_no_is_a_model_error(content: str) -> None:
    with pytest.raises(ModelError):
        parse_verdict(content)


def test_one_call_asks_the_model() -> None:
    model = ScriptedModel([NO])
    assert anyio.run(verify_tool, model, "buy 10 shares of NVIDIA", "yahoo-finance", PRICE) is False
    assert len(model.requests) == 1


def test_each_pair_is_asked_once_and_a_changed_definition_is_asked_again(tmp_path: Path) -> None:
    path = tmp_path / "verified.jsonl"
    model = ScriptedModel([NO, YES])
    store = Verdicts(path, model)
    need = "buy 10 shares of NVIDIA"
    assert anyio.run(store.check, need, "yahoo-finance", PRICE) is False
    assert anyio.run(store.check, need, "yahoo-finance", PRICE) is False
    assert len(model.requests) == 1
    reopened = Verdicts(path, ScriptedModel([]))  # a new run asks the model nothing
    assert reopened.known(need, "yahoo-finance", PRICE) is False
    changed = ToolSpec(PRICE.name, PRICE.description + " Also places orders.", PRICE.parameters)
    assert reopened.known(need, "yahoo-finance", changed) is None
    assert anyio.run(store.check, need, "yahoo-finance", changed) is True
    assert len(model.requests) == 2
    row = json.loads(path.read_text().splitlines()[0])
    assert row["tool"] == "get_stock_price" and row["verdict"] is False


def test_the_key_depends_on_model_need_and_server() -> None:
    base = verdict_key("m", "need", "s", PRICE)
    assert base != verdict_key("other", "need", "s", PRICE)
    assert base != verdict_key("m", "another need", "s", PRICE)
    assert base != verdict_key("m", "need", "t", PRICE)
    assert base == verdict_key("m", "  need ", "s", PRICE)


def test_a_malformed_line_names_the_file_and_line_and_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "verified.jsonl"
    path.write_text('{"key": "a", "verdict": true}\n{"key": "b"}\n')
    with pytest.raises(UsageError, match=r"verified\.jsonl:2 .*delete the line"):
        Verdicts(path, ScriptedModel([]))


# -- verdicts in a search ----------------------------------------------------------------


@pytest.fixture(scope="module")
def index() -> ToolIndex:
    return ToolIndex.build(SERVERS, Embedder.load())


def judge(says: dict[str, bool], asked: list[str]) -> Verify:
    """A verifier answering by tool name (no by default), recording what it was asked."""

    async def verify(need: str, server: str, spec: ToolSpec) -> bool:
        asked.append(spec.name)
        return says.get(spec.name, False)

    return verify


def test_the_first_tool_the_model_says_yes_to_goes_first_and_asking_stops_there(
    index: ToolIndex,
) -> None:
    need = "current price of a stock by ticker"
    ranked = [m.tool for m in index.search(need, k=5).matches]
    second = ranked[1]
    asked: list[str] = []
    result = anyio.run(checked_search, index, need, judge({second: True}, asked))
    assert result.found
    assert [m.tool for m in result.matches][:2] == [second, ranked[0]]
    assert asked == ranked[:2]
    assert [v for _, _, v in result.verdicts] == [False, True]


def test_no_to_every_candidate_is_not_found_when_the_index_is_unsure(index: ToolIndex) -> None:
    need = "current price of a stock by ticker"
    assert index.search(need).found
    asked: list[str] = []
    vetoing = Checking(depth=2, veto_below=1.0)
    result = anyio.run(lambda: checked_search(index, need, judge({}, asked), checking=vetoing))
    assert not result.found and len(asked) == 2
    assert result.suggestions and not result.matches
    confident = Checking(depth=2, veto_below=0.0)  # a confident index overrules the model
    kept = anyio.run(lambda: checked_search(index, need, judge({}, []), checking=confident))
    assert kept.found


def test_a_yes_can_rescue_a_need_the_index_refused(index: ToolIndex) -> None:
    need = "book a table for two at an Italian restaurant tonight"
    refused = index.search(need)
    assert not refused.found
    best = refused.suggestions[0].tool
    rescuing = Checking(rescue_above=0.0)
    result = anyio.run(
        lambda: checked_search(index, need, judge({best: True}, []), checking=rescuing)
    )
    assert result.found and result.matches[0].tool == best and len(result.matches) == 5
    assert len({(m.server, m.tool) for m in result.matches}) == 5  # the promoted tool once
    unchanged = anyio.run(lambda: checked_search(index, need, judge({best: True}, [])))
    assert not unchanged.found  # rescue is off by default


def test_a_verdict_the_model_fails_to_give_counts_as_not_asked(index: ToolIndex) -> None:
    async def broken(need: str, server: str, spec: ToolSpec) -> bool:
        raise ModelError("the model answered neither yes nor no: 'maybe'")

    need = "current price of a stock by ticker"
    vetoing = Checking(veto_below=1.0)
    result = anyio.run(lambda: checked_search(index, need, broken, checking=vetoing))
    assert result.found and result.verdicts == ()  # nothing said, nothing vetoed


def test_the_search_tool_says_which_candidates_a_model_rejected(index: ToolIndex) -> None:
    loaded: set[str] = set()
    vetoing = Checking(depth=3, veto_below=1.0)
    tool = tool_search_tool(index, loaded, verify=judge({}, []), checking=vetoing)
    registry = ToolRegistry([tool])
    call = ToolCall("call_1", "tool_search", json.dumps({"query": "current price of a stock"}))
    result = anyio.run(registry.execute, call)
    assert result.content.startswith("Not found")
    assert "a model judged it cannot" in result.content
    assert not loaded


def test_depth_must_be_positive() -> None:
    with pytest.raises(UsageError, match="depth"):
        Checking(depth=0)
