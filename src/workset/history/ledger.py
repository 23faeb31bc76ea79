"""The fact ledger: decisions, standing rules, corrections and rejections as structured state.

Every entry says what was said (verbatim), who said it (user, assistant or tool), where
(seq, turn, call id), and what became of it: ``current``, ``revised`` (and by which later
entry) or ``rejected`` (and why). The ledger is pinned on every request and never
summarised, so a rule stated at turn 3 or a decision turned down at turn 12 is in front of the
model at turn 40 whatever the window keeps. A revised or turned-down entry is shown as such,
by its opening words and the seq of the line that replaced it (which is pinned too): the
answer is the revision. A tool's state change ("state: approved") is kept as state, marking
what it updates, but not pinned: it is a tool result, which recall quotes on need.

:class:`FactLedger` is a layer; it reads each recorded message once per session (state kept
by seq) with the rule-based extractor (:mod:`workset.history.extract`), or with the policy's
model (``extractor="model"``: one short call per user or assistant message, answers cached
by seq and billed as the policy's cost). Linking a revision to what it revises is by shared
content words: the most similar earlier entry, else the most similar earlier sentence of the
session (which then enters the ledger as the revised fact).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from workset.errors import UsageError
from workset.history.base import PinnedAt, PolicyContext
from workset.history.draft import Draft
from workset.history.extract import Finding, FindingKind, Who, findings
from workset.history.summary import ask
from workset.memory.rules import split_sentences
from workset.messages import AssistantMessage, Message, SystemMessage, ToolMessage, UserMessage
from workset.models.base import Usage

Status = Literal["current", "revised", "rejected"]
Extractor = Literal["rules", "model"]

LEDGER_HEADER = "Fact ledger (this session's standing rules, decisions and corrections):"
MIN_SHARED_WORDS = 2
MODEL_PROMPT = (
    "You keep the fact ledger of an agent session. Read one message and list only what must "
    "stay true for the rest of the session: standing rules the user sets, decisions made, "
    "options rejected (with the reason), corrections of something said earlier, and settled "
    "findings. Write one line per item as KIND: exact sentence, with KIND one of RULE, "
    "DECISION, REJECTED, REVISION, FINDING; for REJECTED add ' | reason: ...'. Copy numbers, "
    "names and identifiers exactly. If there is nothing, write exactly NONE."
)
_MODEL_LINE = re.compile(
    r"^\s*[-*]?\s*(RULE|DECISION|REJECTED|REVISION|FINDING)\s*:\s*(.+?)"
    r"(?:\s*\|\s*reason\s*:\s*(.+))?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Entry:
    """One ledger line: the statement, its provenance, and what became of it."""

    kind: FindingKind | Literal["fact"]
    text: str
    who: Who
    seq: int
    turn: int
    call_id: str | None = None
    reason: str = ""
    status: Status = "current"
    by_seq: int | None = None  # the entry that revised or rejected this one
    revises: int | None = None  # for a revision: the seq of what it corrects

    @property
    def where(self) -> str:
        """Who said it and its seq (the turn and call id stay in the entry, not the line)."""
        return f"{self.who}, seq {self.seq}"


class Ledger:
    """The entries of one session, in the order they were stated."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []

    def add(self, found: Finding, who: Who, seq: int, turn: int, call_id: str | None) -> bool:
        """Enter ``found``; False when it is not entered (already there, or the assistant
        acknowledging the user's correction of the same turn)."""
        entry = Entry(found.kind, found.text, who, seq, turn, call_id, found.reason)
        if any(e.text == entry.text and e.seq == seq for e in self.entries):
            return False
        last = self.entries[-1] if self.entries else None
        if (
            found.kind == "revision"
            and who == "assistant"
            and last is not None
            and (last.kind, last.who, last.turn) == ("revision", "user", turn)
        ):
            return False
        if found.kind in ("revision", "rejected"):
            target = self._most_similar(
                found.text, turn, found.kind, tool=who == "tool", by_user=who == "user"
            )
            if target is not None:
                status: Status = "revised" if found.kind == "revision" else "rejected"
                self.entries[target] = replace(self.entries[target], status=status, by_seq=seq)
                if found.kind == "revision":
                    entry = replace(entry, revises=self.entries[target].seq)
        self.entries.append(entry)
        return True

    def add_revised_sentence(self, entry: Entry, revision_seq: int) -> None:
        """An earlier statement found by :func:`link_sentence`, entered as revised."""
        for index, known in enumerate(self.entries):
            if (known.seq, known.text) == (entry.seq, entry.text):
                self.entries[index] = replace(known, status="revised", by_seq=revision_seq)
                return
        self.entries.append(replace(entry, status="revised", by_seq=revision_seq))
        self.entries.sort(key=lambda e: e.seq)

    def _most_similar(
        self,
        text: str,
        turn: int,
        kind: FindingKind,
        *,
        tool: bool = False,
        by_user: bool = False,
    ) -> int | None:
        """The current entry of an earlier turn that a ``kind`` finding (a revision or a
        rejection) most likely answers: of the kinds it can target, the one sharing the most
        subject words. A tool's
        state change only updates what a tool or the assistant reported: it confirms a
        user's correction, it does not replace it. What the user says ``by_user`` answers the
        assistant's proposal of the turn just before even in other words ("No, not the
        shared plan" after "I'd suggest Family Share"), and one shared word is enough to
        revise the user's own earlier choice ("Change of plan on the courier: …" after "Book
        it with World Courier")."""
        words = set(subject_words(text))
        kinds = _TARGETS[kind]
        best, best_key = None, (False, -1)
        for index, entry in enumerate(self.entries):
            if entry.status != "current" or entry.kind not in kinds or entry.turn >= turn:
                continue
            if tool and entry.who == "user":
                continue
            shared = len(words & set(subject_words(entry.text)))
            # the proposal of the turn just before is what a "No, …" answers: one shared
            # word is enough there
            adjacent = (
                entry.turn == turn - 1
                and entry.who == "assistant"
                and (shared >= 1 or (by_user and kind == "rejected"))
            )
            own_choice = (
                by_user and entry.who == "user" and entry.kind == "decision" and shared >= 1
            )
            key = (adjacent, shared)
            admitted = adjacent or own_choice or shared >= MIN_SHARED_WORDS
            if admitted and key > best_key:
                best, best_key = index, key
        return best

    def covered(self) -> dict[int, list[str]]:
        """For each seq: the sentences of it the ledger quotes (recall need not repeat them)."""
        said: dict[int, list[str]] = {}
        for entry in self.entries:
            said.setdefault(entry.seq, []).append(entry.text)
        return said

    def superseded(self) -> dict[int, str]:
        """For each seq holding a revised or rejected entry: a note that says by what."""
        notes: dict[int, str] = {}
        for entry in self.entries:
            if entry.status != "current" and entry.by_seq is not None:
                what = "superseded" if entry.status == "revised" else "turned down"
                notes[entry.seq] = f"{what} at seq {entry.by_seq}: see the fact ledger"
        return notes

    def render(self) -> str:
        """The pinned block: one line per entry in force. What a pinned line revised or turned
        down is folded into that line as a pointer with its opening words; it has its own
        line only when what replaced it is not pinned (a tool's state change)."""
        shown = [e for e in self.entries if e.who != "tool"]
        hosts: dict[int, list[Entry]] = {}  # id of the replacing entry -> what it folds
        for old in shown:
            host = _host(old, shown) if old.status != "current" else None
            if host is not None:
                hosts.setdefault(id(host), []).append(old)
        folded = {id(o) for olds in hosts.values() for o in olds}
        lines = [LEDGER_HEADER]
        for entry in shown:
            # a tool's state change ("state: approved") stays in the ledger's state (it
            # marks what it updates as revised) but is not pinned: it is a tool result,
            # which recall quotes when the need asks for it
            if id(entry) in folded:
                continue
            label = (
                entry.status.upper()
                if entry.status != "current"
                else ("CURRENT" if entry.kind == "revision" else entry.kind.upper())
            )
            # what no longer holds is a pointer: its opening words, the rest in the archive
            text = entry.text if entry.status == "current" else opening(entry.text)
            line = f'- {label} ({entry.where}): "{text}"'
            olds = hosts.get(id(entry), [])
            if entry.revises is not None and all(o.seq != entry.revises for o in olds):
                line += f" [corrects seq {entry.revises}]"
            for o in olds:
                what = "corrects" if o.status == "revised" else "turns down"
                line += f' [{what} seq {o.seq}: "{opening(o.text, FOLDED_CHARS)}"]'
            if entry.reason and entry.reason not in entry.text:
                line += f' (reason: "{entry.reason}")'
            if entry.by_seq is not None:
                what = "replaced" if entry.status == "revised" else "turned down"
                # the later line is in the ledger too, under its seq: point at it, not twice
                line += f" -> {what} at seq {entry.by_seq}"
            lines.append(line)
        return "\n".join(lines)


