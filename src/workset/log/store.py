"""The SQLite session log: sessions, their append-only records, and what is rebuilt from them.

A session's state is its log. Every append is its own committed transaction (WAL journal,
``synchronous=FULL``), so a record the engine saw written survives a crash of the process.
Things that must happen at most once are keyed in the same transaction: a tool call's start
and its result (by call id), an inbox event's arrival (by event id) and its consumption, a
timer occurrence, a background task's final state. A request is stored by reference
(:class:`~workset.events.records.RequestRef`): the trajectory messages by the seq of their
record, the parts made for one call as content-addressed blobs, so :meth:`SessionLog.request`
rebuilds any call's request byte for byte.

This module holds the SQLite file: the connection, its transactions and statements. What any
backend does above its database (encoding appends, decoding records, trajectories, resume
state) is :class:`~workset.log.base.SessionLogBase`; the shared types and session ids are in
:mod:`workset.log.records`, request blobs in :mod:`workset.log.requests`. Their public names
are importable from here too.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from workset.closing import Closing
from workset.errors import EventConsumedError, SessionLogError
from workset.log.base import SessionLogBase
from workset.log.manifest_delta import ManifestChain
from workset.log.migrations import migrate
from workset.log.records import (
    RECORD_KINDS,
    SESSION_INFO_SQL,
    RecordKind,
    ResumeState,
    RunStatus,
    SessionInfo,
    StoredEvent,
    check_session_id,
    new_session_id,
    session_info,
    session_taken,
)
from workset.log.requests import blob_hash, message_blob, tools_blob
from workset.schema import use_wal

__all__ = [
    "BUSY_TIMEOUT_S",
    "RECORD_KINDS",
    "RecordKind",
    "ResumeState",
    "RunStatus",
    "SessionInfo",
    "SessionLog",
    "StoredEvent",
    "blob_hash",
    "check_session_id",
    "default_db_path",
    "message_blob",
    "new_session_id",
    "session_taken",
    "tools_blob",
]

BUSY_TIMEOUT_S = 10.0


def default_db_path() -> Path:
    """``$WORKSET_DB`` when set, else ``~/.local/share/workset/workset.db``."""
    env = os.environ.get("WORKSET_DB")
    if env:
        return Path(env).expanduser()
    from workset.stores.url import default_folder  # stores builds on this module

    return default_folder() / "workset.db"


class SessionLog(SessionLogBase, Closing):
    """An append-only event log of sessions in one SQLite file. Use as a context manager."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()  # the loop may append from worker threads
        self._db = _connect(self.path)
        self._chain = ManifestChain(self.record)

    @property
    def where(self) -> str:
        """Where the log lives, as messages name it (the file here; a URL elsewhere)."""
        return str(self.path)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- writing --------------------------------------------------------------------------

    def _add_session(
        self, session_id: str, title: str, workspace: str, model: str, config_json: str | None
    ) -> bool:
        with self._write("create a session") as db:
            if _exists(db, session_id):
                return False
            db.execute(
                "INSERT INTO sessions (id, created_at, title, workspace, model, config_json)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (session_id, time.time(), title, workspace, model, config_json),
            )
            return True

    def _insert(
        self,
        session_id: str,
        kind: str,
        at: float,
        call_id: str | None,
        payload: str,
        consumes: Sequence[str] = (),
        blobs: Mapping[str, str] | None = None,
    ) -> int:
        with self._write(f"append a {kind} event") as db:
            if not _exists(db, session_id):
                raise self._not_found(session_id)
            if call_id is not None:
                row = db.execute(
                    "SELECT seq FROM events WHERE session_id = ? AND kind = ? AND call_id = ?",
                    (session_id, kind, call_id),
                ).fetchone()
                if row is not None:
                    return int(row[0])
            if consumes:
                marks = ", ".join("?" * len(consumes))
                taken = db.execute(
                    f"SELECT event_id, seq FROM consumed_events WHERE session_id = ? "
                    f"AND event_id IN ({marks})",
                    (session_id, *consumes),
                ).fetchall()
                if taken:
                    raise EventConsumedError(
                        f"events {sorted(r[0] for r in taken)} of session {session_id} were "
                        f"already consumed (records {sorted(r[1] for r in taken)}); another "
                        "worker may be serving this session. Reload its state and go on."
                    )
            for digest, text in (blobs or {}).items():
                db.execute("INSERT OR IGNORE INTO blobs (hash, text) VALUES (?, ?)", (digest, text))
            cursor = db.execute(
                "INSERT INTO events (session_id, kind, at, call_id, payload)"
                " VALUES (?, ?, ?, ?, ?)",
                (session_id, kind, at, call_id, payload),
            )
            assert cursor.lastrowid is not None
            seq = cursor.lastrowid
            db.executemany(
                "INSERT INTO consumed_events (session_id, event_id, seq) VALUES (?, ?, ?)",
                [(session_id, e, seq) for e in consumes],
            )
            return seq

    def put_blobs(self, blobs: Mapping[str, str]) -> None:
        """Store content-addressed texts (``blob_hash(text) → text``); known ones are kept."""
        if not blobs:
            return
        with self._write("store blobs") as db:
            for digest, text in blobs.items():
                db.execute("INSERT OR IGNORE INTO blobs (hash, text) VALUES (?, ?)", (digest, text))

    def blob(self, digest: str) -> str:
        """The text stored under ``digest``."""
        with self._reading("read a blob"):
            row = self._db.execute("SELECT text FROM blobs WHERE hash = ?", (digest,)).fetchone()
        if row is None:
            raise SessionLogError(
                f"blob {digest} is missing from {self.where}: the log is incomplete (was the "
                "file copied while a session was writing?)"
            )
        return str(row[0])

    # -- reading --------------------------------------------------------------------------

    def record(self, seq: int) -> StoredEvent:
        """The record with sequence number ``seq``, of whichever session."""
        with self._reading("read a record"):
            row = self._db.execute(
                "SELECT session_id, seq, kind, at, payload FROM events WHERE seq = ?", (seq,)
            ).fetchone()
        if row is None:
            raise SessionLogError(f"no record {seq} in {self.where}")
        return self._decode(row[0], *row[1:])

    def sessions(self, limit: int | None = 50) -> list[SessionInfo]:
        """The most recent sessions, newest first (all of them when ``limit`` is None)."""
        sql = SESSION_INFO_SQL + " ORDER BY s.created_at DESC, s.id DESC LIMIT ?"
        with self._reading("list sessions"):
            rows = self._db.execute(sql, (-1 if limit is None else limit,)).fetchall()
        return [session_info(row) for row in rows]

    def get_session(self, id_or_prefix: str) -> SessionInfo:
        """The session with this id, or the only one whose id starts with it."""
        session_id = self.resolve(id_or_prefix)
        with self._reading("read a session"):
            row = self._db.execute(SESSION_INFO_SQL + " WHERE s.id = ?", (session_id,)).fetchone()
        return session_info(row)

    def _session_ids(self, id_or_prefix: str) -> list[str]:
        with self._reading("look up a session"):
            if _exists(self._db, id_or_prefix):
                return [id_or_prefix]
            rows = self._db.execute(
                "SELECT id FROM sessions WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT 11",
                (len(id_or_prefix), id_or_prefix),
            ).fetchall()
        return [str(r[0]) for r in rows]

    # -- helpers --------------------------------------------------------------------------

    def _read(self, session_id: str, sql: str, params: Sequence[Any]) -> list[Any]:
        with self._reading("read events"):
            if not _exists(self._db, session_id):
                raise self._not_found(session_id)
            return self._db.execute(sql, params).fetchall()

    @contextmanager
    def _reading(self, doing: str) -> Iterator[None]:
        with self._lock:
            try:
                yield
            except sqlite3.Error as exc:
                raise SessionLogError(f"could not {doing} in {self.where}: {exc}") from exc

    @contextmanager
    def _write(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One committed transaction; rolled back when the body raises."""
        with self._reading(doing):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise


def _exists(db: sqlite3.Connection, session_id: str) -> bool:
    return db.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is not None


def _connect(path: Path) -> sqlite3.Connection:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
    except (OSError, sqlite3.Error) as exc:
        raise SessionLogError(
            f"cannot open the session log {path}: {exc}. Check the path and its permissions, "
            "or point --db (or $WORKSET_DB) at another file."
        ) from exc
    try:
        use_wal(db, BUSY_TIMEOUT_S)
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000):d}")
        migrate(db, path=str(path))
    except sqlite3.DatabaseError as exc:
        db.close()
        raise SessionLogError(
            f"{path} is not a usable workset session log ({exc}). Move the file aside, "
            "or point --db (or $WORKSET_DB) at another file."
        ) from exc
    except BaseException:
        db.close()
        raise
    return db
