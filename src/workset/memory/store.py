"""Long-term memory records in SQLite: add, read, search (FTS5), quarantine, delete for real.

A record says whose it is (tenant, subject), what it is for (purpose), where it came from
(``source`` label and ``provenance`` reference) and until when it may be used. Two rules are
enforced on write, not left to callers:

* a model's own words are never stored as a user fact: provenance that names the model
  (``model:…``, ``assistant…``) must carry the ``model_inferred`` source;
* text derived from untrusted content (tool results, web pages, MCP content) is stored
  ``quarantined`` and never loads until a human releases it (:meth:`MemoryStore.release`).

:meth:`MemoryStore.delete` removes the text from the table, from the FTS index (merged, so no
old segment keeps its terms), from free pages (``secure_delete``) and from the WAL.
"""

from __future__ import annotations

import math
import re
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias, get_args

from workset.closing import Closing
from workset.errors import UsageError
from workset.memory.db import MemoryDatabase

MemorySource: TypeAlias = Literal["user_stated", "system_record", "model_inferred"]
MemoryStatus: TypeAlias = Literal["active", "quarantined"]

SOURCES: frozenset[str] = frozenset(get_args(MemorySource))
FACT_SOURCES: frozenset[str] = frozenset({"user_stated", "system_record"})
ANY_PURPOSE = "*"  # a record relevant to every decision (standing rules)
MAX_TEXT = 2_000
UNTRUSTED_PROVENANCE = ("tool:", "mcp:", "web:", "url:", "http://", "https://", "file:")
MODEL_PROVENANCE = ("model", "assistant")

_COLUMNS = (
    "memory_id, subject, tenant, purpose, text, source, created_at, expires_at, provenance, "
    "status, pinned"
)


@dataclass(frozen=True, slots=True)
class MemoryRecord:
    """One long-term memory. Times are unix seconds; ``expires_at`` None means "until deleted".

    ``source`` is typed ``str`` because records may come from elsewhere; only the labels in
    :data:`SOURCES` ever load (see :func:`workset.memory.loader.load_memory`).
    """

    memory_id: str
    subject: str
    tenant: str
    purpose: str
    text: str
    source: str
    created_at: float
    expires_at: float | None
    provenance: str
    status: MemoryStatus = "active"
    pinned: bool = False


