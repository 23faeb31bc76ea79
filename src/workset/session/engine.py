"""The session engine: a long-lived actor whose state is its log, moved one step at a time.

A step (seed 004, "Mecanismo de manejo de eventos"; the five rules of "Implementación de
ingeniería"):

1. at a safe point, take the pending inbox events and append them as one batch
   (:mod:`workset.session.batch`; rule 5), and flush the notice queue (:mod:`.notices`);
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
anything acts on them), then routed (:mod:`.router`): ``cancel`` makes a safe point now,
``queue`` waits for the next one, ``parallel`` answers in a side session (:mod:`.side`).
Background tasks (:mod:`.tasks`) and timers (:mod:`.timers`) run in the session's task group
and report back through the same inbox.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

import anyio
from anyio.abc import TaskGroup

from workset.context.manifest import Manifest
from workset.context.trust import neutralize
from workset.errors import ContextBudgetError, ModelError, UsageError
from workset.events.inputs import Event, new_event
from workset.events.records import (
    EventReceived,
    InputAppended,
    LoopEvent,
    ModelCalled,
    NoticeRecord,
    RunFailed,
    RunFinished,
    RunStarted,
    StepInterrupted,
)
from workset.loop.calls import CallInterpreter, Interpreted, NextTurn
from workset.loop.outcome import classify
from workset.loop.settings import AgentConfig, RunResult, RunUsage
from workset.messages import AssistantMessage, ToolCall, ToolMessage, ToolSpec, UserMessage
from workset.models.base import Usage
from workset.models.constrained import answer_schema
from workset.session.batch import render_batch
from workset.session.context import RequestMaker
from workset.session.notices import Notice, NoticeQueue
from workset.session.router import asks_to_stop, rule_strategy
from workset.session.state import SessionState
from workset.session.tasks import TaskManager
from workset.session.timers import TimerService
from workset.session.units import UnitRunner
from workset.tools.context import TaskView, TaskWork, TimerView
from workset.tools.registry import error_message

if TYPE_CHECKING:
    from workset.session.agent import Agent

Phase = Literal["idle", "prepare", "model", "tools"]


@dataclass(frozen=True, slots=True)
class StepOutcome:
    kind: Literal["answered", "continued", "interrupted", "failed"]
    usage: Usage | None = None
    answer: str = ""
    turn: NextTurn = field(default_factory=NextTurn)  # what the next request gets
    error_type: str = ""
    error: str = ""


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
        self._wake = anyio.Event()
        self._tg: TaskGroup | None = None
        self._phase: Phase = "idle"
        self._step_scope: anyio.CancelScope | None = None
        self.units = UnitRunner(self)
        self.interrupts: list[Event] = []
        self._in_parallel: dict[str, anyio.CancelScope] = {}  # event id -> side session scope
        self._failed = False  # the last run failed: no model call is owed until an arrival
        # Offered each arriving event once it is recorded; one that returns True has taken it
        # (a tool waiting for a person's answer) and records its consumption itself.
        self.claimers: list[Callable[[Event], bool]] = []
        if agent.status is not None:
            self.queue.produce_with(self._status_notices)

    @property
    def id(self) -> str:
        return self.state.session_id

    @property
    def session_id(self) -> str:
        return self.state.session_id

    @property
    def busy(self) -> bool:
        """True while a run is in progress (a step may be calling the model or tools)."""
        return self._phase != "idle"

    @property
    def idle(self) -> bool:
        """True when the session will do nothing until something arrives: no run in progress,
        no event waiting (nor one being answered in parallel), no model call owed."""
        return not self.busy and not self.state.pending and not self._owes_model()

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

    # -- events in --------------------------------------------------------------------------

    async def deliver(self, event: Event) -> str:
        """Take an event into the inbox: recorded, routed, acted on. Returns the strategy
        (``duplicate`` when this event id was delivered before, ``claimed`` when a waiting
        tool took it, e.g. a person's answer to a pending approval)."""
        strategy = await self.agent.router.route(event, busy=self.busy)
        return self._accept(event, strategy)

    def deliver_nowait(self, event: Event) -> str:
        """:meth:`deliver` by the rules alone (timers, tasks: no model classifier)."""
        return self._accept(event, rule_strategy(event) if self.busy else "queue")

    async def take_received(self) -> int:
        """Act on inbox events that another process recorded in this session's log (a
        worker's intake appends them there, durable before it acknowledges them); returns how
        many were new to this session."""
        taken = 0
        for seq, event in self.agent.log.pending_events(self.id):
            if event.id in self.state.pending or event.id in self.state.consumed:
                continue
            strategy = await self.agent.router.route(event, busy=self.busy)
            received = EventReceived(self.id, event, event.at, strategy)
            self.state.apply(seq, received)
            self.agent.bus.emit(received)
            self._act(event, strategy)
            taken += 1
        return taken

    def _accept(self, event: Event, strategy: str) -> str:
        now = self.now()
        event = replace(event, at=now)
        if self.record(EventReceived(self.id, event, now, strategy)) is None:
            return "duplicate"
        return self._act(event, strategy)

    def _act(self, event: Event, strategy: str) -> str:
        """What a received event does now: taken by a waiting tool (``"claimed"``), an
        interrupt, a side session, or a wait in the queue; returns what became of it."""
        self._failed = False
        if any(claim(event) for claim in list(self.claimers)):
            self._poke()
            return "claimed"
        if self.busy and strategy == "cancel":
            self._interrupt(event)
        elif self.busy and strategy == "parallel" and self._tg is not None:
            scope = anyio.CancelScope()
            self._in_parallel[event.id] = scope
            self._tg.start_soon(self._answer_in_parallel, event, scope)
        self._poke()
        return strategy

    def _poke(self) -> None:
        self._wake.set()
        self._wake = anyio.Event()

    async def wait_for_event(self) -> None:
        """Return when something arrives (an event, a finished task)."""
        await self._wake.wait()

    def _consumable(self) -> list[Event]:
        """Pending events a safe point may take now (not those answered in parallel)."""
        return [e for e in self.state.pending.values() if e.id not in self._in_parallel]

    # -- interrupts --------------------------------------------------------------------------

    def _interrupt(self, event: Event) -> None:
        """Make a safe point now (the cancel strategy)."""
        self.interrupts.append(event)
        if self._phase in ("prepare", "model") and self._step_scope is not None:
            self._step_scope.cancel()
        elif self._phase == "tools":
            self.units.cancel()
        if asks_to_stop(event):
            self._stop_background(event)

    def _stop_background(self, event: Event) -> None:
        reason = f"the user asked to stop ({neutralize(event.text)[:80]!r})"
        stopped = self.tasks.cancel_all(reason)
        for scope in self._in_parallel.values():
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
            replayable=self.agent.tools.gives_same_result,
            read_only=self.agent.tools.is_read_only,
        )
        turn, started = NextTurn(), False
        self._phase = "prepare"
        try:
            if self.state.open_unit is not None:
                self.record(
                    RunStarted(
                        run_id, self.id, "", self.agent.model.info.name, self.now(),
                        resumed=True, title="resume",
                    )
                )  # fmt: skip
                started = True
                await self._recover(run_id)
            while True:
                events = self._consumable()
                if not events and not self._needs_model():
                    if wait_for_tasks and (self.tasks.running_ids() or self._in_parallel):
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
                if iterations >= config.max_iterations:
                    return self._fail(
                        run_id, iterations, usage, "MaxIterations",
                        f"no final answer after {config.max_iterations} model calls; raise "
                        "--max-iterations or make the task more specific",
                    )  # fmt: skip
                iterations += 1
                outcome = await self._step(run_id, iterations, interpreter, turn)
                if outcome.usage is not None:
                    usage = usage.add(outcome.usage)
                if outcome.kind == "failed":
                    return self._fail(run_id, iterations, usage, outcome.error_type, outcome.error)
                if outcome.kind == "answered":
                    answer = outcome.answer
                turn = outcome.turn
        finally:
            self._phase = "idle"
            self.interrupts.clear()
        if not started:
            last = self.state.messages[-1] if self.state.messages else None
            done = last.content if isinstance(last, AssistantMessage) else ""
            return RunResult(self.id, run_id, "nothing_to_do", answer=done or "")
        self.record(RunFinished(run_id, self.id, answer, iterations, self.now()))
        verdict = classify(self.state.messages, evidence=interpreter.evidence)
        return RunResult(
            self.id, run_id, "finished", answer=answer, iterations=iterations, usage=usage,
            outcome=verdict.outcome, outcome_reason=verdict.reason,
        )  # fmt: skip

    async def serve(self, on_result: Callable[[RunResult], None] | None = None) -> None:
        """Run whenever something arrives (an event, a finished task, a timer), until
        cancelled: the session as a long-lived actor. ``on_result`` sees each run's result."""
        while True:
            wake = self._wake  # taken before the check, so no arrival is missed
            if self._consumable() or self._owes_model():
                result = await self.run_until_idle(wait_for_tasks=False)
                if on_result is not None:
                    on_result(result)
                continue
            await wake.wait()

    def _owes_model(self) -> bool:
        """A model call is due (after a failed run, only once something new arrives: a model
        that is down would otherwise fail the same step again and again)."""
        return not self._failed and self._needs_model()

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
                await self._wake.wait()
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
        self._failed = True
        self.record(RunFailed(run_id, self.id, text, kind, self.now()))
        verdict = classify((), failure=kind)
        return RunResult(
            self.id, run_id, "failed", error=text, iterations=iterations, usage=usage,
            outcome=verdict.outcome, outcome_reason=verdict.reason,
        )  # fmt: skip

    # -- one step -----------------------------------------------------------------------------

    async def _step(
        self, run_id: str, iteration: int, interpreter: CallInterpreter, turn: NextTurn
    ) -> StepOutcome:
        """One model call and the tools it asked for. ``turn`` is what the call interpreter
        decided the harness adds to this request (a different strategy, "answer now")."""
        agent, config = self.agent, self.config
        specs = agent.offer.specs()
        offered: tuple[ToolSpec, ...] = specs if turn.offer_tools else ()
        self._phase = "prepare"
        response = None
        try:
            with anyio.CancelScope() as scope:
                self._step_scope = scope
                now = self.now()
                kind = "answer_now" if (turn.answer_only or not turn.offer_tools) else "strategy"
                for text in turn.notices:
                    self.queue.push(kind, "call_interpreter", "suffix", now, text=text)
                suffix = self._flush(run_id, now)
                interpreter.note_task(self.state.task_text)
                made = await self.maker.make(
                    request_id=f"{self.id}-c{self._calls() + 1}",
                    messages=self.state.messages,
                    seqs=self.state.seqs,
                    tools=offered,
                    notices=suffix,
                    withheld=() if turn.offer_tools else specs,
                    withheld_reason=turn.reason,
                    iteration=iteration,
                    now=now,
                    query=self.state.task_text,
                    notes=self._status_notes(iteration),
                    json_schema=answer_schema() if turn.answer_only else None,
                )
                interpreter.observe_items(made.items)
                self._phase = "model"
                with anyio.fail_after(config.model_timeout_s):
                    response = await agent.model.complete(made.assembled.request)
        except TimeoutError:
            return StepOutcome(
                "failed",
                error_type="ModelTimeout",
                error=f"the model did not answer within {config.model_timeout_s:g} s; raise "
                "the model timeout or shorten the task",
            )
        except (ModelError, ContextBudgetError) as error:
            return StepOutcome("failed", error_type=type(error).__name__, error=str(error))
        finally:
            self._step_scope = None
        if response is None:  # cancelled by an urgent event: nothing of it is recorded
            if self._phase == "model" and self.interrupts:
                self.record(
                    StepInterrupted(self.id, run_id, self.interrupts[-1].id, "model", self.now())
                )
            self._phase = "prepare"
            return StepOutcome("interrupted", turn=turn)
        decided = interpreter.interpret(
            response.message, iteration, tools_offered=bool(offered), specs=offered
        )
        message = decided.message
        manifest = _with_server_cache(made.assembled.manifest, response.usage)
        self.record(
            ModelCalled(
                run_id, self.id, iteration, manifest, message, response.usage,
                self.now(), response.finish_reason, request=made.ref,
                notices=tuple(n.record() for n in suffix),
            ),
            blobs=made.blobs,
        )  # fmt: skip
        if not message.tool_calls:
            answer = message.content or ""
            written = (
                [n.text for n in suffix]
                + [  # what the harness wrote this turn
                    m.content
                    for m in self.state.messages[-6:]
                    if isinstance(m, UserMessage)
                    and (m.origin != "user" or m.content.startswith("[Unprocessed event"))
                ]
            )
            again = interpreter.echoed_notice(answer, written)
            if again is not None:  # kept as said; a trajectory notice asks for the answer
                self.queue.push("echo", "call_interpreter", "trajectory", self.now(), text=again)
                return StepOutcome("continued", response.usage)
            return StepOutcome("answered", response.usage, answer=answer)
        self._phase = "tools"
        interrupted = await self.units.run(run_id, message, decided)
        self._phase = "prepare"
        if interrupted:  # the next request is about the interrupt, not these calls
            return StepOutcome("continued", response.usage)
        ids = {c.id for c in message.tool_calls}
        results = [
            m for m in self.state.messages if isinstance(m, ToolMessage) and m.tool_call_id in ids
        ]
        after = interpreter.next_turn(results)
        if after.stop:
            return StepOutcome("failed", response.usage, error_type="GaveUp", error=after.stop)
        return StepOutcome("continued", response.usage, turn=after)

    def _calls(self) -> int:
        return sum(1 for m in self.state.messages if isinstance(m, AssistantMessage))

    def _flush(self, run_id: str, now: float) -> list[Notice]:
        """The one flush point: pending events and trajectory notices are recorded as input;
        the suffix notices of this call are returned."""
        notices = self.queue.flush(now)
        events = self._consumable()
        if events:
            shown, answered = _without_answered_questions(events, self.state.pending)
            batch = render_batch(shown)
            record = NoticeRecord(
                f"events-{events[0].id}", "event", "inbox", "trajectory", min(e.at for e in events)
            )
            self.record(
                InputAppended(
                    self.id, run_id, batch.text, now, (*batch.event_ids, *answered), (record,),
                    batch.origin,
                )
            )  # fmt: skip
        for notice in notices:
            if notice.placement == "trajectory":
                self.record(
                    InputAppended(
                        self.id, run_id, notice.text, now, (), (notice.record(),), "harness"
                    )
                )
        return [n for n in notices if n.placement == "suffix"]

    # -- the status bar as a notice producer ---------------------------------------------------

    def _status_notices(self, now: float) -> Sequence[Notice]:
        bar = self.agent.status
        if bar is None:
            return ()
        if bar.strategy == "replace":
            item = bar.item(now)
            return (
                Notice(
                    self.queue.new_id("status"), "status", "status_bar", "suffix", now, item=item
                ),
            )
        text = bar.render(now)
        return (
            Notice(self.queue.new_id("status"), "status", "status_bar", "trajectory", now, text),
        )

    def _status_notes(self, iteration: int) -> dict[str, str]:
        bar = self.agent.status
        if bar is None:
            return {}
        counter = self.agent.request_settings.counter
        state_tokens = counter.count_text(bar.render(self.now()))
        recent = self.state.messages[-2:]
        suffix = sum(counter.count_text(m.content or "") for m in recent)
        cost = bar.cost(state_tokens, iteration, suffix)
        return {"status_strategy": bar.strategy, "status_cost": cost.explain()}

    # -- recovery after a crash -------------------------------------------------------------

    async def _recover(self, run_id: str) -> None:
        """Finish what a dead process left: results for the calls it left hanging.

        A call that was started but never finished is re-run only when the tool is
        read-only or idempotent (with the same idempotency key); any other gets a result
        saying it was interrupted, so nothing with side effects runs twice.
        """
        open_unit = self.state.open_unit
        assert open_unit is not None
        to_run: list[ToolCall] = []
        for call in open_unit.pending:
            if call.id in self.state.started and not self.agent.tools.is_idempotent(call.name):
                text = (
                    "interrupted: the process stopped while this tool was running. It was "
                    "not run again because it may have side effects; check its effects "
                    "before calling it again."
                )
                self.units.finish(
                    run_id, call, error_message(call, text), 0.0,
                    "refused: interrupted, not re-run", interrupted=True,
                )  # fmt: skip
            else:
                to_run.append(call)
        self._phase = "tools"
        rest = replace(open_unit.call, tool_calls=tuple(to_run))
        await self.units.run(run_id, rest, Interpreted(open_unit.call))
        self._phase = "prepare"

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

    # -- parallel questions --------------------------------------------------------------------

    async def _answer_in_parallel(self, event: Event, scope: anyio.CancelScope) -> None:
        from workset.session.side import answer_in_parallel

        with scope:
            try:
                answer = await answer_in_parallel(self, event)
            finally:
                self._in_parallel.pop(event.id, None)
        if scope.cancel_called:
            self._poke()
            return
        self.deliver_nowait(answer)


def _with_server_cache(manifest: Manifest, usage: Usage) -> Manifest:
    """The manifest with what the server reported taking from its KV cache for this call
    (its usage details, else a serving engine's prefix-cache counters), beside the reuse the
    layout predicted."""
    cached = usage.cached_prompt_tokens
    if cached is None:
        cached = usage.engine_prefix_hits
    if cached is None:
        return manifest
    return replace(manifest, prefix=replace(manifest.prefix, server_cached_tokens=cached))


def _without_answered_questions(
    events: Sequence[Event], pending: dict[str, Event]
) -> tuple[list[Event], tuple[str, ...]]:
    """A question answered in parallel enters with its answer, not again as a question: the
    events to show, and the ids of questions consumed along with their answers."""
    answered = {r for e in events if e.type == "parallel.answered" for r in e.context.relates_to}
    hidden = tuple(r for r in answered if r in pending)
    return [e for e in events if e.id not in answered], hidden
