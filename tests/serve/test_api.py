"""The HTTP API of the service, over a real loopback socket with httpx."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from serving import TOKEN, served
from support import Gate, Records, make_agent, run

from workset.events import (
    EventReceived,
    InputAppended,
    StepInterrupted,
    ToolFinished,
    ToolStarted,
    new_event,
)
from workset.messages import AssistantMessage, ToolMessage, UserMessage
from workset.models.base import ModelRequest
from workset.serve.client import post_offline
from workset.serve.service import Refused
from workset.testing import FunctionModel, call, current_store
from workset.triggers.tools import timer_tools


def echo(request: ModelRequest) -> str:
    last = request.messages[-1]
    return f"echo: {last.content}" if isinstance(last, UserMessage) else "done"


def user_event(text: str, **fields: Any) -> dict[str, Any]:
    return {"type": "user.input", "content": {"text": text}, **fields}


def test_an_event_posted_to_a_new_session_is_answered_and_its_records_stream_from_any_seq(
    tmp_path: Path,
) -> None:
    agent = make_agent(tmp_path, FunctionModel(echo), [])

    async def main() -> None:
        async with served(agent) as api:
            session = await api.client.create_session(title="greetings")
            delivered = await api.client.send(session, user_event("hello"))
            assert delivered.strategy == "queue" and delivered.event_id.startswith("ev-")
            status = await api.client.wait_idle(session)
            assert status["idle"] and status["served"] and status["pending"] == []
            assert status["last_result"]["answer"] == "echo: hello"

            kinds, seqs = [], []
            async for record in api.client.records(session):
                kinds.append(record["kind"])
                seqs.append(record["seq"])
                if record["kind"] == "run_finished":
                    assert record["record"]["answer"] == "echo: hello"
                    break
            assert kinds[:3] == ["event_received", "run_started", "input_appended"]
            assert "model_called" in kinds and seqs == sorted(seqs)

            after = seqs[1]
            resumed = []
            async for record in api.client.records(session, after=after):
                resumed.append(record["seq"])
                if record["kind"] == "run_finished":
                    break
            assert resumed == seqs[2:]

    run(main)


def test_the_stream_delivers_records_as_they_happen(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, FunctionModel(echo), [])

    async def main() -> None:
        async with served(agent) as api:
            session = await api.client.create_session()
            seen: list[str] = []
            async with anyio.create_task_group() as group:

                async def follow() -> None:
                    async for record in api.client.records(session):
                        seen.append(record["kind"])
                        if record["kind"] == "run_finished":
                            group.cancel_scope.cancel()

                group.start_soon(follow)
                await anyio.wait_all_tasks_blocked()
                await api.client.send(session, user_event("are you there?"))
            assert seen[0] == "event_received" and seen[-1] == "run_finished"

    run(main)


def test_the_same_event_id_delivered_twice_is_recorded_and_answered_once(tmp_path: Path) -> None:
    model = FunctionModel(echo)
    agent = make_agent(tmp_path, model, [])

    async def main() -> None:
        async with served(agent) as api:
            session = await api.client.create_session()
            first = await api.client.send(session, user_event("once", id="ev-retry-1"))
            await api.client.wait_idle(session)
            again = await api.client.send(session, user_event("once", id="ev-retry-1"))
            assert (first.strategy, again.strategy) == ("queue", "duplicate")
            assert again.event_id == "ev-retry-1"
            await api.client.wait_idle(session)
            received = agent.log.events(session, kinds=["event_received"])
            assert len(received) == 1 and len(model.requests) == 1

    run(main)


def test_an_event_sent_while_the_agent_works_queues_and_an_urgent_one_interrupts(
    tmp_path: Path,
) -> None:
    gate, records = Gate(), Records()

    def work(request: ModelRequest) -> AssistantMessage | str:
        if not any(isinstance(m, ToolMessage) for m in request.messages):
            return AssistantMessage(None, (call("long_job", '{"what": "report"}', "c1"),))
        return "stopped as asked"

    agent = make_agent(tmp_path, FunctionModel(work), [gate.tool()], records)

    async def main() -> None:
        async with served(agent) as api:
            session = await api.client.create_session()
            await api.client.send(session, user_event("write the report"))
            await gate.started.wait()
            queued = await api.client.send(session, user_event("in Japanese, please"))
            urgent = await api.client.send(
                session, user_event("stop now", context={"mode": "cancel", "stop": True})
            )
            assert (queued.strategy, urgent.strategy) == ("queue", "cancel")
            status = await api.client.wait_idle(session)
            assert status["last_result"]["answer"] == "stopped as asked"
        [interrupted] = records.of(StepInterrupted)
        assert interrupted.cancelled == ("c1",) and gate.cancelled
        [batch] = [r for r in records.of(InputAppended) if "Japanese" in r.text]
        assert "stop now" in batch.text  # both entered together, at the safe point

    run(main)


def test_tasks_and_timers_of_a_session_are_listed(tmp_path: Path) -> None:
    def set_timer(request: ModelRequest) -> AssistantMessage | str:
        if any(isinstance(m, ToolMessage) for m in request.messages):
            return "I will remind you."
        arguments = '{"message": "stand up", "in_seconds": 3600}'
        return AssistantMessage(None, (call("set_timer", arguments, "t1"),))

    agent = make_agent(tmp_path, FunctionModel(set_timer), timer_tools())

    async def main() -> None:
        async with served(agent) as api:
            session = await api.client.create_session()
            await api.client.send(session, user_event("remind me in an hour"))
            await api.client.wait_idle(session)
            listed = await api.client.tasks(session)
            assert listed["tasks"] == []
            [timer] = listed["timers"]
            assert timer["timer_id"] == "timer-1" and timer["message"] == "stand up"
            status = await api.client.status(session)
            assert status["timers"] == 1 and status["running_tasks"] == 0

    run(main)


def test_a_session_with_events_waiting_in_its_inbox_is_served_at_start(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, FunctionModel(echo), [])
    session = agent.new_session(title="offline")
    post_offline(agent.log, session, new_event("user.input", "while you were away"))

    async def main() -> None:
        async with served(agent) as api:
            status = await api.client.wait_idle(session)
            assert status["last_result"]["answer"] == "echo: while you were away"

    run(main)


def test_sessions_can_be_created_under_a_name_and_listed(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, FunctionModel(echo), [])

    async def main() -> None:
        async with served(agent) as api:
            assert await api.client.create_session("inbox", "mail") == "inbox"
            with pytest.raises(Refused, match="already exists") as taken:
                await api.client.create_session("inbox")
            assert taken.value.status == 409
            async with httpx.AsyncClient(base_url=api.url) as http:
                listed = await http.get("/sessions", headers={"Authorization": f"Bearer {TOKEN}"})
            assert [s["id"] for s in listed.json()["sessions"]] == ["inbox"]

    run(main)


# -- bad input: a clear error, nothing recorded ---------------------------------------------


async def _raw(url: str, method: str, path: str, **options: Any) -> httpx.Response:
    headers = {"Authorization": f"Bearer {TOKEN}", **options.pop("headers", {})}
    async with httpx.AsyncClient(base_url=url) as http:
        return await http.request(method, path, headers=headers, **options)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b"{not json", "the body is not JSON"),
        (b'["user.input"]', "must be a JSON object"),
        (b'{"content": "hi"}', "needs a 'type'"),
        (b'{"type": "user.input", "content": "hi", "colour": "red"}', "unknown event fields"),
        (b'{"type": "user.input", "content": "hi", "context": {"mode": "now"}}', "event mode"),
    ],
)
def test_malformed_events_are_refused_with_what_to_fix_and_nothing_is_recorded(
    tmp_path: Path, body: bytes, says: str
) -> None:
    agent = make_agent(tmp_path, FunctionModel(echo), [])

    async def main() -> None:
        async with served(agent) as api:
            session = await api.client.create_session()
            await api.client.send(session, user_event("kept"))
            await api.client.wait_idle(session)
            before = agent.log.last_seq(session)
            answer = await _raw(api.url, "POST", f"/sessions/{session}/events", content=body)
            assert answer.status_code == 400 and says in answer.json()["error"]
            assert agent.log.last_seq(session) == before
            assert [m.content for m in agent.log.messages(session)] == ["kept", "echo: kept"]

    run(main)


def test_an_unknown_session_is_a_404_that_says_how_to_list_sessions(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, FunctionModel(echo), [])

    async def main() -> None:
        async with served(agent) as api:
            for method, path in [
                ("POST", "/sessions/nope/events"),
                ("GET", "/sessions/nope"),
                ("GET", "/sessions/nope/stream"),
                ("GET", "/sessions/nope/tasks"),
            ]:
                answer = await _raw(api.url, method, path, json=user_event("x"))
                assert answer.status_code == 404, path
                assert "workset sessions" in answer.json()["error"]
            assert agent.log.sessions() == []

    run(main)


def test_requests_without_the_token_are_refused_but_health_answers(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, FunctionModel(echo), [])

    async def main() -> None:
        async with served(agent) as api, httpx.AsyncClient(base_url=api.url) as http:
            refused = await http.post("/sessions", json={}, headers={"Authorization": "Bearer x"})
            assert refused.status_code == 401 and ".serve.json" in refused.json()["error"]
            health = await http.get("/health")
            assert health.status_code == 200 and health.json()["ok"]
            lost = await _raw(api.url, "GET", "/nowhere")
            assert lost.status_code == 404 and "no route" in lost.json()["error"]
        assert agent.log.sessions() == []

    run(main)


def test_a_side_session_takes_no_events(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, FunctionModel(echo), [])
    side = agent.log.create_session(
        title="side: time?", workspace="", model="m", config={"side_of": "s-main"}
    )

    async def main() -> None:
        async with served(agent) as api:
            with pytest.raises(Refused, match="send events to s-main") as refused:
                await api.client.send(side, user_event("hello"))
            assert refused.value.status == 409
        assert agent.log.events(side) == []

    run(main)


def test_a_closing_service_refuses_events_with_what_to_do(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, FunctionModel(echo), [])

    async def main() -> None:
        async with served(agent) as api:
            session = await api.client.create_session()
            api.service.close()
            with pytest.raises(Refused, match="shutting down") as refused:
                await api.client.send(session, user_event("too late"))
            assert refused.value.status == 503 and "workset send" in str(refused.value)
        assert agent.log.events(session) == []

    run(main)


def test_records_of_a_served_session_reach_the_log_before_the_stream(tmp_path: Path) -> None:
    gate = Gate()
    agent = make_agent(
        tmp_path,
        FunctionModel(
            lambda r: (
                "ok"
                if any(isinstance(m, ToolMessage) for m in r.messages)
                else AssistantMessage(None, (call("long_job", "{}", "c1"),))
            )
        ),
        [gate.tool()],
    )

    async def main() -> None:
        async with served(agent) as api:
            session = await api.client.create_session()
            await api.client.send(session, user_event("go"))
            async for record in api.client.records(session):
                if record["kind"] == "tool_started":
                    with current_store() as other:  # another reader of the test's store
                        stored = other.record(record["seq"]).event
                    assert isinstance(stored, ToolStarted)
                    gate.opened.set()
                if record["kind"] == "run_finished":
                    break
            received = [e.event for e in agent.log.events(session, kinds=["event_received"])]
            assert all(isinstance(e, EventReceived) for e in received)

    run(main)


def test_a_session_whose_log_cannot_be_served_is_refused_and_the_others_go_on(
    tmp_path: Path,
) -> None:
    agent = make_agent(tmp_path, FunctionModel(echo), [])
    broken = agent.new_session(title="broken")
    orphan = ToolMessage("c-none", "no call made this", name="read_file")
    agent.log.append(ToolFinished("r", broken, call("read_file", "{}", "c-none"), orphan, 0, 1))

    async def main() -> None:
        async with served(agent) as api:
            with pytest.raises(Refused, match=r"stopped serving .*SessionLogError") as refused:
                await api.client.send(broken, user_event("hello"))
            assert refused.value.status == 409 and f"workset resume {broken}" in str(refused.value)
            healthy = await api.client.create_session()
            await api.client.send(healthy, user_event("still fine?"))
            status = await api.client.wait_idle(healthy)
            assert status["last_result"]["answer"] == "echo: still fine?"

    run(main)


def test_the_stream_resumes_after_the_last_event_id_a_client_saw(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, FunctionModel(echo), [])

    async def main() -> None:
        async with served(agent) as api:
            session = await api.client.create_session()
            await api.client.send(session, user_event("hello"))
            await api.client.wait_idle(session)
            last = agent.log.last_seq(session)
            headers = {"Authorization": f"Bearer {TOKEN}", "Last-Event-ID": str(last - 1)}
            async with (
                httpx.AsyncClient(base_url=api.url) as http,
                http.stream("GET", f"/sessions/{session}/stream", headers=headers) as stream,
            ):
                lines = stream.aiter_lines()
                assert await anext(lines) == f"id: {last}"
                assert await anext(lines) == "event: run_finished"

    run(main)


def test_an_oversized_body_is_refused_unread(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, FunctionModel(echo), [])

    async def main() -> None:
        async with served(agent) as api:
            session = await api.client.create_session()
            huge = b'{"type": "user.input", "content": "' + b"x" * 600_000 + b'"}'
            answer = await _raw(api.url, "POST", f"/sessions/{session}/events", content=huge)
            assert answer.status_code == 413 and "over the" in answer.json()["error"]
            assert agent.log.events(session) == []

    run(main)
