"""The working form layers pass along: the history as blocks, each a message or a whole unit.

A :class:`Block` is one plain message, one complete protocol unit (an assistant call message
and its results) or the open unit at the end. Layers replace, drop or insert whole blocks, so
a unit can be changed (a result replaced by a stub) but never split. Every block carries the
``seq`` of each message in the recorded history (None for a message a layer made) and the turn
it belongs to: turn ``t`` is the ``t``-th user message and everything up to the next one
(messages before the first user message are turn 0).

The *tail* (the last user message and everything after it) belongs to the current turn;
layers that drop, mask or summarise never touch it. The tool-result budget and noise removal,
which decide how a result enters the context at all, rewrite the tail's tool results too
(the same bytes every time); the last user message itself is never changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from workset.context.manifest import OmitReason, OmittedItem
from workset.errors import UsageError
from workset.history.base import HistoryView, PinnedAt, PolicyContext
from workset.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolMessage,
    UserMessage,
    group_units,
)
from workset.models.base import Usage

CHARS_PER_TOKEN_ESTIMATE = 4
COMPRESSED = "[COMPRESSED]"  # marks text a model wrote in place of history: never redone


@dataclass(frozen=True, slots=True)
class Block:
    """A plain message or a whole protocol unit, with the seq of each message and its turn."""

    messages: tuple[Message, ...]
    seqs: tuple[int | None, ...]
    turn: int

    @property
    def is_unit(self) -> bool:
        first = self.messages[0]
        return isinstance(first, AssistantMessage) and bool(first.tool_calls)

    @property
    def recorded(self) -> bool:
        """Whether the block comes from the recorded history (not made by a layer)."""
        return any(s is not None for s in self.seqs)

    @property
    def compressed(self) -> bool:
        """Whether a message of the block is model-written ``[COMPRESSED]`` text."""
        return any(message_text(m).startswith(COMPRESSED) for m in self.messages)

    @property
    def last_seq(self) -> int | None:
        known = [s for s in self.seqs if s is not None]
        return max(known) if known else None


@dataclass(frozen=True, slots=True)
class Draft:
    """The view being built: blocks in history order plus what the layers noted on the way."""

    history: tuple[Message, ...]
    blocks: tuple[Block, ...]
    omitted: tuple[OmittedItem, ...] = ()
    pinned: tuple[str, ...] = ()
    pinned_at: PinnedAt = "end"
    cost: Usage = field(default_factory=lambda: Usage(0, 0))
    notices: tuple[str, ...] = ()
    summary_id: str | None = None
    kept_because: Mapping[int, str] = field(default_factory=dict)

    @property
    def last_turn(self) -> int:
        return max((b.turn for b in self.blocks), default=0)

    @property
    def tail_start(self) -> int:
        """Index of the block holding the last recorded user message (0 when there is none).

        With no user message at all, everything is the current turn and nothing may be cut.
        """
        for index in range(len(self.blocks) - 1, -1, -1):
            block = self.blocks[index]
            if isinstance(block.messages[0], UserMessage) and block.recorded:
                return index
        return 0

    def older(self, keep_turns: int) -> list[int]:
        """Indices of blocks before the tail and outside the last ``keep_turns`` turns."""
        cutoff = self.last_turn - max(keep_turns, 1)
        return [i for i in range(self.tail_start) if self.blocks[i].turn <= cutoff]

    def keep_because(self, blocks: Iterable[Block], reason: str) -> Draft:
        """Record why the recorded messages of ``blocks`` stay (shown in the manifest)."""
        kept = dict(self.kept_because)
        kept.update((s, reason) for b in blocks for s in b.seqs if s is not None)
        return replace(self, kept_because=kept)

    def with_cost(self, usage: Usage) -> Draft:
        return replace(self, cost=add_usage(self.cost, usage))

    def to_view(self) -> HistoryView:
        messages: list[Message] = []
        seqs: list[int | None] = []
        for block in self.blocks:
            messages.extend(block.messages)
            seqs.extend(block.seqs)
        return HistoryView(
            messages=tuple(messages),
            seqs=tuple(seqs),
            omitted=self.omitted,
            pinned=self.pinned,
            pinned_at=self.pinned_at,
            cost=self.cost,
            summary_id=self.summary_id,
            kept_because=self.kept_because,
            notices=self.notices,
        )


def start_draft(history: Sequence[Message]) -> Draft:
    """The whole history as blocks; raises :class:`UsageError` for a broken or prefixed one."""
    if any(isinstance(m, SystemMessage) for m in history):
        raise UsageError(
            "history policies never see the stable prefix: pass the history without the "
            "system message (the assembler adds it)"
        )
    group_units(history)  # validates: orphan results, interrupted units
    blocks: list[Block] = []
    turn = 0
    index = 0
    while index < len(history):
        message = history[index]
        if isinstance(message, UserMessage):
            turn += 1
        size = 1
        if isinstance(message, AssistantMessage) and message.tool_calls:
            while (
                index + size < len(history)
                and size <= len(message.tool_calls)
                and isinstance(history[index + size], ToolMessage)
            ):
                size += 1
        seqs = tuple(range(index, index + size))
        blocks.append(Block(tuple(history[index : index + size]), seqs, turn))
        index += size
    return Draft(history=tuple(history), blocks=tuple(blocks))


def add_usage(a: Usage, b: Usage) -> Usage:
    cached = None
    if a.cached_prompt_tokens is not None or b.cached_prompt_tokens is not None:
        cached = (a.cached_prompt_tokens or 0) + (b.cached_prompt_tokens or 0)
    return Usage(
        a.prompt_tokens + b.prompt_tokens,
        a.completion_tokens + b.completion_tokens,
        cached_prompt_tokens=cached,
        latency_s=a.latency_s + b.latency_s,
    )


def text_tokens(text: str, context: PolicyContext) -> int:
    """Tokens in ``text`` by the context's counter, or an estimate (4 characters a token)."""
    if context.counter is not None:
        return context.counter.count_text(text)
    return -(-len(text) // CHARS_PER_TOKEN_ESTIMATE)


def view_tokens(blocks: Iterable[Block], context: PolicyContext) -> int:
    """Tokens the blocks take in a request, rendered by the counter's chat format."""
    messages = [m for b in blocks for m in b.messages]
    if context.counter is not None:
        return context.counter.count_request(None, (), messages).total
    return sum(text_tokens(message_text(m), context) + 4 for m in messages)


def message_text(message: Message) -> str:
    """The text of a message, tool calls included, as a summary or a count sees it."""
    if isinstance(message, AssistantMessage):
        calls = "".join(f"\n-> {c.name}({c.arguments})" for c in message.tool_calls)
        return (message.content or "") + calls
    return message.content


def message_source(message: Message) -> str:
    if isinstance(message, ToolMessage):
        return f"tool:{message.name or message.tool_call_id}"
    return message.role


def omitted_items(
    block: Block, reason: OmitReason, detail: str, context: PolicyContext
) -> tuple[OmittedItem, ...]:
    """One manifest entry per recorded message of ``block`` left out of the view."""
    return tuple(
        OmittedItem(
            item_id=f"history:{seq}",
            kind="trajectory",
            source=message_source(message),
            tokens=text_tokens(message_text(message), context),
            reason=reason,
            detail=detail,
            seq=seq,
        )
        for message, seq in zip(block.messages, block.seqs, strict=True)
        if seq is not None
    )


class Layer(Protocol):
    """One compression step between calls: a draft in, a draft out.

    Layers keep units whole (they work on blocks), never touch the stable prefix (they never
    see it) and leave the tail alone unless they say otherwise. A layer may keep state
    between calls of one session (frozen previews, summaries written); use one per session.
    """

    async def apply(self, draft: Draft, context: PolicyContext) -> Draft: ...


def replace_results(block: Block, contents: dict[str, str]) -> Block:
    """``block`` with the results whose call id is in ``contents`` given new content."""
    messages = tuple(
        replace(m, content=contents[m.tool_call_id])
        if isinstance(m, ToolMessage) and m.tool_call_id in contents
        else m
        for m in block.messages
    )
    return replace(block, messages=messages)
