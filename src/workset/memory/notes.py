"""Session notes: short notes kept for the life of one session, in the memory SQLite file.

Notes are what the agent (or a history policy) wants to keep in view while the session lasts
— decisions, open questions, progress — so they survive compaction without becoming
long-term memory. The list is append-only while the session runs; :meth:`SessionNotes.end`
deletes it when the session ends. :func:`note_items` turns notes into ``task_state`` items.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from workset.context.items import ContextItem, Features, Reference, Scope
from workset.context.trust import neutralize
from workset.errors import UsageError
from workset.memory.loader import lexical_overlap
from workset.memory.store import MemoryStore

MAX_NOTE = 500


@dataclass(frozen=True, slots=True)
class Note:
    session_id: str
    seq: int  # order of the note in the file, increasing
    turn: int  # the turn (message index) the note came from
    text: str
    created_at: float


class SessionNotes:
    """The notes of one session, stored beside the long-term memories of ``store``."""

    def __init__(
        self, store: MemoryStore, session_id: str, *, clock: Callable[[], float] = time.time
    ) -> None:
        if not session_id.strip():
            raise UsageError("session_id is empty: pass the id of the session the notes are for")
        self.session_id = session_id
        self._db = store.database
        self._clock = clock

    def add(self, text: str, turn: int) -> Note:
        """Append a note taken at ``turn``; notes are short (at most 500 characters)."""
        if not text.strip():
            raise UsageError("note text is empty: write what should stay in view, or nothing")
        if len(text) > MAX_NOTE:
            raise UsageError(
                f"note has {len(text):,} characters (at most {MAX_NOTE}): keep notes short; "
                "put long output in an artifact and note where it is"
            )
        if turn < 0:
            raise UsageError(f"turn={turn} is invalid: turns count from 0")
        at = self._clock()
        with self._db.write() as db:
            cursor = db.execute(
                "INSERT INTO session_notes (session_id, turn, text, created_at) "
                "VALUES (?, ?, ?, ?)",
                (self.session_id, turn, text, at),
            )
            seq = cursor.lastrowid
        assert seq is not None
        return Note(self.session_id, seq, turn, text, at)

    def notes(self) -> list[Note]:
        """Every note of the session, in the order they were added."""
        rows = self._db.rows(
            "SELECT seq, turn, text, created_at FROM session_notes WHERE session_id = ? "
            "ORDER BY seq",
            (self.session_id,),
        )
        return [Note(self.session_id, seq, turn, text, at) for seq, turn, text, at in rows]

    def end(self) -> int:
        """The session is over: delete its notes; returns how many there were."""
        with self._db.write() as db:
            cursor = db.execute(
                "DELETE FROM session_notes WHERE session_id = ?", (self.session_id,)
            )
            return int(cursor.rowcount)


def note_items(notes: Sequence[Note], scope: Scope, query: str = "") -> list[ContextItem]:
    """One ``task_state`` item per note, oldest first; ``query`` sets relevance by overlap."""
    return [
        ContextItem(
            item_id=f"note:{n.session_id}/{n.seq}",
            kind="task_state",
            text=f'<session_note turn="{n.turn}">{neutralize(n.text)}</session_note>',
            source="session_note",
            retrieved_at=n.created_at,
            scope=scope,
            reference=Reference(uri=f"session://{n.session_id}/notes/{n.seq}"),
            features=Features(relevance=lexical_overlap(query, n.text) if query else 1.0),
            why=f"session note from turn {n.turn}",
        )
        for n in notes
    ]
