"""Bad input to the subagent tools gets an error the model can act on, and nothing recorded
is lost: an unknown agent (closest names suggested), spawns past the depth or concurrency
limit, a message to a subagent that has finished, a status for an unknown id."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from collab_support import agent_id_in, is_subagent, main_agent, result_json, results
from support import Gate, Records

from workset.collab import AgentDefinition
from workset.events import AgentUpdated, RunFinished, ToolFinished
from workset.messages import AssistantMessage
from workset.models.base import ModelRequest
from workset.testing import FunctionModel, call

SEARCHER = AgentDefinition("code-searcher", "Finds code.", "You search code.")


def errors(records: Records) -> list[str]:
    return [e.result.content for e in records.of(ToolFinished) if e.result.is_error]


def test_an_unknown_agent_name_suggests_the_closest_ones(tmp_path: Path) -> None:
    records = Records()

    def fn(request: ModelRequest) -> AssistantMessage | str:
        if results(request):
            return "ok"
        arguments = json.dumps({"agent": "code-sercher", "task": "find x"})
        return AssistantMessage(None, (call("spawn_subagent", arguments, "s1"),))

    agent, _ = main_agent(tmp_path, FunctionModel(fn), records, definitions=[SEARCHER])
    anyio.run(agent.run, "find x")
    [error] = errors(records)
    assert "no agent named 'code-sercher'" in error
    assert "did you mean 'code-searcher'?" in error and "general" in error
    assert not records.of(AgentUpdated)


def test_spawning_past_the_depth_limit_is_refused_with_what_to_do(tmp_path: Path) -> None:
    records = Records()

    def fn(request: ModelRequest) -> AssistantMessage | str:
        if is_subagent(request):
            if not results(request):
                arguments = json.dumps({"task": "go deeper"})
                return AssistantMessage(None, (call("spawn_subagent", arguments, "s2"),))
            return result_json(summary=results(request)[0].content)
        if results(request):
            return "ok"
        return AssistantMessage(None, (call("spawn_subagent", '{"task": "look"}', "s1"),))

    agent, _ = main_agent(tmp_path, FunctionModel(fn), records, max_depth=1)
    anyio.run(agent.run, "look")
    [error] = errors(records)
    assert "at depth 2, over the limit of 1" in error and "do this part yourself" in error
    assert len({e.agent_id for e in records.of(AgentUpdated)}) == 1


def test_spawning_past_the_concurrency_limit_is_refused(tmp_path: Path) -> None:
    records, gate = Records(), Gate()

    def fn(request: ModelRequest) -> AssistantMessage | str:
        if is_subagent(request):
            if not results(request):
                return AssistantMessage(None, (call("long_job", '{"what": "a"}'),))
            return result_json()
        done = results(request)
        if not done:
            first = call("spawn_subagent", json.dumps({"task": "a", "mode": "async"}), "s1")
            second = call("spawn_subagent", json.dumps({"task": "b", "mode": "async"}), "s2")
            return AssistantMessage(None, (first, second))
        gate.opened.set()
        return "ok"

    agent, _ = main_agent(
        tmp_path, FunctionModel(fn), records, sub_tools=[gate.tool()], max_concurrent=1
    )
    anyio.run(agent.run, "two at once")
    [error] = errors(records)
    assert "1 subagents are already running" in error and "the limit is 1" in error
    assert "cancel_subagent" in error


def test_a_message_to_a_finished_subagent_says_so_and_what_to_do(tmp_path: Path) -> None:
    records = Records()

    def fn(request: ModelRequest) -> AssistantMessage | str:
        if is_subagent(request):
            return result_json(summary="found it in a.py")
        done = results(request)
        if not done:
            return AssistantMessage(None, (call("spawn_subagent", '{"task": "find"}', "s1"),))
        if len(done) == 1:
            target = agent_id_in(done[0].content)
            text = json.dumps({"agent_id": target, "message": "also look in b.py"})
            return AssistantMessage(None, (call("send_message_to_subagent", text, "m1"),))
        if len(done) == 2:
            text = json.dumps({"agent_id": "agent-000000"})
            return AssistantMessage(None, (call("get_subagent_status", text, "g1"),))
        return "ok"

    agent, _ = main_agent(tmp_path, FunctionModel(fn), records)
    anyio.run(agent.run, "find")
    finished, unknown = errors(records)
    assert "has already completed; a message cannot reach it" in finished
    assert "found it in a.py" in finished and "spawn a new subagent" in finished
    assert "no subagent 'agent-000000' here" in unknown and "agent-" in unknown
    assert records.of(RunFinished)[-1].answer == "ok"
