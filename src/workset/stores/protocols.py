"""The store seams: what the engine, the CLI and the workers need from a backend.

Three protocols, each satisfied by the embedded SQLite classes as they are and by the
PostgreSQL ones in :mod:`workset.stores.postgres`:

- :class:`SessionStore`: the session log with its manifests and request blobs
  (:class:`workset.log.store.SessionLog`). Its guarantees are the contract: a record is
  durable before ``append`` returns (so before anyone sees it); a tool call's start and result
  are kept at most once per call id, an inbox event once per event id, a final task state once
  per task; an event is consumed at most once (``EventConsumedError`` otherwise); within a
  session, records are read in the order they were appended.
- :class:`Inbox`: the part of the session log that holds events between their arrival and a
  safe point (``EventReceived`` records and the consumed-events table).
- :class:`MemoryBackend`: long-term memory records (:class:`workset.memory.store.MemoryStore`).
- :class:`LeaseStore`: named leases with an expiry, so exactly one worker owns a session.

``tests/stores`` runs one conformance suite against every backend.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, Protocol, runtime_checkable

from workset.context.manifest import Manifest
from workset.events.inputs import Event
from workset.events.records import LoopEvent, RequestRef
from workset.log.store import RecordKind, ResumeState, SessionInfo, StoredEvent
from workset.log.trajectory import Trajectory
from workset.memory.store import MemoryRecord
from workset.messages import Message
from workset.models.base import ModelRequest


@runtime_checkable
class Inbox(Protocol):
    """Events received and not yet consumed, by session (arrival order)."""

    def append(self, event: LoopEvent, *, blobs: Mapping[str, str] | None = None) -> int: ...

    def pending_events(self, session_id: str) -> list[tuple[int, Event]]: ...

    def consumed(self, session_id: str) -> frozenset[str]: ...


@runtime_checkable
class SessionStore(Inbox, Protocol):
    """Sessions and their append-only records (see the module docstring for the guarantees)."""

    @property
    def where(self) -> str: ...

    def close(self) -> None: ...

    def __enter__(self) -> SessionStore: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    def create_session(
        self,
        *,
        title: str,
        workspace: str,
        model: str,
        config: Mapping[str, Any] | None = None,
        session_id: str | None = None,
    ) -> str: ...

    def append_record(
        self,
        session_id: str,
        kind: RecordKind,
        payload: Mapping[str, Any],
        *,
        at: float | None = None,
    ) -> int: ...

    def subscriber(self) -> Callable[[LoopEvent], None]: ...

    def put_blobs(self, blobs: Mapping[str, str]) -> None: ...

    def blob(self, digest: str) -> str: ...

    def events(
        self, session_id: str, *, after_seq: int = 0, kinds: Iterable[str] | None = None
    ) -> list[StoredEvent]: ...

    def trajectory(self, session_id: str) -> Trajectory: ...

    def messages(self, session_id: str) -> list[Message]: ...

    def record(self, seq: int) -> StoredEvent: ...

    def request(self, seq: int) -> ModelRequest: ...

    def rebuild(self, ref: RequestRef) -> ModelRequest: ...

    def resume_state(self, session_id: str) -> ResumeState: ...

    def manifests(self, session_id: str) -> list[tuple[int, Manifest]]: ...

    def last_seq(self, session_id: str) -> int: ...

    def sessions(self, limit: int | None = 50) -> list[SessionInfo]: ...

    def get_session(self, id_or_prefix: str) -> SessionInfo: ...

    def resolve(self, id_or_prefix: str) -> str: ...


@runtime_checkable
class LeaseStore(Protocol):
    """Named leases: at most one holder at a time, until it releases or its lease expires.

    Times are unix seconds from the caller's clock (workers on several machines need their
    clocks in step, as NTP keeps them, to well under the lease length).
    """

    @property
    def where(self) -> str: ...

    def acquire(self, name: str, holder: str, ttl_s: float, now: float) -> bool:
        """Take ``name`` if it is free, expired or already ``holder``'s; True when held."""
        ...

    def renew(self, names: Sequence[str], holder: str, ttl_s: float, now: float) -> frozenset[str]:
        """Extend ``holder``'s leases in one step; returns those still theirs. A name missing
        from the answer expired and was taken: stop acting on what it protects."""
        ...

    def release(self, name: str, holder: str) -> None: ...

    def holder(self, name: str, now: float) -> str | None: ...

    def expired(self, now: float, prefix: str = "", limit: int = 100) -> list[str]:
        """Names whose lease ran out without a release: their holder died."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class MemoryBackend(Protocol):
    """Long-term memory records with provenance (see :mod:`workset.memory.store`)."""

    def close(self) -> None: ...

    def now(self) -> float: ...

    def add(
        self,
        *,
        subject: str,
        tenant: str,
        purpose: str,
        text: str,
        source: str,
        provenance: str,
        expires_at: float | None = None,
        created_at: float | None = None,
        pinned: bool = False,
        derived_from_untrusted: bool = False,
    ) -> MemoryRecord: ...

    def get(self, memory_id: str) -> MemoryRecord | None: ...

    def records(self, tenant: str, subject: str) -> list[MemoryRecord]: ...

    def quarantined(self, tenant: str | None = None) -> list[MemoryRecord]: ...

    def search(
        self, query: str, tenant: str, subject: str, limit: int = 10
    ) -> list[MemoryRecord]: ...

    def find_pinned(self, tenant: str, subject: str, text: str) -> MemoryRecord | None: ...

    def delete(self, memory_id: str) -> bool: ...

    def quarantine(self, memory_id: str) -> MemoryRecord: ...

    def release(self, memory_id: str, *, approved_by: str) -> MemoryRecord: ...
