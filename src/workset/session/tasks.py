"""Background tasks of one session: async tools' work, and tools detached by an interrupt.

Seed 004 ("Interfaces de herramientas asíncronas"): an ``initiate_*`` tool starts work and
returns a task id at once; progress and completion arrive later as events. A task here is
work running in the session's task group. Its life is recorded (``TaskUpdated``: running,
progress, then one final state: completed, failed, cancelled or lost); its completion is
delivered to the session's inbox as a ``task.finished`` event (queued: it enters at the next
safe point, or wakes an idle session). ``cancel`` stops it at once. A task recorded as
running when the process died is ``lost`` after a restart: its outcome is unknown and it is
never re-run.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import anyio

from workset.errors import ToolError
from workset.events.inputs import EventContext, new_event
from workset.events.records import TaskState, TaskUpdated
from workset.tools.context import TaskView, TaskWork

if TYPE_CHECKING:
    from workset.session.engine import Session

_DETAIL_CHARS = 500
RESULT_CHARS = 4000  # of a task's result text in its completion event


@dataclass
class _Running:
    view: TaskView
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    done: anyio.Event = field(default_factory=anyio.Event)
    watchers: list[Callable[[str], None]] = field(default_factory=list)


class _Control:
    def __init__(self, manager: TaskManager, task_id: str) -> None:
        self.manager = manager
        self.task_id = task_id

    def progress(self, detail: str) -> None:
        self.manager.progress(self.task_id, detail)

    def notify(self, text: str, **payload: object) -> None:
        self.manager.notify(self.task_id, text, **payload)


class TaskManager:
    def __init__(self, session: Session) -> None:
        self.session = session
        self._running: dict[str, _Running] = {}
        self._ids = itertools.count(len(session.state.tasks) + 1)

    # -- starting and finishing -----------------------------------------------------------

    def start(self, tool: str, call_id: str, title: str, work: TaskWork) -> TaskView:
        """Run ``work`` in the background; returns the task as first recorded."""
        running = self._register(tool, call_id, title)
        self.session.spawn(self._run, running, work)
        return running.view

    def adopt(self, tool: str, call_id: str, title: str) -> TaskView:
        """A tool call left running by an interrupt becomes a task; :meth:`finish` ends it."""
        return self._register(tool, call_id, title).view

    def _register(self, tool: str, call_id: str, title: str) -> _Running:
        task_id = f"task-{next(self._ids)}"
        while task_id in self.session.state.tasks:
            task_id = f"task-{next(self._ids)}"
        now = self.session.now()
        view = TaskView(task_id, tool, title, "running", "started", now, now)
        self.session.record(
            TaskUpdated(self.session.id, task_id, "running", now, title, tool, call_id)
        )
        running = _Running(view)
        self._running[task_id] = running
        return running

    async def _run(self, running: _Running, work: TaskWork) -> None:
        task_id = running.view.task_id
        text = ""
        state: TaskState = "failed"
        with running.scope:
            try:
                text = await work(_Control(self, task_id))
                state = "completed"
            except ToolError as exc:
                text = exc.for_model()
            except Exception as exc:  # the work is an I/O edge: its crash is the task's result
                text = f"the task crashed: {type(exc).__name__}: {exc}"
        if running.scope.cancel_called:
            return  # cancel() recorded the final state
        self.finish(task_id, state, text)

    def finish(self, task_id: str, state: TaskState, text: str) -> None:
        """Record the final state and deliver the completion event (once)."""
        running = self._running.pop(task_id, None)
        if running is None:
            return
        view = running.view
        summary = text.strip().splitlines()[-1][:_DETAIL_CHARS] if text.strip() else state
        record = TaskUpdated(
            self.session.id, task_id, state, self.session.now(), summary, view.tool
        )
        if self.session.record(record) is not None:
            clipped = text if len(text) <= RESULT_CHARS else f"{text[:RESULT_CHARS]}\n… (clipped)"
            self.session.deliver_nowait(
                new_event(
                    "task.finished",
                    f"Task {task_id} ({view.tool}: {view.title}) {state}.\n{clipped}".rstrip(),
                    source="tool",
                    channel="task",
                    content={"task_id": task_id, "tool": view.tool, "state": state},
                    context=EventContext(relates_to=(task_id,)),
                )
            )
        running.done.set()

    # -- what tools and the engine ask -----------------------------------------------------

    def progress(self, task_id: str, detail: str) -> None:
        running = self._running.get(task_id)
        if running is None:
            return
        now = self.session.now()
        running.view = TaskView(
            task_id, running.view.tool, running.view.title, "running", detail[:_DETAIL_CHARS],
            running.view.started_at, now,
        )  # fmt: skip
        for watcher in list(running.watchers):
            watcher(detail)

    def notify(self, task_id: str, text: str, **payload: object) -> None:
        """Deliver a ``task.progress`` event about ``task_id`` (a monitor's keyword hit)."""
        self.session.deliver_nowait(
            new_event(
                "task.progress",
                text,
                source="tool",
                channel="task",
                content={"task_id": task_id, **payload},
                context=EventContext(relates_to=(task_id,)),
            )
        )

    def watch(self, task_id: str, watcher: Callable[[str], None]) -> None:
        """Call ``watcher`` with each progress line of a running task."""
        running = self._running.get(task_id)
        if running is None:
            raise ToolError(f"task {task_id} is not running", hint=self._known())
        running.watchers.append(watcher)

    def view(self, task_id: str) -> TaskView:
        running = self._running.get(task_id)
        if running is not None:
            return running.view
        info = self.session.state.tasks.get(task_id)
        if info is None:
            raise ToolError(f"no task {task_id!r} in this session", hint=self._known())
        return TaskView(
            info.task_id, info.tool, "", info.state, info.detail, info.started_at, info.updated_at
        )

    def views(self) -> list[TaskView]:
        return [self.view(t) for t in self.session.state.tasks]

    def cancel(self, task_id: str, reason: str) -> TaskView:
        """Stop a running task now; a finished one is reported as it ended."""
        view = self.view(task_id)
        running = self._running.pop(task_id, None)
        if running is None:
            return view
        running.scope.cancel()
        now = self.session.now()
        detail = f"cancelled: {reason}"[:_DETAIL_CHARS]
        self.session.record(
            TaskUpdated(self.session.id, task_id, "cancelled", now, detail, view.tool)
        )
        running.done.set()
        return TaskView(task_id, view.tool, view.title, "cancelled", detail, view.started_at, now)

    def cancel_all(self, reason: str) -> list[TaskView]:
        return [self.cancel(t, reason) for t in list(self._running)]

    def running_ids(self) -> list[str]:
        return list(self._running)

    async def wait_any(self) -> None:
        """Return when some running task finishes (at once when none runs)."""
        if not self._running:
            return
        async with anyio.create_task_group() as group:
            for running in list(self._running.values()):

                async def one(r: _Running = running) -> None:
                    await r.done.wait()
                    group.cancel_scope.cancel()

                group.start_soon(one)

    def mark_lost(self) -> None:
        """Tasks the log says were running when the process stopped: their outcome is unknown."""
        for info in self.session.state.running_tasks():
            if info.task_id in self._running:
                continue
            now = self.session.now()
            detail = "lost: the process stopped while it ran; its outcome is unknown"
            record = TaskUpdated(self.session.id, info.task_id, "lost", now, detail, info.tool)
            if self.session.record(record) is not None:
                self.session.deliver_nowait(
                    new_event(
                        "task.finished",
                        f"Task {info.task_id} ({info.tool}) was lost: the process stopped while "
                        "it ran, so its outcome is unknown. Check its effects before starting "
                        "it again.",
                        source="system",
                        channel="task",
                        content={"task_id": info.task_id, "tool": info.tool, "state": "lost"},
                        context=EventContext(relates_to=(info.task_id,)),
                    )
                )

    def _known(self) -> str:
        ids = list(self.session.state.tasks)
        return f"known tasks: {', '.join(ids)}" if ids else "this session has started no task"
