"""A background command passes the same safety analysis as shell, after its arguments are
validated: proven-safe commands start, dangerous ones never do."""

from __future__ import annotations

import json
from pathlib import Path

from support import Records, run

from workset.events import TaskUpdated, ToolFinished, new_event
from workset.log.store import SessionLog
from workset.messages import AssistantMessage
from workset.models.base import ModelRequest
from workset.safety.gate import SafetyGate
from workset.safety.policy import PermissionPolicy
from workset.session.agent import Agent
from workset.testing import FunctionModel, call
from workset.tools.background import background_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace


def test_initiate_shell_is_judged_like_shell_and_a_destructive_command_never_starts(
    tmp_path: Path,
) -> None:
    records = Records()
    commands = iter(["rm -rf / --no-preserve-root", "ls -la", 42])

    def fn(request: ModelRequest) -> AssistantMessage | str:
        for command in commands:
            arguments = json.dumps({"command": command})
            return AssistantMessage(None, (call("initiate_shell", arguments, f"c{command}"),))
        return "done"

    tools = ToolRegistry(background_tools(Workspace(tmp_path)))
    gate = SafetyGate(policy=PermissionPolicy(workspace=str(tmp_path)))
    agent = Agent(
        FunctionModel(fn), tools, SessionLog(tmp_path / "log.db"), gate=gate, subscribers=[records]
    )

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "clean up"))
            await session.run_until_idle()

    run(main)
    results = {e.call.arguments: e for e in records.of(ToolFinished)}
    denied = results[json.dumps({"command": "rm -rf / --no-preserve-root"})]
    assert denied.result.is_error and denied.decision.startswith("denied")
    allowed = results[json.dumps({"command": "ls -la"})]
    assert "started task-1" in allowed.result.content
    invalid = results[json.dumps({"command": 42})]
    assert invalid.decision == "refused: invalid arguments"  # validated before the gate
    started = [e for e in records.of(TaskUpdated) if e.state == "running"]
    assert [e.detail for e in started] == ["ls -la"]
