"""Async tools: start long work, get a task id at once, hear about it later as events.

Seed 004 ("Interfaces de herramientas asíncronas"): a tool whose name says it *starts*
something (``initiate_shell``) returns immediately with a task id and the initial state; the
session delivers the task's completion as a ``task.finished`` event, and ``monitor_shell``
can ask to be woken on new output or on a keyword, with filters so unrelated output does not
wake the agent (seed 004, "Monitoreo de tareas en segundo plano"). ``task_status`` and
``cancel_task`` work on any task of the session by id.

These tools need the running session (:class:`~workset.tools.context.SessionHost`), which the
session engine provides to every call it runs. Commands run like ``shell``'s: in the
workspace, inside the sandbox when there is one, in their own process group (cancelling a
task kills all of it); their whole output is saved to a file the agent can read.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TextIO

import anyio
from anyio.abc import Process

from workset.errors import ToolError
from workset.safety.sandbox import Sandbox
from workset.tools.base import Tool
from workset.tools.context import SessionHost, TaskControl, TaskView, current_call
from workset.tools.workspace import Workspace

TAIL_LINES = 10
MAX_WAKEUPS = 20  # per monitor, so a chatty process cannot flood the inbox
_LINE_CHARS = 300


@dataclass
class _Output:
    """What a background command printed so far: a tail and a count (the rest is on disk)."""

    path: Path
    tail: deque[str] = field(default_factory=lambda: deque(maxlen=TAIL_LINES))
    lines: int = 0
    exit_code: int | None = None


def _host() -> SessionHost:
    host = current_call().host
    if host is None:
        raise ToolError(
            "this tool needs a running session (it starts or follows background tasks)",
            hint="run it through the agent's session engine, e.g. workset run or workset serve",
        )
    return host


def background_tools(workspace: Workspace, *, sandbox: Sandbox | None = None) -> list[Tool]:
    """``initiate_shell``, ``monitor_shell``, ``task_status`` and ``cancel_task``."""
    ws = workspace
    outputs: dict[str, _Output] = {}
    folder = ws.root / ".workset" / "tasks"

    async def initiate_shell(command: str) -> str:
        """Start a bash command in the background and return at once with its task id.

        Use when: a command takes long (a build, a test suite, a download, an analysis
        script) and you want to keep working or talking meanwhile, or to run several at once.
        Do not use when: the command is quick and you need its output now — use shell.
        The command starts in the workspace root. When it ends you receive a separate event
        "Task task-N (initiate_shell: ...) completed" with its exit code and last lines; you do
        not need to poll. Follow it with task_status, be woken on output with monitor_shell,
        stop it with cancel_task. Output: "started task-N: <command>" and where its output is
        saved. Examples: {"command": "pytest -q"}; {"command": "python analyze.py data.csv"}.

        Args:
            command: The bash command line, e.g. "make build".
        """
        if not command.strip():
            raise ToolError("command is empty", hint='give a bash command, e.g. "make test"')
        if "\x00" in command:
            raise ToolError("command contains a NUL byte", hint="remove it")
        host = _host()
        call = current_call()
        folder.mkdir(parents=True, exist_ok=True)

        async def work(control: TaskControl) -> str:
            output = outputs[control.task_id]
            return await _run(command, ws.root, sandbox, output, control)

        view = host.start_task("initiate_shell", call.call_id, command[:120], work)
        output = outputs[view.task_id] = _Output(folder / f"{view.task_id}.log")
        return (
            f"started {view.task_id}: {command[:200]}\nIt runs in the background; its result "
            f"will arrive as an event when it ends. Output is saved to "
            f"{ws.relative(output.path)}."
        )

    def monitor_shell(
        task_id: str,
        keyword: str = "",
        on: Literal["keyword", "any_output", "exit"] = "keyword",
        max_wakeups: int = 5,
    ) -> str:
        """Ask to be woken while a background task runs: on a keyword, on any new output, or
        only when it exits.

        Use when: a long task could fail early or print something you must react to
        ("ERROR", "password:", "Traceback"), or you want progress as it happens.
        Do not use when: you only need the final result — it arrives as an event anyway.
        Each wake-up is a separate event quoting the matching line. "keyword" wakes only on
        lines containing the keyword (a case-insensitive regular expression); "any_output"
        on every new line, up to max_wakeups times; "exit" adds nothing to the completion
        event. Output: what will wake you. Examples: {"task_id": "task-1", "keyword":
        "error|failed"}; {"task_id": "task-2", "on": "any_output", "max_wakeups": 3}.

        Args:
            task_id: The id initiate_shell returned, e.g. "task-1".
            keyword: With on="keyword": a case-insensitive regular expression to look for.
            on: What wakes you: "keyword", "any_output" or "exit".
            max_wakeups: At most this many wake-up events (1-20).
        """
        host = _host()
        view = host.task(task_id)
        if view.final:
            return f"{task_id} already {view.state}: {view.detail}"
        if not 1 <= max_wakeups <= MAX_WAKEUPS:
            raise ToolError(f"max_wakeups must be between 1 and {MAX_WAKEUPS}")
        if on == "exit":
            return f"{task_id}: you will be told when it exits (that happens anyway)."
        if on == "keyword":
            if not keyword.strip():
                raise ToolError('on="keyword" needs a keyword', hint='e.g. "error|failed"')
            try:
                pattern = re.compile(keyword, re.IGNORECASE)
            except re.error as exc:
                raise ToolError(f"keyword is not a valid regular expression: {exc}") from exc
        output = outputs.get(task_id)
        if output is None:
            raise ToolError(f"{task_id} is not a background shell command", hint="see task_status")
        left = [max_wakeups]

        def watcher(line: str) -> None:
            if left[0] <= 0 or (on == "keyword" and not pattern.search(line)):
                return
            left[0] -= 1
            more = "" if left[0] else " (last wake-up of this monitor)"
            host.notify_task(task_id, f"{task_id} printed: {line[:_LINE_CHARS]}{more}", line=line)

        host.watch_task(task_id, watcher)
        what = f"lines matching {keyword!r}" if on == "keyword" else "each new line"
        return f"monitoring {task_id}: you will be woken on {what}, at most {max_wakeups} times."

    def task_status(task_id: str = "") -> str:
        """The state of a background task (or of all tasks, without task_id).

        Use when: you need to know how far a running task has got (its last output line,
        how long it has run), or to list the session's tasks.
        Do not use when: you are waiting for a task to end — its result comes as an event.
        Output: one block per task: id, what it runs, state (running, completed, failed,
        cancelled, lost), seconds running, the last lines printed and the output file.
        Examples: {"task_id": "task-2"}; {}.

        Args:
            task_id: The task, e.g. "task-2"; empty for every task of the session.
        """
        host = _host()
        views = [host.task(task_id)] if task_id else list(host.list_tasks())
        if not views:
            return "no background tasks in this session"
        return "\n\n".join(_describe(v, outputs.get(v.task_id), host.now(), ws) for v in views)

    async def cancel_task(task_id: str) -> str:
        """Stop a background task now (its whole process group is killed).

        Use when: a task is no longer needed, is too slow, or misbehaves.
        Do not use when: the task already ended (the result says how it ended).
        Output: the task's final state. Example: {"task_id": "task-3"}.

        Args:
            task_id: The task to stop, e.g. "task-3".
        """
        host = _host()
        before = host.task(task_id)
        if before.final:
            return f"{task_id} had already ended ({before.state}): {before.detail}"
        view = await host.cancel_task(task_id, "cancel_task was called")
        return f"{task_id} cancelled after {host.now() - view.started_at:.0f} s: {before.detail}"

    return [
        Tool.from_function(initiate_shell, risk="high", examples=({"command": "make test"},)),
        Tool.from_function(
            monitor_shell,
            read_only=True,
            wrap_output=False,
            examples=({"task_id": "task-1", "keyword": "error|failed"},),
        ),
        Tool.from_function(task_status, read_only=True, wrap_output=False, examples=({},)),
        Tool.from_function(
            cancel_task, idempotent=True, wrap_output=False, examples=({"task_id": "task-1"},)
        ),
    ]


async def _run(
    command: str, root: Path, sandbox: Sandbox | None, output: _Output, control: TaskControl
) -> str:
    argv = ["bash", "-c", command]
    if sandbox is not None:
        argv = sandbox.wrap(argv, cwd=root)
    with anyio.CancelScope(shield=True):  # a cancel mid-start must not leak the process
        process: Process = await anyio.open_process(
            argv,
            cwd=root,
            stdin=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        with output.path.open("w", encoding="utf-8", errors="replace") as saved:
            assert process.stdout is not None
            buffer = b""
            async for chunk in process.stdout:
                buffer += chunk
                *complete, buffer = buffer.split(b"\n")
                for raw in complete:
                    _line(raw, output, saved, control)
            if buffer:
                _line(buffer, output, saved, control)
        output.exit_code = await process.wait()
    finally:
        with anyio.CancelScope(shield=True):
            if process.returncode is None:
                _kill_group(process.pid)
            await process.aclose()
    tail = "\n".join(output.tail) or "(no output)"
    code = output.exit_code
    verdict = "exit code 0" if code == 0 else f"exit code {code}"
    text = f"{verdict}; {output.lines} lines of output. Last lines:\n{tail}"
    if code != 0:
        raise ToolError(text)
    return text


def _line(raw: bytes, output: _Output, saved: TextIO, control: TaskControl) -> None:
    line = raw.decode("utf-8", "replace").rstrip("\r")
    saved.write(line + "\n")
    saved.flush()
    output.lines += 1
    output.tail.append(line[:_LINE_CHARS])
    control.progress(line)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _describe(view: TaskView, output: _Output | None, now: float, ws: Workspace) -> str:
    end = now if not view.final else view.updated_at
    lines = [
        f"{view.task_id} ({view.tool}: {view.title}): {view.state}, "
        f"{max(0.0, end - view.started_at):.0f} s"
    ]
    if output is not None:
        lines.append(f"{output.lines} lines of output so far, saved to {ws.relative(output.path)}")
        if output.tail:
            lines.append("last lines:\n" + "\n".join(output.tail))
    elif view.detail:
        lines.append(f"last: {view.detail}")
    return "\n".join(lines)
