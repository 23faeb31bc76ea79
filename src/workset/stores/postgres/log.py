"""The session log in PostgreSQL: the same records, keys and guarantees as the SQLite log.

:class:`PostgresSessionLog` keeps everything of :class:`~workset.log.store.SessionLog` that
does not touch SQL (decoding records, folding trajectories, rebuilding requests, resume
state) and replaces every statement. How the guarantees hold here:

- an append is one transaction committed before :meth:`append` returns;
- it first locks its session's row (``SELECT … FOR UPDATE``), so appends to one session are
  serialized: sequence numbers grow in commit order within a session, and the at-most-once
  checks (a call id's start and result, an event id, a final task state, consumed events)
  cannot race; the unique indexes back them up;
- each append carries a random token; when the connection breaks and the append is retried,
  the retry first looks for its token, so a commit that landed just before the break is not
  recorded twice;
- UPDATE and DELETE on ``events`` and ``consumed_events`` are refused by triggers.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from workset.errors import EventConsumedError, SessionLogError, UsageError
from workset.events.inputs import Event
from workset.events.records import EventReceived
from workset.log.codec import EVENT_TYPES
from workset.log.store import (
    _SESSION_INFO_SQL,
    RECORD_KINDS,
    SessionInfo,
    SessionLog,
    StoredEvent,
    _dumps,
    _session_info,
    new_session_id,
)
from workset.stores.postgres.db import PostgresDatabase
from workset.stores.postgres.schema import migrate

_APPEND_ONLY = """
CREATE FUNCTION workset_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END $$
"""

MIGRATIONS: list[list[str]] = [
    [  # 1: sessions, events, blobs, consumed events (SQLite log migrations 1 and 2)
        """CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            created_at DOUBLE PRECISION NOT NULL,
            title TEXT NOT NULL,
            workspace TEXT NOT NULL,
            model TEXT NOT NULL,
            config_json TEXT
        )""",
        """CREATE TABLE events (
            seq BIGSERIAL PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions(id),
            kind TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            call_id TEXT,
            payload TEXT NOT NULL,
            token TEXT UNIQUE
        )""",
        "CREATE INDEX events_by_session ON events (session_id, seq)",
        "CREATE UNIQUE INDEX events_once_per_call ON events (session_id, kind, call_id) "
        "WHERE call_id IS NOT NULL",
        "CREATE TABLE blobs (hash TEXT PRIMARY KEY, text TEXT NOT NULL)",
        """CREATE TABLE consumed_events (
            session_id TEXT NOT NULL REFERENCES sessions(id),
            event_id TEXT NOT NULL,
            seq BIGINT NOT NULL REFERENCES events(seq),
            PRIMARY KEY (session_id, event_id)
        )""",
        _APPEND_ONLY,
        "CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events "
        "FOR EACH ROW EXECUTE FUNCTION workset_append_only()",
        "CREATE TRIGGER consumed_append_only BEFORE UPDATE OR DELETE ON consumed_events "
        "FOR EACH ROW EXECUTE FUNCTION workset_append_only()",
    ],
]

_PENDING_SQL = (
    "SELECT e.seq, e.kind, e.at, e.payload FROM events e WHERE e.session_id = %s "
    "AND e.kind = 'event_received' AND NOT EXISTS (SELECT 1 FROM consumed_events c "
    "WHERE c.session_id = e.session_id AND c.event_id = e.call_id) ORDER BY e.seq"
)


class PostgresSessionLog(SessionLog):
    """Sessions and their append-only records in one PostgreSQL database."""

    def __init__(self, dsn: str, *, database: PostgresDatabase | None = None) -> None:
        self._own_db = database is None
        self.db = database or PostgresDatabase(dsn)
        try:
            migrate(self.db, "log", MIGRATIONS)
        except BaseException:
            self.close()
            raise

    @property
    def where(self) -> str:
        return self.db.where

    def close(self) -> None:
        if self._own_db:
            self.db.close()

    # -- writing --------------------------------------------------------------------------

    def create_session(
        self, *, title: str, workspace: str, model: str, config: Mapping[str, Any] | None = None
    ) -> str:
        config_json = None if config is None else _dumps(dict(config), "the session config")

        def insert(conn: Any, _: bool) -> str | None:
            session_id = new_session_id()
            cursor = conn.execute(
                "INSERT INTO sessions (id, created_at, title, workspace, model, config_json) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING",
                (session_id, time.time(), title, workspace, model, config_json),
            )
            return session_id if cursor.rowcount == 1 else None

        for _ in range(20):  # ids collide only for sessions created in the same second
            found = self.db.transact("create a session", insert)
            if found is not None:
                return found
        raise SessionLogError(f"could not find a free session id in {self.where}; try again")

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
        token = secrets.token_hex(12)

        def write(conn: Any, retry: bool) -> int:
            if retry:  # the commit may have landed before the connection broke
                row = conn.execute("SELECT seq FROM events WHERE token = %s", (token,)).fetchone()
                if row is not None:
                    return int(row[0])
            locked = conn.execute(
                "SELECT 1 FROM sessions WHERE id = %s FOR UPDATE", (session_id,)
            ).fetchone()
            if locked is None:
                raise self._not_found(session_id)
            if call_id is not None:
                row = conn.execute(
                    "SELECT seq FROM events WHERE session_id = %s AND kind = %s AND call_id = %s",
                    (session_id, kind, call_id),
                ).fetchone()
                if row is not None:
                    return int(row[0])
            if consumes:
                taken = conn.execute(
                    "SELECT event_id, seq FROM consumed_events WHERE session_id = %s "
                    "AND event_id = ANY(%s)",
                    (session_id, list(consumes)),
                ).fetchall()
                if taken:
                    raise EventConsumedError(
                        f"events {sorted(r[0] for r in taken)} of session {session_id} were "
                        f"already consumed (records {sorted(r[1] for r in taken)}); another "
                        "worker may be serving this session. Reload its state and go on."
                    )
            _put_blobs(conn, blobs or {})
            seq = int(
                conn.execute(
                    "INSERT INTO events (session_id, kind, at, call_id, payload, token) "
                    "VALUES (%s, %s, %s, %s, %s, %s) RETURNING seq",
                    (session_id, kind, at, call_id, payload, token),
                ).fetchone()[0]
            )
            if consumes:
                with conn.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO consumed_events (session_id, event_id, seq) "
                        "VALUES (%s, %s, %s)",
                        [(session_id, e, seq) for e in consumes],
                    )
            return seq

        return self.db.transact(f"append a {kind} event", write)

    def put_blobs(self, blobs: Mapping[str, str]) -> None:
        if blobs:
            self.db.transact("store blobs", lambda conn, _: _put_blobs(conn, blobs))

    def blob(self, digest: str) -> str:
        rows = self.db.rows("read a blob", "SELECT text FROM blobs WHERE hash = %s", (digest,))
        if not rows:
            raise SessionLogError(
                f"blob {digest} is missing from {self.where}: the log is incomplete (was the "
                "database restored from a partial copy?)"
            )
        return str(rows[0][0])

    # -- reading --------------------------------------------------------------------------

    def events(
        self, session_id: str, *, after_seq: int = 0, kinds: Iterable[str] | None = None
    ) -> list[StoredEvent]:
        sql = "SELECT seq, kind, at, payload FROM events WHERE session_id = %s AND seq > %s"
        params: list[Any] = [session_id, after_seq]
        if kinds is not None:
            wanted = list(kinds)
            unknown = set(wanted) - set(EVENT_TYPES) - RECORD_KINDS
            if unknown:
                known = sorted({*EVENT_TYPES, *RECORD_KINDS})
                raise UsageError(f"unknown event kinds {sorted(unknown)}; known kinds: {known}")
            sql += " AND kind = ANY(%s)"
            params.append(wanted)
        rows = self._read(session_id, sql + " ORDER BY seq", params)
        return [self._decode(session_id, *row) for row in rows]

    def pending_events(self, session_id: str) -> list[tuple[int, Event]]:
        found = []
        for row in self._read(session_id, _PENDING_SQL, [session_id]):
            stored = self._decode(session_id, *row)
            assert isinstance(stored.event, EventReceived)
            found.append((stored.seq, stored.event.event))
        return found

    def consumed(self, session_id: str) -> frozenset[str]:
        sql = "SELECT event_id FROM consumed_events WHERE session_id = %s"
        return frozenset(str(r[0]) for r in self._read(session_id, sql, [session_id]))

    def record(self, seq: int) -> StoredEvent:
        rows = self.db.rows(
            "read a record",
            "SELECT session_id, seq, kind, at, payload FROM events WHERE seq = %s",
            (seq,),
        )
        if not rows:
            raise SessionLogError(f"no record {seq} in {self.where}")
        row = rows[0]
        return self._decode(row[0], *row[1:])

    def last_seq(self, session_id: str) -> int:
        sql = "SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = %s"
        return int(self._read(session_id, sql, [session_id])[0][0])

    def sessions(self, limit: int | None = 50) -> list[SessionInfo]:
        sql = _SESSION_INFO_SQL + " ORDER BY s.created_at DESC, s.id DESC LIMIT %s"
        return [_session_info(row) for row in self.db.rows("list sessions", sql, (limit,))]

    def get_session(self, id_or_prefix: str) -> SessionInfo:
        session_id = self.resolve(id_or_prefix)
        sql = _SESSION_INFO_SQL + " WHERE s.id = %s"
        return _session_info(self.db.rows("read a session", sql, (session_id,))[0])

    def resolve(self, id_or_prefix: str) -> str:
        if not id_or_prefix:
            raise UsageError("a session id is empty; list sessions with `workset sessions`")
        rows = self.db.rows(
            "look up a session",
            "SELECT id FROM sessions WHERE id = %s OR starts_with(id, %s) "
            "ORDER BY id <> %s, id LIMIT 11",
            (id_or_prefix, id_or_prefix, id_or_prefix),
        )
        matches = [str(r[0]) for r in rows]
        if not matches:
            raise self._not_found(id_or_prefix)
        if matches[0] == id_or_prefix:
            return id_or_prefix
        if len(matches) > 1:
            shown = ", ".join(matches[:10]) + (", …" if len(matches) > 10 else "")
            raise UsageError(
                f"session id prefix {id_or_prefix!r} matches several sessions ({shown}); "
                "type more of the id"
            )
        return matches[0]

    def _read(self, session_id: str, sql: str, params: Sequence[Any]) -> list[Any]:
        def read(conn: Any, _: bool) -> list[Any]:
            if (
                conn.execute("SELECT 1 FROM sessions WHERE id = %s", (session_id,)).fetchone()
                is None
            ):
                raise self._not_found(session_id)
            return list(conn.execute(sql, params).fetchall())

        return self.db.transact("read events", read)


def _put_blobs(conn: Any, blobs: Mapping[str, str]) -> None:
    if blobs:
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO blobs (hash, text) VALUES (%s, %s) ON CONFLICT (hash) DO NOTHING",
                list(blobs.items()),
            )
