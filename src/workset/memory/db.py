"""The memory SQLite file: one connection, its pragmas, and append-only schema migrations.

Long-term memories, their FTS5 index and session notes live in one file. The schema version
is kept in its own table (not ``PRAGMA user_version``), so the memory tables may share a file
with the session log without the two migration chains colliding. ``secure_delete`` is on, so
deleted text is overwritten in place rather than left in free pages.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from workset.errors import UsageError
from workset.schema import Migration, apply_migrations, use_wal

BUSY_TIMEOUT_S = 10.0

MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    """Register ``fn`` as the next migration. Never edit one that has shipped; append."""
    MIGRATIONS.append(fn)
    return fn


@migration
def m001_memories_and_notes(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE memories (
            id INTEGER PRIMARY KEY,
            memory_id TEXT NOT NULL UNIQUE,
            subject TEXT NOT NULL,
            tenant TEXT NOT NULL,
            purpose TEXT NOT NULL,
            text TEXT NOT NULL,
            source TEXT NOT NULL,
            created_at REAL NOT NULL,
            expires_at REAL,
            provenance TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('active', 'quarantined')),
            pinned INTEGER NOT NULL CHECK (pinned IN (0, 1))
        )
        """
    )
    db.execute("CREATE INDEX memories_by_scope ON memories (tenant, subject, created_at)")
    # The FTS row id is the memories row id; both are deleted together.
    db.execute("CREATE VIRTUAL TABLE memories_fts USING fts5(text, tokenize='unicode61')")
    db.execute(
        """
        CREATE TABLE session_notes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL,
            turn INTEGER NOT NULL,
            text TEXT NOT NULL,
            created_at REAL NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX session_notes_by_session ON session_notes (session_id, seq)")
    db.execute(
        """
        CREATE TRIGGER session_notes_no_update BEFORE UPDATE ON session_notes
        BEGIN
            SELECT RAISE(ABORT, 'session notes are append-only');
        END
        """
    )


class MemoryDatabase:
    """One SQLite connection to the memory file, shared by the store and the session notes.

    Tools may run in worker threads, so every statement runs under one lock.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self._db = _connect(self.path)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._db.execute(sql, tuple(params)).fetchall())

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (``BEGIN IMMEDIATE``), committed on exit, rolled back on error."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def checkpoint(self) -> bool:
        """Move the WAL into the main file and truncate it; False if readers kept it busy."""
        with self._lock:
            busy, _, _ = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            return bool(busy == 0)


def _connect(path: Path) -> sqlite3.Connection:
    hint = "Check the path and its permissions, or use another file for the memory store."
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
    except (OSError, sqlite3.Error) as exc:
        raise UsageError(f"cannot open the memory store {path}: {exc}. {hint}") from exc
    try:
        use_wal(db, BUSY_TIMEOUT_S)
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA secure_delete = ON")
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000):d}")
        _migrate(db, path)
    except sqlite3.DatabaseError as exc:
        db.close()
        raise UsageError(f"{path} is not a usable workset memory store ({exc}). {hint}") from exc
    except BaseException:
        db.close()
        raise
    return db


def _version(db: sqlite3.Connection) -> int:
    db.execute("CREATE TABLE IF NOT EXISTS memory_schema (version INTEGER NOT NULL)")
    row = db.execute("SELECT max(version) FROM memory_schema").fetchone()
    return int(row[0] or 0)


def _migrate(db: sqlite3.Connection, path: Path) -> None:
    def newer(version: int, known: int) -> UsageError:
        return UsageError(
            f"the memory store {path} has schema version {version}, but this workset "
            f"knows only up to {known}. Upgrade workset (pip install -U workset) or "
            "use another file."
        )

    apply_migrations(
        db, MIGRATIONS, read_version=_version, write_version=_record_version, newer=newer
    )


def _record_version(db: sqlite3.Connection, version: int) -> None:
    db.execute("INSERT INTO memory_schema (version) VALUES (?)", (version,))