class MemoryStore(Closing):
    """Long-term memories of many tenants and subjects in one SQLite file (WAL).

    Use as a context manager, or call :meth:`close`. ``clock`` returns unix seconds.
    """

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time) -> None:
        self.database = MemoryDatabase(path)
        self.path = self.database.path
        self._clock = clock

    def close(self) -> None:
        self.database.close()

    def now(self) -> float:
        """The store's clock, in unix seconds."""
        return self._clock()

    def add(
        self,
        *,
        subject: str,
        tenant: str,
        purpose: str,
        text: str,
        source: str,
        provenance: str,
        expires_at: float | None = None,
        created_at: float | None = None,
        pinned: bool = False,
        derived_from_untrusted: bool = False,
    ) -> MemoryRecord:
        """Store a memory and return it.

        ``derived_from_untrusted=True`` (or a provenance such as ``tool:fetch_url``) stores it
        quarantined: it never loads until :meth:`release`.
        """
        _check_label(source)
        for name, value in (("subject", subject), ("tenant", tenant), ("purpose", purpose)):
            if not value.strip():
                raise UsageError(f"memory {name} is empty: say whose memory it is and what for")
        if not text.strip():
            raise UsageError("memory text is empty: store a short fact, or nothing at all")
        if len(text) > MAX_TEXT:
            raise UsageError(
                f"memory text has {len(text):,} characters (at most {MAX_TEXT:,}): keep memories "
                "to short facts; index documents as evidence instead"
            )
        if not provenance.strip():
            raise UsageError(
                "memory provenance is empty: say where it came from, e.g. 'session:s1/seq:4', "
                "'user', 'tool:fetch_url'"
            )
        lowered = provenance.strip().lower()
        if lowered.startswith(MODEL_PROVENANCE) and source != "model_inferred":
            raise UsageError(
                f"provenance {provenance!r} is the model's own output, which is never stored as "
                f"{source!r}: store it with source='model_inferred' (a hypothesis)"
            )
        from_outside = lowered.startswith(UNTRUSTED_PROVENANCE)
        if from_outside and source == "user_stated":
            raise UsageError(
                f"provenance {provenance!r} is external content, which the user did not state: "
                "store it as 'model_inferred' or 'system_record' (it will be quarantined)"
            )
        untrusted = derived_from_untrusted or from_outside
        created = self._clock() if created_at is None else _check_time(created_at, "created_at")
        if expires_at is not None and _check_time(expires_at, "expires_at") <= created:
            raise UsageError(
                f"expires_at ({expires_at}) is not after created_at ({created}): pass a later "
                "unix time, or None for a memory kept until deleted"
            )
        record = MemoryRecord(
            memory_id=f"m-{secrets.token_hex(6)}",
            subject=subject,
            tenant=tenant,
            purpose=purpose,
            text=text,
            source=source,
            created_at=created,
            expires_at=expires_at,
            provenance=provenance,
            status="quarantined" if untrusted else "active",
            pinned=pinned,
        )
        self._store(record)
        return record

    def _store(self, record: MemoryRecord) -> None:
        with self.database.write() as db:
            cursor = db.execute(
                f"INSERT INTO memories ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*_row(record),),
            )
            db.execute(
                "INSERT INTO memories_fts (rowid, text) VALUES (?, ?)",
                (cursor.lastrowid, record.text),
            )

    def get(self, memory_id: str) -> MemoryRecord | None:
        rows = self.database.rows(
            f"SELECT {_COLUMNS} FROM memories WHERE memory_id = ?", (memory_id,)
        )
        return _record(rows[0]) if rows else None

    def records(self, tenant: str, subject: str) -> list[MemoryRecord]:
        """Every record of one subject (active and quarantined), oldest first."""
        rows = self.database.rows(
            f"SELECT {_COLUMNS} FROM memories WHERE tenant = ? AND subject = ? "
            "ORDER BY created_at, id",
            (tenant, subject),
        )
        return [_record(r) for r in rows]

    def quarantined(self, tenant: str | None = None) -> list[MemoryRecord]:
        """The review queue: quarantined records (of one tenant, or all), oldest first."""
        where, params = ("AND tenant = ?", (tenant,)) if tenant is not None else ("", ())
        rows = self.database.rows(
            f"SELECT {_COLUMNS} FROM memories WHERE status = 'quarantined' {where} "
            "ORDER BY created_at, id",
            params,
        )
        return [_record(r) for r in rows]

    def search(self, query: str, tenant: str, subject: str, limit: int = 10) -> list[MemoryRecord]:
        """Records of one subject whose text matches any word of ``query``, best first (BM25).

        Returns records of every status; the loader decides what may enter a request.
        """
        if limit < 1:
            raise UsageError(f"limit={limit} is invalid: ask for at least 1 record")
        words = re.findall(r"\w+", query.lower())
        if not words:
            return []
        return self._search(list(dict.fromkeys(words)), tenant, subject, limit)

    def _search(
        self, words: Sequence[str], tenant: str, subject: str, limit: int
    ) -> list[MemoryRecord]:
        """Up to ``limit`` records of the subject with any of ``words``, best first."""
        match = " OR ".join(f'"{w}"' for w in words)
        rows = self.database.rows(
            f"SELECT {', '.join('m.' + c.strip() for c in _COLUMNS.split(','))} "
            "FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid "
            "WHERE memories_fts MATCH ? AND m.tenant = ? AND m.subject = ? "
            "ORDER BY bm25(memories_fts), m.id LIMIT ?",
            (match, tenant, subject, limit),
        )
        return [_record(r) for r in rows]

    def find_pinned(self, tenant: str, subject: str, text: str) -> MemoryRecord | None:
        """The pinned record of this subject with exactly ``text``, if there is one."""
        rows = self.database.rows(
            f"SELECT {_COLUMNS} FROM memories WHERE tenant = ? AND subject = ? AND pinned = 1 "
            "AND text = ? ORDER BY id LIMIT 1",
            (tenant, subject, text),
        )
        return _record(rows[0]) if rows else None

    def delete(self, memory_id: str) -> bool:
        """Remove a record for real; False when there was none with that id.

        The row and its FTS entry are deleted, the FTS index is merged so no old segment keeps
        the terms, freed pages are zeroed (``secure_delete``) and the WAL is checkpointed and
        truncated. If another connection keeps the WAL busy, the checkpoint is retried at the
        next delete; the text is gone from every table either way.
        """
        with self.database.write() as db:
            row = db.execute("SELECT id FROM memories WHERE memory_id = ?", (memory_id,)).fetchone()
            if row is None:
                return False
            db.execute("DELETE FROM memories WHERE id = ?", (row[0],))
            db.execute("DELETE FROM memories_fts WHERE rowid = ?", (row[0],))
            db.execute("INSERT INTO memories_fts (memories_fts) VALUES ('optimize')")
        self.database.checkpoint()
        return True

    def quarantine(self, memory_id: str) -> MemoryRecord:
        """Stop a record from loading until a human releases it."""
        return self._set_status(memory_id, "quarantined", "")

    def release(self, memory_id: str, *, approved_by: str) -> MemoryRecord:
        """A human approves a quarantined record: it becomes active and loads from now on.

        ``approved_by`` (who approved) is appended to the record's provenance.
        """
        if not approved_by.strip():
            raise UsageError("approved_by is empty: name the person who approved the memory")
        return self._set_status(memory_id, "active", f"; approved_by:{approved_by.strip()}")

    def _set_status(self, memory_id: str, status: MemoryStatus, note: str) -> MemoryRecord:
        if self._update_status(memory_id, status, note) == 0:
            raise UsageError(
                f"no memory with id {memory_id!r}: list them with MemoryStore.records() "
                "or MemoryStore.quarantined()"
            )
        record = self.get(memory_id)
        assert record is not None
        return record

    def _update_status(self, memory_id: str, status: MemoryStatus, note: str) -> int:
        """Set the record's status and append ``note`` to its provenance; rows changed."""
        with self.database.write() as db:
            cursor = db.execute(
                "UPDATE memories SET status = ?, provenance = provenance || ? WHERE memory_id = ?",
                (status, note, memory_id),
            )
            return cursor.rowcount


