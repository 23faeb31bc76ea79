"""A session's state: nothing but its log, folded.

:class:`SessionState` is a projection: :meth:`SessionState.load` replays a session's records,
and the engine applies each record it appends (after the log has it), so what the engine
acts on is always what a restarted process would rebuild. There is no second message list.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from workset.events.inputs import Event
from workset.events.records import (
    EventReceived,
    InputAppended,
    LoopEvent,
    RunFailed,
    RunFinished,
    RunStarted,
    TaskUpdated,
    TimerSet,
    ToolFinished,
    ToolsLoaded,
    ToolStarted,
)
from workset.log.store import SessionLog, StoredEvent
from workset.log.trajectory import Trajectory
from workset.messages import AssistantMessage, Message, OpenUnit, ToolCall, UserMessage


@dataclass
class TaskInfo:
    """A background task as its records describe it."""

    task_id: str
    tool: str
    call_id: str
    state: str
    detail: str
    started_at: float
    updated_at: float

    @property
    def final(self) -> bool:
        return self.state in ("completed", "failed", "cancelled", "lost")


@dataclass
class SessionState:
    session_id: str
    trajectory: Trajectory = field(default_factory=Trajectory)
    pending: dict[str, Event] = field(default_factory=dict)  # received, not consumed, in order
    strategies: dict[str, str] = field(default_factory=dict)  # event id -> routed strategy
    consumed: set[str] = field(default_factory=set)
    tasks: dict[str, TaskInfo] = field(default_factory=dict)
    timers: dict[str, TimerSet] = field(default_factory=dict)  # active timers
    fired: dict[str, float] = field(default_factory=dict)  # timer id -> last due fired
    loaded_tools: set[str] = field(default_factory=set)
    started: dict[str, ToolCall] = field(default_factory=dict)  # started, not finished
    last_seq: int = 0
    run_open: bool = False  # a run started and neither finished nor failed

    @classmethod
    def load(cls, log: SessionLog, session_id: str) -> SessionState:
        state = cls(session_id, trajectory=log.trajectory(session_id))
        consumed = log.consumed(session_id)
        for stored in log.events(session_id):
            state._fold(stored, consumed)
        return state

    def apply(self, seq: int, event: LoopEvent) -> None:
        """Fold a record the engine just appended (seq from the log)."""
        self.trajectory.add(seq, event)
        self._apply(seq, event)

    def _fold(self, stored: StoredEvent, consumed: frozenset[str]) -> None:
        event = stored.event
        if event is None:
            return
        if isinstance(event, EventReceived) and event.event.id in consumed:
            self.consumed.add(event.event.id)
            if event.event.type == "timer.trigger":
                self._fired(event.event)
            self.last_seq = max(self.last_seq, stored.seq)
            return
        self._apply(stored.seq, event)

    def _apply(self, seq: int, event: LoopEvent) -> None:
        self.last_seq = max(self.last_seq, seq)
        match event:
            case EventReceived(event=inbound, strategy=strategy):
                if inbound.type == "timer.trigger":
                    self._fired(inbound)
                if inbound.id not in self.consumed:
                    self.pending.setdefault(inbound.id, inbound)
                    self.strategies[inbound.id] = strategy
            case InputAppended(event_ids=ids):
                for event_id in ids:
                    self.pending.pop(event_id, None)
                    self.consumed.add(event_id)
            case ToolStarted(call=call):
                self.started[call.id] = call
            case ToolFinished(call=call):
                self.started.pop(call.id, None)
            case TaskUpdated():
                self._task(event)
            case TimerSet(timer_id=timer_id, cancelled=cancelled):
                if cancelled:
                    self.timers.pop(timer_id, None)
                else:
                    self.timers[timer_id] = event
            case ToolsLoaded(names=names):
                self.loaded_tools.update(names)
            case RunStarted():
                self.run_open = True
            case RunFinished() | RunFailed():
                self.run_open = False

    def _fired(self, event: Event) -> None:
        timer_id, due = event.content.get("timer_id"), event.content.get("due")
        if not isinstance(timer_id, str) or not isinstance(due, int | float):
            return
        self.fired[timer_id] = max(self.fired.get(timer_id, 0.0), float(due))
        timer = self.timers.get(timer_id)
        if timer is not None and not timer.cron:
            self.timers.pop(timer_id, None)

    def _task(self, event: TaskUpdated) -> None:
        known = self.tasks.get(event.task_id)
        if known is None:
            self.tasks[event.task_id] = TaskInfo(
                event.task_id, event.tool, event.call_id, event.state, event.detail,
                event.at, event.at,
            )  # fmt: skip
            return
        if known.final:
            return
        known.state, known.updated_at = event.state, event.at
        if event.detail:
            known.detail = event.detail

    # -- what the engine asks -------------------------------------------------------------

    @property
    def messages(self) -> list[Message]:
        """The complete trajectory (an open unit excluded)."""
        return self.trajectory.messages

    @property
    def seqs(self) -> list[int]:
        return self.trajectory.seqs

    @property
    def open_unit(self) -> OpenUnit | None:
        return self.trajectory.open_unit

    @property
    def answered(self) -> bool:
        """True when the last message is a final answer (nothing left to call the model for)."""
        if self.open_unit is not None or not self.messages:
            return False
        last = self.messages[-1]
        return isinstance(last, AssistantMessage) and not last.tool_calls

    @property
    def task_text(self) -> str:
        """The current task: the last message in the user's own words (never a notice)."""
        for message in reversed(self.messages):
            if isinstance(message, UserMessage) and message.origin != "harness":
                return message.content
        return ""

    def running_tasks(self) -> list[TaskInfo]:
        return [t for t in self.tasks.values() if not t.final]
