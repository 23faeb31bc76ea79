"""What a running tool may know about the call it serves: session, call id, idempotency key,
and the session it runs in.

The registry sets the context around every handler; a handler reads it with
:func:`current_call`. The idempotency key is the same for every attempt at one call (a retry
after a crash included), so a tool that talks to an external system can pass it along and let
that system drop duplicates. ``host`` is the running session (when there is one): the seam
through which async tools start background tasks and event-triggered tools set timers, without
the tools knowing the session engine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol

from workset.errors import UsageError


@dataclass(frozen=True, slots=True)
class TaskView:
    """A background task as a tool reports it."""

    task_id: str
    tool: str
    title: str
    state: str  # running, completed, failed, cancelled, lost
    detail: str  # the last progress line, or the final summary
    started_at: float
    updated_at: float

    @property
    def final(self) -> bool:
        return self.state in ("completed", "failed", "cancelled", "lost")


class TaskControl(Protocol):
    """What running work may do: report progress, wake the session, see if it must stop."""

    task_id: str

    def progress(self, detail: str) -> None: ...

    def notify(self, text: str, **payload: object) -> None: ...


TaskWork = Callable[[TaskControl], Awaitable[str]]


@dataclass(frozen=True, slots=True)
class TimerView:
    timer_id: str
    message: str
    due: float
    cron: str
    timezone: str


class SessionHost(Protocol):
    """The running session, as tools see it."""

    @property
    def session_id(self) -> str: ...

    def now(self) -> float: ...

    def start_task(self, tool: str, call_id: str, title: str, work: TaskWork) -> TaskView:
        """Run ``work`` in the background; its result arrives later as a task event."""
        ...

    def task(self, task_id: str) -> TaskView:
        """Raises :class:`~workset.errors.ToolError` (listing the known ids) when unknown."""
        ...

    def list_tasks(self) -> Sequence[TaskView]: ...

    async def cancel_task(self, task_id: str, reason: str) -> TaskView: ...

    def watch_task(self, task_id: str, watcher: Callable[[str], None]) -> None:
        """Call ``watcher`` with each progress line of a running task."""
        ...

    def notify_task(self, task_id: str, text: str, **payload: object) -> None:
        """Wake the session with a ``task.progress`` event about ``task_id``."""
        ...

    def set_timer(self, message: str, due: float, cron: str, timezone: str) -> TimerView: ...

    def cancel_timer(self, timer_id: str) -> TimerView: ...

    def list_timers(self) -> Sequence[TimerView]: ...


@dataclass(frozen=True, slots=True)
class CallContext:
    session_id: str
    call_id: str
    tool: str
    host: SessionHost | None = None

    @property
    def idempotency_key(self) -> str:
        digest = hashlib.sha256(f"{self.session_id}\0{self.call_id}".encode()).hexdigest()
        return f"ws-{digest[:32]}"


_current: ContextVar[CallContext | None] = ContextVar("workset_call", default=None)


def current_call() -> CallContext:
    """The call being served; only inside a tool handler run by the registry."""
    found = _current.get()
    if found is None:
        raise UsageError("current_call() is only available inside a tool run by a ToolRegistry")
    return found


@contextmanager
def serving(context: CallContext) -> Iterator[None]:
    token = _current.set(context)
    try:
        yield
    finally:
        _current.reset(token)
