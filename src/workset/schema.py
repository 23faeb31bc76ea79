"""Append-only schema migrations for workset's SQLite files (session log, memory store).

Each store keeps its own list of migrations and its own way of recording the version (the log
uses ``PRAGMA user_version``; the memory store a table, so both can share one file). This
module runs them: each pending migration in its own ``BEGIN IMMEDIATE`` transaction, the
version re-read under the lock so two processes migrating one file at once cannot both apply
a step, and a file written by a newer workset refused with the store's own error.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence

Migration = Callable[[sqlite3.Connection], None]


def use_wal(db: sqlite3.Connection, timeout_s: float) -> None:
    """Switch ``db`` to write-ahead logging, waiting up to ``timeout_s`` for other openers.

    Changing the journal mode needs the file to itself, and SQLite reports "database is
    locked" at once, without its busy handler, when another connection is opening the same
    new file at that moment (several workers starting together). The switch is retried until
    it goes through or the time is up; then the lock error is raised as SQLite gave it.
    """
    deadline = time.monotonic() + timeout_s
    pause = 0.005
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def apply_migrations(
    db: sqlite3.Connection,
    migrations: Sequence[Migration],
    *,
    read_version: Callable[[sqlite3.Connection], int],
    write_version: Callable[[sqlite3.Connection, int], None],
    newer: Callable[[int, int], Exception],
    applied_twice: Callable[[int, str], Exception] | None = None,
) -> int:
    """Bring ``db`` (in autocommit mode) up to ``len(migrations)``; returns the version.

    ``newer(found, known)`` builds the error raised when the file's version is ahead of
    ``migrations``; ``applied_twice(number, detail)`` the one raised when migration ``number``
    finds what it creates already there (the recorded version was reset), which changes
    nothing.
    """
    known = len(migrations)
    while True:
        version = read_version(db)
        if version > known:
            raise newer(version, known)
        if version == known:
            return version
        db.execute("BEGIN IMMEDIATE")
        try:
            version = read_version(db)
            if version > known:
                raise newer(version, known)
            if version < known:
                try:
                    migrations[version](db)
                except sqlite3.OperationalError as exc:
                    if applied_twice is None or "already exists" not in str(exc):
                        raise
                    raise applied_twice(version + 1, str(exc)) from exc
                write_version(db, version + 1)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
