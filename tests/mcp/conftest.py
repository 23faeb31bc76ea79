"""Fixtures for the MCP tests: MCP servers over Streamable HTTP as real subprocesses."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from mcp_support import SERVERS, free_port, npm_server, serve_http


@pytest.fixture
def demo_http_url() -> Iterator[str]:
    """The demo MCPServer over Streamable HTTP, as a real subprocess on a free port."""
    port = free_port()
    yield from serve_http([sys.executable, str(SERVERS / "demo.py"), "http", str(port)], port, {})


@pytest.fixture
def everything_http_url() -> Iterator[str]:
    """The npm everything server over Streamable HTTP on a free port."""
    port = free_port()
    command = [npm_server("mcp-server-everything"), "streamableHttp"]
    yield from serve_http(command, port, {"PORT": str(port)})
