"""search_fix on the embedded model: the issue's calc task ("fix the bug in calc.py so the test
passes, then run the tests") is fixed by the change the search finds, made through edit_file
under the 0.5B's held decision, tested, and ends ``answered``."""

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

CALC = Path(__file__).parents[2] / "benchmarks" / "tasks" / "issue" / "calc"


@pytest.mark.real_model
def test_the_embedded_agent_fixes_the_calc_bug_with_the_change_the_search_found(
    qwen: EmbeddedModel, tmp_path: Path
) -> None:
    ws = tmp_path / "calc"
    ws.mkdir()
    for name in ("calc.py", "test_calc.py"):
        (ws / name).write_text((CALC / name).read_text())
    tools = [
        *perception_tools(Workspace(ws)),
        *execution_tools(Workspace(ws)),
        *tools_for_tests(Workspace(ws), PYTEST),
    ]
    seen: list[LoopEvent] = []
    agent = Agent(
        qwen,
        ToolRegistry(compact_tools(tools)),
        SessionLog(tmp_path / "log.db"),
        AgentConfig(guided_edits=True),
        subscribers=[seen.append],
    )
    result = anyio.run(agent.run, "fix the bug in calc.py so the test passes, then run the tests")

    names = [e.call.name for e in seen if isinstance(e, ToolFinished)]
    assert names[:4] == ["run_tests", "search_fix", "edit_file", "run_tests"], names
    assert "/ (len(values))" in (ws / "calc.py").read_text()
    check = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=ws, capture_output=True, check=False,
    )  # fmt: skip
    assert check.returncode == 0
    assert result.outcome == "answered", result.outcome_reason
