"""The session engine: a long-lived actor whose state is its log, moved one step at a time.

A step (seed 004, "Mecanismo de manejo de eventos"; the five rules of "Implementación de
ingeniería"; :mod:`.step`):

1. at a safe point, take the pending inbox events and append them as one batch
   (:mod:`workset.session.batch`; rule 5), and flush the notice queue (:mod:`.notices`;
   :meth:`~workset.session.inbox.Inbox.flush`);
2. make the request with the one ``assemble`` (:class:`~workset.session.context.RequestMaker`);
3. call the model; an urgent event arriving now cancels the call and its partial output is
   discarded, never recorded (rule 4);
4. record the assistant message at once (rule 1);
5. for each call (:mod:`.units`): validate its arguments, pass the safety gate, run it;
   record each result when it is done (rule 2). An urgent event arriving now gives every
   unfinished call a placeholder result saying it was cancelled — or, when the event does not
   ask to stop, that it goes on in the background and its result will come as an event
   (rule 3) — so no protocol unit is ever left without results.

Events arrive through :meth:`Session.deliver` at any time: recorded first (durable before
anything acts on them), then routed (:mod:`.inbox`, :mod:`.router`): ``cancel`` makes a safe
point now, ``queue`` waits for the next one, ``parallel`` answers in a side session
(:mod:`.side`). Background tasks (:mod:`.tasks`) and timers (:mod:`.timers`) run in the
session's task group and report back through the same inbox. A run that finds the last unit
of the log open first finishes it (:mod:`.resume`); the status bar reaches the requests as a
notice producer (:mod:`.statusbar`). This module holds the session itself: its lifecycle,
the record, and the runs that repeat the step until the session is idle.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio
from anyio.abc import TaskGroup

from workset.errors import UsageError
from workset.events.inputs import Event
from workset.events.records import LoopEvent, RunFailed, RunFinished, RunStarted
from workset.loop.calls import CallInterpreter
from workset.loop.confidence import doubted
from workset.loop.outcome import classify
from workset.loop.rereads import file_reader
from workset.loop.settings import AgentConfig, RunResult, RunUsage
from workset.loop.steering import NextTurn
from workset.messages import AssistantMessage
from workset.session.context import RequestMaker
from workset.session.inbox import Inbox
from workset.session.notices import NoticeQueue
from workset.session.resume import recover
from workset.session.state import SessionState
from workset.session.statusbar import status_notices
from workset.session.step import StepRunner, second_look
from workset.session.tasks import TaskManager
from workset.session.timers import TimerService
from workset.session.units import UnitRunner
from workset.tools.context import TaskView, TaskWork, TimerView

if TYPE_CHECKING:
    from workset.session.agent import Agent


class Session:
    """One session of an :class:`~workset.session.agent.Agent`; open it with ``agent.session()``."""

    def __init__(
        self,
        agent: Agent,
        state: SessionState,
        *,
        side_of: str = "",
        read_only: bool = False,
        config: AgentConfig | None = None,
    ) -> None:
        self.agent = agent
        self.config = config or agent.config
        self.state = state
        self.side_of = side_of  # a parallel question's side session: its parent's id
        self.read_only = read_only  # only read-only tools may run (side sessions)
        self.clock = agent.clock
        self.queue = NoticeQueue()
        self.maker = (
            agent.maker(state.session_id)
            if not side_of
            else RequestMaker(agent.request_settings, state.session_id)
        )
        self.tasks = TaskManager(self)
        self.timers = TimerService(self)
        self.inbox = Inbox(self)
        self.steps = StepRunner(self)
        self._tg: TaskGroup | None = None
        self.units = UnitRunner(self)
        self.interrupts: list[Event] = []
        # Offered each arriving event once it is recorded; one that returns True has taken it
        # (a tool waiting for a person's answer) and records its consumption itself.
        self.claimers: list[Callable[[Event], bool]] = []
        if agent.status is not None:
            self.queue.produce_with(partial(status_notices, self))

    @property
    def id(self) -> str:
        return self.state.session_id

    @property
    def session_id(self) -> str:
        return self.state.session_id

    @property
    def busy(self) -> bool:
        """True while a run is in progress (a step may be calling the model or tools)."""
        return self.steps.phase != "idle"

    @property
    def idle(self) -> bool:
        """True when the session will do nothing until something arrives: no run in progress,
        no event waiting (nor one being answered in parallel), no model call owed."""
        return not self.busy and not self.state.pending and not self._owes_model()

    @property
    def is_open(self) -> bool:
        """True while :meth:`running` is open (its task group can take work)."""
        return self._tg is not None

    def now(self) -> float:
        return self.clock()

    # -- lifecycle --------------------------------------------------------------------------

    @asynccontextmanager
    async def running(self) -> AsyncIterator[Session]:
        """The session's background machinery (tasks, timers, side sessions) while open."""
        if self._tg is not None:
            raise UsageError(f"session {self.id} is already open")
        self.agent.offer.load(self.state.loaded_tools)
        async with anyio.create_task_group() as group:
            self._tg = group
            self.tasks.mark_lost()
            self.timers.fire_due()  # what came due while nothing ran is in the inbox first
            group.start_soon(self.timers.run)
            try:
                yield self
            finally:
                group.cancel_scope.cancel()
        self._tg = None

    def spawn(self, fn: Callable[..., Coroutine[Any, Any, Any]], *args: Any) -> None:
        if self._tg is None:
            raise UsageError("the session is not open: use `async with agent.session(...)`")
        self._tg.start_soon(fn, *args)

    # -- recording --------------------------------------------------------------------------

    def record(self, event: LoopEvent, blobs: dict[str, str] | None = None) -> int | None:
        """Append ``event`` to the log, fold it into the state, tell the subscribers.

        Returns its seq, or None when the log already had it (a duplicate delivery, a
        second result for one call): nothing is folded or announced twice.
        """
        seq = self.agent.log.append(event, blobs=blobs)
        if seq <= self.state.last_seq:
            return None
        self.state.apply(seq, event)
        self.agent.bus.emit(event)
        return seq

    # -- events in (the inbox) ----------------------------------------------------------------

    async def deliver(self, event: Event) -> str:
        """Take an event into the inbox: recorded, routed, acted on. Returns the strategy
        (``duplicate`` when this event id was delivered before, ``claimed`` when a waiting
        tool took it, e.g. a person's answer to a pending approval)."""
        return await self.inbox.deliver(event)

    def deliver_nowait(self, event: Event) -> str:
        """:meth:`deliver` by the rules alone (timers, tasks: no model classifier)."""
        return self.inbox.deliver_nowait(event)

    async def take_received(self) -> int:
        """Act on inbox events that another process recorded in this session's log (a
        worker's intake appends them there, durable before it acknowledges them); returns how
        many were new to this session."""
        return await self.inbox.take_received()

    async def wait_for_event(self) -> None:
        """Return when something arrives (an event, a finished task)."""
        await self.inbox.wake.wait()

    # -- runs -------------------------------------------------------------------------------

    async def run_until_idle(self, *, wait_for_tasks: bool = True) -> RunResult:
        """Process everything pending until the session is idle, and return the run's result.

        Idle means the last message is a final answer, the inbox holds nothing a safe point
        could take and (with ``wait_for_tasks``) no background task of the session is still
        running. Events may arrive meanwhile through :meth:`deliver`.
        """
        config = self.config
        run_id = uuid.uuid4().hex[:12]
        usage, iterations, answer = RunUsage(), 0, ""
        interpreter = CallInterpreter(
            self.agent.tools.names(),
            history=self.state.messages,
            constrained=config.constrained_decisions,
            max_calls=config.max_calls_per_message,
            answer_on_repeat=config.answer_on_repeat,
            answer_with_grammar=config.answer_with_grammar,
            focus=config.focus_lines,
            second_look=config.second_look,
            check_answers=(
                self.agent.coder is not self.agent.model
                if config.check_answers is None
                else config.check_answers
            ),
            guided_edits=config.guided_edits,
            replayable=self.agent.tools.gives_same_result,
            read_only=self.agent.tools.is_read_only,
            reader=file_reader(self.agent.tools.get("read_file"))
            if "read_file" in self.agent.tools
            else None,
        )
        turn, started = NextTurn(), False
        self.steps.phase = "prepare"
        try:
            if self.state.open_unit is not None:
                self.record(
                    RunStarted(
                        run_id, self.id, "", self.agent.model.info.name, self.now(),
                        resumed=True, title="resume",
                    )
                )  # fmt: skip
                started = True
                await recover(self, run_id)
            while True:
                events = self.inbox.consumable()
                if not events and not self._needs_model():
                    if wait_for_tasks and (self.tasks.running_ids() or self.inbox.in_parallel):
                        await self._idle_wait()
                        continue
                    break
                if not started:
                    title = events[0].text[:120] if events else self.state.task_text[:120]
                    trigger = tuple(e.id for e in events)
                    self.record(
                        RunStarted(
                            run_id, self.id, "", self.agent.model.info.name, self.now(),
                            trigger=trigger, title=title,
                        )
                    )  # fmt: skip
                    started = True
                # The call that only answers (after an edit, or after a repeat) is made even
                # past the limit: the last allowed call made the change, and without it the
                # run would end with the change made and no answer.
                answering = turn.answer_only or not turn.offer_tools
                # Decisions the harness held to one call of its own (the tests around an
                # edit, an undo) do not count against the limit.
                counted = iterations - interpreter.forced
                if counted >= config.max_iterations + (1 if answering else 0):
                    # Before ending without an answer, the question once more over the lines
                    # the run read that bear on it (workset.loop.second_look).
                    look = None if answering else second_look(self, interpreter, "MaxIterations")
                    if look is not None:
                        turn = look
                        continue
                    return self._fail(
                        run_id, iterations, usage, "MaxIterations",
                        f"no final answer after {config.max_iterations} model calls; raise "
                        "--max-iterations or make the task more specific",
                    )  # fmt: skip
                iterations += 1
                outcome = await self.steps.step(run_id, iterations, interpreter, turn)
                if outcome.usage is not None:
                    usage = usage.add(outcome.usage)
                if outcome.kind == "failed":
                    if outcome.error_type == "GaveUp":
                        look = second_look(self, interpreter, "GaveUp")
                        if look is not None:
                            turn = look
                            continue
                    return self._fail(run_id, iterations, usage, outcome.error_type, outcome.error)
                if outcome.kind == "answered":
                    answer = outcome.answer
                turn = outcome.turn
        finally:
            self.steps.phase = "idle"
            self.interrupts.clear()
        if not started:
            last = self.state.messages[-1] if self.state.messages else None
            done = last.content if isinstance(last, AssistantMessage) else ""
            return RunResult(self.id, run_id, "nothing_to_do", answer=done or "")
        self.record(RunFinished(run_id, self.id, answer, iterations, self.now()))
        verdict = doubted(
            classify(self.state.messages, evidence=interpreter.evidence),
            self.state.messages, self.steps.answer_tokens, self.config.answer_confidence,
        )  # fmt: skip
        return RunResult(
            self.id, run_id, "finished", answer=answer, iterations=iterations, usage=usage,
            outcome=verdict.outcome, outcome_reason=verdict.reason,
        )  # fmt: skip

    async def serve(self, on_result: Callable[[RunResult], None] | None = None) -> None:
        """Run whenever something arrives (an event, a finished task, a timer), until
        cancelled: the session as a long-lived actor. ``on_result`` sees each run's result."""
        while True:
            wake = self.inbox.wake  # taken before the check, so no arrival is missed
            if self.inbox.consumable() or self._owes_model():
                result = await self.run_until_idle(wait_for_tasks=False)
                if on_result is not None:
                    on_result(result)
                continue
            await wake.wait()

    def _owes_model(self) -> bool:
        """A model call is due (after a failed run, only once something new arrives: a model
        that is down would otherwise fail the same step again and again)."""
        return not self.inbox.quiet and self._needs_model()

    def _needs_model(self) -> bool:
        if self.state.open_unit is not None or not self.state.messages:
            return False
        if self.queue.holds("trajectory"):  # flushed into the log at the next step
            return True
        last = self.state.messages[-1]
        return not (isinstance(last, AssistantMessage) and not last.tool_calls)

    async def _idle_wait(self) -> None:
        async with anyio.create_task_group() as group:

            async def woken() -> None:
                await self.inbox.wake.wait()
                group.cancel_scope.cancel()

            async def finished() -> None:
                await self.tasks.wait_any()
                group.cancel_scope.cancel()

            group.start_soon(woken)
            group.start_soon(finished)

    def _fail(
        self, run_id: str, iterations: int, usage: RunUsage, kind: str, text: str
    ) -> RunResult:
        text = self.agent.secrets.redact(text)
        self.inbox.quiet = True
        self.record(RunFailed(run_id, self.id, text, kind, self.now()))
        verdict = classify((), failure=kind)
        return RunResult(
            self.id, run_id, "failed", error=text, iterations=iterations, usage=usage,
            outcome=verdict.outcome, outcome_reason=verdict.reason,
        )  # fmt: skip

    # -- what tools may ask (SessionHost) ------------------------------------------------------

    def start_task(self, tool: str, call_id: str, title: str, work: TaskWork) -> TaskView:
        return self.tasks.start(tool, call_id, title, work)

    def task(self, task_id: str) -> TaskView:
        return self.tasks.view(task_id)

    def list_tasks(self) -> Sequence[TaskView]:
        return self.tasks.views()

    async def cancel_task(self, task_id: str, reason: str) -> TaskView:
        return self.tasks.cancel(task_id, reason)

    def watch_task(self, task_id: str, watcher: Callable[[str], None]) -> None:
        self.tasks.watch(task_id, watcher)

    def notify_task(self, task_id: str, text: str, **payload: object) -> None:
        self.tasks.notify(task_id, text, **payload)

    def set_timer(self, message: str, due: float, cron: str, timezone: str) -> TimerView:
        return self.timers.set(message, due, cron, timezone)

    def cancel_timer(self, timer_id: str) -> TimerView:
        return self.timers.cancel(timer_id)

    def list_timers(self) -> Sequence[TimerView]:
        return self.timers.views()
