"""A ``read_file`` call repeated after it showed part of a file reads what the run has not
seen: the part that shares the most words with the task, else the next page (the 0.5B asked
for lines 1-80 of a 528-line file again, got the same 80 lines and answered "You could not
find it.")."""

from __future__ import annotations

import json
from pathlib import Path

import anyio

from workset.events import ToolFinished
from workset.loop.rereads import WINDOW_LINES, file_reader, reread
from workset.messages import AssistantMessage
from workset.session.agent import Agent, AgentConfig
from workset.testing import ScriptedModel, call, current_store
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace

TASK = "What exception do you get when a query has no field path?"


def query_module(root: Path) -> Path:
    """A 200-line module whose answer (``raise ValueError('Query has no path')``) is in a
    method that starts at line 150."""
    lines = ['"""Queries."""', ""]
    lines += [f"CONSTANT_{n} = {n}" for n in range(len(lines) + 1, 150)]
    lines += [
        "    def _generate_test(self, test, hashval):",  # line 150
        "        if not self._path:",
        "            raise ValueError('Query has no path')",
        "        return test",
    ]
    lines += [f"OTHER_{n} = {n}" for n in range(len(lines) + 1, 201)]
    module = root / "queries.py"
    module.write_text("\n".join(lines) + "\n")
    return module


def run_agent(workspace: Path, script: list[object]) -> tuple[list[ToolFinished], ScriptedModel]:
    model = ScriptedModel(script, context_window=8192)
    seen: list[object] = []
    agent = Agent(
        model,
        ToolRegistry(perception_tools(Workspace(workspace), read_lines=80)),
        current_store(),
        AgentConfig(),
        subscribers=[seen.append],
    )
    anyio.run(agent.run, TASK)
    return [e for e in seen if isinstance(e, ToolFinished)], model


def test_a_repeated_partial_read_reads_the_unseen_part_that_fits_the_task(tmp_path: Path) -> None:
    query_module(tmp_path)
    read = '{"path": "queries.py"}'
    script = [
        AssistantMessage(None, (call("read_file", read, "r1"),)),
        AssistantMessage(None, (call("read_file", read, "r2"),)),
        "It raises ValueError('Query has no path'), as queries.py shows.",
    ]
    finished, model = run_agent(tmp_path, script)
    first, second = finished
    assert "Showing lines 1-80 of 200 total" in first.result.content
    assert not second.result.is_error
    # From the method's own line: the answer is in what the repeat now shows.
    assert json.loads(second.call.arguments) == {
        "path": "queries.py",
        "offset": 150,
        "limit": WINDOW_LINES,
    }
    assert "raise ValueError('Query has no path')" in second.result.content
    assert "already called" not in second.result.content
    assert "asked for lines 1-80 of queries.py again" in second.decision
    # The model's own turn goes back with the call that ran.
    sent = model.requests[2].messages
    turn = [m for m in sent if isinstance(m, AssistantMessage) and m.tool_calls][-1]
    assert json.loads(turn.tool_calls[0].arguments)["offset"] == 150


def test_without_a_line_that_fits_the_task_the_repeat_reads_the_next_page(tmp_path: Path) -> None:
    query_module(tmp_path)
    tool = perception_tools(Workspace(tmp_path), read_lines=80)[0]
    earlier = tool.handler(path="queries.py")
    seen = [("queries.py", earlier)]
    repeated = call("read_file", '{"path": "queries.py"}', "r2")
    moved = reread(repeated, earlier, "Which colour is the logo?", seen, file_reader(tool))
    assert moved is not None
    ran, why = moved
    assert json.loads(ran.arguments) == {"path": "queries.py", "offset": 81}
    assert ran.id == "r2" and "the next lines it has not seen" in why
    # No reader (a read_file tool that must be awaited, say): the next page as well.
    assert reread(repeated, earlier, TASK, seen, None) == moved


def test_lines_already_seen_are_not_read_again(tmp_path: Path) -> None:
    query_module(tmp_path)
    tool = perception_tools(Workspace(tmp_path), read_lines=80)[0]
    earlier = tool.handler(path="queries.py")
    # The excerpts already showed the method: the next page, not the method again.
    method = tool.handler(path="queries.py", offset=145, limit=15)
    seen = [("queries.py", earlier), ("./queries.py", method)]
    repeated = call("read_file", '{"path": "queries.py", "limit": 80}', "r2")
    ran, _ = reread(repeated, earlier, TASK, seen, file_reader(tool)) or (None, "")
    assert ran is not None
    assert json.loads(ran.arguments) == {"path": "queries.py", "offset": 81, "limit": 80}


def test_a_whole_file_read_repeated_is_given_again(tmp_path: Path) -> None:
    (tmp_path / "small.py").write_text("VALUE = 1\n")
    tool = perception_tools(Workspace(tmp_path))[0]
    earlier = tool.handler(path="small.py")
    repeated = call("read_file", '{"path": "small.py"}', "r2")
    assert reread(repeated, earlier, TASK, [("small.py", earlier)], file_reader(tool)) is None


def test_a_reader_needs_a_synchronous_read_only_tool(tmp_path: Path) -> None:
    read_file = perception_tools(Workspace(tmp_path))[0]
    assert read_file.name == "read_file" and file_reader(None) is None
    reader = file_reader(read_file)
    assert reader is not None and reader("missing.py") is None  # the tool's error: no choice
    assert file_reader(type("Writer", (), {"read_only": False, "is_async": False})()) is None


def test_an_exception_question_prefers_the_line_that_raises(tmp_path: Path) -> None:
    lines = [f"VALUE_{n} = {n}" for n in range(1, 100)]
    lines[89] = "# the current path of fields of the query object, for example"  # line 90
    lines[97] = "        raise ValueError('Query has no path')"  # line 98
    (tmp_path / "q.py").write_text("\n".join(lines) + "\n")
    tool = perception_tools(Workspace(tmp_path), read_lines=80)[0]
    earlier = tool.handler(path="q.py")
    repeated = call("read_file", '{"path": "q.py"}', "r2")
    moved = reread(repeated, earlier, TASK, [("q.py", earlier)], file_reader(tool))
    assert moved is not None
    assert json.loads(moved[0].arguments)["offset"] == 98 - 8
    # Asked for a description, the comment that shares more words wins.
    described = reread(
        repeated, earlier, TASK.replace("exception", "happens"), [], file_reader(tool)
    )
    assert described is not None and json.loads(described[0].arguments)["offset"] == 90 - 8
