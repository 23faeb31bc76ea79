"""Subagents on the session engine, with test models: results, isolation, async wake-ups,
messages at safe points, cancellation cascading, limits."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import anyio
from collab_support import (
    NOISE,
    agent_id_in,
    is_subagent,
    main_agent,
    result_json,
    results,
)
from support import Gate, Records, run

from workset.collab import AgentDefinition, AgentLimits
from workset.collab.human import HumanDesk, answer_event_content
from workset.collab.human_tools import human_tools
from workset.collab.notify import ConsoleChannel, Notifier
from workset.events import (
    AgentUpdated,
    HumanAsked,
    ModelCalled,
    RunFinished,
    TaskUpdated,
    new_event,
)
from workset.messages import AssistantMessage, UserMessage
from workset.models.base import ModelRequest
from workset.testing import FunctionModel, call


def spawn(task: str, call_id: str = "sp1", **extra: object) -> AssistantMessage:
    arguments = json.dumps({"task": task, **extra})
    return AssistantMessage(None, (call("spawn_subagent", arguments, call_id),))


def test_a_sync_subagent_returns_one_short_result_and_its_search_never_enters_the_parent(
    tmp_path: Path,
) -> None:
    records = Records()
    parent_requests: list[ModelRequest] = []

    def fn(request: ModelRequest) -> AssistantMessage | str:
        if is_subagent(request):
            if not results(request):
                return AssistantMessage(None, (call("search_code", '{"pattern": "callback"}'),))
            return result_json(
                summary="The function is handle_callback in src/payment/callbacks.py.",
                findings=[{"claim": "handles callbacks", "sources": ["callbacks.py:42"]}],
                artifacts=["src/payment/callbacks.py"],
            )
        parent_requests.append(request)
        if not results(request):
            return spawn("Find the function that handles payment callbacks")
        return "It is handle_callback in src/payment/callbacks.py."

    agent, _ = main_agent(tmp_path, FunctionModel(fn), records)
    answer = anyio.run(agent.run, "where are payment callbacks handled?")
    assert answer.answer == "It is handle_callback in src/payment/callbacks.py."
    [tool_result] = results(parent_requests[-1])
    data = json.loads(tool_result.content.split("\n", 1)[1].rsplit("\n", 1)[0])
    assert data["status"] == "completed" and data["artifacts"] == ["src/payment/callbacks.py"]
    assert data["findings"][0]["sources"] == ["callbacks.py:42"]
    assert data["cost"]["model_calls"] == 2 and data["cost"]["tokens"] > 0
    # the subagent's noisy search result stayed in its own session
    assert all(NOISE[:60] not in (m.content or "") for m in parent_requests[-1].messages)
    states = [e.status for e in records.of(AgentUpdated)]
    assert states == ["pending", "pending", "running", "completed"]
    child = records.of(AgentUpdated)[-1].child_id
    assert any(isinstance(e, ModelCalled) and e.session_id == child for e in records.seen)


def test_an_async_subagent_wakes_its_idle_parent_when_it_finishes(tmp_path: Path) -> None:
    records, gate = Records(), Gate()
    seen: list[str] = []

    def fn(request: ModelRequest) -> AssistantMessage | str:
        if is_subagent(request):
            if not results(request):
                return AssistantMessage(None, (call("long_job", '{"what": "index"}'),))
            return result_json(summary="indexed 12 files")
        last = request.messages[-1]
        if not results(request):
            return spawn("index the repository", mode="async")
        if isinstance(last, UserMessage):
            seen.append(last.content)
            return "The subagent finished: indexed 12 files."
        return "Started; I will tell you when it is done."

    agent, _ = main_agent(tmp_path, FunctionModel(fn), records, sub_tools=[gate.tool()])
    answers: list[str] = []

    async def main() -> None:
        async with agent.session() as session:
            await session.deliver(new_event("user.input", "index the repo in the background"))
            async with anyio.create_task_group() as group:
                group.start_soon(session.serve, lambda r: answers.append(r.answer))
                await records.until(lambda e: isinstance(e, RunFinished))
                assert not session.busy and answers == ["Started; I will tell you when it is done."]
                gate.opened.set()  # the subagent's tool finishes while the parent is idle
                await records.until(lambda e: isinstance(e, RunFinished) and "finished" in e.answer)
                group.cancel_scope.cancel()

    run(main)
    assert answers[-1] == "The subagent finished: indexed 12 files."
    assert "completed" in seen[0] and "indexed 12 files" in seen[0]


def test_cancelling_a_subagent_cancels_the_subagents_it_started(tmp_path: Path) -> None:
    records, gate = Records(), Gate()
    team_box: list[object] = []

    async def fn(request: ModelRequest) -> AssistantMessage | str:
        if is_subagent(request):
            first = next(m.content for m in request.messages if isinstance(m, UserMessage))
            if "level two" in first:
                return AssistantMessage(None, (call("long_job", '{"what": "deep"}'),))
            if not results(request):
                return spawn("level two: dig deeper", "sp2", mode="async")
            return result_json(summary="waiting for my helper")
        if not results(request):
            return spawn("level one: investigate", mode="async")
        if len(results(request)) == 1:
            await gate.started.wait()  # the grandchild is running
            target = agent_id_in(results(request)[0].content)
            return AssistantMessage(
                None, (call("cancel_subagent", json.dumps({"agent_id": target}), "c1"),)
            )
        return "Cancelled."

    agent, team = main_agent(tmp_path, FunctionModel(fn), records, sub_tools=[gate.tool()])
    team_box.append(team)
    anyio.run(agent.run, "investigate, then stop")
    finals = {e.agent_id: e for e in records.of(AgentUpdated) if e.final}
    assert {e.status for e in finals.values()} == {"cancelled"} and len(finals) == 2
    by_depth = {e.depth: e for e in finals.values()}
    assert "its parent" in by_depth[2].detail and by_depth[2].session_id == by_depth[1].child_id
    assert gate.cancelled and not gate.finished
    cancel_result = [r for r in records.of(RunFinished) if r.answer == "Cancelled."]
    assert cancel_result
    # the grandchild's task in its parent's session was recorded as cancelled, not left running
    tasks = [e for e in records.of(TaskUpdated) if e.session_id == by_depth[1].child_id]
    assert tasks[-1].state == "cancelled"


def test_a_message_to_a_running_subagent_is_taken_at_its_next_safe_point(
    tmp_path: Path,
) -> None:
    records, gate = Records(), Gate()
    child_requests: list[ModelRequest] = []

    async def fn(request: ModelRequest) -> AssistantMessage | str:
        if is_subagent(request):
            child_requests.append(request)
            if not results(request):
                return AssistantMessage(None, (call("long_job", '{"what": "all"}'),))
            return result_json(summary="searched src/payments only")
        if not results(request):
            return spawn("search the code", mode="async")
        if len(results(request)) == 1:
            await gate.started.wait()
            target = agent_id_in(results(request)[0].content)
            text = json.dumps({"agent_id": target, "message": "Only look under src/payments."})
            return AssistantMessage(None, (call("send_message_to_subagent", text, "m1"),))
        gate.opened.set()
        return "Told it."

    agent, _ = main_agent(tmp_path, FunctionModel(fn), records, sub_tools=[gate.tool()])
    anyio.run(agent.run, "search, and narrow it down")
    assert len(child_requests) == 2  # the message did not interrupt its running tool
    before, after = child_requests
    assert all("src/payments" not in (m.content or "") for m in before.messages)
    last = after.messages[-1]
    assert isinstance(last, UserMessage)
    assert "[FROM_MAIN_AGENT] Only look under src/payments." in last.content
    assert after.messages[-2].content and "long_job done" in after.messages[-2].content


def test_a_subagent_over_its_token_budget_ends_with_a_result_that_says_so(
    tmp_path: Path,
) -> None:
    records = Records()
    frugal = AgentDefinition(
        "frugal", "A helper with a tiny budget.", "You are a frugal helper.",
        limits=AgentLimits(token_budget=50),
    )  # fmt: skip
    parent_results: list[str] = []

    def fn(request: ModelRequest) -> AssistantMessage | str:
        if is_subagent(request):
            return AssistantMessage(None, (call("search_code", '{"pattern": "x"}'),))
        if not results(request):
            return spawn("search everything", agent="frugal")
        parent_results.append(results(request)[0].content)
        return "It ran out of budget."

    agent, _ = main_agent(tmp_path, FunctionModel(fn), records, definitions=[frugal])
    anyio.run(agent.run, "search")
    text = parent_results[0]
    assert '"status": "failed"' in text and '"limit": "token_budget"' in text
    assert "over its budget of 50" in text
    [final] = [e for e in records.of(AgentUpdated) if e.final]
    assert final.status == "failed" and '"token_budget"' in final.result


def test_an_inherit_subagent_starts_with_the_parents_request_byte_for_byte(
    tmp_path: Path,
) -> None:
    records = Records()
    parent_requests: list[ModelRequest] = []
    child_requests: list[ModelRequest] = []

    def fn(request: ModelRequest) -> AssistantMessage | str:
        if is_subagent(request):
            child_requests.append(request)
            return result_json(summary="the user wants ticket 4417")
        parent_requests.append(request)
        if not results(request):
            return spawn("summarise what the user asked", handoff="inherit")
        return "ok"

    agent, _ = main_agent(tmp_path, FunctionModel(fn), records)
    anyio.run(agent.run, "file my ticket with number 4417")
    first, child = parent_requests[0], child_requests[0]
    assert child.tools == first.tools
    assert child.messages[: len(first.messages)] == first.messages
    brief = child.messages[len(first.messages)]  # then the brief, as the next user message
    assert isinstance(brief, UserMessage) and "working as a subagent" in brief.content


def test_a_subagent_waiting_for_a_person_says_so_and_goes_on_when_answered(
    tmp_path: Path,
) -> None:
    records = Records()
    desk = HumanDesk(Notifier([ConsoleChannel(io.StringIO())]))
    arguments = json.dumps({"action": "delete the cache", "reason": "it is stale"})

    def fn(request: ModelRequest) -> AssistantMessage | str:
        if is_subagent(request):
            if not results(request):
                return AssistantMessage(None, (call("request_human_approval", arguments),))
            return result_json(summary=results(request)[0].content)
        return "done" if results(request) else spawn("clean up", mode="async")

    agent, team = main_agent(tmp_path, FunctionModel(fn), records, sub_tools=human_tools(desk))

    async def main() -> None:
        async with agent.session() as session, anyio.create_task_group() as group:
            await session.deliver(new_event("user.input", "clean up, ask first"))
            group.start_soon(session.run_until_idle)
            asked = await records.until(lambda e: isinstance(e, HumanAsked))
            assert isinstance(asked, HumanAsked)
            waiting = await records.until(
                lambda e: isinstance(e, AgentUpdated) and e.status == "waiting_for_human"
            )
            assert isinstance(waiting, AgentUpdated) and "delete the cache" in waiting.detail
            node = team.node_of(asked.session_id)
            assert node is not None and node.session is not None
            content = answer_event_content(asked.request_id, decision="approve", by="ana")
            await node.session.deliver(new_event("human.answer", content=content))

    run(main)
    states = [e.status for e in records.of(AgentUpdated)]
    assert states[-3:] == ["waiting_for_human", "running", "completed"]
    assert "approved by ana" in records.of(AgentUpdated)[-1].result


def test_an_answer_outside_the_result_shape_gets_one_constrained_repair_call(
    tmp_path: Path,
) -> None:
    records = Records()
    parent_results: list[str] = []
    repairs: list[ModelRequest] = []

    def fn(request: ModelRequest) -> AssistantMessage | str:
        if request.json_schema is not None and "status" in json.dumps(request.json_schema):
            repairs.append(request)
            return result_json(summary="It is in a.py.") if len(repairs) == 1 else "still prose"
        if is_subagent(request):
            return "It is in a.py, I think."
        if not results(request):
            return spawn("find it")
        parent_results.append(results(request)[0].content)
        return "ok"

    agent, _ = main_agent(tmp_path, FunctionModel(fn), records)
    anyio.run(agent.run, "find it")
    anyio.run(agent.run, "find it again")
    repaired, quoted = parent_results
    assert '"summary": "It is in a.py."' in repaired and "one repair call" in repaired
    assert '"summary": "It is in a.py, I think."' in quoted and "unverified" in quoted
    assert len(repairs) == 2 and "not the JSON object" in (repairs[0].messages[-1].content or "")


def test_the_result_example_holds_placeholders_and_a_copied_placeholder_is_no_result() -> None:
    from workset.collab.brief import FORMAT
    from workset.collab.result import RESULT_EXAMPLE, parse_result

    assert RESULT_EXAMPLE in FORMAT
    example = json.loads(RESULT_EXAMPLE)
    # nothing in the example could pass for a finding: no path, no identifier outside <...>
    assert re.sub(r"<[^<>]*>", "", json.dumps(example)).count(".py") == 0
    parsed, problem = parse_result(RESULT_EXAMPLE)
    assert parsed is None and "placeholders" in problem
    real = dict(example, summary="process_data in payments/core.py handles callbacks")
    real["findings"] = [{"claim": "process_data dispatches", "sources": ["payments/core.py:88"]}]
    real["artifacts"] = ["payments/core.py"]
    assert parse_result(json.dumps(real))[0] is not None
