"""The SQLite session log: sessions, their append-only records, and what is rebuilt from them.

A session's state is its log. Every append is its own committed transaction (WAL journal,
``synchronous=FULL``), so a record the engine saw written survives a crash of the process.
Things that must happen at most once are keyed in the same transaction: a tool call's start
and its result (by call id), an inbox event's arrival (by event id) and its consumption, a
timer occurrence, a background task's final state. A request is stored by reference
(:class:`~workset.events.records.RequestRef`): the trajectory messages by the seq of their
record, the parts made for one call as content-addressed blobs, so :meth:`SessionLog.request`
rebuilds any call's request byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, TypeAlias, get_args

from workset.context.manifest import Manifest
from workset.errors import (
    EventConsumedError,
    SessionLogError,
    SessionNotFoundError,
    UsageError,
)
from workset.events.inputs import Event
from workset.events.records import (
    AgentUpdated,
    EventReceived,
    HumanAnswered,
    HumanAsked,
    InputAppended,
    LoopEvent,
    ModelCalled,
    RequestRef,
    RunFailed,
    RunFinished,
    RunStarted,
    SessionForked,
    TaskUpdated,
    ToolFinished,
    ToolStarted,
)
from workset.log.codec import EVENT_TYPES, event_from_payload, event_to_payload
from workset.log.manifest_delta import ManifestChain
from workset.log.migrations import migrate
from workset.log.trajectory import Trajectory
from workset.messages import Message, OpenUnit, ToolCall, ToolSpec, from_wire, to_wire
from workset.models.base import ModelRequest

RecordKind: TypeAlias = Literal["external_event", "summary"]
RunStatus: TypeAlias = Literal["finished", "failed", "interrupted", "none"]

RECORD_KINDS: frozenset[str] = frozenset(get_args(RecordKind))
BUSY_TIMEOUT_S = 10.0
_RUN_STATUS: dict[str, RunStatus] = {
    "run_started": "interrupted",
    "run_finished": "finished",
    "run_failed": "failed",
}


def default_db_path() -> Path:
    """``$WORKSET_DB`` when set, else ``~/.local/share/workset/workset.db``."""
    env = os.environ.get("WORKSET_DB")
    if env:
        return Path(env).expanduser()
    from workset.stores.url import default_folder  # stores builds on this module

    return default_folder() / "workset.db"


def new_session_id() -> str:
    """``s`` + 8 hex digits of the current second + 4 random hex digits: sortable, short."""
    return f"s{int(time.time()):08x}{secrets.randbits(16):04x}"


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One row of the log: a loop ``event``, or a ``record`` for the non-loop kinds."""

    seq: int
    session_id: str
    kind: str
    at: float
    event: LoopEvent | None = None
    record: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ResumeState:
    """What a resumed run needs: the conversation so far and the tool calls left hanging."""

    messages: tuple[Message, ...]
    open_unit: OpenUnit | None  # the last assistant message, when its calls lack results
    started_unfinished: tuple[ToolCall, ...]  # started, never finished: may have side effects
    finished_call_ids: frozenset[str]
    last_run_status: RunStatus


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: str
    created_at: float
    title: str
    model: str
    workspace: str
    n_events: int
    status: RunStatus  # of the last run; "interrupted" also while a run is in progress
    last_event_at: float | None
    config: dict[str, Any] | None = None


