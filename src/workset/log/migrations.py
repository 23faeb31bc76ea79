"""The session log schema, evolved by append-only migrations.

Migration *n* (1-based) brings a database from ``PRAGMA user_version`` *n − 1* to *n*.
Never edit a migration that has shipped: append a new one instead.
"""

from __future__ import annotations

import sqlite3

from workset.errors import SessionLogError
from workset.schema import Migration, apply_migrations

MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    """Register ``fn`` as the next migration."""
    MIGRATIONS.append(fn)
    return fn


@migration
def m001_sessions_and_events(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            created_at REAL NOT NULL,
            title TEXT NOT NULL,
            workspace TEXT NOT NULL,
            model TEXT NOT NULL,
            config_json TEXT
        )
        """
    )
    db.execute(
        """
        CREATE TABLE events (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL REFERENCES sessions(id),
            kind TEXT NOT NULL,
            at REAL NOT NULL,
            call_id TEXT,
            payload TEXT NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX events_by_session ON events (session_id, seq)")
    db.execute(
        "CREATE UNIQUE INDEX events_once_per_call ON events (session_id, kind, call_id) "
        "WHERE call_id IS NOT NULL"
    )
    for action in ("UPDATE", "DELETE"):
        db.execute(
            f"""
            CREATE TRIGGER events_no_{action.lower()} BEFORE {action} ON events
            BEGIN
                SELECT RAISE(ABORT, 'events are append-only');
            END
            """
        )


@migration
def m002_blobs_and_consumed_events(db: sqlite3.Connection) -> None:
    """Content-addressed blobs (the parts of a request made for one call) and a record of
    which inbox events each session consumed: at most once, enforced by the key."""
    db.execute("CREATE TABLE blobs (hash TEXT PRIMARY KEY, text TEXT NOT NULL)")
    db.execute(
        """
        CREATE TABLE consumed_events (
            session_id TEXT NOT NULL REFERENCES sessions(id),
            event_id TEXT NOT NULL,
            seq INTEGER NOT NULL REFERENCES events(seq),
            PRIMARY KEY (session_id, event_id)
        )
        """
    )
    for action in ("UPDATE", "DELETE"):
        db.execute(
            f"""
            CREATE TRIGGER consumed_no_{action.lower()} BEFORE {action} ON consumed_events
            BEGIN
                SELECT RAISE(ABORT, 'consumed events are append-only');
            END
            """
        )


def schema_version(db: sqlite3.Connection) -> int:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    assert isinstance(version, int)
    return version


def migrate(db: sqlite3.Connection, *, path: str) -> int:
    """Apply pending migrations, each in its own transaction; returns the schema version.

    ``db`` must be in autocommit mode (``isolation_level=None``). Safe against another
    process migrating the same file at the same time: the version is re-read under the lock.
    """

    def newer(version: int, known: int) -> SessionLogError:
        return SessionLogError(
            f"the session log {path} has schema version {version}, but this workset knows "
            f"only up to {known}: it was written by a newer workset. Upgrade workset "
            "(pip install -U workset) or point --db at another file."
        )

    return apply_migrations(
        db, MIGRATIONS, read_version=schema_version, write_version=_set_version, newer=newer
    )


def _set_version(db: sqlite3.Connection, version: int) -> None:
    db.execute(f"PRAGMA user_version = {version:d}")
