"""The session log in PostgreSQL: the same records, keys and guarantees as the SQLite log.

:class:`PostgresSessionLog` keeps everything of :class:`~workset.log.store.SessionLog` that
does not touch the connection (decoding records, folding trajectories, rebuilding requests,
resume state, and the read statements, run through :meth:`PostgresSessionLog._read`: what
:class:`~workset.log.base.SessionLogBase` holds) and replaces the writes. How the guarantees
hold here:

- an append is one call of the server-side function ``workset_append`` (one statement, one
  transaction, one round trip), committed before :meth:`append` returns;
- it first locks its session's row (``SELECT … FOR UPDATE``), so appends to one session are
  serialized: sequence numbers grow in commit order within a session, and the at-most-once
  checks (a call id's start and result, an event id, a final task state, consumed events)
  cannot race; the unique indexes back them up;
- each append carries a random token; when the connection breaks and the append is retried,
  the function first looks for the token, so a commit that landed just before the break is
  not recorded twice;
- UPDATE and DELETE on ``events`` and ``consumed_events`` are refused by triggers.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Any

from workset.errors import EventConsumedError, SessionLogError
from workset.log.manifest_delta import ManifestChain
from workset.log.records import (
    SESSION_INFO_SQL,
    SessionInfo,
    StoredEvent,
    session_info,
)
from workset.log.store import SessionLog
from workset.stores.postgres.db import PostgresDatabase
from workset.stores.postgres.schema import migrate

_APPEND_ONLY = """
CREATE FUNCTION workset_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END $$
"""

# One append, server-side: the checks and inserts of SessionLog._insert in one statement (its
# own transaction), so an append costs one round trip and one commit. WS404: no such session;
# WS409: events already consumed (their ids and seqs, "id@seq,...").
_APPEND = """
CREATE FUNCTION workset_append(
    p_session TEXT, p_kind TEXT, p_at DOUBLE PRECISION, p_call TEXT, p_payload TEXT,
    p_token TEXT, p_consumes TEXT[], p_hashes TEXT[], p_texts TEXT[]
) RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    found_seq BIGINT;
    taken TEXT;
BEGIN
    SELECT seq INTO found_seq FROM events WHERE token = p_token;
    IF FOUND THEN
        RETURN found_seq;  -- a retry of an append that was committed
    END IF;
    PERFORM 1 FROM sessions WHERE id = p_session FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'WS404', MESSAGE = p_session;
    END IF;
    IF p_call IS NOT NULL THEN
        SELECT seq INTO found_seq FROM events
            WHERE session_id = p_session AND kind = p_kind AND call_id = p_call;
        IF FOUND THEN
            RETURN found_seq;
        END IF;
    END IF;
    IF cardinality(p_consumes) > 0 THEN
        SELECT string_agg(event_id || '@' || seq, ',' ORDER BY event_id) INTO taken
            FROM consumed_events WHERE session_id = p_session AND event_id = ANY(p_consumes);
        IF taken IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'WS409', MESSAGE = taken;
        END IF;
    END IF;
    INSERT INTO blobs (hash, text) SELECT h, t FROM unnest(p_hashes, p_texts) AS b(h, t)
        ON CONFLICT (hash) DO NOTHING;
    INSERT INTO events (session_id, kind, at, call_id, payload, token)
        VALUES (p_session, p_kind, p_at, p_call, p_payload, p_token) RETURNING seq INTO found_seq;
    INSERT INTO consumed_events (session_id, event_id, seq)
        SELECT p_session, e, found_seq FROM unnest(p_consumes) AS e;
    RETURN found_seq;
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
    [_APPEND],  # 2: one append in one round trip
]


class PostgresSessionLog(SessionLog):
    """Sessions and their append-only records in one PostgreSQL database."""

    def __init__(self, dsn: str, *, database: PostgresDatabase | None = None) -> None:
        import psycopg

        self._psycopg = psycopg
        self._chain = ManifestChain(self.record)
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

    def _add_session(
        self, session_id: str, title: str, workspace: str, model: str, config_json: str | None
    ) -> bool:
        def insert(conn: Any, _: bool) -> bool:
            cursor = conn.execute(
                "INSERT INTO sessions (id, created_at, title, workspace, model, config_json) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING",
                (session_id, time.time(), title, workspace, model, config_json),
            )
            return bool(cursor.rowcount == 1)

        return self.db.transact("create a session", insert)

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
        hashes, texts = list((blobs or {}).keys()), list((blobs or {}).values())
        params = (session_id, kind, at, call_id, payload, token, list(consumes), hashes, texts)

        def write(conn: Any, _: bool) -> int:
            try:  # a retry finds its own token if the first attempt was committed
                row = conn.execute(
                    "SELECT workset_append(%s, %s, %s, %s, %s, %s, %s, %s, %s)", params
                ).fetchone()
            except self._psycopg.Error as exc:
                if exc.sqlstate == "WS404":
                    raise self._not_found(session_id) from None
                if exc.sqlstate == "WS409":
                    taken = [t.partition("@") for t in str(exc.diag.message_primary).split(",")]
                    raise EventConsumedError(
                        f"events {[t[0] for t in taken]} of session {session_id} were already "
                        f"consumed (records {[int(t[2]) for t in taken]}); another worker may "
                        "be serving this session. Reload its state and go on."
                    ) from None
                raise
            return int(row[0])

        return self.db.transact(f"append a {kind} event", write, transaction=False)

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

    def sessions(self, limit: int | None = 50) -> list[SessionInfo]:
        sql = SESSION_INFO_SQL + " ORDER BY s.created_at DESC, s.id DESC LIMIT %s"
        return [session_info(row) for row in self.db.rows("list sessions", sql, (limit,))]

    def get_session(self, id_or_prefix: str) -> SessionInfo:
        session_id = self.resolve(id_or_prefix)
        sql = SESSION_INFO_SQL + " WHERE s.id = %s"
        return session_info(self.db.rows("read a session", sql, (session_id,))[0])

    def _session_ids(self, id_or_prefix: str) -> list[str]:
        rows = self.db.rows(
            "look up a session",
            "SELECT id FROM sessions WHERE id = %s OR starts_with(id, %s) "
            "ORDER BY id <> %s, id LIMIT 11",
            (id_or_prefix, id_or_prefix, id_or_prefix),
        )
        return [str(r[0]) for r in rows]

    def _read(self, session_id: str, sql: str, params: Sequence[Any]) -> list[Any]:
        """Rows of one statement about a session, in one round trip that also says whether
        the session exists (no row at all: it does not; one row of NULLs: nothing matched).

        ``sql`` is the SQLite log's own (``events``, ``pending_events``, ``consumed``,
        ``last_seq`` are inherited): plain SQL with ``?`` marks, which become psycopg's
        ``%s`` (no statement of the log has a literal ``?``)."""
        wrapped = (
            f"SELECT q.* FROM sessions s LEFT JOIN LATERAL ({sql.replace('?', '%s')}) q "
            "ON true WHERE s.id = %s ORDER BY 1"
        )
        rows = self.db.rows("read events", wrapped, [*params, session_id])
        if not rows:
            raise self._not_found(session_id)
        return [r for r in rows if r[0] is not None]


def _put_blobs(conn: Any, blobs: Mapping[str, str]) -> None:
    if blobs:
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO blobs (hash, text) VALUES (%s, %s) ON CONFLICT (hash) DO NOTHING",
                list(blobs.items()),
            )
