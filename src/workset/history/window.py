"""Selection layers: keep the last turns or messages, optionally every user message too.

Both drop whole blocks only (a unit goes or stays whole) and always keep the last user message
and everything after it, however many messages that is. Dropped messages are listed in the
view's ``omitted`` with reason ``policy``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from workset.history.base import PolicyContext
from workset.history.draft import Draft, omitted_items
from workset.messages import UserMessage

KEPT_USER = "user message kept verbatim: the user's words outlive the window"


@dataclass(frozen=True, slots=True)
class TurnWindow:
    """Keep the last ``turns`` turns whole; with ``keep_user``, every user message as well."""

    turns: int = 4
    keep_user: bool = False

    async def apply(self, draft: Draft, context: PolicyContext) -> Draft:
        old = draft.older(self.turns)
        users = {i for i in old if isinstance(draft.blocks[i].messages[0], UserMessage)}
        kept = users if self.keep_user else set()
        if kept:
            draft = draft.keep_because((draft.blocks[i] for i in sorted(kept)), KEPT_USER)
        return _drop(draft, set(old) - kept, f"older than the last {self.turns} turns", context)


@dataclass(frozen=True, slots=True)
class MessageWindow:
    """Keep the last ``messages`` messages, cut back to a unit boundary, and the whole tail."""

    messages: int = 12

    async def apply(self, draft: Draft, context: PolicyContext) -> Draft:
        kept = 0
        first = draft.tail_start
        for index in range(len(draft.blocks) - 1, -1, -1):
            size = len(draft.blocks[index].messages)
            if index >= draft.tail_start or kept + size <= self.messages:
                kept += size
                first = min(first, index)
                continue
            break
        drop = set(range(first))
        return _drop(draft, drop, f"older than the last {self.messages} messages", context)


def _drop(draft: Draft, drop: set[int], detail: str, context: PolicyContext) -> Draft:
    if not drop:
        return draft
    omitted = list(draft.omitted)
    blocks = []
    for index, block in enumerate(draft.blocks):
        if index in drop and index < draft.tail_start:
            omitted.extend(omitted_items(block, "policy", detail, context))
        else:
            blocks.append(block)
    return replace(draft, blocks=tuple(blocks), omitted=tuple(omitted))
