"""The note taker: standing rules, identifiers and facts from the user's messages, pinned.

Each user message is shown once to the summarizer with the seed's note-taker prompt; the
answer is a short note or ``NONE``. Notes are kept by the message's seq, so each message is
asked about once per session, and rendered as one pinned block ("turn 2: file tickets under
employee number 4417"). Fixed notes given by the caller come first and need no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from workset.history.base import PinnedAt, PolicyContext
from workset.history.draft import Draft, add_usage
from workset.history.summary import ask
from workset.messages import SystemMessage, UserMessage
from workset.models.base import Usage

NOTE_TAKER_PROMPT = (
    "You keep a durable note file for a support session. Given one user message, output one "
    "short note ONLY if it states a standing rule, an identifier or a fact that must survive "
    "the rest of the session. Otherwise output exactly NONE."
)
NOTES_HEADER = "Notes kept from the user's messages (standing rules, identifiers, facts):"
_NONE = re.compile(r"^none\b", re.IGNORECASE)


class NoteTaker:
    """Pin one note per user message that states something the session must keep."""

    def __init__(
        self,
        *,
        fixed: Sequence[str] = (),
        pinned_at: PinnedAt = "end",
        max_tokens: int = 40,
    ) -> None:
        self.fixed = tuple(fixed)
        self.pinned_at: PinnedAt = pinned_at
        self.max_tokens = max_tokens
        self.notes: dict[int, str | None] = {}  # seq of the user message -> note, None: none

    async def apply(self, draft: Draft, context: PolicyContext) -> Draft:
        cost = Usage(0, 0)
        notices = list(draft.notices)
        turn = 0
        for seq, message in enumerate(draft.history):
            if not isinstance(message, UserMessage):
                continue
            turn += 1
            if seq in self.notes or (context.summarizer is None and self.fixed):
                continue  # with fixed notes and no model, only the fixed notes are pinned
            prompt = (
                SystemMessage(NOTE_TAKER_PROMPT),
                UserMessage(f"Turn {turn}: {message.content}"),
            )
            answer = await ask(context, prompt, max_tokens=self.max_tokens, purpose="the notes")
            cost = add_usage(cost, answer.usage)
            if answer.text is None:
                notices.append(f"the note for turn {turn} failed ({answer.error}); retried later")
                continue
            text = answer.text.strip()
            self.notes[seq] = None if not text or _NONE.match(text) else f"turn {turn}: {text}"
        lines = [*self.fixed, *(n for n in self.notes.values() if n is not None)]
        pinned = draft.pinned
        if lines:
            pinned = (*pinned, "\n".join([NOTES_HEADER, *(f"- {line}" for line in lines)]))
        updated = replace(draft, pinned=pinned, pinned_at=self.pinned_at, notices=tuple(notices))
        return updated.with_cost(cost)
