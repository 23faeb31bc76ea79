"""search_fix in a guided edit run, through the agent, with real pytest runs: after the tests
first fail the search runs (held to the task as its hint); a change it finds is the next
decision, as the edit_file call it names; the tests then check it and the outcome follows."""

from __future__ import annotations

import json
from pathlib import Path

import anyio

from workset.messages import AssistantMessage, ToolMessage
from workset.models.base import ModelRequest, ModelResponse, Usage
from workset.session.agent import Agent, AgentConfig
from workset.testing import ScriptedModel, current_store
from workset.tools.execution import execution_tools
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.testing import PYTEST, tools_for_tests
from workset.tools.workspace import Workspace

RUN_TESTS = '{"name": "run_tests", "arguments": {}}'
CALC = "def average(values):\n    return sum(values) / (len(values) + 1)\n"
TASK = "fix the bug in calc.py so the test passes"
FOUND = {
    "path": "calc.py",
    "old": "    return sum(values) / (len(values) + 1)",
    "new": "    return sum(values) / (len(values))",
}


def workspace(tmp_path: Path, code: str = CALC) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "calc.py").write_text(code)
    (ws / "test_calc.py").write_text(
        "from calc import average\n\n\ndef test_average():\n    assert average([2, 4, 6]) == 4\n"
    )
    return ws


def agent_for(ws: Path, script: list[str]) -> tuple[Agent, ScriptedModel]:
    tools = [
        *perception_tools(Workspace(ws)),
        *execution_tools(Workspace(ws)),
        *tools_for_tests(Workspace(ws), PYTEST),
    ]
    model = ScriptedModel(script, context_window=32768)
    agent = Agent(model, ToolRegistry(tools), current_store(), AgentConfig(guided_edits=True))
    return agent, model


def call(name: str, arguments: dict[str, str]) -> str:
    return json.dumps({"name": name, "arguments": arguments})


def held(request: ModelRequest) -> dict:
    [option] = (request.json_schema or {})["anyOf"]
    return option["properties"]


def results(request: ModelRequest) -> list[ToolMessage]:
    return [m for m in request.messages if isinstance(m, ToolMessage)]


def test_a_failing_test_leads_to_the_search_and_the_change_found_is_made_and_tested(
    tmp_path: Path,
) -> None:
    ws = workspace(tmp_path)
    done = '{"answer": "I removed the + 1 from the divisor in calc.py; the test passes."}'
    script = [RUN_TESTS, call("search_fix", {"hint": TASK}), call("edit_file", FOUND)]
    agent, model = agent_for(ws, [*script, RUN_TESTS, done])
    result = anyio.run(agent.run, TASK)

    assert "(len(values))" in (ws / "calc.py").read_text()
    assert result.outcome == "answered", result.outcome_reason
    search = held(model.requests[1])
    assert search["name"] == {"const": "search_fix"}
    assert search["arguments"]["properties"] == {"hint": {"const": TASK}}
    edit = held(model.requests[2])
    assert edit["name"] == {"const": "edit_file"}
    assert edit["arguments"]["properties"]["new"] == {"const": FOUND["new"]}
    assert "search_fix found a change to calc.py" in model.requests[2].messages[-1].content
    [*_, found] = results(model.requests[2])
    assert "found: a change that makes the failing tests pass" in found.content
    assert held(model.requests[3])["name"] == {"const": "run_tests"}
    answer_turn = model.requests[4].messages[-1].content
    assert "The tests pass after your edit" in answer_turn
    assert "in calc.py, `return sum(values) / (len(values) + 1)` became" in answer_turn


def test_the_change_made_is_the_one_found_whatever_the_model_wrote(tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    other = {"path": "calc.py", "old": "def average", "new": "def mean"}
    done = '{"answer": "calc.py is fixed."}'
    script = [RUN_TESTS, call("search_fix", {}), call("edit_file", other), RUN_TESTS, done]
    agent, _ = agent_for(ws, script)
    result = anyio.run(agent.run, TASK)
    text = (ws / "calc.py").read_text()
    assert "def average" in text and "(len(values))" in text
    assert result.outcome == "answered", result.outcome_reason


def test_when_the_search_finds_nothing_the_functions_are_offered_as_before(tmp_path: Path) -> None:
    code = "def average(values):\n    return len(values) * 2\n"  # no one-place change gives 4
    ws = workspace(tmp_path, code)
    script = [RUN_TESTS, call("search_fix", {"hint": TASK}), '{"answer": "not fixed"}']
    agent, model = agent_for(ws, script)
    anyio.run(agent.run, TASK)
    [*_, searched] = results(model.requests[2])
    assert "not found: no change tried made the failing tests pass" in searched.content
    offered = held(model.requests[2])["arguments"]["properties"]["old"]
    assert any("def average" in block for block in offered["enum"])  # the guided choice
    assert (ws / "calc.py").read_text() == code


def test_an_edit_cut_off_at_the_token_limit_is_told_so_with_a_shorter_way_to_write_it(
    tmp_path: Path,
) -> None:
    """The 0.5B copied a whole numbered function into ``old``, ran into 512 tokens, and wrote
    the same call again when told only that the JSON was incomplete."""
    ws = workspace(tmp_path)
    stump = '{"name": "edit_file", "arguments": {"path": "calc.py", "old": "1| def average(v'
    cut = ModelResponse(AssistantMessage(stump), Usage(100, 512), finish_reason="length")
    agent, model = agent_for(ws, [cut, "I could not change calc.py."])
    agent.config = AgentConfig(guided_edits=False)
    anyio.run(lambda: agent.run("Explain what calc.py's average returns"))
    [told] = results(model.requests[1])
    assert "cut off at the reply's length limit" in told.content
    assert "only the one to three lines that change" in told.content
    assert (ws / "calc.py").read_text() == CALC