def _host(old: Entry, shown: Sequence[Entry]) -> Entry | None:
    """The pinned entry that replaced ``old`` (a revision, or the rejection that turned it
    down), which then carries it as a pointer; None when no pinned entry did."""
    if old.by_seq is None:
        return None
    kind = "revision" if old.status == "revised" else "rejected"
    at = [e for e in shown if e.seq == old.by_seq and e is not old]
    return next((e for e in at if e.kind == kind), at[0] if at else None)


SUPERSEDED_CHARS = 80  # how much of a revised or turned-down statement the ledger shows
FOLDED_CHARS = 48  # how much of one the line that replaced it shows


def opening(text: str, limit: int = SUPERSEDED_CHARS) -> str:
    """``text`` whole when short, else its first words up to ``limit`` characters and "…"."""
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return f"{cut} …"


_TARGETS = {
    "revision": frozenset({"rule", "decision", "finding", "revision", "fact"}),
    "rejected": frozenset({"decision"}),
}


def subject_words(text: str) -> list[str]:
    """The content words of ``text`` without values (numbers, ids): what it is about."""
    from workset.retrieval.ranking import tokenize  # workset.retrieval loads numpy: on use

    return [w for w in tokenize(text) if not any(c.isdigit() for c in w) and len(w) > 2]


