"""Tests around an edit, on the embedded model: whatever the 0.5B writes, the run runs the
tests first and after every edit it makes, never leaves an edit the tests reject, and ends
``answered`` exactly when the last test run passed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from workset import Agent, AgentConfig, SessionLog, ToolRegistry, Workspace, perception_tools
from workset.events import LoopEvent, ToolFinished
from workset.models.embedded import EmbeddedModel
from workset.tools.compact import compact_tools
from workset.tools.execution import execution_tools
from workset.tools.testing import PYTEST, tools_for_tests

BUGGY = "def inc(d):\n    d['n'] += 2\n    return d\n"


@pytest.mark.real_model
def test_the_embedded_agent_tests_its_edit_and_its_outcome_follows_the_tests(
    qwen: EmbeddedModel, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "ops.py").write_text(BUGGY)
    (ws / "tests" / "test_ops.py").write_text(
        "from ops import inc\n\n\ndef test_inc():\n    assert inc({'n': 1}) == {'n': 2}\n"
    )
    (ws / "conftest.py").write_text("")
    tools = [
        *perception_tools(Workspace(ws)),
        *execution_tools(Workspace(ws)),
        *tools_for_tests(Workspace(ws), PYTEST, fix_search=False),
    ]
    seen: list[LoopEvent] = []
    agent = Agent(
        qwen,
        ToolRegistry(compact_tools(tools)),  # as the CLI sends them to a small window
        SessionLog(tmp_path / "log.db"),
        AgentConfig(guided_edits=True),
        subscribers=[seen.append],
    )
    result = anyio.run(agent.run, "inc in ops.py adds 2 instead of 1; fix it")

    finished = [e for e in seen if isinstance(e, ToolFinished)]
    names = [e.call.name for e in finished]
    assert names[0] == "run_tests" and "exit code 1" in finished[0].result.content
    assert "(def inc)" in finished[0].result.content  # the failure points to the function
    for n, event in enumerate(finished):  # every edit made is followed by the tests
        if event.call.name == "edit_file" and not event.result.is_error:
            assert "run_tests" in names[n + 1 :]
    tests = [e for e in finished if e.call.name == "run_tests"]
    passed = "exit code 0" in tests[-1].result.content
    check = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=ws, capture_output=True, check=False,
    )  # fmt: skip
    if passed:
        assert check.returncode == 0 and result.outcome == "answered", result.outcome_reason
    else:  # an edit the tests rejected was undone: the file is as it was
        assert (ws / "ops.py").read_text() == BUGGY
        assert result.outcome != "answered", result.outcome_reason
