"""Shared shapes for the context tests: two tools, a history of tool-using turns, a counter."""

from __future__ import annotations

from workset.messages import AssistantMessage, Message, ToolCall, ToolMessage, ToolSpec, UserMessage
from workset.testing import WordTokenizer
from workset.tokens.chatml import ChatMLFormat
from workset.tokens.counter import PartCounter

TOOLS = (
    ToolSpec("read_file", "Read a file.", {"type": "object", "properties": {}}),
    ToolSpec("grep", "Search.", {"type": "object", "properties": {}}),
)


def counter() -> PartCounter:
    return PartCounter(ChatMLFormat(), WordTokenizer())


def turns(n: int, size: int = 20) -> list[Message]:
    """``n`` turns: a question, a read_file call, a result of ``size`` words, an answer."""
    out: list[Message] = []
    for i in range(n):
        call = ToolCall(f"c{i}", "read_file", f'{{"path": "f{i}"}}')
        out += [
            UserMessage(f"question {i}"),
            AssistantMessage(None, (call,)),
            ToolMessage(f"c{i}", " ".join(["word"] * size), name="read_file"),
            AssistantMessage(f"answer {i}"),
        ]
    return out
