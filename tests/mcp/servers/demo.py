"""A small MCP server written with the SDK's MCPServer, for the client tests.

Run as ``python demo.py`` (stdio) or ``python demo.py http PORT`` (Streamable HTTP at /mcp).
"""

from __future__ import annotations

import os
import sys

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer("demo", log_level="WARNING")


@server.tool()
def add(a: int, b: int) -> str:
    """Add two integers and return the sum."""
    return str(a + b)


@server.tool()
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


@server.tool()
def crash() -> str:
    """Exit the server process at once with exit code 3 (to test restarts)."""
    sys.stderr.write("demo server: crashing on purpose\n")
    sys.stderr.flush()
    os._exit(3)


@server.tool()
def whoami() -> str:
    """Report which account this server acts as."""
    return f"acting with token {os.environ.get('DEMO_TOKEN', '<none>')}"


@server.tool()
def fail(reason: str) -> str:
    """Always fail with the given reason."""
    raise ToolError(f"cannot do it: {reason}")


@server.tool()
async def sleep(seconds: float) -> str:
    """Wait for the given number of seconds, then answer."""
    await anyio.sleep(seconds)
    return "awake"


@server.resource("demo://greeting", mime_type="text/plain")
def greeting() -> str:
    """A fixed greeting."""
    return "hello from the demo server"


@server.prompt()
def review(code: str) -> str:
    """Ask for a review of some code."""
    return f"Please review this code:\n{code}"


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run("stdio")