class SessionLog:
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

    def __enter__(self) -> SessionLog:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- writing --------------------------------------------------------------------------

    def create_session(
        self,
        *,
        title: str,
        workspace: str,
        model: str,
        config: Mapping[str, Any] | None = None,
        session_id: str | None = None,
    ) -> str:
        """Record a new session and return its id.

        ``session_id`` names it (letters, digits, ``.``, ``_``, ``-``; at most 64), e.g. the
        session a webhook channel delivers to; taken ids raise :class:`UsageError`.
        """
        config_json = None if config is None else _dumps(dict(config), "the session config")
        if session_id is not None:
            check_session_id(session_id)
        for _ in range(20):  # ids collide only for sessions created in the same second
            chosen = session_id or new_session_id()
            with self._write("create a session") as db:
                if _exists(db, chosen):
                    if session_id is not None:
                        raise session_taken(session_id, self.where)
                    continue
                db.execute(
                    "INSERT INTO sessions (id, created_at, title, workspace, model, config_json)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (chosen, time.time(), title, workspace, model, config_json),
                )
                return chosen
        raise SessionLogError(f"could not find a free session id in {self.where}; try again")

    def append(self, event: LoopEvent, *, blobs: Mapping[str, str] | None = None) -> int:
        """Record ``event`` durably and return its sequence number.

        Records that happen at most once record nothing the second time and return the
        first one's seq: ``ToolStarted``/``ToolFinished`` per call id, ``EventReceived`` per
        event id (a timer occurrence is one such event), a final ``TaskUpdated`` per task,
        ``HumanAsked``/``HumanAnswered`` per request, a final ``AgentUpdated`` per subagent.
        An ``InputAppended`` (or a ``HumanAnswered`` that took an answer event) consumes its
        events; one already consumed raises
        :class:`~workset.errors.EventConsumedError` and records nothing. ``blobs`` (hash →
        text, from :func:`blob_hash`) are stored in the same transaction.
        """
        fields = stored = event_to_payload(event)
        depth = 0
        if isinstance(event, ModelCalled):  # the manifest as a delta against an earlier one
            stored, depth = self._chain.compact(event.session_id, fields)
        payload = _dumps(stored, f"a {event.kind} event")
        consumes = event.event_ids if isinstance(event, InputAppended | HumanAnswered) else ()
        seq = self._insert(
            event.session_id, event.kind, event.at, _once_key(event), payload, consumes, blobs
        )
        if isinstance(event, ModelCalled):
            self._chain.wrote(event.session_id, seq, fields, depth)
        return seq

    def append_record(
        self,
        session_id: str,
        kind: RecordKind,
        payload: Mapping[str, Any],
        *,
        at: float | None = None,
    ) -> int:
        """Record a non-loop entry (an external event, a summary) as a JSON object."""
        if kind not in RECORD_KINDS:
            raise UsageError(f"record kind must be one of {sorted(RECORD_KINDS)}, not {kind!r}")
        text = _dumps(dict(payload), f"the {kind} record")
        return self._insert(session_id, kind, time.time() if at is None else at, None, text)

    def subscriber(self) -> Callable[[LoopEvent], None]:
        """The callable to hand to the loop's event bus."""

        def record(event: LoopEvent) -> None:
            self.append(event)

        return record

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

    def events(
        self, session_id: str, *, after_seq: int = 0, kinds: Iterable[str] | None = None
    ) -> list[StoredEvent]:
        """The session's events after ``after_seq``, in order, optionally of some kinds only."""
        sql = "SELECT seq, kind, at, payload FROM events WHERE session_id = ? AND seq > ?"
        params: list[Any] = [session_id, after_seq]
        if kinds is not None:
            wanted = tuple(kinds)
            unknown = set(wanted) - set(EVENT_TYPES) - RECORD_KINDS
            if unknown:
                known = sorted({*EVENT_TYPES, *RECORD_KINDS})
                raise UsageError(f"unknown event kinds {sorted(unknown)}; known kinds: {known}")
            if not wanted:  # no kind asked for: nothing (PostgreSQL refuses an empty IN ())
                return []
            sql += f" AND kind IN ({', '.join('?' * len(wanted))})"
            params.extend(wanted)
        rows = self._read(session_id, sql + " ORDER BY seq", params)
        return [self._decode(session_id, *row) for row in rows]

    def trajectory(self, session_id: str) -> Trajectory:
        """The session's trajectory folded from its records (a fork starts from its parent's)."""
        trajectory = Trajectory()
        stored = self.events(session_id, kinds=_TRAJECTORY_KINDS)
        if stored and isinstance(stored[0].event, SessionForked):
            fork = stored[0].event
            trajectory = self._trajectory_through(fork.parent_id, fork.through_seq)
        try:
            for item in stored:
                assert item.event is not None
                trajectory.add(item.seq, item.event)
        except SessionLogError as exc:
            raise SessionLogError(
                f"session {session_id!r} in {self.where} cannot be resumed: its recorded "
                f"messages do not form a valid conversation ({exc}). Start a new session."
            ) from exc
        return trajectory

    def _trajectory_through(self, session_id: str, through_seq: int) -> Trajectory:
        """A session's trajectory as of record ``through_seq`` (a fork's starting point)."""
        stored = self.events(session_id, kinds=_TRAJECTORY_KINDS)
        cut = Trajectory()
        if stored and isinstance(stored[0].event, SessionForked):
            fork = stored[0].event
            cut = self._trajectory_through(fork.parent_id, min(fork.through_seq, through_seq))
        for item in stored:
            if item.seq > through_seq:
                break
            assert item.event is not None
            cut.add(item.seq, item.event)
        return cut

    def messages(self, session_id: str) -> list[Message]:
        """The conversation rebuilt in recorded order: inputs, assistant messages, results."""
        messages, _ = self.trajectory(session_id).all_messages()
        return messages

    def pending_events(self, session_id: str) -> list[tuple[int, Event]]:
        """Inbox events received and not yet consumed, in arrival order, with their seqs."""
        sql = (
            "SELECT e.seq, e.kind, e.at, e.payload FROM events e WHERE e.session_id = ? "
            "AND e.kind = 'event_received' AND NOT EXISTS (SELECT 1 FROM consumed_events c "
            "WHERE c.session_id = e.session_id AND c.event_id = e.call_id) ORDER BY e.seq"
        )
        rows = self._read(session_id, sql, [session_id])
        found = []
        for row in rows:
            stored = self._decode(session_id, *row)
            assert isinstance(stored.event, EventReceived)
            found.append((stored.seq, stored.event.event))
        return found

    def consumed(self, session_id: str) -> frozenset[str]:
        """Ids of the inbox events the session has consumed."""
        sql = "SELECT event_id FROM consumed_events WHERE session_id = ?"
        return frozenset(str(r[0]) for r in self._read(session_id, sql, [session_id]))

    def record(self, seq: int) -> StoredEvent:
        """The record with sequence number ``seq``, of whichever session."""
        with self._reading("read a record"):
            row = self._db.execute(
                "SELECT session_id, seq, kind, at, payload FROM events WHERE seq = ?", (seq,)
            ).fetchone()
        if row is None:
            raise SessionLogError(f"no record {seq} in {self.where}")
        return self._decode(row[0], *row[1:])

    def request(self, seq: int) -> ModelRequest:
        """The request of the model call recorded at ``seq``, rebuilt byte for byte."""
        stored = self.record(seq)
        event = stored.event
        if not isinstance(event, ModelCalled) or event.request is None:
            raise UsageError(
                f"record {seq} is not a model call with a stored request (kind {stored.kind}); "
                "requests are stored by sessions recorded with workset's session engine"
            )
        return self.rebuild(event.request)

    def rebuild(self, ref: RequestRef) -> ModelRequest:
        """The request ``ref`` refers to."""
        messages: list[Message] = [from_wire({"role": "system", "content": self.blob(ref.system)})]
        for part in ref.messages:
            if part.blob:
                messages.append(from_wire(json.loads(self.blob(part.blob))))
            else:
                messages.append(_message_of(self.record(part.seq), part.seq))
        tools = tuple(
            ToolSpec(f["name"], f["description"], f["parameters"])
            for f in (t["function"] for t in json.loads(self.blob(ref.tools)))
        )
        schema = json.loads(self.blob(ref.json_schema)) if ref.json_schema else None
        return ModelRequest(tuple(messages), tools, ref.max_tokens, ref.temperature, schema)

    def resume_state(self, session_id: str) -> ResumeState:
        """Where the session stopped: its messages, unanswered calls and last run status."""
        trajectory = self.trajectory(session_id)
        messages, _ = trajectory.all_messages()
        started: dict[str, ToolCall] = {}
        finished: set[str] = set()
        status: RunStatus = "none"
        for stored in self.events(session_id, kinds=_RESUME_KINDS):
            match stored.event:
                case ToolStarted(call=call):
                    started.setdefault(call.id, call)
                case ToolFinished(call=call):
                    finished.add(call.id)
                case RunStarted():
                    status = "interrupted"
                case RunFinished():
                    status = "finished"
                case RunFailed():
                    status = "failed"
        return ResumeState(
            messages=tuple(messages),
            open_unit=trajectory.open_unit,
            started_unfinished=tuple(c for i, c in started.items() if i not in finished),
            finished_call_ids=frozenset(finished),
            last_run_status=status,
        )

    def manifests(self, session_id: str) -> list[tuple[int, Manifest]]:
        """The manifest of every model call, with the sequence number of its event."""
        return [
            (stored.seq, stored.event.manifest)
            for stored in self.events(session_id, kinds=("model_called",))
            if isinstance(stored.event, ModelCalled)
        ]

    def last_seq(self, session_id: str) -> int:
        """The sequence number of the session's last event, 0 when it has none."""
        sql = "SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = ?"
        return int(self._read(session_id, sql, [session_id])[0][0])

    def sessions(self, limit: int | None = 50) -> list[SessionInfo]:
        """The most recent sessions, newest first (all of them when ``limit`` is None)."""
        sql = _SESSION_INFO_SQL + " ORDER BY s.created_at DESC, s.id DESC LIMIT ?"
        with self._reading("list sessions"):
            rows = self._db.execute(sql, (-1 if limit is None else limit,)).fetchall()
        return [_session_info(row) for row in rows]

    def get_session(self, id_or_prefix: str) -> SessionInfo:
        """The session with this id, or the only one whose id starts with it."""
        session_id = self.resolve(id_or_prefix)
        with self._reading("read a session"):
            row = self._db.execute(_SESSION_INFO_SQL + " WHERE s.id = ?", (session_id,)).fetchone()
        return _session_info(row)

    def resolve(self, id_or_prefix: str) -> str:
        """The full id of the session ``id_or_prefix`` names; raises when none or several."""
        if not id_or_prefix:
            raise UsageError("a session id is empty; list sessions with `workset sessions`")
        with self._reading("look up a session"):
            if _exists(self._db, id_or_prefix):
                return id_or_prefix
            rows = self._db.execute(
                "SELECT id FROM sessions WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT 11",
                (len(id_or_prefix), id_or_prefix),
            ).fetchall()
        matches = [str(r[0]) for r in rows]
        if not matches:
            raise self._not_found(id_or_prefix)
        if len(matches) > 1:
            shown = ", ".join(matches[:10]) + (", …" if len(matches) > 10 else "")
            raise UsageError(
                f"session id prefix {id_or_prefix!r} matches several sessions ({shown}); "
                "type more of the id"
            )
        return matches[0]

    # -- helpers --------------------------------------------------------------------------

    def _decode(self, session_id: str, seq: int, kind: str, at: float, text: str) -> StoredEvent:
        try:
            payload = json.loads(text)
            if kind == "model_called":
                payload = self._chain.expand(session_id, seq, payload)
            if kind in RECORD_KINDS:
                return StoredEvent(seq, session_id, kind, at, record=payload)
            return StoredEvent(seq, session_id, kind, at, event=event_from_payload(kind, payload))
        except (ValueError, SessionLogError) as exc:
            raise SessionLogError(
                f"cannot read event {seq} of session {session_id!r} in {self.where}: {exc}"
            ) from exc

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

    def _not_found(self, session_id: str) -> SessionNotFoundError:
        return SessionNotFoundError(
            f"no session {session_id!r} in {self.where}; list sessions with `workset sessions`"
        )


