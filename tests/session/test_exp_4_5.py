"""Seed 004, Experiment 4-5, as tests: an agent that runs things in parallel and can be
interrupted, on a test model and real subprocesses (no fixed sleeps)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import anyio
from support import Gate, Records, make_agent, run

from workset.events import (
    EventContext,
    InputAppended,
    ModelCalled,
    RunFinished,
    StepInterrupted,
    TaskUpdated,
    ToolFinished,
    new_event,
)
from workset.messages import AssistantMessage, ToolMessage, UserMessage
from workset.models.base import ModelRequest
from workset.session.side import SIDE_NOTE
from workset.testing import FunctionModel, call
from workset.tools.background import background_tools
from workset.tools.workspace import Workspace

JOB = call("long_job", '{"what": "logs"}', "job1")


def last_user(request: ModelRequest) -> str:
    users = [m.content for m in request.messages if isinstance(m, UserMessage)]
    return users[-1] if users else ""


def test_a_the_time_is_answered_while_a_long_command_runs(tmp_path: Path) -> None:
    gate, records = Gate(), Records()

    def model_fn(request: ModelRequest) -> AssistantMessage | str:
        text = last_user(request)
        if SIDE_NOTE in text:
            return "It is 10:30."
        if "Answered in parallel" in text.split("\n")[0] and request.messages[-1].content == text:
            return "Noted: the time question was answered while the analysis ran."
        if isinstance(request.messages[-1], ToolMessage):
            return "The log analysis is done: 3 errors in the last hour."
        return AssistantMessage(None, (JOB,))

    model = FunctionModel(model_fn)
    agent = make_agent(tmp_path, model, [gate.tool()], records)

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "analyse the logs"))
            async with anyio.create_task_group() as group:
                group.start_soon(session.run_until_idle)
                await gate.started.wait()
                question = new_event(
                    "user.input", "what time is it?", context=EventContext(mode="parallel")
                )
                assert await session.deliver(question) == "parallel"
                side = await records.until(
                    lambda e: isinstance(e, RunFinished) and e.session_id != session.id
                )
                assert side.answer == "It is 10:30." and not gate.finished  # before the result
                gate.opened.set()
            main_id = session.id
        answers = [e.message.content for e in records.of(ModelCalled) if e.session_id == main_id]
        assert "The log analysis is done: 3 errors in the last hour." in answers
        # the side request began with the main session's trajectory, byte for byte
        side_request = next(r for r in model.requests if SIDE_NOTE in last_user(r))
        assert side_request.messages[:2] == model.requests[0].messages[:2]
        assert side_request.tools == model.requests[0].tools
        # the question and answer are in the main trajectory, marked as answered in parallel
        batch = [e for e in records.of(InputAppended) if e.session_id == main_id][-1]
        assert "Answered in parallel with the main task" in batch.text and "10:30" in batch.text
        assert question.id in batch.event_ids

    run(main)


def test_b_two_instructions_sent_during_a_task_are_handled_in_one_batch(tmp_path: Path) -> None:
    gate, records = Gate(), Records()

    def model_fn(request: ModelRequest) -> AssistantMessage | str:
        text = last_user(request)
        if "Japanese" in text and "web page" in text:
            return '<html lang="ja"><body>報告</body></html>'
        return AssistantMessage(None, (JOB,))

    model = FunctionModel(model_fn)
    agent = make_agent(tmp_path, model, [gate.tool()], records)

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "summarise the logs"))
            async with anyio.create_task_group() as group:
                group.start_soon(session.run_until_idle)
                await gate.started.wait()
                await session.deliver(new_event("user.input", "remember to answer in Japanese"))
                await session.deliver(new_event("user.input", "make it a web page"))
                gate.opened.set()

    run(main)
    assert len(model.requests) == 2  # one call for the task, one for the batch
    assert records.of(RunFinished)[-1].answer.startswith('<html lang="ja">')


def test_c_cancel_stops_the_model_and_the_tools_at_once(tmp_path: Path) -> None:
    gate, records = Gate(), Records()
    started = "started task-1"

    def model_fn(request: ModelRequest) -> AssistantMessage | str:
        text = last_user(request)
        if text == "cancel" or "Cancelled" in text:
            return "Stopped everything."
        results = [m for m in request.messages if isinstance(m, ToolMessage)]
        if not results:
            return AssistantMessage(
                None, (call("initiate_shell", json.dumps({"command": "sleep 300"}), "sh1"),)
            )
        return AssistantMessage(None, (JOB,))

    tools = [gate.tool(), *background_tools(Workspace(tmp_path))]
    agent = make_agent(tmp_path, FunctionModel(model_fn), tools, records)

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "start the crawl, then the job"))
            async with anyio.create_task_group() as group:
                group.start_soon(session.run_until_idle)
                await gate.started.wait()
                assert [t.state for t in session.list_tasks()] == ["running"]
                assert await session.deliver(new_event("user.input", "cancel")) == "cancel"
            assert [t.state for t in session.list_tasks()] == ["cancelled"]

    run(main)
    assert gate.cancelled and not gate.finished
    shell = next(e for e in records.of(ToolFinished) if e.call.id == "sh1")
    assert started in shell.result.content
    placeholder = next(e for e in records.of(ToolFinished) if e.call.id == "job1")
    assert placeholder.interrupted and "cancelled" in placeholder.result.content
    [interrupted] = records.of(StepInterrupted)
    assert interrupted.cancelled == ("job1",)
    cancelled = [e for e in records.of(TaskUpdated) if e.state == "cancelled"]
    assert [e.task_id for e in cancelled] == ["task-1"]
    last_input = records.of(InputAppended)[-1].text
    assert "User message: cancel" in last_input and "Cancelled 1 background task" in last_input
    assert records.of(RunFinished)[-1].answer == "Stopped everything."


PROGRESS_SCRIPT = """
import sys, time
rate, tick = int(sys.argv[1]), float(sys.argv[2])
done = 0
while done < 100:
    time.sleep(tick)
    done = min(100, done + rate)
    print(f"progress {done}%", flush=True)