def link_sentence(
    history: Sequence[Message], before: int, revision: str, turns: Sequence[int]
) -> Entry | None:
    """The earlier sentence a revision most likely corrects, when no ledger entry matched:
    of an earlier turn, sharing the most subject words; among ties, one said by the same
    speaker as the revision, then the latest."""
    words = set(subject_words(revision))
    reviser = _who(history[before])
    best: Entry | None = None
    best_key = (MIN_SHARED_WORDS - 1, False, -1)
    for seq in range(before):
        message = history[seq]
        who = _who(message)
        if who is None or turns[seq] >= turns[before]:
            continue
        for sentence in _sentences(message, who):
            key = (len(words & set(subject_words(sentence))), who == reviser, seq)
            if key[0] >= MIN_SHARED_WORDS and key > best_key:
                call = message.tool_call_id if isinstance(message, ToolMessage) else None
                best = Entry("fact", sentence, who, seq, turns[seq], call)
                best_key = key
    return best


class FactLedger:
    """A layer that pins the session's ledger (one instance per session)."""

    def __init__(
        self, *, extractor: Extractor = "rules", max_tokens: int = 96, at: PinnedAt = "end"
    ) -> None:
        if extractor not in ("rules", "model"):
            raise UsageError(f"extractor must be 'rules' or 'model', got {extractor!r}")
        self.extractor: Extractor = extractor
        self.max_tokens = max_tokens
        self.at: PinnedAt = at  # where the ledger's block goes (see PinnedAt)
        self.ledger = Ledger()
        self.scanned = -1  # every message up to this seq has been read
        self.failed: set[int] = set()  # model extraction that failed, retried next call

    async def apply(self, draft: Draft, context: PolicyContext) -> Draft:
        turns = _turns(draft.history)
        cost = Usage(0, 0)
        notices = list(draft.notices)
        retry, self.failed = sorted(self.failed), set()
        for seq in [*retry, *range(self.scanned + 1, len(draft.history))]:
            message = draft.history[seq]
            who = _who(message)
            if who is None:
                continue
            if self.extractor == "model" and who != "tool":
                answer = await _model_findings(message, turns[seq], context, self.max_tokens)
                found, usage, error = answer
                cost = Usage(
                    cost.prompt_tokens + usage.prompt_tokens,
                    cost.completion_tokens + usage.completion_tokens,
                )
                if error:
                    self.failed.add(seq)
                    notices.append(f"the ledger could not read seq {seq} ({error}); retried")
            else:
                found = findings(_text(message), who)
            call = message.tool_call_id if isinstance(message, ToolMessage) else None
            for item in found:
                before = len(self.ledger.entries)
                added = self.ledger.add(item, who, seq, turns[seq], call)
                unlinked = added and self.ledger.entries[-1].revises is None
                if unlinked and item.kind == "revision" and who != "tool":
                    self._link_sentence(draft.history, seq, item.text, turns, before)
        self.scanned = len(draft.history) - 1
        if not self.ledger.entries:
            return replace(draft, notices=tuple(notices)).with_cost(cost)
        pinned = (*draft.pinned, self.ledger.render())
        return replace(draft, pinned=pinned, pinned_at=self.at, notices=tuple(notices)).with_cost(
            cost
        )

    def _link_sentence(
        self, history: Sequence[Message], seq: int, text: str, turns: list[int], index: int
    ) -> None:
        old = link_sentence(history, seq, text, turns)
        if old is None:
            return
        self.ledger.entries[index] = replace(self.ledger.entries[index], revises=old.seq)
        self.ledger.add_revised_sentence(old, seq)


