"""Seed 004's five rules, each with a test that fails when the rule is broken."""

from __future__ import annotations

from pathlib import Path

import anyio
from support import Gate, Records, make_agent, run

from workset.events import (
    InputAppended,
    ModelCalled,
    StepInterrupted,
    ToolFinished,
    ToolStarted,
    new_event,
)
from workset.messages import AssistantMessage, ToolMessage, UserMessage, group_units
from workset.models.base import ModelRequest
from workset.testing import FunctionModel, call

JOB = call("long_job", '{"what": "report"}', "c1")


def _calls_then_answers(request: ModelRequest) -> AssistantMessage | str:
    """Ask for the long job first; once any result or event is in, answer."""
    last = request.messages[-1]
    if isinstance(last, UserMessage) and not any(
        isinstance(m, ToolMessage) for m in request.messages
    ):
        return AssistantMessage(None, (JOB,))
    return "done"


def test_rule_1_the_assistant_message_is_recorded_before_its_tools_run(tmp_path: Path) -> None:
    gate, records = Gate(), Records()
    agent = make_agent(tmp_path, FunctionModel(_calls_then_answers), [gate.tool()], records)
    seen_in_log: list[bool] = []

    def assistant_is_in_the_log() -> None:
        sid = agent.log.sessions()[0].id
        calls = [
            c.id
            for e in agent.log.events(sid, kinds=["model_called"])
            if isinstance(e.event, ModelCalled)
            for c in e.event.message.tool_calls
        ]
        seen_in_log.append("c1" in calls)

    gate.during.append(assistant_is_in_the_log)
    gate.opened.set()
    result = anyio.run(agent.run, "run the report")
    assert result.status == "finished"
    assert seen_in_log == [True]


def test_rule_2_a_result_is_recorded_only_when_the_tool_is_done(tmp_path: Path) -> None:
    gate, records = Gate(), Records()
    agent = make_agent(tmp_path, FunctionModel(_calls_then_answers), [gate.tool()], records)

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "run the report"))
            async with anyio.create_task_group() as group:
                group.start_soon(session.run_until_idle)
                await records.until(lambda e: isinstance(e, ToolStarted))
                await gate.started.wait()
                kinds = [e.kind for e in agent.log.events(session.id)]
                assert "tool_started" in kinds and "tool_finished" not in kinds
                assert session.state.open_unit is not None  # partially complete, as recorded
                gate.opened.set()
        finished = records.of(ToolFinished)
        assert len(finished) == 1 and finished[0].result.content.find("report") >= 0

    run(main)


def test_rule_3_an_interrupt_during_a_tool_gives_it_a_placeholder_result(tmp_path: Path) -> None:
    gate, records = Gate(), Records()
    model = FunctionModel(_calls_then_answers)
    agent = make_agent(tmp_path, model, [gate.tool()], records)

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "run the report"))
            async with anyio.create_task_group() as group:
                group.start_soon(session.run_until_idle)
                await gate.started.wait()
                strategy = await session.deliver(
                    new_event("user.interrupt", "stop, wrong report", source="user")
                )
                assert strategy == "cancel"
        assert gate.cancelled and not gate.finished
        [placeholder] = records.of(ToolFinished)
        assert placeholder.interrupted and placeholder.call.id == "c1"
        assert "cancelled" in placeholder.result.content
        [interrupted] = records.of(StepInterrupted)
        assert interrupted.during == "tools" and interrupted.cancelled == ("c1",)
        # the next request: the unit is whole, then the interrupt
        after = model.requests[-1].messages
        _, open_unit = group_units(after[1:])
        assert open_unit is None
        assert isinstance(after[-1], UserMessage) and "stop, wrong report" in after[-1].content

    run(main)


def test_rule_4_an_interrupt_during_model_output_discards_it(tmp_path: Path) -> None:
    records = Records()
    thinking, release = anyio.Event(), anyio.Event()

    async def slow_then_answer(request: ModelRequest) -> str:
        if len(model.requests) == 1:
            thinking.set()
            await release.wait()  # a long generation; never finishes in this test
            return "PARTIAL OUTPUT THAT MUST NOT BE RECORDED"
        return "ok, stopped"

    model = FunctionModel(slow_then_answer)
    agent = make_agent(tmp_path, model, [], records)

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "write a long essay"))
            async with anyio.create_task_group() as group:
                group.start_soon(session.run_until_idle)
                await thinking.wait()
                await session.deliver(new_event("user.interrupt", "stop"))
        called = records.of(ModelCalled)
        assert [c.message.content for c in called] == ["ok, stopped"]
        [interrupted] = records.of(StepInterrupted)
        assert interrupted.during == "model"
        text = "".join(m.content or "" for m in model.requests[-1].messages)  # type: ignore[union-attr]
        assert "PARTIAL" not in text and "stop" in text
        raw = (tmp_path / "log.db").read_bytes()
        assert b"PARTIAL OUTPUT" not in raw

    run(main)


def test_rule_5_events_that_are_not_urgent_wait_and_enter_in_one_batch(tmp_path: Path) -> None:
    gate, records = Gate(), Records()
    model = FunctionModel(_calls_then_answers)
    agent = make_agent(tmp_path, model, [gate.tool()], records)

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "write the report"))
            async with anyio.create_task_group() as group:
                group.start_soon(session.run_until_idle)
                await gate.started.wait()
                first = await session.deliver(
                    new_event("user.input", "remember to answer in Japanese")
                )
                second = await session.deliver(new_event("user.input", "make it a web page"))
                assert (first, second) == ("queue", "queue")
                assert not gate.cancelled
                assert len(model.requests) == 1  # nothing was sent while the tool ran
                gate.opened.set()
        inputs = records.of(InputAppended)
        assert len(inputs) == 2  # the task, then one batch
        batch = inputs[1]
        assert len(batch.event_ids) == 2
        assert "[Unprocessed event 1/2] User message: remember to answer in Japanese" in batch.text
        assert "[Unprocessed event 2/2] User message: make it a web page" in batch.text
        assert "2 unprocessed events above (2 user messages)" in batch.text
        second_request = model.requests[1].messages
        assert isinstance(second_request[-2], ToolMessage)  # the result, then the batch
        assert second_request[-1].content == batch.text

    run(main)
