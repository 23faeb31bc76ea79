"""The "not found" decision on a small real index: the act rule and the restated search."""

from __future__ import annotations

import pytest
from discovery_catalog import SERVERS, _spec

from workset.discovery import ToolIndex, tool_search_tool
from workset.discovery.decision import RESTATED, STATED
from workset.retrieval import Embedder


@pytest.fixture(scope="module")
def index() -> ToolIndex:
    forum = [_spec("post_comment", "Post a comment on a forum thread.", thread="Thread id")]
    return ToolIndex.build({**SERVERS, "forum": forum}, Embedder.load())


def test_buying_shares_is_not_found_though_a_stock_quote_is_close(index: ToolIndex) -> None:
    result = index.search("buy 10 shares of AAPL at market price")
    assert not result.found
    assert result.decision is not None and result.decision.unoffered == "buy"
    assert result.suggestions[0].server == "yahoo-finance"


def test_asking_the_price_of_the_same_stock_is_found(index: ToolIndex) -> None:
    result = index.search("get the current stock price of AAPL")
    assert result.found
    assert result.matches[0].tool == "get_stock_price"


def test_an_act_the_closest_tool_names_is_no_reason_to_refuse(index: ToolIndex) -> None:
    result = index.search("post a comment on the forum thread about our release")
    assert result.found
    assert result.matches[0].tool == "post_comment"
    assert result.decision is not None and result.decision.unoffered == ""


def test_the_restatement_s_act_counts_too_and_picks_the_restated_model(
    index: ToolIndex,
) -> None:
    """ "Grab me 10 AAPL shares" names no act the rule knows; its restatement does."""
    plain = index.search("grab me 10 AAPL shares")
    restated = index.search("grab me 10 AAPL shares", also=("Buy shares of a stock (stock)",))
    assert plain.decision is not None and plain.decision.unoffered == ""
    assert plain.decision.calibration is STATED
    assert restated.decision is not None and restated.decision.calibration is RESTATED
    assert not restated.found and restated.decision.unoffered == "buy"
    evidence = restated.suggestions[0].evidence
    assert evidence is not None and evidence.restated and evidence.restated_lexical > 0


def test_the_tool_result_says_why_the_near_miss_was_rejected(index: ToolIndex) -> None:
    search = tool_search_tool(index, set())
    text = str(search.handler(query="buy 10 shares of AAPL at market price"))
    assert text.startswith("Not found")
    assert "get_stock_price" in text
    assert "nothing in it says it can 'buy'" in text
