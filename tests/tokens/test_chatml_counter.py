from __future__ import annotations

from workset.messages import AssistantMessage, Message, ToolCall, ToolMessage, ToolSpec, UserMessage
from workset.testing import WordTokenizer
from workset.tokens.chatml import QWEN_DEFAULT_SYSTEM, ChatMLFormat
from workset.tokens.counter import PartCounter, common_prefix_tokens

TOOLS = (ToolSpec("read_file", "Read a file.", {"type": "object", "properties": {}}),)


def conversation(n: int) -> list[Message]:
    out: list[Message] = []
    for i in range(n):
        call = ToolCall(f"c{i}", "read_file", f'{{"path": "f{i}.txt"}}')
        out += [
            UserMessage(f"question {i}"),
            AssistantMessage(None, (call,)),
            ToolMessage(f"c{i}", f"line one of f{i}\nline two", name="read_file"),
            AssistantMessage(f"answer {i}"),
        ]
    return out


def test_parts_concatenate_to_the_qwen_template_text() -> None:
    call1 = ToolCall("1", "read_file", '{"path": "a"}')
    call2 = ToolCall("2", "read_file", '{"path": "b"}')
    msgs = [
        UserMessage("hi"),
        AssistantMessage("let me look", (call1, call2)),
        ToolMessage("1", "A"),
        ToolMessage("2", "B"),
        AssistantMessage("done"),
    ]
    text = "".join(p.text for p in ChatMLFormat().render("sys", TOOLS, msgs))
    assert text.startswith("<|im_start|>system\nsys\n\n# Tools\n")
    assert (
        '<|im_start|>assistant\nlet me look\n<tool_call>\n{"name": "read_file", "arguments": '
        '{"path": "a"}}\n</tool_call>\n<tool_call>\n{"name": "read_file", "arguments": '
        '{"path": "b"}}\n</tool_call><|im_end|>\n'
        "<|im_start|>user\n<tool_response>\nA\n</tool_response>\n<tool_response>\nB\n"
        "</tool_response><|im_end|>\n<|im_start|>assistant\ndone<|im_end|>\n"
        "<|im_start|>assistant\n"
    ) in text


def test_a_missing_system_prompt_renders_the_family_default() -> None:
    parts = ChatMLFormat().render(None, (), [UserMessage("hi")])
    assert parts[0].text == f"<|im_start|>system\n{QWEN_DEFAULT_SYSTEM}<|im_end|>\n"


def test_part_counts_sum_to_the_count_of_the_whole_prompt() -> None:
    counter = PartCounter(ChatMLFormat(), WordTokenizer())
    count = counter.count_request("You are terse.", TOOLS, conversation(5))
    whole = "".join(p.part.text for p in count.parts)
    assert count.total == WordTokenizer().count(whole)
    assert sum(count.buckets().values()) == count.total
    assert set(count.buckets()) == {"system", "tools", "conversation", "tool_results", "template"}


def test_counting_call_n_plus_one_tokenizes_only_what_changed() -> None:
    counter = PartCounter(ChatMLFormat(), WordTokenizer())
    history = conversation(50)
    counter.count_request("sys", TOOLS, history)
    before = counter.tokenized_chars
    history.append(UserMessage("one more question"))
    counter.count_request("sys", TOOLS, history)
    # only the new user message and the moved generation prompt reach the tokenizer
    assert counter.tokenized_chars - before == len(
        "<|im_start|>user\none more question<|im_end|>\n"
    )


def test_prefix_reuse_counts_shared_leading_tokens() -> None:
    counter = PartCounter(ChatMLFormat(), WordTokenizer())
    history = conversation(3)
    first = counter.count_request("sys", TOOLS, history)
    grown = counter.count_request("sys", TOOLS, [*history, UserMessage("next")])
    # everything but the old generation prompt is reused, and that prompt is a prefix of the
    # next user turn's own start token only up to <|im_start|>
    assert common_prefix_tokens(first, grown, counter) >= first.total - first.parts[-1].tokens
    changed = counter.count_request("sys 2025-01-01", TOOLS, history)
    assert common_prefix_tokens(first, changed, counter) < 5
