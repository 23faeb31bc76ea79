"""Leases in SQLite: who owns a session, until when (the embedded :class:`LeaseStore`).

A lease row is ``(name, holder, expires_at)``. Taking one is a single ``INSERT … ON CONFLICT
DO UPDATE … WHERE`` that succeeds only when the row is absent, expired or already the
taker's, so two workers can never both hold it. A holder that dies stops renewing; once its
lease has expired another worker takes over. The table lives in the session log's file (its
own schema version, like the memory tables), so one file still holds everything.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

from workset.errors import SessionLogError
from workset.schema import Migration, apply_migrations, use_wal

BUSY_TIMEOUT_S = 10.0

_TAKE = (
    "INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?) "
    "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at "
    "WHERE leases.expires_at <= ? OR leases.holder = excluded.holder RETURNING holder"
)


def _m001_leases(db: sqlite3.Connection) -> None:
    db.execute(
        "CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, "
        "expires_at REAL NOT NULL)"
    )


MIGRATIONS: list[Migration] = [_m001_leases]


class SqliteLeases:
    """Named leases in one SQLite file (several processes may share it)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
            use_wal(self._db, BUSY_TIMEOUT_S)
            # A lease write lost in a power cut belonged to a worker that died in it too.
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000):d}")
            apply_migrations(
                self._db, MIGRATIONS, read_version=_version, write_version=_record_version,
                newer=lambda found, known: SessionLogError(
                    f"the lease table in {self.path} has schema version {found}, but this "
                    f"workset knows only up to {known}. Upgrade workset."
                ),
            )  # fmt: skip
        except (OSError, sqlite3.Error) as exc:
            raise SessionLogError(f"cannot open the lease table in {self.path}: {exc}") from exc

    @property
    def where(self) -> str:
        return str(self.path)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def acquire(self, name: str, holder: str, ttl_s: float, now: float) -> bool:
        with self._lock:
            row = self._db.execute(_TAKE, (name, holder, now + ttl_s, now)).fetchone()
        return row is not None and row[0] == holder

    def renew(self, names: Sequence[str], holder: str, ttl_s: float, now: float) -> frozenset[str]:
        if not names:
            return frozenset()
        marks = ", ".join("?" * len(names))
        with self._lock:
            rows = self._db.execute(
                f"UPDATE leases SET expires_at = ? WHERE holder = ? AND name IN ({marks}) "
                "RETURNING name",
                (now + ttl_s, holder, *names),
            ).fetchall()
        return frozenset(str(r[0]) for r in rows)

    def release(self, name: str, holder: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))

    def holder(self, name: str, now: float) -> str | None:
        with self._lock:
            row = self._db.execute(
                "SELECT holder FROM leases WHERE name = ? AND expires_at > ?", (name, now)
            ).fetchone()
        return None if row is None else str(row[0])

    def expired(self, now: float, prefix: str = "", limit: int = 100) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT name FROM leases WHERE expires_at <= ? AND substr(name, 1, ?) = ? "
                "ORDER BY expires_at LIMIT ?",
                (now, len(prefix), prefix, limit),
            ).fetchall()
        return [str(r[0]) for r in rows]


def _version(db: sqlite3.Connection) -> int:
    db.execute("CREATE TABLE IF NOT EXISTS lease_schema (version INTEGER NOT NULL)")
    row = db.execute("SELECT max(version) FROM lease_schema").fetchone()
    return int(row[0] or 0)


def _record_version(db: sqlite3.Connection, version: int) -> None:
    db.execute("INSERT INTO lease_schema (version) VALUES (?)", (version,))
