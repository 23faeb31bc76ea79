"""``workset chat``: talk to the agent while it works.

The session runs in the background (:meth:`~workset.session.engine.Session.serve`) and the
terminal is read at the same time, so a line typed while the agent works is an event like
any other: a plain line queues (it enters at the next safe point, batched with whatever else
arrived), a line starting with ``!`` interrupts (the cancel strategy: the model's output is
dropped, running tools get placeholder results), a line starting with ``?`` is a side
question answered in parallel from the session's context. ``/tasks`` lists background tasks
and timers, ``/quit`` ends at once (what runs is cancelled; the log keeps what was recorded
and ``workset resume`` goes on), Ctrl-D ends once the agent has nothing left to do.
What runs is shown as it happens: one line per model call, tool and event.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from datetime import datetime
from typing import TextIO

import anyio
import anyio.from_thread
import anyio.lowlevel
import click

from workset.cli.runtime import RuntimeOptions, err, model_options, open_runtime, out
from workset.events import Event, EventContext, EventReceived, LoopEvent, ToolStarted, new_event
from workset.loop.settings import RunResult
from workset.serve.watch import Changes, serve_session, until_idle
from workset.session.agent import Agent
from workset.session.engine import Session
from workset.triggers.schedule import zone

HELP = (
    "Type a message and press Enter; while the agent works it queues. Start a line with ! to "
    "interrupt, with ? to ask a side question answered at once. /tasks lists background "
    "tasks and timers, /quit ends now, Ctrl-D ends when the agent is done."
)
Say = Callable[[str], None]


def chat_event(line: str) -> Event:
    """The event a typed line is: ``!`` interrupts, ``?`` asks on the side, else it queues."""
    if line.startswith("!"):
        text = line[1:].strip() or "stop"
        return new_event(
            "user.interrupt", text, channel="chat", context=EventContext(mode="cancel")
        )
    if line.startswith("?"):
        text = line[1:].strip() or "?"
        return new_event("user.input", text, channel="chat", context=EventContext(mode="parallel"))
    return new_event("user.input", line, channel="chat")


def tasks_lines(session: Session | None) -> list[str]:
    """What ``/tasks`` prints: the agent's state, running background tasks, timers."""
    if session is None:
        return ["nothing yet: type a message to start"]
    lines = [f"agent: {'working' if session.busy else 'idle'} (session {session.id})"]
    running = [t for t in session.list_tasks() if not t.final]
    lines += [f"{t.task_id} {t.tool} running: {t.title} — {t.detail}" for t in running]
    if not running:
        lines.append("no background task is running")
    for timer in session.list_timers():
        when = datetime.fromtimestamp(timer.due, zone(timer.timezone)).isoformat(timespec="seconds")
        every = f" (cron {timer.cron})" if timer.cron else ""
        lines.append(f"{timer.timer_id} fires {when}{every}: {timer.message}")
    if not session.list_timers():
        lines.append("no timer is set")
    return lines


async def chat_loop(
    agent: Agent,
    lines: AsyncIterator[str],
    *,
    session_id: str | None = None,
    workspace: str = "",
    say: Say,
    tell: Say,
) -> str | None:
    """Run a chat over ``lines`` until ``/quit`` or their end; returns the session id.

    ``say`` prints what the user reads (answers), ``tell`` what runs (notes, errors).
    """
    chat = _Chat(agent, say, tell)
    async with contextlib.aclosing(_typed(lines)) as typed:
        async for line in typed:  # before the first message there is no session yet
            if line in _QUIT:
                return None
            if chat.command(line):
                continue
            title = line.lstrip("!?").strip()
            async with agent.session(session_id, title=title, workspace=workspace) as session:
                await chat.converse(session, line, typed)
            return session.id
    return None


