from __future__ import annotations

import pytest

from workset.discovery.rewrite import action_word, rewrite_need


@pytest.mark.parametrize(
    ("need", "rewritten"),
    [
        ("Could you please help me convert report.docx to PDF?", "convert report.docx to PDF?"),
        (
            "I need a bell icon for the notifications button",
            "a bell icon for the notifications button",
        ),
        ("I'd like to plot monthly revenue, thanks", "plot monthly revenue"),
        ("ok so show me the README of express please", "the README of express"),
        ("is there a tool to merge two PDFs", "merge two PDFs"),
    ],
)
def test_leading_request_phrases_and_trailing_politeness_are_dropped(
    need: str, rewritten: str
) -> None:
    assert rewrite_need(need) == rewritten


def test_content_words_are_never_dropped_and_short_needs_stay_whole() -> None:
    assert rewrite_need("do I need an umbrella in Oslo?") == "do I need an umbrella in Oslo?"
    assert rewrite_need("weather forecast") == "weather forecast"
    assert rewrite_need("I need weather") == "I need weather"


def test_a_command_names_its_action_and_a_question_names_none() -> None:
    assert action_word("Could you book two seats on the 9am train?") == "book"
    assert action_word("publish version 2.0.0 of my package") == "publish"
    assert action_word("what is the weather in Oslo?") is None
    assert action_word("do I need an umbrella?") is None
    assert action_word("I need a bell icon") is None
    assert action_word("what's the balance of my account?") is None  # not the command "s"
