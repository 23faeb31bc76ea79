"""A session's inbox: events in at any time, taken into the trajectory at safe points.

Events arrive through :meth:`Inbox.deliver` at any time: recorded first (durable before
anything acts on them), then routed (:mod:`.router`): a waiting tool may claim one (a
person's answer to a pending approval); ``cancel`` makes a safe point now (an interrupt: the
step is cancelled, and when the event asks to stop, the background tasks and side sessions
too); ``queue`` waits for the next safe point; ``parallel`` answers in a side session
(:mod:`.side`) while the run goes on. At a safe point :meth:`Inbox.flush` takes the pending
events and appends them as one batch (:mod:`.batch`; rule 5 of seed 004) and flushes the
notice queue (:mod:`.notices`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import anyio

from workset.context.trust import neutralize
from workset.events.inputs import Event, new_event
from workset.events.records import EventReceived, InputAppended, NoticeRecord
from workset.session.batch import render_batch
from workset.session.notices import Notice
from workset.session.router import asks_to_stop, rule_strategy

if TYPE_CHECKING:
    from workset.session.engine import Session


class Inbox:
    """The events of one session: their arrival, routing and taking at safe points."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._wake = anyio.Event()
        self.in_parallel: dict[str, anyio.CancelScope] = {}  # event id -> side session scope
        # The last run failed: no model call is owed until something arrives (a model that is
        # down would otherwise fail the same step again and again).
        self.quiet = False

    @property
    def wake(self) -> anyio.Event:
        """Set when something arrives (an event, a finished task); a new one after each."""
        return self._wake

    def poke(self) -> None:
        self._wake.set()
        self._wake = anyio.Event()

    async def deliver(self, event: Event) -> str:
        """Take an event into the inbox: recorded, routed, acted on; returns the strategy."""
        strategy = await self.session.agent.router.route(event, busy=self.session.busy)
        return self._accept(event, strategy)

    def deliver_nowait(self, event: Event) -> str:
        """:meth:`deliver` by the rules alone (timers, tasks: no model classifier)."""
        return self._accept(event, rule_strategy(event) if self.session.busy else "queue")

    async def take_received(self) -> int:
        """Act on inbox events that another process recorded in this session's log; returns
        how many were new to this session."""
        session = self.session
        taken = 0
        for seq, event in session.agent.log.pending_events(session.id):
            if event.id in session.state.pending or event.id in session.state.consumed:
                continue
            strategy = await session.agent.router.route(event, busy=session.busy)
            received = EventReceived(session.id, event, event.at, strategy)
            session.state.apply(seq, received)
            session.agent.bus.emit(received)
            self._act(event, strategy)
            taken += 1
        return taken

    def consumable(self) -> list[Event]:
        """Pending events a safe point may take now (not those answered in parallel)."""
        return [e for e in self.session.state.pending.values() if e.id not in self.in_parallel]

    def flush(self, run_id: str, now: float) -> list[Notice]:
        """The one flush point: pending events and trajectory notices are recorded as input;
        the suffix notices of this call are returned."""
        session = self.session
        notices = session.queue.flush(now)
        events = self.consumable()
        if events:
            shown, answered = _without_answered_questions(events, session.state.pending)
            batch = render_batch(shown)
            record = NoticeRecord(
                f"events-{events[0].id}", "event", "inbox", "trajectory", min(e.at for e in events)
            )
            session.record(
                InputAppended(
                    session.id, run_id, batch.text, now, (*batch.event_ids, *answered),
                    (record,), batch.origin,
                )
            )  # fmt: skip
        for notice in notices:
            if notice.placement == "trajectory":
                session.record(
                    InputAppended(
                        session.id, run_id, notice.text, now, (), (notice.record(),), "harness"
                    )
                )
        return [n for n in notices if n.placement == "suffix"]

    def _accept(self, event: Event, strategy: str) -> str:
        session = self.session
        now = session.now()
        event = replace(event, at=now)
        if session.record(EventReceived(session.id, event, now, strategy)) is None:
            return "duplicate"
        return self._act(event, strategy)

    def _act(self, event: Event, strategy: str) -> str:
        """What a received event does now: taken by a waiting tool (``"claimed"``), an
        interrupt, a side session, or a wait in the queue; returns what became of it."""
        session = self.session
        self.quiet = False
        if any(claim(event) for claim in list(session.claimers)):
            self.poke()
            return "claimed"
        if session.busy and strategy == "cancel":
            self._interrupt(event)
        elif session.busy and strategy == "parallel" and session.is_open:
            scope = anyio.CancelScope()
            self.in_parallel[event.id] = scope
            session.spawn(self._answer_in_parallel, event, scope)
        self.poke()
        return strategy

    def _interrupt(self, event: Event) -> None:
        """Make a safe point now (the cancel strategy)."""
        self.session.interrupts.append(event)
        self.session.steps.cancel()
        if asks_to_stop(event):
            self._stop_background(event)

    def _stop_background(self, event: Event) -> None:
        reason = f"the user asked to stop ({neutralize(event.text)[:80]!r})"
        stopped = self.session.tasks.cancel_all(reason)
        for scope in self.in_parallel.values():
            scope.cancel()
        if stopped:
            names = "; ".join(f"{t.task_id} ({t.tool}: {t.title})" for t in stopped)
            self._accept(
                new_event(
                    "system.cancelled",
                    f"Cancelled {len(stopped)} background task(s) at the user's request: {names}",
                    source="system",
                    channel="session",
                ),
                "queue",
            )

    async def _answer_in_parallel(self, event: Event, scope: anyio.CancelScope) -> None:
        from workset.session.side import answer_in_parallel

        with scope:
            try:
                answer = await answer_in_parallel(self.session, event)
            finally:
                self.in_parallel.pop(event.id, None)
        if scope.cancel_called:
            self.poke()
            return
        self.deliver_nowait(answer)


def _without_answered_questions(
    events: Sequence[Event], pending: dict[str, Event]
) -> tuple[list[Event], tuple[str, ...]]:
    """A question answered in parallel enters with its answer, not again as a question: the
    events to show, and the ids of questions consumed along with their answers."""
    answered = {r for e in events if e.type == "parallel.answered" for r in e.context.relates_to}
    hidden = tuple(r for r in answered if r in pending)
    return [e for e in events if e.id not in answered], hidden
