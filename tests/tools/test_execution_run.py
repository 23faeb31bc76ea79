"""shell and run_python: real subprocesses in a temporary workspace."""

import json
from pathlib import Path
from typing import Any

import anyio

from workset.messages import ToolCall
from workset.tools.execution import execution_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace


class Agent:
    """One set of execution tools kept across calls, as in a session."""

    def __init__(self, root: Path) -> None:
        self.registry = ToolRegistry(execution_tools(Workspace(root)))

    def ok(self, name: str, **arguments: Any) -> str:
        result = anyio.run(self.registry.execute, ToolCall("c1", name, json.dumps(arguments)))
        assert not result.is_error, result.content
        return result.content

    def error(self, name: str, **arguments: Any) -> str:
        result = anyio.run(self.registry.execute, ToolCall("c1", name, json.dumps(arguments)))
        assert result.is_error, result.content
        return result.content


# --- shell ------------------------------------------------------------------------------------


def test_shell_returns_the_exit_code_and_merged_output_in_order(tmp_path: Path) -> None:
    result = Agent(tmp_path).ok("shell", command="echo out; echo err >&2; echo end; exit 3")
    assert result == "exit code 3 (cwd: .)\nout\nerr\nend\n"


def test_shell_keeps_the_working_directory_between_calls(tmp_path: Path) -> None:
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    agent = Agent(tmp_path)
    assert agent.ok("shell", command="cd sub").startswith("exit code 0 (cwd: sub)")
    assert agent.ok("shell", command="pwd").endswith(f"{tmp_path / 'sub'}\n")
    agent.ok("shell", command="cd deeper && touch here.txt")
    assert (tmp_path / "sub" / "deeper" / "here.txt").exists()
    assert agent.ok("shell", command="cd ../.. && pwd") == f"exit code 0 (cwd: .)\n{tmp_path}\n"


def test_shell_resets_to_the_root_when_a_command_leaves_the_workspace(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    agent = Agent(root)
    result = agent.ok("shell", command="cd ..")
    assert result.startswith("exit code 0 (cwd: .)")
    assert f"ended in {tmp_path}, outside the workspace" in result
    assert agent.ok("shell", command="pwd") == f"exit code 0 (cwd: .)\n{root}\n"


def test_shell_starts_at_the_root_when_the_working_directory_was_removed(tmp_path: Path) -> None:
    (tmp_path / "gone").mkdir()
    agent = Agent(tmp_path)
    agent.ok("shell", command="cd gone")
    (tmp_path / "gone").rmdir()
    result = agent.ok("shell", command="pwd")
    assert result.startswith(f"exit code 0 (cwd: .)\n{tmp_path}\n")
    assert "no longer exists" in result


def test_shell_kills_a_command_at_its_timeout(tmp_path: Path) -> None:
    result = Agent(tmp_path).ok("shell", command="echo started; sleep 30; echo never", timeout_s=1)
    assert result.startswith("timed out after 1 s: the process and all its children were killed")
    assert "started" in result
    assert "never" not in result


def test_shell_clips_long_output_and_saves_all_of_it(tmp_path: Path) -> None:
    agent = Agent(tmp_path)
    result = agent.ok("shell", command="seq 1 5000")
    lines = result.split("\n")
    assert lines[0] == "exit code 0 (cwd: .)"
    assert lines[1:51] == [str(i) for i in range(1, 51)]
    marker = lines[51]
    assert marker.startswith("... [4,900 lines omitted; full output (5,000 lines, 23,893 chars)")
    assert lines[52:102] == [str(i) for i in range(4_951, 5_001)]
    path = marker.split("saved to ")[1].split("]")[0]
    assert (tmp_path / path).read_text() == "".join(f"{i}\n" for i in range(1, 5_001))
    assert agent.ok("shell", command="seq 1 5000") == result


def test_shell_output_without_a_final_newline_is_kept_as_is(tmp_path: Path) -> None:
    assert Agent(tmp_path).ok("shell", command="printf abc") == "exit code 0 (cwd: .)\nabc"


def test_shell_says_when_output_bytes_were_not_utf8(tmp_path: Path) -> None:
    result = Agent(tmp_path).ok("shell", command="printf 'caf\\351\\n'")
    assert result.startswith("exit code 0 (cwd: .)\ncaf\ufffd\n")
    assert "not valid UTF-8" in result


def test_shell_refuses_bad_arguments_with_a_fix(tmp_path: Path) -> None:
    agent = Agent(tmp_path)
    assert "command is empty" in agent.error("shell", command="  ")
    assert "from 1 to 600" in agent.error("shell", command="ls", timeout_s=0)
    assert "NUL character" in agent.error("shell", command="echo \x00")


# --- run_python -------------------------------------------------------------------------------


def test_run_python_runs_in_the_workspace_root(tmp_path: Path) -> None:
    (tmp_path / "data.txt").write_text("42")
    code = "import os\nprint(os.getcwd())\nprint(open('data.txt').read())"
    assert Agent(tmp_path).ok("run_python", code=code) == f"exit code 0\n{tmp_path}\n42\n"


def test_run_python_shows_the_traceback_after_earlier_prints(tmp_path: Path) -> None:
    result = Agent(tmp_path).ok("run_python", code="print('before')\n1 / 0\n")
    assert result.startswith("exit code 1\nbefore\nTraceback")
    assert 'File "<stdin>", line 2' in result
    assert "ZeroDivisionError" in result


def test_run_python_cannot_allocate_past_its_memory_limit(tmp_path: Path) -> None:
    code = "data = bytearray(4 * 1024 ** 3)\nprint('allocated')"
    result = Agent(tmp_path).ok("run_python", code=code)
    assert result.startswith("exit code 1")
    assert "MemoryError" in result
    assert "allocated" not in result


def test_run_python_is_killed_at_its_timeout(tmp_path: Path) -> None:
    code = "import time\nprint('started', flush=True)\ntime.sleep(30)\nprint('never')"
    result = Agent(tmp_path).ok("run_python", code=code, timeout_s=1)
    assert result.startswith("timed out after 1 s")
    assert "started" in result
    assert "never" not in result


def test_run_python_clips_long_output(tmp_path: Path) -> None:
    result = Agent(tmp_path).ok("run_python", code="for i in range(1000):\n    print(i)")
    assert "... [900 lines omitted; full output (1,000 lines" in result
    assert ".workset/artifacts/python-" in result