_TRAJECTORY_KINDS = (
    "session_forked",
    "run_started",
    "input_appended",
    "model_called",
    "tool_finished",
)
_RESUME_KINDS = ("run_started", "tool_started", "tool_finished", "run_finished", "run_failed")


def blob_hash(text: str) -> str:
    """The content address of ``text`` in the blob store."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def message_blob(message: Message) -> tuple[str, str]:
    """(hash, text) of a message made for one call: its wire JSON, exactly reversible."""
    text = json.dumps(to_wire(message, keep_reasoning=True), ensure_ascii=True, sort_keys=True)
    return blob_hash(text), text


def tools_blob(tools: Sequence[ToolSpec]) -> tuple[str, str]:
    text = json.dumps([t.to_wire() for t in tools], ensure_ascii=True)
    return blob_hash(text), text


def _message_of(stored: StoredEvent, seq: int) -> Message:
    trajectory = Trajectory()
    event = stored.event
    if isinstance(event, ModelCalled):
        return event.message
    if isinstance(event, ToolFinished):
        return event.result
    if event is not None:
        added = trajectory.add(seq, event)
        if added is not None:
            return added
    raise SessionLogError(f"record {seq} ({stored.kind}) holds no trajectory message")


def _once_key(event: LoopEvent) -> str | None:
    """What makes ``event`` happen at most once in its session (None: nothing)."""
    match event:
        case ToolStarted(call=call) | ToolFinished(call=call):
            return call.id
        case EventReceived(event=inbound):
            return inbound.id
        case TaskUpdated(task_id=task_id) if event.final:
            return task_id
        case HumanAsked(request_id=request_id) | HumanAnswered(request_id=request_id):
            return request_id
        case AgentUpdated(agent_id=agent_id) if event.final:
            return agent_id
    return None


_SESSION_INFO_SQL = """
    SELECT s.id, s.created_at, s.title, s.model, s.workspace, s.config_json,
        (SELECT COUNT(*) FROM events e WHERE e.session_id = s.id),
        (SELECT e.at FROM events e WHERE e.session_id = s.id ORDER BY e.seq DESC LIMIT 1),
        (SELECT e.kind FROM events e WHERE e.session_id = s.id
            AND e.kind IN ('run_started', 'run_finished', 'run_failed')
            ORDER BY e.seq DESC LIMIT 1)
    FROM sessions s
