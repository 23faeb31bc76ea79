"""The loop with the safety gate and real execution tools: what is denied never runs."""

from __future__ import annotations

from pathlib import Path

import anyio

from workset.events import LoopEvent, ToolFinished, ToolStarted
from workset.messages import AssistantMessage
from workset.safety.approval import AutoApprover
from workset.safety.gate import SafetyGate
from workset.safety.policy import PermissionPolicy
from workset.session.agent import Agent
from workset.testing import ScriptedModel, call, current_store
from workset.tools.execution import execution_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace

# The default policy runs commands the analysis shows safe; these tests need one that asks.
ASK_EVERY_SHELL_CALL = PermissionPolicy(prove_commands=False)


def run(tmp_path: Path, command: str, gate: SafetyGate) -> tuple[list[LoopEvent], Path]:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "keep.txt").write_text("precious")
    shell = call("shell", f'{{"command": "{command}"}}', "sh1")
    seen: list[LoopEvent] = []
    agent = Agent(
        ScriptedModel([AssistantMessage(None, (shell,)), "ok"]),
        ToolRegistry(execution_tools(Workspace(workspace))),
        current_store(),
        subscribers=[seen.append],
        gate=gate,
    )
    anyio.run(agent.run, "do it")
    return seen, workspace


def test_a_denied_command_never_runs_and_the_model_reads_why(tmp_path: Path) -> None:
    seen, workspace = run(tmp_path, "rm -rf keep.txt / --no-preserve-root", SafetyGate())
    [finished] = [e for e in seen if isinstance(e, ToolFinished)]
    assert not any(isinstance(e, ToolStarted) for e in seen)
    assert finished.result.is_error and "Blocked by the safety policy" in finished.result.content
    assert finished.decision.startswith("denied")
    assert (workspace / "keep.txt").exists()


def test_a_risky_call_waits_for_approval_and_runs_when_approved(tmp_path: Path) -> None:
    gate = SafetyGate(approver=AutoApprover(True), policy=ASK_EVERY_SHELL_CALL)
    seen, _ = run(tmp_path, "echo hello", gate)
    [finished] = [e for e in seen if isinstance(e, ToolFinished)]
    assert "hello" in finished.result.content and not finished.result.is_error
    assert finished.decision.startswith("approved by")


def test_without_an_approver_a_call_that_needs_one_is_refused(tmp_path: Path) -> None:
    seen, _ = run(tmp_path, "echo hello", SafetyGate(policy=ASK_EVERY_SHELL_CALL))
    [finished] = [e for e in seen if isinstance(e, ToolFinished)]
    assert finished.result.is_error and "needs human approval" in finished.result.content
