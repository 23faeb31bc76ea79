"""Helpers for the MCP tests: real servers as real subprocesses.

The npm reference servers must be installed first (the CI script does it)::

    npm install --prefix .cache/npm @modelcontextprotocol/server-everything \
        @modelcontextprotocol/server-filesystem
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from workset.mcp import MCPServerConfig

ROOT = Path(__file__).parents[2]
SERVERS = Path(__file__).parent / "servers"
NPM_BIN = ROOT / ".cache" / "npm" / "node_modules" / ".bin"
NPM_INSTALL = (
    "npm install --prefix .cache/npm @modelcontextprotocol/server-everything "
    "@modelcontextprotocol/server-filesystem"
)


def npm_server(name: str) -> str:
    """The installed binary of an npm reference server; fails (not skips) when missing."""
    path = NPM_BIN / name
    if not path.exists():
        pytest.fail(f"{path} is missing; install the MCP reference servers: {NPM_INSTALL}")
    return str(path)


def python_server(name: str, script: str, **fields: object) -> MCPServerConfig:
    return MCPServerConfig(name, command=[sys.executable, str(SERVERS / script)], **fields)  # type: ignore[arg-type]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout_s: float = 90.0) -> None:
    # 90 s: `workset mcp serve` imports and starts in a few seconds idle, but a fresh-clone
    # CI beside two model runs took over 30 s once (the server was still starting)
    deadline = time.monotonic() + timeout_s
    while True:
        if process.poll() is not None:
            raise AssertionError(f"the server exited with {process.returncode} before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError as exc:
            if time.monotonic() > deadline:
                message = f"nothing listened on port {port} within {timeout_s} s"
                raise AssertionError(message) from exc
            time.sleep(0.05)  # polling interval, not a fixed wait for an outcome


def serve_http(command: list[str], port: int, env: dict[str, str]) -> Iterator[str]:
    process = subprocess.Popen(
        command, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
