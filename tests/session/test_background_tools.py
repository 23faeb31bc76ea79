"""initiate_shell, monitor_shell, task_status and cancel_task on real subprocesses."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from support import Records, make_agent, run

from workset.events import InputAppended, RunFinished, TaskUpdated, ToolFinished, new_event
from workset.messages import AssistantMessage, ToolMessage, UserMessage
from workset.models.base import ModelRequest
from workset.testing import FunctionModel, call
from workset.tools.background import background_tools
from workset.tools.workspace import Workspace

NOISY = """
import sys, time
for i in range(40):
    print(f"step {i}", flush=True)
    if i == 25:
        print("ERROR: disk almost full", flush=True)
    time.sleep(0.01)
"""


def test_monitor_wakes_the_agent_only_on_the_keyword_and_the_end_arrives_as_an_event(
    tmp_path: Path,
) -> None:
    (tmp_path / "noisy.py").write_text(NOISY)
    records = Records()
    steps: list[str] = []

    def fn(request: ModelRequest) -> AssistantMessage | str:
        last = request.messages[-1]
        if not steps:
            steps.append("start")
            command = json.dumps({"command": f"{sys.executable} noisy.py"})
            return AssistantMessage(None, (call("initiate_shell", command, "s1"),))
        if steps == ["start"]:
            steps.append("monitor")
            arguments = json.dumps({"task_id": "task-1", "keyword": "error"})
            return AssistantMessage(None, (call("monitor_shell", arguments, "m1"),))
        if isinstance(last, UserMessage):
            steps.append(last.content)
        return "noted"

    tools = background_tools(Workspace(tmp_path))
    agent = make_agent(tmp_path, FunctionModel(fn), tools, records)

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "run the noisy job and watch errors"))
            await session.run_until_idle()

    run(main)
    woken = [s for s in steps[2:] if "printed" in s]
    assert len(woken) == 1 and "ERROR: disk almost full" in woken[0]
    assert any("task-1" in s and "completed" in s and "exit code 0" in s for s in steps[2:])
    saved = (tmp_path / ".workset" / "tasks" / "task-1.log").read_text()
    assert saved.count("step") == 40


def test_unknown_task_ids_get_errors_that_list_the_known_ones(tmp_path: Path) -> None:
    records = Records()

    def fn(request: ModelRequest) -> AssistantMessage | str:
        results = [m for m in request.messages if isinstance(m, ToolMessage)]
        if not results:
            return AssistantMessage(None, (call("initiate_shell", '{"command": "true"}', "s1"),))
        if len(results) == 1:
            return AssistantMessage(None, (call("cancel_task", '{"task_id": "task-9"}', "c9"),))
        if len(results) == 2:
            return AssistantMessage(None, (call("task_status", '{"task_id": "nope"}', "q1"),))
        return "done"

    agent = make_agent(tmp_path, FunctionModel(fn), background_tools(Workspace(tmp_path)), records)

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "go"))
            await session.run_until_idle()

    run(main)
    errors = [e.result.content for e in records.of(ToolFinished) if e.result.is_error]
    assert len(errors) == 2
    assert all("known tasks: task-1" in e for e in errors)
    assert "no task 'task-9'" in errors[0] and "no task 'nope'" in errors[1]
    finals = [e.state for e in records.of(TaskUpdated) if e.state != "running"]
    assert finals == ["completed"]
    assert records.of(RunFinished)[-1].answer == "done"
    assert any("Task task-1" in e.text for e in records.of(InputAppended))


def test_a_failing_background_command_ends_failed_with_its_exit_code(tmp_path: Path) -> None:
    records = Records()

    def fn(request: ModelRequest) -> AssistantMessage | str:
        if any(isinstance(m, ToolMessage) for m in request.messages):
            return "ok"
        command = json.dumps({"command": "echo broken; exit 3"})
        return AssistantMessage(None, (call("initiate_shell", command, "s1"),))

    agent = make_agent(tmp_path, FunctionModel(fn), background_tools(Workspace(tmp_path)), records)

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "go"))
            await session.run_until_idle()

    run(main)
    [final] = [e for e in records.of(TaskUpdated) if e.state != "running"]
    assert final.state == "failed"
    batch = records.of(InputAppended)[-1].text
    assert "exit code 3" in batch and "broken" in batch
