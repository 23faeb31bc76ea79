"""Small doubles for the eval tests: a plain chat format, a whitespace tokenizer, policies.

With :class:`PlainFormat` each message costs exactly its whitespace-separated words, so a
replay's billed tokens can be added up by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal
from zlib import crc32

from workset.history.base import HistoryView, PolicyContext
from workset.messages import AssistantMessage, Message, ToolMessage, ToolSpec, UserMessage
from workset.models.base import Usage
from workset.tokens.base import Bucket, Part
from workset.tokens.counter import PartCounter


class SpaceTokenizer:
    name = "spaces"
    exact = True

    def tokenize(self, text: str) -> list[int]:
        return [crc32(word.encode()) for word in text.split()]

    def count(self, text: str) -> int:
        return len(text.split())


class PlainFormat:
    """Each part is the bare text: system, tool names, message contents, call names."""

    name = "plain"

    def render(
        self, system: str | None, tools: Sequence[ToolSpec], messages: Sequence[Message]
    ) -> list[Part]:
        parts = [Part("system", "system", system or "")]
        if tools:
            parts.append(Part("tools", "tools", " ".join(t.name for t in tools)))
        for message in messages:
            bucket: Bucket = "tool_results" if isinstance(message, ToolMessage) else "conversation"
            text = message.content or ""
            if isinstance(message, AssistantMessage):
                text = " ".join([text, *(c.name for c in message.tool_calls)])
            parts.append(Part(message, bucket, text))
        return parts


def plain_counter() -> PartCounter:
    return PartCounter(PlainFormat(), SpaceTokenizer())


def _from_last_user(history: Sequence[Message]) -> int:
    users = [i for i, m in enumerate(history) if isinstance(m, UserMessage)]
    return users[-1] if users else 0


@dataclass
class ListPolicy:
    """``full`` keeps everything; ``last_turn`` keeps from the last user message on."""

    name: str
    keep: Literal["all", "last_turn"] = "all"
    pinned: tuple[str, ...] = ()
    pinned_at: Literal["system", "end"] = "end"
    cost: Usage = field(default_factory=lambda: Usage(0, 0))
    views: int = 0

    async def view(self, history: Sequence[Message], context: PolicyContext) -> HistoryView:
        self.views += 1
        start = 0 if self.keep == "all" else _from_last_user(history)
        return HistoryView(
            messages=tuple(history[start:]),
            seqs=tuple(range(start, len(history))),
            pinned=self.pinned,
            pinned_at=self.pinned_at,
            cost=self.cost,
        )
