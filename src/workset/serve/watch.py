"""Waiting on sessions: wake whoever waits for a session when it records something.

A :class:`Changes` subscribes to an agent's event bus; every record a session appends wakes
the waiters of that session (a stream tailing its log, a client waiting until it is idle).
Records are announced after the log has them, so a waiter that wakes and reads the log sees
the record that woke it.
"""

from __future__ import annotations

from collections.abc import Callable

import anyio

from workset.events import LoopEvent
from workset.loop.settings import RunResult
from workset.session.engine import Session


class Changes:
    """Per-session wake-ups, fed by the bus (``agent.bus.subscribe(changes)``)."""

    def __init__(self) -> None:
        self._events: dict[str, anyio.Event] = {}

    def __call__(self, record: LoopEvent) -> None:
        self.wake(record.session_id)

    def next(self, session_id: str) -> anyio.Event:
        """The event the next change of ``session_id`` sets: take it *before* looking at the
        session, then wait on it, and no change in between is missed."""
        found = self._events.get(session_id)
        if found is None:
            found = self._events[session_id] = anyio.Event()
        return found

    def wake(self, session_id: str) -> None:
        found = self._events.pop(session_id, None)
        if found is not None:
            found.set()

    def wake_all(self) -> None:
        for session_id in list(self._events):
            self.wake(session_id)


async def serve_session(
    session: Session, changes: Changes, on_result: Callable[[RunResult], None] | None = None
) -> None:
    """``session.serve()``, waking the session's waiters after each run too (a failed run
    becomes idle only after its last record is announced)."""

    def ran(result: RunResult) -> None:
        if on_result is not None:
            on_result(result)
        changes.wake(session.id)

    await session.serve(ran)


async def until_idle(
    session: Session, changes: Changes, given_up: Callable[[], bool] = lambda: False
) -> bool:
    """Wait until ``session`` (served by :func:`serve_session`) has nothing left to do: True,
    or False when ``given_up()`` turns true first (checked at each change and wake-up)."""
    while True:
        changed = changes.next(session.id)
        if session.idle:
            return True
        if given_up():
            return False
        await changed.wait()