print("result: 42 rows analysed", flush=True)
"""


def test_d_three_scripts_the_one_under_half_is_cancelled_when_the_first_ends(
    tmp_path: Path,
) -> None:
    script = tmp_path / "analyse.py"
    script.write_text(PROGRESS_SCRIPT)
    records = Records()
    tick = 0.03  # one "second" of the seed's scenario
    decisions: list[str] = []

    def progress_of(text: str) -> int:
        found = re.findall(r"progress (\d+)%", text)
        return int(found[-1]) if found else 0

    def model_fn(request: ModelRequest) -> AssistantMessage | str:
        text = last_user(request)
        last = request.messages[-1]
        if text.startswith("run these three"):
            calls = tuple(
                call(
                    "initiate_shell",
                    json.dumps({"command": f"{sys.executable} analyse.py {rate} {tick}"}),
                    f"start{rate}",
                )
                for rate in (3, 2, 1)
            )
            return AssistantMessage(None, calls)
        if isinstance(last, ToolMessage) and last.name == "initiate_shell":
            return "All three are running; I will check when the first one ends."
        if "Task task-1" in text and "completed" in text and not decisions:
            decisions.append("checked")
            return AssistantMessage(
                None,
                (
                    call("task_status", '{"task_id": "task-2"}', "st2"),
                    call("task_status", '{"task_id": "task-3"}', "st3"),
                ),
            )
        if isinstance(last, ToolMessage) and last.name == "task_status":
            statuses = [m for m in request.messages if isinstance(m, ToolMessage)][-2:]
            low = [
                ("task-2", "task-3")[i]
                for i, m in enumerate(statuses)
                if progress_of(m.content) < 50
            ]
            decisions.extend(f"{m.tool_call_id}={progress_of(m.content)}" for m in statuses)
            if low:
                return AssistantMessage(
                    None,
                    tuple(call("cancel_task", json.dumps({"task_id": t}), f"x{t}") for t in low),
                )
        if isinstance(last, ToolMessage) and last.name == "cancel_task":
            return "Cancelled the slow one; waiting for the other."
        return "Report: every remaining script finished."

    tools = background_tools(Workspace(tmp_path))
    agent = make_agent(tmp_path, FunctionModel(model_fn), tools, records)
    result = anyio.run(
        agent.run, "run these three scripts at once; when the first ends, cancel any under 50%"
    )
    assert result.status == "finished"
    final = {e.task_id: e.state for e in records.of(TaskUpdated) if e.state != "running"}
    assert final == {"task-1": "completed", "task-2": "completed", "task-3": "cancelled"}
    checked = dict(d.split("=") for d in decisions if "=" in d)
    assert int(checked["st2"]) > 50 > int(checked["st3"])
    assert result.answer == "Report: every remaining script finished."
    called = records.of(ModelCalled)
    assert all(c.message.content != "" for c in called)
