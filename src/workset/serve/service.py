"""Sessions served as long-lived actors: events in at any time, records out as they happen.

A :class:`Service` holds one agent's sessions while it runs. A session is opened on its first
event and kept open: it runs :meth:`~workset.session.engine.Session.serve` in the service's
task group, so it acts whenever something arrives (an event, a finished background task, a
timer) and waits otherwise. At start the service opens every session that has events waiting
in its inbox or active timers, so what arrived while nothing ran (``workset send`` with no
server) is taken, and timers fire.

Everything a client sees comes from the log: :meth:`Service.records` tails a session's
records from a sequence number (woken by the agent's event bus, so it never polls), and the
status is folded from the same records. :meth:`Service.close` stops it all: no new event is
accepted, running steps are cancelled. What a cancelled step had recorded stays; events not
yet consumed stay in the inbox for the next start (the engine's recovery takes it from there).

Refusals are :class:`Refused` with the HTTP status the API answers and a message saying what
to do; nothing is recorded for a refused request.
"""

from __future__ import annotations

import sys
import time
import traceback
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import anyio
from anyio.abc import TaskGroup

from workset.errors import SessionNotFoundError, UsageError
from workset.events import Event
from workset.log.codec import event_to_payload
from workset.log.store import SessionInfo, StoredEvent
from workset.loop.settings import RunResult
from workset.serve.watch import Changes, serve_session, until_idle
from workset.session.agent import Agent
from workset.session.engine import Session
from workset.session.state import SessionState
from workset.stores.protocols import SessionStore
from workset.triggers.webhook import EVENT_ID_HEADER, Channel, HookRefused, hook_event, verify

HEARTBEAT_S = 15.0  # a stream says it is alive this often when nothing happens


