"""Archive summaries: one log entry per finished round, kept as a log rather than squashed.

Each turn older than the last ``keep_turns`` gets its own short summary, written once, like a
commit in a git log. The turn's user message stays verbatim; what the agent did in the turn
(its messages and units) is replaced by one ``[COMPRESSED]`` assistant message holding the
entry. Entries are never rewritten or merged, so the log keeps the thread of the session and
its bytes stay stable from one call to the next.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from workset.history.base import PolicyContext
from workset.history.draft import COMPRESSED, Block, Draft, add_usage, omitted_items
from workset.history.summary import CircuitBreaker, ask, render_span
from workset.messages import AssistantMessage, SystemMessage, UserMessage
from workset.models.base import Usage

ARCHIVE_INSTRUCTIONS = (
    "You write one entry of the log of an agent session, like a git commit message, for one "
    "round: what the user asked, what the agent did (which tools, what they returned), what "
    "was decided or changed, what is still open. Two to five short lines. Copy identifiers, "
    "numbers, paths and names exactly. Output only the entry."
)


@dataclass(frozen=True, slots=True)
class Entry:
    turn: int
    text: str
    first_seq: int
    last_seq: int


class ArchiveLog:
    """Replace each old round's agent messages by its own log entry, written once."""

    def __init__(
        self, *, keep_turns: int = 4, max_tokens: int = 200, failures_allowed: int = 3
    ) -> None:
        self.keep_turns = keep_turns
        self.max_tokens = max_tokens
        self.breaker = CircuitBreaker("the archive log", failures_allowed)
        self.entries: dict[int, Entry] = {}

    async def apply(self, draft: Draft, context: PolicyContext) -> Draft:
        rounds: dict[int, list[Block]] = {}
        for index in draft.older(self.keep_turns):
            block = draft.blocks[index]
            if block.recorded and not block.compressed:  # compressed text is never redone
                rounds.setdefault(block.turn, []).append(block)
        cost = Usage(0, 0)
        notices = list(draft.notices)
        for turn, blocks in rounds.items():
            work = [b for b in blocks if not isinstance(b.messages[0], UserMessage)]
            if turn in self.entries or not work or self.breaker.open:
                continue
            prompt = (
                SystemMessage(ARCHIVE_INSTRUCTIONS),
                UserMessage(_request(turn, blocks, context.query)),
            )
            answer = await ask(context, prompt, max_tokens=self.max_tokens, purpose="the archive")
            cost = add_usage(cost, answer.usage)
            error = answer.error or ("" if answer.text else "the entry is empty")
            self.breaker.record(error or None)
            if not error and answer.text:
                seqs = [s for b in work for s in b.seqs if s is not None]
                self.entries[turn] = Entry(turn, answer.text, min(seqs), max(seqs))
            elif not self.breaker.open:
                notices.append(f"the archive entry for turn {turn} failed ({error}); retried later")
        if self.breaker.open:
            notices.append(self.breaker.notice())
        folded = self._fold(replace(draft, notices=tuple(notices)), context)
        return folded.with_cost(cost)

    def _fold(self, draft: Draft, context: PolicyContext) -> Draft:
        blocks: list[Block] = []
        omitted = list(draft.omitted)
        written: set[int] = set()
        for index, block in enumerate(draft.blocks):
            entry = self.entries.get(block.turn)
            archived = (
                entry is not None
                and index < draft.tail_start
                and block.recorded
                and not block.compressed
                and not isinstance(block.messages[0], UserMessage)
            )
            if not archived or entry is None:
                blocks.append(block)
                continue
            omitted.extend(
                omitted_items(block, "policy", f"archived in round {entry.turn}", context)
            )
            if entry.turn not in written:
                written.add(entry.turn)
                text = (
                    f"{COMPRESSED} Round {entry.turn} log (messages seq {entry.first_seq}-"
                    f"{entry.last_seq}): {entry.text}"
                )
                blocks.append(Block((AssistantMessage(text),), (None,), entry.turn))
        draft = replace(draft, blocks=tuple(blocks), omitted=tuple(omitted))
        users = [
            b
            for b in draft.blocks
            if b.turn in written and b.recorded and isinstance(b.messages[0], UserMessage)
        ]
        return draft.keep_because(users, "user message kept verbatim beside its round's log entry")


def _request(turn: int, blocks: list[Block], query: str) -> str:
    head = f"Current query: {query}\n\n" if query else ""
    return f"{head}Round {turn}:\n{render_span(blocks)}\n\nWrite the log entry now."
