"""What every session log does above its database: records in, events, trajectories out.

:class:`SessionLogBase` turns a loop event into the row it is stored as (its JSON payload, a
model call's manifest as a delta, what makes it happen at most once, the inbox events it
consumes) and turns rows back into events, the conversation, the inbox, rebuilt requests and
the state a resumed run starts from. A backend supplies where it lives,
:meth:`~SessionLogBase._insert` (one append, its checks in its transaction),
:meth:`~SessionLogBase._read` (the rows of one statement about a session),
:meth:`~SessionLogBase.record` and :meth:`~SessionLogBase.blob` (by key),
:meth:`~SessionLogBase._add_session` and :meth:`~SessionLogBase._session_ids` (one session row
in, the ids a prefix matches out), and the listing methods of the
:class:`~workset.stores.protocols.SessionStore` protocol.
"""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from workset.context.manifest import Manifest
from workset.errors import SessionLogError, SessionNotFoundError, UsageError
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
from workset.log.records import (
    RECORD_KINDS,
    RecordKind,
    ResumeState,
    RunStatus,
    StoredEvent,
    check_session_id,
    dump_json,
    new_session_id,
    session_taken,
)
from workset.log.requests import rebuild_request
from workset.log.trajectory import Trajectory
from workset.messages import Message, ToolCall
from workset.models.base import ModelRequest


class SessionLogBase(ABC):
    """The engine-neutral part of a session log; subclasses bring the database."""

    _chain: ManifestChain  # model-call manifests stored as deltas (set by the subclass)

    @property
    @abstractmethod
    def where(self) -> str:
        """Where the log lives, as messages name it (a file, a URL)."""

    @abstractmethod
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
        """Append one row in one transaction and return its seq: nothing new (the first
        row's seq) when ``call_id`` is set and a row of this kind has it already; an
        :class:`~workset.errors.EventConsumedError` when one of ``consumes`` was consumed."""

    @abstractmethod
    def _read(self, session_id: str, sql: str, params: Sequence[Any]) -> list[Any]:
        """The rows of ``sql`` (``?`` marks) about ``session_id``; raises when it is unknown."""

    @abstractmethod
    def record(self, seq: int) -> StoredEvent:
        """The record with sequence number ``seq``, of whichever session."""

    @abstractmethod
    def blob(self, digest: str) -> str:
        """The text stored under ``digest``."""

    @abstractmethod
    def _add_session(
        self, session_id: str, title: str, workspace: str, model: str, config_json: str | None
    ) -> bool:
        """Insert the session's row in one transaction; False (nothing written) when a
        session has this id already."""

    @abstractmethod
    def _session_ids(self, id_or_prefix: str) -> list[str]:
        """Up to 11 session ids that start with ``id_or_prefix`` (the id itself among them
        when a session has it)."""

    # -- sessions -------------------------------------------------------------------------

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
        config_json = None if config is None else dump_json(dict(config), "the session config")
        if session_id is not None:
            check_session_id(session_id)
        for _ in range(20):  # ids collide only for sessions created in the same second
            chosen = session_id or new_session_id()
            if self._add_session(chosen, title, workspace, model, config_json):
                return chosen
            if session_id is not None:
                raise session_taken(session_id, self.where)
        raise SessionLogError(f"could not find a free session id in {self.where}; try again")

    def resolve(self, id_or_prefix: str) -> str:
        """The full id of the session ``id_or_prefix`` names; raises when none or several."""
        if not id_or_prefix:
            raise UsageError("a session id is empty; list sessions with `workset sessions`")
        matches = self._session_ids(id_or_prefix)
        if not matches:
            raise self._not_found(id_or_prefix)
        if id_or_prefix in matches:
            return id_or_prefix
        if len(matches) > 1:
            shown = ", ".join(matches[:10]) + (", …" if len(matches) > 10 else "")
            raise UsageError(
                f"session id prefix {id_or_prefix!r} matches several sessions ({shown}); "
                "type more of the id"
            )
        return matches[0]

    # -- writing --------------------------------------------------------------------------

    def append(self, event: LoopEvent, *, blobs: Mapping[str, str] | None = None) -> int:
        """Record ``event`` durably and return its sequence number.

        Records that happen at most once record nothing the second time and return the
        first one's seq: ``ToolStarted``/``ToolFinished`` per call id, ``EventReceived`` per
        event id (a timer occurrence is one such event), a final ``TaskUpdated`` per task,
        ``HumanAsked``/``HumanAnswered`` per request, a final ``AgentUpdated`` per subagent.
        An ``InputAppended`` (or a ``HumanAnswered`` that took an answer event) consumes its
        events; one already consumed raises
        :class:`~workset.errors.EventConsumedError` and records nothing. ``blobs`` (hash →
        text, from :func:`~workset.log.requests.blob_hash`) are stored in the same transaction.
        """
        fields = stored = event_to_payload(event)
        depth = 0
        if isinstance(event, ModelCalled):  # the manifest as a delta against an earlier one
            stored, depth = self._chain.compact(event.session_id, fields)
        payload = dump_json(stored, f"a {event.kind} event")
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
        text = dump_json(dict(payload), f"the {kind} record")
        return self._insert(session_id, kind, time.time() if at is None else at, None, text)

    def subscriber(self) -> Callable[[LoopEvent], None]:
        """The callable to hand to the loop's event bus."""

        def record(event: LoopEvent) -> None:
            self.append(event)

        return record

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
        return rebuild_request(ref, self.blob, self.record)

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
