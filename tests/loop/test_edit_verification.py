"""Tests around a guided edit, through the agent, with real pytest runs in a workspace: the
run first runs the tests (their failures show the function at fault), then after each edit;
a rewrite the tests reject is written once more with the failures in view; the answer turn
says whether they pass, and the outcome follows the last test run."""

from __future__ import annotations

import json
from pathlib import Path

import anyio

from workset.messages import ToolMessage
from workset.models.base import ModelRequest
from workset.models.constrained import answer_schema
from workset.session.agent import Agent, AgentConfig
from workset.testing import ScriptedModel, current_store
from workset.tools.execution import execution_tools
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.testing import PYTEST, tools_for_tests
from workset.tools.workspace import Workspace

RUN_TESTS = '{"name": "run_tests", "arguments": {}}'
UNDO = '{"name": "undo_edit", "arguments": {}}'
OPS = (
    "def check(k):\n    if k < 1:\n        raise ValueError(k)\n    return k\n\n\n"
    "def inc(d):\n    d['n'] += check(0)\n    return d\n"
)
INC = "7| def inc(d):\n8|     d['n'] += check(0)\n9|     return d"
CHECK = "1| def check(k):\n2|     if k < 1:\n3|         raise ValueError(k)\n4|     return k"
TASK = "inc in ops.py raises ValueError instead of adding 1; fix it"


def choose(block: str) -> str:
    return json.dumps({"name": "edit_file", "arguments": {"path": "ops.py", "old": block}})


def workspace(tmp_path: Path, tests: str = "") -> Path:
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "ops.py").write_text(OPS)
    (ws / "tests" / "test_ops.py").write_text(
        "from ops import inc\n\n\ndef test_inc():\n    assert inc({'n': 1}) == {'n': 2}\n" + tests
    )
    (ws / "conftest.py").write_text("")  # the workspace root on sys.path
    return ws


def agent_for(ws: Path, script: list[str]) -> tuple[Agent, ScriptedModel]:
    tools = [
        *perception_tools(Workspace(ws)),
        *execution_tools(Workspace(ws)),
        *tools_for_tests(Workspace(ws), PYTEST, fix_search=False),
    ]
    model = ScriptedModel(script, context_window=32768)  # the 0.5B's window
    agent = Agent(model, ToolRegistry(tools), current_store(), AgentConfig(guided_edits=True))
    return agent, model


def results(request: ModelRequest) -> list[ToolMessage]:
    return [m for m in request.messages if isinstance(m, ToolMessage)]


def held_to(request: ModelRequest) -> list[object]:
    """The tool names the request's decision schema allows."""
    schema = request.json_schema or {}
    return [o.get("properties", {}).get("name") for o in schema.get("anyOf", [])]


def code(body: str) -> str:
    return f"```python\n{body}\n```"


def test_the_tests_find_the_function_an_edit_no_better_is_undone_and_another_fixes_it(
    tmp_path: Path,
) -> None:
    ws = workspace(tmp_path)
    same = code("def inc(d):\n    d['n'] += check(0) * 1\n    return d")
    fixed = code("def check(k):\n    return max(k, 1)")
    done = '{"answer": "check in ops.py accepts 0 now."}'
    script = [RUN_TESTS, choose(INC), same, RUN_TESTS, UNDO, choose(CHECK), fixed, RUN_TESTS, done]
    agent, model = agent_for(ws, script)
    result = anyio.run(agent.run, TASK)

    assert result.answer == "check in ops.py accepts 0 now."
    assert result.outcome == "answered", result.outcome_reason  # a passing run followed
    assert "return max(k, 1)" in (ws / "ops.py").read_text()
    assert "check(0)\n" in (ws / "ops.py").read_text()  # the first edit was undone
    assert held_to(model.requests[0]) == [{"const": "run_tests"}]
    # the failures point to inc and check (outermost first), shown whole: the choices
    [before] = results(model.requests[1])
    assert "FAILED tests/test_ops.py::test_inc" in before.content
    assert before.content.index("(def inc)") < before.content.index("(def check)")
    [option] = model.requests[1].json_schema["anyOf"]
    assert option["properties"]["arguments"]["properties"]["old"]["enum"] == [INC, CHECK]
    # the first rewrite leaves the test failing as before: undone, then another choice
    assert held_to(model.requests[3]) == [{"const": "run_tests"}]
    assert held_to(model.requests[4]) == [{"const": "undo_edit"}]
    assert "did not fix the failing tests" in model.requests[4].messages[-1].content
    undone = results(model.requests[5])[-1]
    assert not undone.is_error and "undone: ops.py has its content from before" in undone.content
    [again] = model.requests[5].json_schema["anyOf"]
    assert again["properties"]["arguments"]["properties"]["old"]["enum"] == [CHECK]
    assert model.requests[8].json_schema == answer_schema()
    assert "The tests pass after your edit" in model.requests[8].messages[-1].content
    # nine model calls, four of them held to the harness's own call: within the limit of 8
    assert len(model.requests) == 9


