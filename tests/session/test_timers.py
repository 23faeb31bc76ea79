"""Timers: set by the model, durable in the log, each occurrence fired once (restarts too)."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import anyio.lowlevel
import pytest
from support import Records, run

from workset.errors import ToolError
from workset.events import InputAppended, TimerSet, new_event
from workset.messages import AssistantMessage, ToolMessage, UserMessage
from workset.models.base import ModelRequest
from workset.session.agent import Agent
from workset.testing import FakeClock, FunctionModel, call, current_store
from workset.tools.registry import ToolRegistry
from workset.triggers.schedule import check_cron
from workset.triggers.tools import timer_tools

START = 1_780_000_000.0  # a Thursday, 2026-05-28 20:26:40 UTC


def timer_model(arguments: dict[str, object]) -> FunctionModel:
    def fn(request: ModelRequest) -> AssistantMessage | str:
        last = request.messages[-1]
        if isinstance(last, UserMessage) and "Timer timer-1 fired" in last.content:
            return "Following up now."
        if isinstance(last, ToolMessage):
            return "Timer set."
        return AssistantMessage(None, (call("set_timer", json.dumps(arguments), "t1"),))

    return FunctionModel(fn)


def make(tmp_path: Path, clock: FakeClock, model: FunctionModel, records: Records) -> Agent:
    return Agent(
        model,
        ToolRegistry(timer_tools()),
        current_store(),
        clock=clock,
        subscribers=[records],
    )


def fired(records: Records) -> list[str]:
    return [e.text for e in records.of(InputAppended) if "fired" in e.text]


def test_a_one_shot_timer_wakes_an_idle_session_once(tmp_path: Path) -> None:
    clock, records = FakeClock(START), Records()
    agent = make(tmp_path, clock, timer_model({"message": "ask Ana", "in_seconds": 3600}), records)

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "remind me to ask Ana in an hour"))
            await session.run_until_idle()
            assert [t.timer_id for t in session.list_timers()] == ["timer-1"]
            async with anyio.create_task_group() as group:
                group.start_soon(session.serve)
                while clock.sleeping == 0:  # the scheduler is waiting for the due time
                    await anyio.lowlevel.checkpoint()
                clock.advance(3599)
                await anyio.lowlevel.checkpoint()
                assert fired(records) == []
                clock.advance(2)
                await records.until(lambda e: isinstance(e, InputAppended) and "fired" in e.text)
                await records.until(lambda e: getattr(e, "answer", "") == "Following up now.")
                clock.advance(7200)
                group.cancel_scope.cancel()
            assert session.list_timers() == []

    run(main)
    [text] = fired(records)
    assert "Timer timer-1 fired" in text and "ask Ana" in text


def test_a_due_timer_fires_once_after_a_restart_even_when_started_twice(tmp_path: Path) -> None:
    clock = FakeClock(START)
    first = make(tmp_path, clock, timer_model({"message": "call DMV", "in_seconds": 60}), Records())
    anyio.run(first.run, "call the DMV in a minute")
    session_id = first.log.sessions()[0].id
    clock.advance(3600)  # the process was down when it came due
    for _ in range(2):
        records = Records()
        again = make(tmp_path, clock, timer_model({}), records)
        result = anyio.run(again.resume, session_id)
        assert result.status in ("finished", "nothing_to_do")
    texts = [
        e.event.text
        for e in current_store().events(session_id, kinds=["input_appended"])
        if isinstance(e.event, InputAppended) and "fired" in e.event.text
    ]
    assert len(texts) == 1 and "call DMV" in texts[0]


def test_a_cron_timer_fires_its_latest_missed_occurrence_once_then_follows_its_schedule(
    tmp_path: Path,
) -> None:
    clock, records = FakeClock(START), Records()
    agent = make(tmp_path, clock, timer_model({"message": "report", "cron": "0 9 * * 5"}), records)

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "weekly report every Friday 9:00"))
            await session.run_until_idle()
            [timer] = session.list_timers()
            assert timer.due == pytest.approx(START + 12 * 3600 + 33 * 60 + 20)  # Fri 09:00
            clock.advance(3 * 7 * 24 * 3600)  # three Fridays pass while nothing runs
            session.timers.fire_due()
            await session.run_until_idle()
            [timer] = session.list_timers()
            assert timer.due > clock()  # next Friday, not a backlog

    run(main)
    assert len(fired(records)) == 1


def test_bad_timer_requests_get_errors_that_say_what_to_give() -> None:
    with pytest.raises(ToolError, match="does not parse") as raised:
        check_cron("every friday")
    assert "five fields" in raised.value.for_model()
    tools = {t.name: t for t in timer_tools()}
    assert set(tools) == {"set_timer", "cancel_timer", "list_timers"}


def test_set_timer_refuses_a_bad_cron_and_a_time_in_the_past_through_the_model(
    tmp_path: Path,
) -> None:
    clock, records = FakeClock(START), Records()
    attempts = iter(
        [
            {"message": "x", "cron": "61 * * * *"},
            {"message": "x", "at": "2020-01-01T00:00:00"},
            {"message": "x"},
        ]
    )

    def fn(request: ModelRequest) -> AssistantMessage | str:
        for arguments in attempts:
            return AssistantMessage(
                None, (call("set_timer", json.dumps(arguments), f"t{len(request.messages)}"),)
            )
        return "gave up"

    agent = make(tmp_path, clock, FunctionModel(fn), records)
    anyio.run(agent.run, "set a timer")
    errors = [e.result.content for e in records.seen if getattr(e, "kind", "") == "tool_finished"]
    assert "does not parse" in errors[0] and "five fields" in errors[0]
    assert "in the past" in errors[1]
    assert "exactly one of in_seconds, at or cron" in errors[2]
    assert records.of(TimerSet) == []
