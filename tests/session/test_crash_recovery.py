"""Kill a real agent process while a background task runs, events wait and a timer is set;
restart it: no committed record is lost, no event is consumed twice, the tool with side
effects is not re-run, the lost task is reported as lost, the due timer fires once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import anyio

from workset.events import EventReceived, InputAppended, TaskUpdated, ToolFinished
from workset.log.store import SessionLog
from workset.session.agent import Agent
from workset.testing import FakeClock, ScriptedModel
from workset.tools.background import background_tools
from workset.tools.base import tool
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace
from workset.triggers.tools import timer_tools

START = 1_780_000_000.0

CHILD = textwrap.dedent(
    """
    import json, sys, anyio
    from pathlib import Path
    from workset.events import new_event
    from workset.log.store import SessionLog
    from workset.session.agent import Agent
    from workset.messages import AssistantMessage
    from workset.testing import FakeClock, ScriptedModel, call
    from workset.tools.background import background_tools
    from workset.tools.base import tool
    from workset.tools.registry import ToolRegistry
    from workset.tools.workspace import Workspace
    from workset.triggers.tools import timer_tools

    db, effects, ready, workspace = (Path(a) for a in sys.argv[1:5])

    @tool(examples=({},))
    async def deploy() -> str:
        '''Deploy the service (not idempotent). Use when asked to deploy.'''
        with effects.open("a") as f:
            f.write("deployed once\\n")
        await anyio.sleep_forever()
        return "deployed"

    calls = (
        call("set_timer", json.dumps({"message": "check the deploy", "in_seconds": 60}), "t1"),
        call("initiate_shell", json.dumps({"command": "sleep 300"}), "s1"),
        call("deploy", "{}", "d1"),
    )
    tools = ToolRegistry([deploy, *timer_tools(), *background_tools(Workspace(workspace))])
    agent = Agent(ScriptedModel([AssistantMessage(None, calls)]), tools, SessionLog(db),
                  clock=FakeClock(1_780_000_000.0))

    async def main():
        async with agent.session(title="deploy") as session:
            await session.deliver(new_event("user.input", "set a timer, crawl, then deploy"))
            async with anyio.create_task_group() as group:
                group.start_soon(session.run_until_idle)
                while not effects.exists():
                    await anyio.sleep(0.01)
                await session.deliver(new_event("user.input", "also tag the release", id="late-1"))
                await session.deliver(new_event("user.input", "and email the team", id="late-2"))
                ready.write_text("ready")
                await anyio.sleep_forever()

    anyio.run(main)
    """
)


def _wait_for(path: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while not path.exists():
        if process.poll() is not None:
            raise AssertionError(process.stderr.read().decode() if process.stderr else "")
        if time.monotonic() > deadline:
            raise AssertionError("the child never got ready")
        time.sleep(0.05)  # polling a file another process writes, not waiting for an outcome


def test_a_killed_session_restarts_with_nothing_lost_and_nothing_done_twice(
    tmp_path: Path,
) -> None:
    db, effects, ready = tmp_path / "log.db", tmp_path / "effects.txt", tmp_path / "ready"
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    process = subprocess.Popen(
        [sys.executable, str(script), str(db), str(effects), str(ready), str(tmp_path)],
        stderr=subprocess.PIPE,
    )
    try:
        _wait_for(ready, process)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.communicate()

    log = SessionLog(db)
    session = log.sessions()[0].id
    before = [(e.seq, e.kind) for e in log.events(session)]
    assert sum(k == "event_received" for _, k in before) == 3  # the task and two late events
    assert effects.read_text() == "deployed once\n"

    @tool(examples=({},))
    async def deploy() -> str:
        """Deploy the service (not idempotent). Use when asked to deploy."""
        raise AssertionError("an interrupted tool with side effects must not run again")

    tools = ToolRegistry([deploy, *timer_tools(), *background_tools(Workspace(tmp_path))])
    clock = FakeClock(START + 3600)  # the timer came due while the process was down
    for answer in ("Recovered: the deploy was interrupted; tagging and emailing next.", None):
        agent = Agent(ScriptedModel([answer] if answer else []), tools, log, clock=clock)
        result = anyio.run(agent.resume, session)
        assert result.status == ("finished" if answer else "nothing_to_do"), result.error

    after = [(e.seq, e.kind) for e in log.events(session)]
    assert after[: len(before)] == before  # nothing committed was lost or rewritten
    assert effects.read_text() == "deployed once\n"
    records = [e.event for e in log.events(session)]
    deploy_result = next(r for r in records if isinstance(r, ToolFinished) and r.call.id == "d1")
    assert deploy_result.interrupted and "not run again" in deploy_result.result.content
    lost = [r for r in records if isinstance(r, TaskUpdated) and r.state == "lost"]
    assert [t.task_id for t in lost] == ["task-1"]
    received = [r.event.id for r in records if isinstance(r, EventReceived)]
    assert len(received) == len(set(received))
    consumed = [i for r in records if isinstance(r, InputAppended) for i in r.event_ids]
    assert sorted(consumed) == sorted(received)  # every event consumed, each once
    batch = [r for r in records if isinstance(r, InputAppended)][-1]
    assert "also tag the release" in batch.text and "and email the team" in batch.text
    assert "task-1" in batch.text and "lost" in batch.text
    assert (
        sum("Timer timer-1 fired" in r.text for r in records if isinstance(r, InputAppended)) == 1
    )