async def _model_findings(
    message: Message, turn: int, context: PolicyContext, max_tokens: int
) -> tuple[list[Finding], Usage, str]:
    said = f"Turn {turn}, {message.role}: {_text(message)}"
    prompt = (SystemMessage(MODEL_PROMPT), UserMessage(said))
    answer = await ask(context, prompt, max_tokens=max_tokens, purpose="the fact ledger")
    if answer.text is None:
        return [], answer.usage, answer.error
    found = []
    for line in answer.text.splitlines():
        match = _MODEL_LINE.match(line)
        if match:
            kind = _MODEL_KINDS[match.group(1).upper()]
            found.append(Finding(kind, match.group(2).strip(), (match.group(3) or "").strip()))
    return found, answer.usage, ""


_MODEL_KINDS: dict[str, FindingKind] = {
    "RULE": "rule",
    "DECISION": "decision",
    "REJECTED": "rejected",
    "REVISION": "revision",
    "FINDING": "finding",
}


def _who(message: Message) -> Who | None:
    """Whose words ``message`` holds for the ledger. Only the user's own words state rules and
    decisions: a batch of events (an email, a webhook, a finished task) is material, read like
    a tool result, so a contact's "always do X" never becomes a standing rule; the harness's
    notices are nobody's statement."""
    if isinstance(message, UserMessage):
        if message.origin == "harness":
            return None
        return "user" if message.origin == "user" else "tool"
    if isinstance(message, ToolMessage):
        return "tool"
    if isinstance(message, AssistantMessage) and message.content:
        return "assistant"
    return None


def _text(message: Message) -> str:
    return message.content or ""


def _sentences(message: Message, who: Who) -> list[str]:
    text = _text(message)
    if who == "tool":
        return [line.strip() for line in text.splitlines() if line.strip()]
    return split_sentences(text)


def _turns(history: Sequence[Message]) -> list[int]:
    turns, turn = [], 0
    for message in history:
        turn += isinstance(message, UserMessage)
        turns.append(turn)
    return turns
