"""Token counting seams: a tokenizer, a chat format that renders a request into parts, and
the counter that joins them with a content cache.

A :class:`ChatFormat` renders (system, tools, messages) into :class:`Part` texts whose
concatenation is exactly the prompt the backend will see; each part belongs to one bucket.
Counting parts separately is exact when part boundaries fall on special tokens (ChatML's
``<|im_start|>``/``<|im_end|>``); tests check the sum against the backend's own count.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias, runtime_checkable

from workset.messages import Message, ToolSpec

Bucket: TypeAlias = Literal[
    "system", "tools", "tool_results", "conversation", "memory", "evidence", "status", "template"
]
BUCKETS: tuple[Bucket, ...] = (
    "system",
    "tools",
    "tool_results",
    "conversation",
    "memory",
    "evidence",
    "status",
    "template",
)


@runtime_checkable
class Tokenizer(Protocol):
    """Turns text into token ids. ``exact`` is False for estimates, which are labelled."""

    @property
    def name(self) -> str: ...

    @property
    def exact(self) -> bool: ...

    def tokenize(self, text: str) -> list[int]: ...

    def count(self, text: str) -> int: ...


@dataclass(frozen=True, slots=True)
class Part:
    """A piece of the rendered prompt. ``key`` says what it renders (a message, "system"...)."""

    key: Hashable
    bucket: Bucket
    text: str


class ChatFormat(Protocol):
    """Renders a request the way the backend's chat template does, split into parts.

    Contract: one part keyed by the message object per message, in order; a message's text may
    depend on itself and its immediate neighbours only (so call N+1 re-renders the tail).
    """

    @property
    def name(self) -> str: ...

    def render(
        self, system: str | None, tools: Sequence[ToolSpec], messages: Sequence[Message]
    ) -> list[Part]: ...


@dataclass(frozen=True, slots=True)
class CountedPart:
    part: Part
    tokens: int


@dataclass(frozen=True, slots=True)
class RequestCount:
    """Token counts of one rendered request, per part, with how they were obtained."""

    parts: tuple[CountedPart, ...]
    method: str
    exact: bool
    total: int = -1  # computed from the parts when not given

    def __post_init__(self) -> None:
        if self.total < 0:
            object.__setattr__(self, "total", sum(p.tokens for p in self.parts))

    def buckets(self) -> dict[Bucket, int]:
        out: dict[Bucket, int] = {}
        for counted in self.parts:
            out[counted.part.bucket] = out.get(counted.part.bucket, 0) + counted.tokens
        return out
