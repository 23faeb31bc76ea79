"""Offline OpenAI token counts and OpenAI's chat accounting split into parts."""

from __future__ import annotations

import pytest

from workset.errors import UsageError
from workset.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolMessage,
    ToolSpec,
    UserMessage,
)
from workset.tokens.counter import PartCounter
from workset.tokens.openai import REPLY_PRIMER, OpenAIChatFormat, OpenAITokenizer

TOOLS = (ToolSpec("read_file", "Read a file.", {"type": "object", "properties": {}}),)
HISTORY: list[Message] = [
    UserMessage("What is in a.txt?"),
    AssistantMessage("Let me look.", (ToolCall("c1", "read_file", '{"path": "a.txt"}'),)),
    ToolMessage("c1", "hello world", name="read_file"),
    AssistantMessage("It says hello world."),
]


@pytest.mark.parametrize(
    ("encoding", "text", "ids"),
    [
        ("o200k_base", "hello world", [24912, 2375]),
        ("cl100k_base", "hello world", [15339, 1917]),
        ("o200k_base", "Hello, world!", [13225, 11, 2375, 0]),
        ("cl100k_base", "Hello, world!", [9906, 11, 1917, 0]),
    ],
)
def test_known_strings_tokenize_to_the_published_ids(
    encoding: str, text: str, ids: list[int]
) -> None:
    tokenizer = OpenAITokenizer(encoding)
    assert tokenizer.tokenize(text) == ids
    assert tokenizer.count(text) == len(ids)
    assert tokenizer.exact
    assert tokenizer.name == f"openai:{encoding}"


def test_special_token_text_in_content_is_counted_as_text_not_refused() -> None:
    tokenizer = OpenAITokenizer("o200k_base")
    assert tokenizer.count("<|endoftext|>") > 1


def test_each_chat_marker_counts_as_one_token_above_the_vocabulary() -> None:
    tokenizer = OpenAITokenizer("cl100k_base")
    [marker] = tokenizer.tokenize("<|im_start|>")
    assert marker > 100_276
    assert tokenizer.count("<|im_start|>user<|im_sep|>hello world<|im_end|>") == 3 + 1 + 2


def test_an_unknown_encoding_is_refused_with_the_choices() -> None:
    with pytest.raises(UsageError, match="o200k_base"):
        OpenAITokenizer("o300k_base")


@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
def test_a_request_costs_what_the_openai_cookbook_counts(encoding: str) -> None:
    # Cookbook: 3 tokens per message + its role + its content, and 3 to prime the reply.
    tokenizer = OpenAITokenizer(encoding)
    counter = PartCounter(OpenAIChatFormat(), tokenizer)
    system, question = "You are a helpful assistant.", "hello world"
    count = counter.count_request(system, (), [UserMessage(question)])

    expected = (3 + 1 + tokenizer.count(system)) + (3 + 1 + tokenizer.count(question)) + 3
    assert count.total == expected
    assert count.exact


def test_parts_sum_to_the_count_of_the_whole_rendered_prompt() -> None:
    counter = PartCounter(OpenAIChatFormat(), OpenAITokenizer("o200k_base"))
    count = counter.count_request("Be brief.", TOOLS, HISTORY)

    whole = "".join(p.part.text for p in count.parts)
    assert count.total == sum(p.tokens for p in count.parts)
    assert count.total == OpenAITokenizer("o200k_base").count(whole)


def test_parts_are_one_per_message_in_their_buckets() -> None:
    parts = OpenAIChatFormat().render("Be brief.", TOOLS, [SystemMessage("late note"), *HISTORY])

    assert [p.bucket for p in parts] == [
        "system",
        "tools",
        "conversation",
        "conversation",
        "conversation",
        "tool_results",
        "conversation",
        "template",
    ]
    assert parts[-1].text == REPLY_PRIMER
    assert '"name": "read_file"' in parts[1].text
    assert '"arguments": "{\\"path\\": \\"a.txt\\"}"' in parts[4].text


def test_no_system_part_is_rendered_without_a_system_prompt() -> None:
    parts = OpenAIChatFormat().render(None, (), [UserMessage("hi")])
    assert [p.bucket for p in parts] == ["conversation", "template"]


def test_counting_the_same_request_again_tokenizes_nothing_new() -> None:
    counter = PartCounter(OpenAIChatFormat(), OpenAITokenizer("o200k_base"))
    first = counter.count_request("Be brief.", TOOLS, HISTORY)
    seen = counter.tokenized_chars

    second = counter.count_request("Be brief.", TOOLS, HISTORY)

    assert counter.tokenized_chars == seen
    assert second.total == first.total


def test_a_new_turn_tokenizes_only_the_new_message() -> None:
    counter = PartCounter(OpenAIChatFormat(), OpenAITokenizer("o200k_base"))
    counter.count_request("Be brief.", TOOLS, HISTORY)
    seen = counter.tokenized_chars

    counter.count_request("Be brief.", TOOLS, [*HISTORY, UserMessage("thanks")])

    assert counter.tokenized_chars - seen == len("<|im_start|>user<|im_sep|>thanks<|im_end|>")
