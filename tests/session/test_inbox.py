"""The inbox: every event durable before anything acts on it, each consumed once, bad input
refused with an error that says what to send."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from support import Gate, Records, make_agent, run

from workset.errors import EventConsumedError, UsageError
from workset.events import (
    EventContext,
    EventReceived,
    InputAppended,
    event_from_json,
    new_event,
)
from workset.messages import AssistantMessage, ToolMessage
from workset.models.base import ModelRequest
from workset.session.router import Router, rule_strategy
from workset.testing import FunctionModel, ScriptedModel, call, current_store


def test_the_same_event_delivered_twice_is_recorded_and_consumed_once(tmp_path: Path) -> None:
    records = Records()
    model = ScriptedModel(["hello"])
    agent = make_agent(tmp_path, model, [], records)
    event = new_event("user.input", "hi", id="ev-fixed")

    async def main() -> None:
        async with agent.session() as session:
            assert await session.deliver(event) == "queue"
            assert await session.deliver(event) == "duplicate"
            await session.run_until_idle()
            assert await session.deliver(event) == "duplicate"  # also once consumed
            result = await session.run_until_idle()
            assert result.status == "nothing_to_do"

    run(main)
    assert len(records.of(EventReceived)) == 1 and len(records.of(InputAppended)) == 1


def test_the_log_refuses_to_consume_an_event_twice(tmp_path: Path) -> None:
    log = current_store()
    sid = log.create_session(title="t", workspace="", model="m")
    event = new_event("user.input", "hi")
    log.append(EventReceived(sid, event, 1.0, "queue"))
    log.append(InputAppended(sid, "r", "hi", 2.0, (event.id,)))
    before = log.last_seq(sid)
    with pytest.raises(EventConsumedError, match="already consumed"):
        log.append(InputAppended(sid, "r2", "hi", 3.0, (event.id,)))
    assert log.last_seq(sid) == before  # nothing recorded
    assert log.pending_events(sid) == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "must be a JSON object"),
        ({"content": "x"}, "needs a 'type'"),
        ({"type": "user.input"}, "non-empty 'content'"),
        ({"type": "user input", "content": "x"}, "dotted name"),
        ({"type": "user.input", "content": "x", "source": "boss"}, "source must be one of"),
        ({"type": "user.input", "content": "x", "context": {"priority": "asap"}}, "priority"),
        ({"type": "user.input", "content": "x", "context": {"mode": "later"}}, "mode"),
        ({"type": "user.input", "content": "x", "when": 3}, "unknown event fields"),
        ({"type": "user.input", "content": {"text": "x" * 300_000}}, "over the"),
    ],
)
def test_malformed_events_are_refused_with_what_to_fix(data: object, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        event_from_json(data)


def test_an_event_from_json_keeps_its_payload_and_is_untrusted_unless_from_the_user() -> None:
    email = event_from_json(
        json.loads(
            '{"type": "webhook.gmail", "source": "contact", "sender": "ana@example.com",'
            ' "content": {"subject": "Refund", "body": "order #12345"},'
            ' "context": {"priority": "high", "relates_to": ["#12345"]}}'
        ),
        trusted=True,
    )
    assert not email.trusted and email.context.relates_to == ("#12345",)
    assert '"subject": "Refund"' in email.text


def test_rules_route_urgent_events_to_cancel_and_ordinary_ones_to_the_queue() -> None:
    assert rule_strategy(new_event("user.interrupt", "wait")) == "cancel"
    assert rule_strategy(new_event("supervisor.instruction", "use staging")) == "cancel"
    assert rule_strategy(new_event("user.input", "cancel that")) == "cancel"
    assert rule_strategy(new_event("user.input", "also in Japanese")) == "queue"
    assert rule_strategy(new_event("timer.trigger", "x", source="timer")) == "queue"
    urgent = new_event("system.alert", "disk full", context=EventContext(priority="urgent"))
    assert rule_strategy(urgent) == "cancel"
    asked = new_event("user.input", "what time is it?", context=EventContext(mode="parallel"))
    assert rule_strategy(asked) == "parallel"


def test_a_model_classifier_refines_busy_time_input_and_the_rules_catch_its_failures() -> None:
    async def classify(event: object) -> str:
        text = getattr(event, "text", "")
        if "weather" in text:
            return "parallel"
        return "nonsense"

    router = Router(classifier=classify)  # type: ignore[arg-type]

    async def main() -> None:
        weather = new_event("user.input", "what's the weather today?")
        assert await router.route(weather, busy=True) == "parallel"
        assert await router.route(weather, busy=False) == "queue"  # idle: just take it
        assert await router.route(new_event("user.input", "use the EU data"), busy=True) == "queue"
        stop = new_event("user.input", "stop now")
        assert await router.route(stop, busy=True) == "cancel"  # the rules keep urgent ones

    anyio.run(main)


def test_an_event_arriving_during_a_tool_waits_for_the_unit_to_finish(tmp_path: Path) -> None:
    gate, records = Gate(), Records()
    job = call("long_job", "{}", "j1")

    def fn(request: ModelRequest) -> AssistantMessage | str:
        done = any(isinstance(m, ToolMessage) for m in request.messages)
        return "ok" if done else AssistantMessage(None, (job,))

    agent = make_agent(tmp_path, FunctionModel(fn), [gate.tool()], records)

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "go"))
            async with anyio.create_task_group() as group:
                group.start_soon(session.run_until_idle)
                await gate.started.wait()
                await session.deliver(new_event("tool.result", "build finished", source="tool"))
                assert len(records.of(InputAppended)) == 1  # not inside the open unit
                gate.opened.set()
        kinds = [type(e).__name__ for e in records.seen]
        assert kinds.index("ToolFinished") < max(
            i for i, k in enumerate(kinds) if k == "InputAppended"
        )

    run(main)


NOTE = "There are 2 unprocessed events above (2 user messages). Make sure your response"


@pytest.mark.parametrize(
    "echo",
    [NOTE, f"{NOTE} covers all of them. Do not call any tool."],
    ids=["the note alone", "the note with a few words added"],
)
def test_an_answer_that_echoes_the_batch_note_is_sent_back_once_for_the_real_answer(
    tmp_path: Path, echo: str
) -> None:
    def reply(request: ModelRequest) -> str:
        asked_again = "repeated the harness's note" in str(request.messages[-1].content)
        return "Paris, and 4." if asked_again else echo

    agent = make_agent(tmp_path, FunctionModel(reply), [])

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "What is the capital of France?"))
            await session.deliver(new_event("user.input", "And 2 + 2?"))
            result = await session.run_until_idle()
            assert result.answer == "Paris, and 4." and result.usage.calls == 2

    run(main)


def test_a_real_answer_after_the_batch_note_stands(tmp_path: Path) -> None:
    answer = (
        "There are 2 unprocessed events above (2 user messages). The capital of France is "
        "Paris, and 2 + 2 is 4, which every calculator in the building agrees with."
    )
    agent = make_agent(tmp_path, FunctionModel(lambda request: answer), [])

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "What is the capital of France?"))
            await session.deliver(new_event("user.input", "And 2 + 2?"))
            result = await session.run_until_idle()
            assert result.answer == answer and result.usage.calls == 1

    run(main)


def test_an_answer_that_quotes_an_email_is_not_taken_for_an_echo(tmp_path: Path) -> None:
    quoted = "the meeting moved to Thursday at ten"
    agent = make_agent(tmp_path, FunctionModel(lambda request: f"Noted: {quoted}"), [])

    async def main() -> None:
        async with agent.session() as session:
            email = new_event("webhook.email", f"Hi, {quoted}.", trusted=False)
            await session.deliver(email)
            result = await session.run_until_idle()
            assert result.answer == f"Noted: {quoted}" and result.usage.calls == 1

    run(main)
