"""Which act a need commands and whether a tool can do it (the words behind the act rules)."""

from __future__ import annotations

import pytest

from workset.discovery.acts import CHANGE, OUTBOUND, asks_change, tool_acts, verb_forms
from workset.discovery.rewrite import action_word
from workset.messages import ToolSpec


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("getStory", "Get a single story by ID"),
        ("whois_ip", "Looksup whois information about the IP"),
        ("get_options", "Get options data. Dates: YYYY-MM-DD. Type: C=calls, P=puts."),
        ("get-weibo-trending", "获取微博热搜榜"),  # a Chinese description: the name decides
        ("exchange_rate", "Retrieves exchange rates using Norges Bank's API."),
    ],
)
def test_a_tool_that_only_looks_things_up_does_not_act(name: str, description: str) -> None:
    assert not tool_acts(ToolSpec(name, description))


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("search_and_replace", "Search for text and replace all occurrences."),  # the name
        ("make_move", "Makes a move on the board using standard algebraic notation."),
        ("playwright_go_back", "Navigate back in browser history"),  # the description's verb
        ("secure_token_hex", "Generate a secure random hex token."),
        ("git_commit", "Records changes to the repository"),
    ],
)
def test_a_tool_whose_name_or_first_word_changes_something_acts(
    name: str, description: str
) -> None:
    assert tool_acts(ToolSpec(name, description))


def test_a_verb_deep_in_the_description_does_not_make_a_reader_act() -> None:
    """Only the name and the first word count: "start" and "end" here are dates."""
    spec = ToolSpec("get_stock_ohlcv", "Retrieves OHLCV data. Args: start date, end date.")
    assert not tool_acts(spec)


@pytest.mark.parametrize(
    ("need", "change"),
    [
        ("delete my Hacker News account", "delete"),
        ("upvote this story on Hacker News", "upvote"),
        ("restart the nginx container", "restart"),
        ("what is the price of Tesla?", ""),  # a question asks for information
        ("read what this link says", ""),  # reading is no change
        ("open the report", ""),  # "open" as often reads as it changes: left out
    ],
)
def test_the_need_s_first_word_says_whether_it_asks_for_a_change(need: str, change: str) -> None:
    assert asks_change(action_word(need)) == change


def test_every_outbound_act_is_also_a_change() -> None:
    assert OUTBOUND <= CHANGE


def test_a_verb_s_forms_are_the_ones_tool_texts_write() -> None:
    assert {"create", "created", "creating"} <= verb_forms("create")
    assert {"record", "recorded", "recording"} <= verb_forms("record")
    assert "copied" in verb_forms("copy")
