"""An MCP server that keeps a count in its process, for the tests of servers kept open
across runs (``workset.mcp.portal``): ``bump`` answers 1, 2, 3… only while the same process
serves it. Run as ``python counter.py`` (stdio)."""

from __future__ import annotations

import os

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

server = MCPServer("counter", log_level="WARNING")
_count = 0


@server.tool()
def bump() -> str:
    """Add one to the count kept by this server and return the count."""
    global _count
    _count += 1
    return f"count {_count} in process {os.getpid()}"


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def weather_forecast(city: str) -> str:
    """Tomorrow's weather forecast (temperature, rain, wind) for a city."""
    return f"{city}: 4 C, light rain, wind 30 km/h"


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def convert_currency(amount: float, source: str, target: str) -> str:
    """Convert an amount of money from one currency to another at today's rate."""
    return f"{amount} {source} = {amount * 2:g} {target}"


if __name__ == "__main__":
    server.run("stdio")
