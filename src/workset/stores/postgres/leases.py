"""Leases in PostgreSQL (the shared :class:`~workset.stores.protocols.LeaseStore`).

The same single-statement take as the SQLite leases (``INSERT … ON CONFLICT DO UPDATE …
WHERE`` expired or already ours), so exactly one worker holds a session's lease at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workset.stores.postgres.db import PostgresDatabase
from workset.stores.postgres.schema import migrate

MIGRATIONS: list[list[str]] = [
    [
        "CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, "
        "expires_at DOUBLE PRECISION NOT NULL)",
        "CREATE INDEX leases_by_expiry ON leases (expires_at)",
    ],
]

_TAKE = (
    "INSERT INTO leases (name, holder, expires_at) VALUES (%s, %s, %s) "
    "ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at "
    "WHERE leases.expires_at <= %s OR leases.holder = EXCLUDED.holder RETURNING holder"
)


class PostgresLeases:
    def __init__(self, database: PostgresDatabase) -> None:
        self.db = database
        migrate(database, "leases", MIGRATIONS)

    @property
    def where(self) -> str:
        return self.db.where

    def close(self) -> None:
        """The database belongs to whoever opened it (see :func:`workset.stores.open_store`)."""

    def acquire(self, name: str, holder: str, ttl_s: float, now: float) -> bool:
        def take(conn: Any, _: bool) -> bool:
            row = conn.execute(_TAKE, (name, holder, now + ttl_s, now)).fetchone()
            return row is not None and row[0] == holder

        return self.db.transact("take a lease", take)

    def renew(self, names: Sequence[str], holder: str, ttl_s: float, now: float) -> frozenset[str]:
        if not names:
            return frozenset()
        rows = self.db.rows(
            "renew leases",
            "UPDATE leases SET expires_at = %s WHERE holder = %s AND name = ANY(%s) RETURNING name",
            (now + ttl_s, holder, list(names)),
        )
        return frozenset(str(r[0]) for r in rows)

    def release(self, name: str, holder: str) -> None:
        self.db.execute(
            "release a lease", "DELETE FROM leases WHERE name = %s AND holder = %s", (name, holder)
        )

    def holder(self, name: str, now: float) -> str | None:
        rows = self.db.rows(
            "read a lease",
            "SELECT holder FROM leases WHERE name = %s AND expires_at > %s",
            (name, now),
        )
        return str(rows[0][0]) if rows else None

    def expired(self, now: float, prefix: str = "", limit: int = 100) -> list[str]:
        rows = self.db.rows(
            "list expired leases",
            "SELECT name FROM leases WHERE expires_at <= %s AND starts_with(name, %s) "
            "ORDER BY expires_at LIMIT %s",
            (now, prefix, limit),
        )
        return [str(r[0]) for r in rows]