def _check_label(source: str) -> None:
    if source not in SOURCES:
        raise UsageError(
            f"unknown memory source {source!r}: use one of {', '.join(sorted(SOURCES))} "
            "(a model's inference is 'model_inferred', never 'user_stated')"
        )


def _check_time(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise UsageError(
            f"{name} must be unix seconds (a float), not {type(value).__name__}; "
            "convert a datetime with .timestamp()"
        )
    if not math.isfinite(value) or value < 0:
        raise UsageError(f"{name}={value!r} is not a valid unix time: pass seconds since 1970")
    return float(value)


def _row(record: MemoryRecord) -> tuple[Any, ...]:
    return (
        record.memory_id,
        record.subject,
        record.tenant,
        record.purpose,
        record.text,
        record.source,
        record.created_at,
        record.expires_at,
        record.provenance,
        record.status,
        int(record.pinned),
    )


def _record(row: tuple[Any, ...]) -> MemoryRecord:
    status: MemoryStatus = "quarantined" if row[9] == "quarantined" else "active"
    return MemoryRecord(
        memory_id=row[0],
        subject=row[1],
        tenant=row[2],
        purpose=row[3],
        text=row[4],
        source=row[5],
        created_at=row[6],
        expires_at=row[7],
        provenance=row[8],
        status=status,
        pinned=bool(row[10]),
    )
