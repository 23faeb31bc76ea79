"""A process waiting for a person's approval is killed; after the restart the same request is
re-armed (not asked again) and the answer, delivered to the session, resumes its work."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import anyio
import anyio.lowlevel
from support import Records, run
from test_crash_recovery import _wait_for

from workset.collab.human import HumanDesk, answer_event_content
from workset.collab.human_tools import human_tools
from workset.collab.notify import ConsoleChannel, Notifier
from workset.events import (
    HumanAnswered,
    HumanAsked,
    NotificationSent,
    RunFinished,
    ToolFinished,
    new_event,
)
from workset.log.store import SessionLog
from workset.session.agent import Agent
from workset.testing import FakeClock, ScriptedModel
from workset.tools.registry import ToolRegistry

START = 1_780_000_000.0

CHILD = textwrap.dedent(
    """
    import io, json, sys, anyio
    from pathlib import Path
    from workset.collab.human import HumanDesk
    from workset.collab.human_tools import human_tools
    from workset.collab.notify import ConsoleChannel, Notifier
    from workset.events import HumanAsked, new_event
    from workset.log.store import SessionLog
    from workset.session.agent import Agent
    from workset.messages import AssistantMessage
    from workset.testing import FakeClock, ScriptedModel, call
    from workset.tools.registry import ToolRegistry

    db, ready = Path(sys.argv[1]), Path(sys.argv[2])
    arguments = json.dumps({"action": "Deploy release 7 to production", "reason": "tests pass",
                            "timeout_s": 3600})
    model = ScriptedModel([AssistantMessage(None, (call("request_human_approval", arguments,
                                                        "ap1"),))])
    desk = HumanDesk(Notifier([ConsoleChannel(io.StringIO())]))

    def asked(event):
        if isinstance(event, HumanAsked):  # written whole, then renamed: never read half
            ready.with_suffix(".part").write_text(event.request_id)
            ready.with_suffix(".part").replace(ready)

    agent = Agent(model, ToolRegistry(human_tools(desk)), SessionLog(db),
                  clock=FakeClock(1_780_000_000.0), subscribers=[asked])

    async def main():
        async with agent.session(title="deploy") as session:
            await session.deliver(new_event("user.input", "deploy release 7"))
            await session.run_until_idle()

    anyio.run(main)
    """
)


def test_an_approval_answered_after_a_restart_resumes_the_waiting_session(tmp_path: Path) -> None:
    db, ready, script = tmp_path / "log.db", tmp_path / "ready", tmp_path / "child.py"
    script.write_text(CHILD)
    process = subprocess.Popen(
        [sys.executable, str(script), str(db), str(ready)], stderr=subprocess.PIPE
    )
    try:
        _wait_for(ready, process)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.communicate()
    request_id = ready.read_text()

    log = SessionLog(db)
    session_id = log.sessions()[0].id
    records = Records()
    desk = HumanDesk(Notifier([ConsoleChannel(io.StringIO())]))
    agent = Agent(
        ScriptedModel(["Deployed release 7 after Ana approved."]),
        ToolRegistry(human_tools(desk)),
        log,
        clock=FakeClock(START + 600),  # ten minutes later: before the request's deadline
        subscribers=[records],
    )

    async def main() -> None:
        async with agent.session(session_id) as session, anyio.create_task_group() as group:
            group.start_soon(session.run_until_idle)
            while not session.claimers:  # the restarted call re-armed the request
                await anyio.lowlevel.checkpoint()
            content = answer_event_content(request_id, decision="approve", by="ana")
            answer = new_event("human.answer", content=content, channel="http")
            assert await session.deliver(answer) == "claimed"
            await records.until(lambda e: isinstance(e, RunFinished))

    run(main)
    events = [e.event for e in log.events(session_id)]
    asked = [e for e in events if isinstance(e, HumanAsked)]
    assert len(asked) == 1 and asked[0].deadline == START + 3600  # re-armed, not re-asked
    assert sum(isinstance(e, NotificationSent) for e in events) == 1  # notified once
    [ended] = [e for e in events if isinstance(e, HumanAnswered)]
    assert ended.outcome == "approved" and ended.by == "ana"
    [result] = [e for e in events if isinstance(e, ToolFinished)]
    assert "approved by ana over http" in result.result.content
    assert records.of(RunFinished)[-1].answer == "Deployed release 7 after Ana approved."