def test_a_rewrite_that_fixes_some_failures_is_written_again_with_the_rest_in_view(
    tmp_path: Path,
) -> None:
    ws = workspace(tmp_path, "\n\ndef test_inc_big():\n    assert inc({'n': 9}) == {'n': 10}\n")
    half = code("def inc(d):\n    d['n'] = 2\n    return d")
    whole = code("def inc(d):\n    d['n'] += 1\n    return d")
    done = '{"answer": "inc in ops.py adds 1 now."}'
    agent, model = agent_for(ws, [RUN_TESTS, choose(INC), half, RUN_TESTS, whole, RUN_TESTS, done])
    result = anyio.run(agent.run, TASK)

    assert "d['n'] += 1" in (ws / "ops.py").read_text()
    assert result.outcome == "answered", result.outcome_reason
    again = model.requests[4]
    assert [m.role for m in again.messages] == ["system", "user"] and not again.tools
    asked = again.messages[-1].content
    assert "d['n'] = 2" in asked and "the tests fail" in asked
    assert "test_inc_big" in asked and "::test_inc " not in asked


def test_tests_that_still_fail_after_every_try_are_in_the_answer_turn_and_the_outcome(
    tmp_path: Path,
) -> None:
    ws = workspace(tmp_path)
    same = code("def inc(d):\n    d['n'] += check(0) * 1\n    return d")
    worse = code("def check(k):\n    raise KeyError(k)")
    done = '{"answer": "I tried inc and check in ops.py; the tests still fail."}'
    script = [RUN_TESTS, choose(INC), same, RUN_TESTS, UNDO, choose(CHECK), worse, RUN_TESTS]
    agent, model = agent_for(ws, [*script, UNDO, done])
    result = anyio.run(agent.run, TASK)

    assert (ws / "ops.py").read_text() == OPS  # both edits undone
    notice = model.requests[9].messages[-1].content
    assert "The tests still fail, and your edits were undone" in notice
    assert model.requests[9].json_schema == answer_schema()
    assert result.outcome == "answered_unverified"


def test_without_run_tests_a_guided_edit_goes_to_the_answer_as_before(tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    read = '{"name": "read_file", "arguments": {"path": "ops.py"}}'
    done = '{"answer": "inc in ops.py adds 1 now."}'
    tools = [*perception_tools(Workspace(ws)), *execution_tools(Workspace(ws))]
    model = ScriptedModel(
        [read, choose(INC), code("def inc(d):\n    d['n'] += 1\n    return d"), done]
    )
    agent = Agent(model, ToolRegistry(tools), current_store(), AgentConfig(guided_edits=True))
    result = anyio.run(agent.run, "inc in ops.py adds 2 instead of 1; fix it")
    assert result.answer == "inc in ops.py adds 1 now."
    assert "run_tests" not in json.dumps(model.requests[0].json_schema)
    assert result.outcome == "answered_unverified"  # no test ran after the change


def test_a_reply_that_writes_another_offered_function_is_applied_to_that_one(
    tmp_path: Path,
) -> None:
    """Given inc, the model wrote check, fixed (the 0.5B, given valfilter, wrote keyfilter):
    the function the reply defines is the one replaced, when it was offered too."""
    ws = workspace(tmp_path)
    fixed = code("def check(k):\n    return max(k, 1)")
    done = '{"answer": "check in ops.py accepts 0 now."}'
    agent, _ = agent_for(ws, [RUN_TESTS, choose(INC), fixed, RUN_TESTS, done])
    result = anyio.run(agent.run, TASK)
    assert "return max(k, 1)" in (ws / "ops.py").read_text()
    assert "d['n'] += check(0)" in (ws / "ops.py").read_text()  # inc as it was
    assert result.outcome == "answered", result.outcome_reason


def test_a_reported_defect_fixed_and_tested_is_answered_even_in_the_tools_words(
    tmp_path: Path,
) -> None:
    """A task that reports a defect without "fix": the change followed by a passing test run
    is the check, whatever words of the edit's result the answer repeats."""
    ws = workspace(tmp_path)
    fixed = code("def check(k):\n    return max(k, 1)")
    done = '{"answer": "I changed ops.py: 1 replacement; changed lines 1-4"}'
    agent, _ = agent_for(ws, [RUN_TESTS, choose(CHECK), fixed, RUN_TESTS, done])
    result = anyio.run(agent.run, "inc({'n': 1}) in ops.py raises ValueError instead of adding 1")
    assert result.outcome == "answered", result.outcome_reason


def test_tests_that_passed_before_the_change_too_do_not_make_it_answered(tmp_path: Path) -> None:
    """A defect no test sees: the suite passes before and after the change, so its passing
    says nothing about the change; the answer turn and the outcome say so."""
    ws = workspace(tmp_path)
    (ws / "tests" / "test_ops.py").write_text(
        "from ops import check\n\n\ndef test_check():\n    assert check(1) == 1\n"
    )
    fixed = code("def inc(d):\n    d['n'] += 1\n    return d")
    done = '{"answer": "inc in ops.py adds 1 now."}'
    agent, model = agent_for(ws, [RUN_TESTS, read_ops(), choose(INC), fixed, RUN_TESTS, done])
    result = anyio.run(agent.run, TASK)
    assert "d['n'] += 1" in (ws / "ops.py").read_text()
    assert "no test checks this change" in model.requests[-1].messages[-1].content
    assert result.outcome == "answered_unverified"
    assert "no test run before it failed" in result.outcome_reason


def read_ops() -> str:
    return '{"name": "read_file", "arguments": {"path": "ops.py"}}'
