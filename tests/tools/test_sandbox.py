"""The bubblewrap sandbox, with the real ``bwrap`` (Debian package ``bubblewrap``).

These tests fail, not skip, when bwrap is missing or cannot create namespaces here: the
failure message carries the reason, so a CI machine without a working sandbox is noticed.
"""

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from workset.messages import ToolCall
from workset.tools.execution import execution_tools
from workset.tools.registry import ToolRegistry
from workset.tools.sandbox import (
    BubblewrapSandbox,
    Limits,
    Sandbox,
    detect_sandbox,
    run_confined,
    sandbox_unavailable_reason,
)
from workset.tools.workspace import Workspace


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


@pytest.fixture
def sandbox(workspace: Path) -> Sandbox:
    found = detect_sandbox(Workspace(workspace))
    if found is None:
        pytest.fail(f"the bubblewrap sandbox cannot run here: {sandbox_unavailable_reason()}")
    return found


@pytest.fixture
def listening_port() -> Iterator[int]:
    """A TCP port on 127.0.0.1 that accepts connections (the kernel completes them)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        yield server.getsockname()[1]


def _tool(root: Path, sandbox: Sandbox | None, name: str, **arguments: Any) -> str:
    registry = ToolRegistry(execution_tools(Workspace(root), sandbox=sandbox))
    result = anyio.run(registry.execute, ToolCall("c1", name, json.dumps(arguments)))
    assert not result.is_error, result.content
    return result.content


def test_a_sandboxed_command_can_write_inside_the_workspace(
    workspace: Path, sandbox: Sandbox
) -> None:
    result = _tool(workspace, sandbox, "shell", command="mkdir -p out && echo hi > out/a.txt")
    assert result.startswith("exit code 0")
    assert (workspace / "out" / "a.txt").read_text() == "hi\n"


def test_a_sandboxed_command_cannot_write_outside_the_workspace(
    tmp_path: Path, workspace: Path, sandbox: Sandbox
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    result = _tool(workspace, sandbox, "shell", command="touch /etc/workset-x; echo rc=$?")
    assert "Read-only file system" in result
    assert "rc=1" in result
    assert not Path("/etc/workset-x").exists()
    command = f"mkdir -p {outside} && echo leaked > {outside}/x.txt; echo done"
    _tool(workspace, sandbox, "shell", command=command)
    assert not (outside / "x.txt").exists()


def test_a_sandboxed_command_cannot_read_files_beside_the_workspace(
    tmp_path: Path, workspace: Path, sandbox: Sandbox
) -> None:
    (tmp_path / "secret.txt").write_text("token-123")
    result = _tool(workspace, sandbox, "shell", command=f"cat {tmp_path}/secret.txt")
    assert "No such file or directory" in result
    assert "token-123" not in result


def test_a_sandboxed_command_cannot_reach_the_network(
    workspace: Path, sandbox: Sandbox, listening_port: int
) -> None:
    code = (
        "import socket\n"
        f"socket.create_connection(('127.0.0.1', {listening_port}), timeout=5).close()\n"
        "print('connected')"
    )
    outside = _tool(workspace, None, "run_python", code=code)
    assert outside == "exit code 0\nconnected\n"
    inside = _tool(workspace, sandbox, "run_python", code=code)
    assert inside.startswith("exit code 1")
    assert "connected" not in inside
    assert "OSError" in inside or "ConnectionRefusedError" in inside


def test_the_network_can_be_allowed_explicitly(workspace: Path, listening_port: int) -> None:
    sandbox = BubblewrapSandbox(Workspace(workspace), allow_network=True)
    assert "network on" in sandbox.describe()
    argv = ["bash", "-c", f"exec 3<>/dev/tcp/127.0.0.1/{listening_port} && echo connected"]
    done = run_confined(argv, cwd=workspace, timeout_s=20, sandbox=sandbox)
    assert (done.exit_code, done.output) == (0, "connected\n")


def test_the_sandbox_hides_the_host_environment(
    workspace: Path, sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORKSET_TEST_SECRET", "s3cret")
    result = _tool(workspace, sandbox, "shell", command='echo "[$WORKSET_TEST_SECRET]" $HOME')
    assert result == "exit code 0 (cwd: .)\n[] /tmp\n"


def test_python_runs_inside_the_sandbox_with_its_limits(workspace: Path, sandbox: Sandbox) -> None:
    result = _tool(workspace, sandbox, "run_python", code="bytearray(4 * 1024 ** 3)")
    assert "MemoryError" in result
    ok = _tool(workspace, sandbox, "run_python", code="open('made.txt', 'w').write('x')")
    assert ok == "exit code 0\n(no output)"
    assert (workspace / "made.txt").read_text() == "x"


def test_the_shell_keeps_its_directory_inside_the_sandbox(
    workspace: Path, sandbox: Sandbox
) -> None:
    (workspace / "sub").mkdir()
    registry = ToolRegistry(execution_tools(Workspace(workspace), sandbox=sandbox))
    for command, expected in (
        ("cd sub", "exit code 0 (cwd: sub)\n(no output)"),
        ("pwd", f"exit code 0 (cwd: sub)\n{workspace}/sub\n"),
    ):
        call = ToolCall("c1", "shell", json.dumps({"command": command}))
        assert anyio.run(registry.execute, call).content == expected


def test_a_sandboxed_command_is_killed_at_the_timeout(workspace: Path, sandbox: Sandbox) -> None:
    done = run_confined(
        ["bash", "-c", "echo started; sleep 30"], cwd=workspace, timeout_s=1, sandbox=sandbox
    )
    assert done.timed_out
    assert done.output == "started\n"


def test_limits_apply_without_a_sandbox_too(workspace: Path) -> None:
    limits = Limits(file_bytes=1_000)
    argv = ["bash", "-c", "head -c 5000 /dev/zero > big.bin; echo rc=$?"]
    done = run_confined(argv, cwd=workspace, timeout_s=20, limits=limits)
    assert (workspace / "big.bin").stat().st_size == 1_000
    assert "rc=" in done.output and "rc=0" not in done.output


def test_detect_sandbox_says_why_when_bwrap_is_missing(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert detect_sandbox(Workspace(workspace)) is None
    reason = sandbox_unavailable_reason()
    assert reason is not None and "bwrap is not on PATH" in reason
    assert "apt-get install bubblewrap" in reason


def test_the_sandbox_describes_itself(workspace: Path, sandbox: Sandbox) -> None:
    text = sandbox.describe()
    assert str(workspace) in text
    assert "network off" in text
