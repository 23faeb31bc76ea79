"""Timers of one session: one-shot and cron, durable, each occurrence fired at most once.

Seed 004 ("Temporizadores"): a timer wakes the agent at a physical time ("call the DMV next
Monday at 10:00"), or periodically (cron). A timer is a ``TimerSet`` record in the log, so it
survives restarts; an occurrence fires by delivering a ``timer.trigger`` event whose id names
the timer and the occurrence, so the inbox's once-per-id rule makes it fire at most once
even when a crash comes between firing and anything else. After downtime, a one-shot timer
that came due fires once at start; a cron timer fires its latest missed occurrence once (not
once per missed occurrence) and then follows its schedule. Cron expressions are parsed by
``croniter``.
"""

from __future__ import annotations

import itertools
from collections.abc import Coroutine
from datetime import datetime
from typing import TYPE_CHECKING, Any

import anyio

from workset.errors import ToolError
from workset.events.inputs import EventContext, new_event
from workset.events.records import TimerSet
from workset.tools.context import TimerView
from workset.triggers.schedule import MAX_CATCH_UP, next_after, zone

if TYPE_CHECKING:
    from workset.session.engine import Session


def latest_due(timer: TimerSet, fired: float | None, now: float) -> float | None:
    """The occurrence that should fire now (the latest one not after ``now``), if any."""
    if not timer.cron:
        return timer.due if fired is None and timer.due <= now else None
    due = timer.due if fired is None else next_after(timer.cron, fired, timer.timezone)
    if due > now:
        return None
    for _ in range(MAX_CATCH_UP):
        following = next_after(timer.cron, due, timer.timezone)
        if following > now:
            return due
        due = following
    return due


def next_due(timer: TimerSet, fired: float | None) -> float:
    if not timer.cron or fired is None:
        return timer.due
    return next_after(timer.cron, fired, timer.timezone)


class TimerService:
    def __init__(self, session: Session) -> None:
        self.session = session
        self._changed = anyio.Event()
        self._ids = itertools.count(len(session.state.timers) + 1)

    def set(self, message: str, due: float, cron: str, timezone: str) -> TimerView:
        """Record a timer; ``due`` 0 with ``cron`` means its next occurrence from now."""
        if not message.strip():
            raise ToolError("a timer needs a message: what to do when it fires")
        zone(timezone)
        now = self.session.now()
        if cron:
            due = next_after(cron, now, timezone)
        elif due <= 0:
            raise ToolError("a one-shot timer needs a time in the future (at or in_seconds)")
        timer_id = f"timer-{next(self._ids)}"
        while timer_id in self.session.state.timers:
            timer_id = f"timer-{next(self._ids)}"
        record = TimerSet(self.session.id, timer_id, message, due, now, cron, timezone or "UTC")
        self.session.record(record)
        self._poke()
        return _view(record)

    def cancel(self, timer_id: str) -> TimerView:
        timer = self.session.state.timers.get(timer_id)
        if timer is None:
            known = ", ".join(self.session.state.timers) or "none"
            raise ToolError(f"no active timer {timer_id!r}", hint=f"active timers: {known}")
        ended = TimerSet(
            self.session.id, timer_id, timer.message, timer.due, self.session.now(),
            timer.cron, timer.timezone, cancelled=True,
        )  # fmt: skip
        self.session.record(ended)
        self._poke()
        return _view(timer)

    def views(self) -> list[TimerView]:
        state = self.session.state
        return [_view(t, next_due(t, state.fired.get(t.timer_id))) for t in state.timers.values()]

    def fire_due(self) -> None:
        """Fire every occurrence that is due now (each once)."""
        state, now = self.session.state, self.session.now()
        for timer in list(state.timers.values()):
            due = latest_due(timer, state.fired.get(timer.timer_id), now)
            if due is None:
                continue
            when = datetime.fromtimestamp(due, zone(timer.timezone)).isoformat(timespec="seconds")
            self.session.deliver_nowait(
                new_event(
                    "timer.trigger",
                    f"Timer {timer.timer_id} fired (due {when}): {timer.message}",
                    source="timer",
                    channel="timer",
                    content={"timer_id": timer.timer_id, "due": due, "cron": timer.cron},
                    context=EventContext(relates_to=(timer.timer_id,)),
                    id=f"timer:{timer.timer_id}@{due:.3f}",
                )
            )

    async def run(self) -> None:
        """Fire timers as they come due, until cancelled."""
        clock = self.session.clock
        while True:
            self.fire_due()
            state = self.session.state
            dues = [next_due(t, state.fired.get(t.timer_id)) for t in state.timers.values()]
            await _first_of(self._changed.wait(), clock.sleep_until(min(dues)) if dues else None)

    def _poke(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()


async def _first_of(*waits: Coroutine[Any, Any, None] | None) -> None:
    """Return when the first of ``waits`` returns; the others are cancelled."""
    async with anyio.create_task_group() as group:
        for wait in waits:
            if wait is None:
                continue

            async def one(w: Coroutine[Any, Any, None] = wait) -> None:
                await w
                group.cancel_scope.cancel()

            group.start_soon(one)


def _view(timer: TimerSet, due: float | None = None) -> TimerView:
    return TimerView(
        timer.timer_id, timer.message, timer.due if due is None else due, timer.cron, timer.timezone
    )
