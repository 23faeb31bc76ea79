"""The character-count fallback tokenizer."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workset.errors import UsageError
from workset.messages import UserMessage
from workset.tokens.base import Tokenizer
from workset.tokens.counter import PartCounter
from workset.tokens.estimate import EstimateTokenizer
from workset.tokens.openai import OpenAIChatFormat


def test_the_estimate_is_characters_over_four_rounded_up_and_labelled_inexact() -> None:
    tokenizer = EstimateTokenizer()
    assert [tokenizer.count(t) for t in ("", "abcd", "abcde", "hello world")] == [0, 1, 2, 3]
    assert tokenizer.name == "estimate:chars/4"
    assert not tokenizer.exact
    assert isinstance(tokenizer, Tokenizer)


def test_another_ratio_shows_in_the_name() -> None:
    tokenizer = EstimateTokenizer(chars_per_token=2.5)
    assert tokenizer.name == "estimate:chars/2.5"
    assert tokenizer.count("abcdef") == 3


@given(text=st.text(max_size=200), cpt=st.floats(min_value=1.0, max_value=10.0))
def test_pseudo_ids_are_as_many_as_the_count(text: str, cpt: float) -> None:
    tokenizer = EstimateTokenizer(cpt)
    assert len(tokenizer.tokenize(text)) == tokenizer.count(text)


def test_pseudo_ids_share_a_prefix_exactly_as_long_as_the_texts_share_chunks() -> None:
    tokenizer = EstimateTokenizer()
    a = tokenizer.tokenize("abcdefgh-one")
    b = tokenizer.tokenize("abcdefgh-two")
    assert a[:2] == b[:2]
    assert a[2] != b[2]
    assert tokenizer.tokenize("a\x00bc") != tokenizer.tokenize("\x00abc")


@pytest.mark.parametrize("cpt", [0.0, 0.5, -1.0, float("nan")])
def test_a_ratio_below_one_character_per_token_is_refused(cpt: float) -> None:
    with pytest.raises(UsageError, match="chars_per_token"):
        EstimateTokenizer(cpt)


def test_a_counter_built_on_the_estimate_says_so_in_its_method() -> None:
    counter = PartCounter(OpenAIChatFormat(), EstimateTokenizer())
    count = counter.count_request(None, (), [UserMessage("hello world")])
    assert counter.method.startswith("estimate:")
    assert not count.exact