"""


def _session_info(row: Sequence[Any]) -> SessionInfo:
    sid, created_at, title, model, workspace, config_json, n_events, last_at, run_kind = row
    status: RunStatus = "none" if run_kind is None else _RUN_STATUS[run_kind]
    return SessionInfo(
        id=sid,
        created_at=created_at,
        title=title,
        model=model,
        workspace=workspace,
        n_events=n_events,
        status=status,
        last_event_at=last_at,
        config=None if config_json is None else json.loads(config_json),
    )


_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def session_taken(session_id: str, where: str) -> UsageError:
    """The error for a chosen session id that ``where`` already holds."""
    return UsageError(
        f"session {session_id!r} already exists in {where}; send events to it, or pick another id"
    )


def check_session_id(session_id: str) -> None:
    if not _SESSION_ID.fullmatch(session_id):
        raise UsageError(
            f"session id {session_id!r} is not usable: use 1 to 64 letters, digits, '.', '_' "
            "or '-', starting with a letter or digit (e.g. 'inbox')"
        )


def _exists(db: sqlite3.Connection, session_id: str) -> bool:
    return db.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is not None


def _dumps(value: dict[str, Any], what: str) -> str:
    try:  # ASCII escapes keep any Python string storable, lone surrogates included
        return json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{what} must be JSON-serializable: {exc}") from exc


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
        db.execute("PRAGMA journal_mode = WAL")
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
