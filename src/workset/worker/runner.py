"""A worker: serves the sessions it holds a lease on, from the shared stores and the intake.

Many workers share one session log (PostgreSQL) and one intake (Redis Streams). Each one:

- **takes in** deliveries: appends each event to its session's inbox in the log (durable,
  once per event id), then acknowledges it; a session nobody owns is leased and opened here,
  one owned elsewhere gets its owner woken;
- **owns** sessions through leases (``session:<id>`` in the lease store) renewed every third
  of their length; a session whose lease was lost is closed at once. An owned session runs as
  the engine's long-lived actor (:meth:`~workset.session.engine.Session.serve`) and, once idle
  for ``idle_close_s``, is closed and its lease released, so sessions move between workers;
- **recovers** what dead workers left: sessions whose lease expired (the engine finishes an
  interrupted unit without re-running a call that may have side effects) and intake entries
  they took but never acknowledged (:meth:`~workset.intake.base.Intake.reclaim`).

The worker's own loops poll at ``poll_s`` as a safety net under the wake-ups; the engine's
at-most-once keys hold even if two workers ever both acted on one session.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from functools import partial

import anyio
from anyio.abc import TaskGroup

from workset.errors import BrokerError, SessionLogError, SessionNotFoundError
from workset.events.records import EventReceived
from workset.intake.base import Delivery, Intake
from workset.loop.settings import RunResult
from workset.session.agent import Agent
from workset.session.engine import Session
from workset.stores.protocols import LeaseStore

LEASE_PREFIX = "session:"


def default_worker_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


@dataclass(frozen=True, slots=True)
class WorkerSettings:
    name: str = field(default_factory=default_worker_name)
    lease_s: float = 15.0  # how long a dead worker's sessions wait before another takes them
    poll_s: float = 0.5  # how often leases are swept and intake reads wait at most
    inbox_poll_s: float = 2.0  # the safety-net look at an owned session's inbox
    idle_close_s: float = 5.0  # close (and release) a session idle this long
    reclaim_after_s: float = 30.0  # take over intake entries unacknowledged this long
    batch: int = 64


@dataclass
class _Owned:
    session_id: str
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    woken: anyio.Event = field(default_factory=anyio.Event)
    session: Session | None = None

    def poke(self) -> None:
        self.woken.set()


class Worker:
    """Serves sessions from ``agent.log`` (the shared session store) and ``intake``."""

    def __init__(
        self,
        agent: Agent,
        leases: LeaseStore,
        intake: Intake,
        settings: WorkerSettings | None = None,
        *,
        on_result: Callable[[RunResult], None] | None = None,
        on_error: Callable[[str], None] | None = None,
    ) -> None:
        self.agent = agent
        self.log = agent.log
        self.leases = leases
        self.intake = intake
        self.settings = settings or WorkerSettings()
        self.name = self.settings.name
        self.clock = time.time
        self._on_result = on_result
        self._on_error = on_error or _stderr
        self._owned: dict[str, _Owned] = {}
        self._tg: TaskGroup | None = None
        self._changed = anyio.Event()
        self.received = 0

    @property
    def owned(self) -> frozenset[str]:
        return frozenset(self._owned)

    async def wait_for_change(self) -> None:
        """Return when the worker next takes or lets go of a session."""
        await self._changed.wait()

    def _changed_now(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()

    async def run_until_signalled(self, on_ready: Callable[[], None] | None = None) -> None:
        """:meth:`run` until SIGTERM or SIGINT, then let go of every session. ``on_ready``
        is called once the signals are being listened for."""
        async with anyio.create_task_group() as group:
            with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
                group.start_soon(self.run)
                if on_ready is not None:
                    on_ready()
                async for _ in signals:
                    group.cancel_scope.cancel()
                    break

    async def run(self) -> None:
        """Serve until cancelled; on the way out every lease held is released."""
        try:
            async with anyio.create_task_group() as group:
                self._tg = group
                group.start_soon(self._intake_loop)
                group.start_soon(self._wakeup_loop)
                group.start_soon(self._lease_loop)
                group.start_soon(self._reclaim_loop)
        finally:
            self._tg = None
            for session_id in list(self._owned):
                self.leases.release(_lease(session_id), self.name)

    # -- intake -----------------------------------------------------------------------------

    async def _intake_loop(self) -> None:
        s = self.settings
        while True:
            try:
                deliveries = await self.intake.read(s.batch, s.poll_s)
            except BrokerError as error:
                self._on_error(f"worker {self.name}: {error}; retrying")
                await anyio.sleep(s.poll_s)
                continue
            for delivery in deliveries:
                await self.receive(delivery)

    async def receive(self, delivery: Delivery) -> bool:
        """Record ``delivery`` in its session's inbox, then acknowledge it; True when done.

        A session that does not exist sends it to the dead letters; a store failure leaves it
        unacknowledged, to be delivered again (and given up after too many deliveries).
        """
        now = self.clock()
        event = replace(delivery.event, at=now)
        try:
            self.log.append(EventReceived(delivery.session_id, event, now, "queue"))
        except SessionNotFoundError as error:
            await self._safely(self.intake.reject(delivery, str(error)))
            return False
        except SessionLogError as error:
            self._on_error(f"worker {self.name}: could not record {delivery.event.id}: {error}")
            return False
        await self._route(delivery.session_id)
        self.received += 1
        return await self._safely(self.intake.ack(delivery))

    async def _route(self, session_id: str) -> None:
        """Make sure the session's owner acts on its inbox: us, a new lease, or a wake-up."""
        owned = self._owned.get(session_id)
        if owned is not None:
            owned.poke()
            return
        if self._take(session_id):
            return
        holder = self.leases.holder(_lease(session_id), self.clock())
        if holder is not None and holder != self.name:
            await self._safely(self.intake.notify(holder, session_id))
        else:  # released between our two reads: try once more
            self._take(session_id)

    async def _wakeup_loop(self) -> None:
        while True:
            try:
                async for session_id in self.intake.wakeups():
                    await self._route(session_id)
            except BrokerError as error:
                self._on_error(f"worker {self.name}: {error}; retrying")
            await anyio.sleep(self.settings.poll_s)

    async def _reclaim_loop(self) -> None:
        s = self.settings
        while True:
            await anyio.sleep(max(s.poll_s, s.reclaim_after_s / 4))
            try:
                deliveries = await self.intake.reclaim(s.reclaim_after_s, s.batch)
            except BrokerError as error:
                self._on_error(f"worker {self.name}: {error}; retrying")
                continue
            for delivery in deliveries:
                await self.receive(delivery)

    # -- leases and owned sessions -----------------------------------------------------------

    def _take(self, session_id: str) -> bool:
        """Lease and open ``session_id`` here; False when another worker holds it."""
        if session_id in self._owned:
            return True
        s = self.settings
        if self._tg is None or not self.leases.acquire(
            _lease(session_id), self.name, s.lease_s, self.clock()
        ):
            return False
        owned = self._owned[session_id] = _Owned(session_id)
        self._tg.start_soon(self._serve, owned)
        self._changed_now()
        return True

    async def _lease_loop(self) -> None:
        s = self.settings
        while True:
            await anyio.sleep(min(s.lease_s / 3, max(s.poll_s, 0.05)))
            now = self.clock()
            owned = dict(self._owned)
            kept = self.leases.renew([_lease(i) for i in owned], self.name, s.lease_s, now)
            for session_id, lost in owned.items():
                if _lease(session_id) not in kept:
                    self._on_error(
                        f"worker {self.name}: lost the lease of {session_id}; closing it here"
                    )
                    lost.scope.cancel()
            for name in self.leases.expired(now, LEASE_PREFIX, limit=s.batch):
                self._take(name.removeprefix(LEASE_PREFIX))  # its holder died

    async def _serve(self, owned: _Owned) -> None:
        session_id = owned.session_id
        try:
            with owned.scope:
                async with self.agent.session(session_id) as session:
                    owned.session = session
                    await self._drive(session, owned)
        except SessionNotFoundError as error:
            self._on_error(f"worker {self.name}: {error}")
        finally:
            del self._owned[session_id]
            self.leases.release(_lease(session_id), self.name)
            self._changed_now()
        # An event recorded while we were closing found our lease and woke us too late:
        # look once more now that the lease is free.
        if self._tg is not None and not owned.scope.cancel_called:
            pending = self.log.pending_events(session_id)
            if pending:
                self._take(session_id)

    async def _drive(self, session: Session, owned: _Owned) -> None:
        """Run the session whenever it has work; close it once it has been idle a while.

        A run that failed (the model is down, the iterations ran out) is not retried until
        something new arrives, so a failing session waits instead of failing in a loop; nor
        is one that found nothing it could take yet (a question still answered aside).
        """
        s = self.settings
        stalled = False
        quiet_since: float | None = None
        while True:
            if not stalled and _has_work(session):
                result = await session.run_until_idle(wait_for_tasks=False)
                self._report(result)
                stalled = result.status in ("failed", "nothing_to_do")
                quiet_since = None
                continue
            if stalled or _idle(session):
                now = time.monotonic()
                quiet_since = quiet_since or now
                if now - quiet_since >= s.idle_close_s:
                    return
            else:
                quiet_since = None
            woke = await _first(
                {
                    "intake": owned.woken.wait,  # another worker or our intake recorded events
                    "session": session.wait_for_event,  # a task or timer of the session
                    "poll": partial(anyio.sleep, min(s.inbox_poll_s, s.idle_close_s)),
                }
            )
            owned.woken = anyio.Event()
            if await session.take_received() or woke == "session":
                stalled = False

    def _report(self, result: RunResult) -> None:
        if self._on_result is not None:
            self._on_result(result)

    async def _safely(self, step: Awaitable[None]) -> bool:
        try:
            await step
        except BrokerError as error:
            self._on_error(f"worker {self.name}: {error}")
            return False
        return True


def _has_work(session: Session) -> bool:
    """Events waiting, a unit to finish, or a model call owed (the last message is not an
    answer)."""
    state = session.state
    if state.pending or state.open_unit is not None:
        return True
    return bool(state.messages) and not state.answered


async def _first(waits: dict[str, Callable[[], Awaitable[object]]]) -> str:
    """The name of whichever wait ends first (the others are cancelled)."""
    first: list[str] = []
    async with anyio.create_task_group() as group:

        async def wait_for(name: str, wait: Callable[[], Awaitable[object]]) -> None:
            await wait()
            first.append(name)
            group.cancel_scope.cancel()

        for name, wait in waits.items():
            group.start_soon(wait_for, name, wait)
    return first[0]


def _idle(session: Session) -> bool:
    state = session.state
    return (
        not session.busy
        and not state.pending
        and state.open_unit is None
        and not session.tasks.running_ids()
        and not state.timers
        and (state.answered or not state.messages)
    )


def _lease(session_id: str) -> str:
    return f"{LEASE_PREFIX}{session_id}"


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
