"""Long-term memory in PostgreSQL: the same records, rules and deletion as the SQLite store.

:class:`PostgresMemoryStore` keeps every rule of :class:`~workset.memory.store.MemoryStore`
(what may be stored, as what, quarantine for untrusted provenance) and replaces the SQL.
Search is PostgreSQL full-text search over the ``simple`` configuration (words as they are,
no stemming, like the SQLite store's ``unicode61`` tokenizer), ranked by ``ts_rank``. A
delete removes the row; PostgreSQL reclaims the space at the next vacuum.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from workset.errors import UsageError
from workset.memory.db import MemoryDatabase
from workset.memory.store import _COLUMNS, MemoryRecord, MemoryStatus, MemoryStore, _record, _row
from workset.stores.postgres.db import PostgresDatabase
from workset.stores.postgres.schema import migrate

MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE memories (
            id BIGSERIAL PRIMARY KEY,
            memory_id TEXT NOT NULL UNIQUE,
            subject TEXT NOT NULL,
            tenant TEXT NOT NULL,
            purpose TEXT NOT NULL,
            text TEXT NOT NULL,
            source TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            expires_at DOUBLE PRECISION,
            provenance TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('active', 'quarantined')),
            pinned INTEGER NOT NULL CHECK (pinned IN (0, 1)),
            words TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED
        )""",
        "CREATE INDEX memories_by_scope ON memories (tenant, subject, created_at)",
        "CREATE INDEX memories_words ON memories USING GIN (words)",
    ],
]

_SELECT = f"SELECT {_COLUMNS} FROM memories"


class PostgresMemoryStore(MemoryStore):
    """Long-term memories of many tenants and subjects in one PostgreSQL database."""

    def __init__(
        self,
        dsn: str,
        *,
        clock: Callable[[], float] = time.time,
        database: PostgresDatabase | None = None,
    ) -> None:
        self._own_db = database is None
        self.db = database or PostgresDatabase(dsn, error=UsageError)
        self.where = self.db.where
        self._clock = clock
        migrate(self.db, "memory", MIGRATIONS)

    def close(self) -> None:
        if self._own_db:
            self.db.close()

    @property
    def database(self) -> MemoryDatabase:  # type: ignore[override]
        """Session notes (:class:`~workset.memory.notes.SessionNotes`) live in SQLite only."""
        raise UsageError(
            f"session notes are kept in a SQLite memory file, not in {self.where}: give "
            "SessionNotes a MemoryStore on a file (long-term memory may stay in PostgreSQL)"
        )

    def _store(self, record: MemoryRecord) -> None:
        marks = ", ".join(["%s"] * 11)
        self.db.execute(
            "add a memory",
            f"INSERT INTO memories ({_COLUMNS}) VALUES ({marks})",
            (*_row(record),),
        )

    def get(self, memory_id: str) -> MemoryRecord | None:
        rows = self._rows(f"{_SELECT} WHERE memory_id = %s", (memory_id,))
        return rows[0] if rows else None

    def records(self, tenant: str, subject: str) -> list[MemoryRecord]:
        return self._rows(
            f"{_SELECT} WHERE tenant = %s AND subject = %s ORDER BY created_at, id",
            (tenant, subject),
        )

    def quarantined(self, tenant: str | None = None) -> list[MemoryRecord]:
        where, params = ("AND tenant = %s", (tenant,)) if tenant is not None else ("", ())
        return self._rows(
            f"{_SELECT} WHERE status = 'quarantined' {where} ORDER BY created_at, id", params
        )

    def _search(
        self, words: Sequence[str], tenant: str, subject: str, limit: int
    ) -> list[MemoryRecord]:
        match = " | ".join(f"'{w}'" for w in words)
        return self._rows(
            f"{_SELECT} WHERE words @@ to_tsquery('simple', %s) AND tenant = %s "
            "AND subject = %s ORDER BY ts_rank(words, to_tsquery('simple', %s)) DESC, id "
            "LIMIT %s",
            (match, tenant, subject, match, limit),
        )

    def find_pinned(self, tenant: str, subject: str, text: str) -> MemoryRecord | None:
        rows = self._rows(
            f"{_SELECT} WHERE tenant = %s AND subject = %s AND pinned = 1 AND text = %s "
            "ORDER BY id LIMIT 1",
            (tenant, subject, text),
        )
        return rows[0] if rows else None

    def delete(self, memory_id: str) -> bool:
        touched = self.db.execute(
            "delete a memory", "DELETE FROM memories WHERE memory_id = %s", (memory_id,)
        )
        return touched > 0

    def _update_status(self, memory_id: str, status: MemoryStatus, note: str) -> int:
        return self.db.execute(
            "change a memory's status",
            "UPDATE memories SET status = %s, provenance = provenance || %s WHERE memory_id = %s",
            (status, note, memory_id),
        )

    def _rows(self, sql: str, params: tuple[Any, ...]) -> list[MemoryRecord]:
        return [_record(r) for r in self.db.rows("read memories", sql, params)]
