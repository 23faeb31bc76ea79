"""Kill a real agent process during a tool call, then resume it from the session log."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import anyio

from workset.events import ToolFinished, ToolStarted
from workset.log.store import SessionLog
from workset.messages import ToolMessage
from workset.session.agent import Agent
from workset.testing import ScriptedModel
from workset.tools.registry import ToolRegistry

AGENT_SCRIPT = textwrap.dedent(
    """
    import sys, anyio
    from pathlib import Path
    from workset.log.store import SessionLog
    from workset.session.agent import Agent
    from workset.messages import AssistantMessage
    from workset.testing import ScriptedModel, call
    from workset.tools.base import tool
    from workset.tools.registry import ToolRegistry

    effects = Path(sys.argv[2])

    @tool(examples=({"text": "x"},))
    def charge_card(text: str) -> str:
        '''Charge the card once. Use when asked to pay.

        Args:
            text: What the charge is for.
        '''
        with effects.open("a") as f:
            f.write(text + "\\n")
        return "charged"

    @tool(examples=({},))
    async def deploy() -> str:
        '''Deploy. Use when asked to deploy.'''
        await anyio.sleep_forever()
        return "deployed"

    script = [
        AssistantMessage(None, (call("charge_card", '{"text": "order 17"}', "pay"),)),
        AssistantMessage(None, (call("deploy", "{}", "dep"),)),
    ]
    agent = Agent(ScriptedModel(script), ToolRegistry([charge_card, deploy]),
                  SessionLog(sys.argv[1]))
    anyio.run(agent.run, "pay, then deploy")
    """
)


def wait_for(predicate, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached before the deadline")
        time.sleep(0.05)  # polling interval, not a fixed wait for an outcome


def test_a_killed_run_resumes_without_losing_events_or_repeating_a_finished_tool(
    tmp_path: Path,
) -> None:
    db, effects, script = tmp_path / "log.db", tmp_path / "effects.txt", tmp_path / "agent.py"
    script.write_text(AGENT_SCRIPT)
    process = subprocess.Popen(
        [sys.executable, str(script), str(db), str(effects)], stderr=subprocess.PIPE
    )
    try:

        def deploy_started() -> bool:
            if process.poll() is not None:
                raise AssertionError(process.stderr.read().decode() if process.stderr else "")
            if not db.exists():
                return False
            with SessionLog(db) as log:
                found = log.sessions()
                return bool(found) and any(
                    isinstance(e.event, ToolStarted) and e.event.call.name == "deploy"
                    for e in log.events(found[0].id)
                )

        wait_for(deploy_started)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.communicate()

    log = SessionLog(db)
    session = log.sessions()[0].id
    before = [(e.seq, e.kind) for e in log.events(session)]
    assert [k for _, k in before] == [
        "event_received",
        "run_started",
        "input_appended",
        "model_called",
        "tool_started",
        "tool_finished",
        "model_called",
        "tool_started",
    ]
    assert effects.read_text() == "order 17\n"

    from workset.tools.base import tool

    @tool(examples=({"text": "x"},))
    def charge_card(text: str) -> str:
        """Charge the card once.

        Args:
            text: What the charge is for.
        """
        raise AssertionError("a finished tool must not run again")

    @tool(examples=({},))
    def deploy() -> str:
        """Deploy."""
        raise AssertionError("a tool with side effects that was interrupted must not re-run")

    agent = Agent(
        ScriptedModel(["Paid; the deploy was interrupted, please re-check it."]),
        ToolRegistry([charge_card, deploy]),
        log,
    )
    result = anyio.run(agent.resume, session)
    assert result.status == "finished"
    after = [(e.seq, e.kind) for e in log.events(session)]
    assert after[: len(before)] == before  # nothing committed was lost or rewritten
    finished = [e.event for e in log.events(session) if isinstance(e.event, ToolFinished)]
    assert [f.call.id for f in finished] == ["pay", "dep"]
    assert (
        isinstance(finished[1].result, ToolMessage) and "interrupted" in finished[1].result.content
    )
    assert effects.read_text() == "order 17\n"