class Refused(UsageError):
    """A request the service does not take (or a server refused, for a client); ``status``
    is the HTTP status, the message says what to do."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Delivery:
    """What became of a delivered event: the strategy the router chose (``duplicate`` when
    that event id was delivered before: nothing was recorded twice)."""

    session_id: str
    event_id: str
    strategy: str

    def to_json(self) -> dict[str, str]:
        return {"session": self.session_id, "event_id": self.event_id, "strategy": self.strategy}


@dataclass
class _Served:
    session_id: str
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    ready: anyio.Event = field(default_factory=anyio.Event)
    session: Session | None = None
    stopped: str = ""  # why it stopped serving; empty while it serves
    last: RunResult | None = None


def accepts_events(info: SessionInfo) -> None:
    """Raise :class:`UsageError` for a session that takes no events (a side session)."""
    parent = (info.config or {}).get("side_of")
    if parent:
        raise UsageError(
            f"session {info.id} is a side session that answered one question for session "
            f"{parent} and is finished; send events to {parent} instead"
        )


class Service:
    """The sessions of one agent, served; use ``async with service.running():``."""

    def __init__(
        self,
        agent: Agent,
        *,
        channels: Sequence[Channel] = (),
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.agent = agent
        self.log: SessionStore = agent.log
        self.channels = {c.name: c for c in channels}
        self.clock = clock
        self.changes = Changes()
        self.closing = anyio.Event()
        self._served: dict[str, _Served] = {}
        self._group: TaskGroup | None = None
        agent.bus.subscribe(self.changes)
        for channel in channels:  # a shared secret never reaches a context or the log
            agent.secrets.register(f"channel {channel.name} secret", channel.secret.decode())

    # -- lifecycle ------------------------------------------------------------------------

    @asynccontextmanager
    async def running(self, *, resume: bool = True) -> AsyncIterator[Service]:
        """Serve while the block runs; ``resume`` opens the sessions that have work waiting."""
        async with anyio.create_task_group() as group:
            self._group = group
            if resume:
                for session_id in self.waiting_sessions():
                    self._open(session_id)
            try:
                yield self
            finally:
                self.close()
        self._group = None

    def close(self) -> None:
        """Accept nothing more, end the streams, cancel every running step."""
        self.closing.set()
        for served in self._served.values():
            served.scope.cancel()
        self.changes.wake_all()

    def waiting_sessions(self) -> list[str]:
        """Sessions with inbox events not yet consumed, or with active timers."""
        found = []
        for info in self.log.sessions(limit=None):
            if (info.config or {}).get("side_of"):
                continue
            timers = bool(self.log.events(info.id, kinds=("timer_set",)))
            if self.log.pending_events(info.id) or (
                timers and SessionState.load(self.log, info.id).timers
            ):
                found.append(info.id)
        return found

    def _open(self, session_id: str) -> _Served:
        served = self._served.get(session_id)
        if served is None:
            if self._group is None:
                raise UsageError("the service is not running: use `async with service.running()`")
            served = self._served[session_id] = _Served(session_id)
            self._group.start_soon(self._serve, served)
        return served

    async def _serve(self, served: _Served) -> None:
        def ran(result: RunResult) -> None:
            served.last = result

        with served.scope:
            try:
                async with self.agent.session(served.session_id) as session:
                    served.session = session
                    served.ready.set()  # a crashed step is finished by the next run
                    await serve_session(session, self.changes, ran)
            except Exception as exc:  # one session's failure must not stop the others
                served.stopped = f"{type(exc).__name__}: {exc}"
                print(f"session {served.session_id} stopped serving:", file=sys.stderr)
                traceback.print_exc(file=sys.stderr)
            finally:
                served.ready.set()
                self.changes.wake(served.session_id)

    # -- events in ------------------------------------------------------------------------

    def create_session(self, *, session_id: str | None = None, title: str = "") -> str:
        """A new session (not opened until its first event)."""
        self._accepting()
        if session_id is not None and self._exists(session_id):
            raise Refused(
                409, f"session {session_id!r} already exists; send events to it, or pick another id"
            )
        return self.agent.new_session(title=title, session_id=session_id)

    async def deliver(self, session: str, event: Event) -> Delivery:
        """Hand ``event`` to the session (id or unique prefix), opening it if need be."""
        self._accepting()
        session_id = self.resolve(session)
        try:
            accepts_events(self.log.get_session(session_id))
        except UsageError as exc:
            raise Refused(409, str(exc)) from exc
        served = self._open(session_id)
        await served.ready.wait()
        self._accepting()  # the service may have begun closing meanwhile
        if served.session is None or served.stopped:
            raise Refused(
                409,
                f"session {session_id} stopped serving ({served.stopped or 'closed'}); nothing "
                f"was recorded. Its log is intact: restart workset serve, or run "
                f"`workset resume {session_id}`",
            )
        strategy = await served.session.deliver(self._redacted(event))
        return Delivery(session_id, event.id, strategy)

    def _redacted(self, event: Event) -> Event:
        """``event`` with every registered secret removed from its content and sender, so
        neither the log nor a request ever holds one (a webhook may quote a key)."""
        redact = self.agent.secrets.redact

        def clean(value: Any) -> Any:
            if isinstance(value, str):
                return redact(value)
            if isinstance(value, list):
                return [clean(v) for v in value]
            if isinstance(value, Mapping):
                return {k: clean(v) for k, v in value.items()}
            return value

        return replace(event, content=clean(event.content), sender=redact(event.sender))

    async def hook(self, name: str, headers: Mapping[str, str], body: bytes) -> Delivery:
        """A ``POST /hooks/{name}`` request: verified, turned into an event, delivered."""
        self._accepting()
        channel = self.channels.get(name)
        if channel is None:
            known = ", ".join(sorted(self.channels)) or "none"
            raise Refused(
                404,
                f"no channel {name!r} is configured (configured: {known}); add a [[channels]] "
                "block with this name to workset.toml and restart workset serve",
            )
        try:
            verify(channel, headers, body, self.clock())
            event = hook_event(channel, body, event_id=headers.get(EVENT_ID_HEADER, ""))
        except HookRefused as exc:
            raise Refused(exc.status, f"{exc}; nothing was recorded") from exc
        if not self._exists(channel.session):
            self.agent.new_session(title=f"channel {name}", session_id=channel.session)
        return await self.deliver(channel.session, event)

    def _accepting(self) -> None:
        if self.closing.is_set():
            raise Refused(
                503,
                "workset serve is shutting down and took nothing; send it again once it runs "
                "again, or use `workset send`, which queues in the session's inbox when no "
                "server runs",
            )

    # -- what clients read ----------------------------------------------------------------

    def resolve(self, session: str) -> str:
        try:
            return self.log.resolve(session)
        except SessionNotFoundError as exc:
            raise Refused(404, f"{exc} (or GET /sessions)") from exc

    def _exists(self, session_id: str) -> bool:
        try:
            self.log.resolve(session_id)
        except SessionNotFoundError:
            return False
        return True

    def _session(self, session_id: str) -> Session:
        """The served session, or a view of it folded from the log (nothing is started)."""
        served = self._served.get(session_id)
        if served is not None and served.session is not None and not served.stopped:
            return served.session
        return Session(self.agent, SessionState.load(self.log, session_id))

    def sessions(self, limit: int = 50) -> list[dict[str, Any]]:
        return [self._summary(info) for info in self.log.sessions(limit=limit)]

    def status(self, session: str) -> dict[str, Any]:
        session_id = self.resolve(session)
        info = self.log.get_session(session_id)
        served = self._served.get(session_id)
        view = self._session(session_id)
        live = served is not None and served.session is view
        last = served.last if served is not None else None
        tasks = view.list_tasks()
        return {
            **self._summary(info),
            "served": live,
            "stopped": served.stopped if served is not None else "",
            "busy": view.busy,
            "idle": view.idle if live else not view.state.pending,
            "pending": list(view.state.pending),
            "last_seq": view.state.last_seq,
            "running_tasks": sum(1 for t in tasks if not t.final),
            "timers": len(view.list_timers()),
            "last_result": None if last is None else _result_json(last),
        }

    def tasks(self, session: str) -> dict[str, Any]:
        view = self._session(self.resolve(session))
        return {
            "tasks": [_plain(t) for t in view.list_tasks()],
            "timers": [_plain(t) for t in view.list_timers()],
        }

    async def wait_idle(self, session: str) -> dict[str, Any]:
        """The status once the session has nothing left to do (or it stopped serving, or the
        service is closing). A session with work waiting is served now."""
        session_id = self.resolve(session)
        served = self._served.get(session_id)
        if served is None and self.log.pending_events(session_id):
            served = self._open(session_id)
        if served is not None:
            await served.ready.wait()
            if served.session is not None:
                done = served  # bound for the closure

                def given_up() -> bool:
                    return self.closing.is_set() or bool(done.stopped)

                await until_idle(served.session, self.changes, given_up)
        return self.status(session_id)

    async def records(self, session: str, after_seq: int = 0) -> AsyncIterator[StoredEvent | None]:
        """The session's records after ``after_seq`` as they are appended, until the service
        closes; ``None`` now and then while nothing happens (a heartbeat)."""
        session_id = self.resolve(session)
        cursor = after_seq
        while not self.closing.is_set():
            changed = self.changes.next(session_id)
            for stored in self.log.events(session_id, after_seq=cursor):
                cursor = stored.seq
                yield stored
            with anyio.move_on_after(HEARTBEAT_S) as waited:
                await changed.wait()
            if waited.cancelled_caught:
                yield None

    def _summary(self, info: SessionInfo) -> dict[str, Any]:
        return {
            "id": info.id,
            "title": info.title,
            "created_at": info.created_at,
            "model": info.model,
            "run_status": info.status,
            "records": info.n_events,
            "side_of": (info.config or {}).get("side_of", ""),
        }


def record_json(stored: StoredEvent) -> dict[str, Any]:
    """A log record as the stream sends it."""
    body = event_to_payload(stored.event) if stored.event is not None else (stored.record or {})
    return {"seq": stored.seq, "kind": stored.kind, "at": stored.at, "record": body}


def _result_json(result: RunResult) -> dict[str, Any]:
    return {
        "run_id": result.run_id,
        "status": result.status,
        "answer": result.answer,
        "error": result.error,
        "iterations": result.iterations,
    }


def _plain(view: Any) -> dict[str, Any]:
    return {name: getattr(view, name) for name in view.__dataclass_fields__}


__all__ = [
    "Delivery",
    "Refused",
    "Service",
    "accepts_events",
    "record_json",
]