class _Chat:
    def __init__(self, agent: Agent, say: Say, tell: Say) -> None:
        self.say, self.tell = say, tell
        self.session: Session | None = None
        self.changes = Changes()
        agent.bus.subscribe(self.changes)
        agent.bus.subscribe(self._shown)

    async def converse(self, session: Session, first: str, typed: AsyncIterator[str]) -> None:
        """Serve ``session`` in the background while the lines keep coming."""
        self.session = session
        async with anyio.create_task_group() as group:
            group.start_soon(self._serve, session)
            await session.deliver(chat_event(first))
            async for line in typed:
                if line in _QUIT:
                    break
                if self.command(line):
                    continue
                busy = session.busy
                strategy = await session.deliver(chat_event(line))
                if busy:
                    self.tell(_NOTES.get(strategy, f"({strategy})"))
            else:  # the input ended: let the agent finish first
                await until_idle(session, self.changes)
            group.cancel_scope.cancel()  # /quit: what runs stops; the log keeps what it had

    def command(self, line: str) -> bool:
        """Handle a /command; True when the line was one."""
        if line == "/tasks":
            for text in tasks_lines(self.session):
                self.tell(text)
        elif line in ("/help", "/?"):
            self.tell(HELP)
        elif line.startswith("/"):
            self.tell(f"unknown command {line.split()[0]}; commands: /tasks, /quit, /help")
        else:
            return False
        return True

    async def _serve(self, session: Session) -> None:
        await serve_session(session, self.changes, self._answered)

    def _answered(self, result: RunResult) -> None:
        if result.status == "finished" and result.answer:
            self.say(result.answer)
        elif result.status == "failed":
            self.tell(f"run failed: {result.error} (your next line tries again)")

    def _shown(self, record: LoopEvent) -> None:
        if self.session is None or record.session_id != self.session.id:
            return
        if isinstance(record, ToolStarted):
            self.tell(f"  … {record.call.name} running")
        elif isinstance(record, EventReceived) and record.event.type == "parallel.answered":
            self.say(f"(answered on the side) {record.event.content.get('answer', '')}")


async def _typed(lines: AsyncIterator[str]) -> AsyncGenerator[str, None]:
    """The non-empty lines, stripped."""
    async for raw in lines:
        if raw.strip():
            yield raw.strip()


_QUIT = ("/quit", "/exit")
_NOTES = {
    "queue": "(queued: the agent takes it when its current step ends)",
    "cancel": "(interrupting what the agent is doing)",
    "parallel": "(asking on the side while the agent works)",
}


async def stdin_lines(stream: TextIO | None = None) -> AsyncGenerator[str, None]:
    """Lines of ``stream`` (stdin) read by a daemon thread, so the event loop never blocks
    and a pending read never keeps the process alive."""
    source = stream or sys.stdin
    send, receive = anyio.create_memory_object_stream[str](16)
    token = anyio.lowlevel.current_token()

    def pump() -> None:
        with contextlib.suppress(RuntimeError, anyio.BrokenResourceError):
            try:
                for line in source:
                    anyio.from_thread.run(send.send, line, token=token)
            finally:
                anyio.from_thread.run_sync(send.close, token=token)

    threading.Thread(target=pump, name="workset chat stdin", daemon=True).start()
    async with receive:
        async for line in receive:
            yield line


@click.command(
    "chat",
    help="Chat with the agent while it works: a line queues, !line interrupts, ?line asks a "
    "side question; /tasks lists background tasks and timers, /quit ends.",
)
@click.option("--session", "session_id", default=None, help="Continue this session.")
@model_options
def chat_command(session_id: str | None, opts: RuntimeOptions) -> None:
    rt = open_runtime(opts, session_id, events=True)
    resolved = rt.log.resolve(session_id) if session_id is not None else None
    if sys.stdin.isatty():
        err.print(HELP, markup=False, highlight=False)

    async def go() -> None:
        try:
            async with contextlib.aclosing(stdin_lines()) as lines:
                found = await chat_loop(
                    rt.agent,
                    lines,
                    session_id=resolved,
                    workspace=str(rt.workspace),
                    say=lambda text: out.print(text, markup=False, highlight=False),
                    tell=lambda text: err.print(text, markup=False, highlight=False),
                )
            if found is not None:
                err.print(f"[dim]session {found} stored in {rt.log.where}[/]")
        finally:
            rt.setup.close()
            await rt.aclose()

    anyio.run(go)
