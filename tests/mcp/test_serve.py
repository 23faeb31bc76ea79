"""`workset mcp serve` and `workset mcp list`, run as real subprocesses."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp_support import SERVERS, free_port, serve_http

pytestmark = pytest.mark.anyio

PERCEPTION = {"read_file", "list_dir", "find_files", "grep"}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "service.toml").write_text("[server]\nport = 8471\n")
    return root


async def test_mcp_serve_over_stdio_lists_the_perception_tools_and_reads_a_file(
    workspace: Path,
) -> None:
    command = StdioServerParameters(
        command=sys.executable,
        args=["-m", "workset", "mcp", "serve", "--workspace", str(workspace)],
    )
    async with Client(command) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        read = await client.call_tool("read_file", {"path": "service.toml"})
        escape = await client.call_tool("read_file", {"path": "../outside.txt"})
    assert set(listed) == PERCEPTION
    assert listed["read_file"].annotations is not None
    assert listed["read_file"].annotations.read_only_hint is True
    assert listed["read_file"].input_schema["required"] == ["path"]
    assert "Use when:" in (listed["read_file"].description or "")
    assert not read.is_error and "port = 8471" in read.content[0].text  # type: ignore[union-attr]
    assert escape.is_error and "outside the workspace" in escape.content[0].text  # type: ignore[union-attr]


@pytest.fixture
def served_over_http(workspace: Path) -> Iterator[str]:
    port = free_port()
    command = [sys.executable, "-m", "workset", "mcp", "serve", "--workspace", str(workspace)]
    yield from serve_http([*command, "--http", "--port", str(port)], port, {})


async def test_mcp_serve_over_streamable_http_answers_a_call(served_over_http: str) -> None:
    async with Client(served_over_http) as client:
        result = await client.call_tool("grep", {"pattern": "port"})
    assert not result.is_error and "service.toml" in result.content[0].text  # type: ignore[union-attr]


def test_mcp_list_shows_loaded_and_blocked_tools_with_the_findings(tmp_path: Path) -> None:
    config = tmp_path / "workset.toml"
    config.write_text(
        f"""
[mcp.servers.demo]
command = [{str(sys.executable)!r}, {str(SERVERS / "demo.py")!r}]

[mcp.servers.evil]
command = [{str(sys.executable)!r}, {str(SERVERS / "poisoned.py")!r}]
""".replace("'", '"')
    )
    done = subprocess.run(
        [sys.executable, "-m", "workset", "mcp", "list", "--config", str(config), "--pins"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "demo__add" in done.stdout and "loaded" in done.stdout
    assert "evil__add_numbers" in done.stdout and "blocked" in done.stdout
    assert "finding evil/add_numbers description: sensitive-path" in done.stdout
    assert "[mcp.servers.demo.pinned]" in done.stdout and '"add" = "' in done.stdout
