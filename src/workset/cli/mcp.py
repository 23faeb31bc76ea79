"""``workset mcp``: serve workset's tools over MCP, and list configured MCP servers.

The SDK is imported inside the commands, so the rest of the CLI works without the extra.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

import anyio
import click
from rich.console import Console
from rich.table import Table

from workset.errors import UsageError
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace

_out = Console()
# What a config file with MCP servers looks like (workset.mcp.config has every key).
CONFIG_EXAMPLE = """\
  [mcp.servers.files]                 # stdio: workset starts the server
  command = ["npx", "@modelcontextprotocol/server-filesystem", "/srv/docs"]
  env = { DOCS_TOKEN = "..." }        # given to this server's process only

  [mcp.servers.search]                # Streamable HTTP: a running server
  transport = "http"
  url = "http://127.0.0.1:8931/mcp"
Other keys: timeout_s, connect_timeout_s, headers, allow_flagged, pinned, trust, and
[mcp] learned = "off" | "report" | "block" (see the workset.mcp.config docs)."""


@click.group("mcp", help="Serve workset's tools over MCP; list configured MCP servers.")
def mcp_group() -> None:
    pass


@mcp_group.command("serve")
@click.option(
    "--workspace",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=Path(),
    show_default=True,
    help="Folder the served perception tools may read.",
)
@click.option("--http", is_flag=True, help="Serve Streamable HTTP instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP address.")
@click.option("--port", type=int, default=8000, show_default=True, help="HTTP port.")
def serve(workspace: Path, http: bool, host: str, port: int) -> None:
    """Serve the perception tools (read_file, list_dir, find_files, grep) as an MCP server.

    Over stdio by default (for a client that starts this command); with --http at
    http://HOST:PORT/mcp.
    """
    from workset.mcp.server import serve_http, serve_stdio

    registry = ToolRegistry(perception_tools(Workspace(workspace)))
    if http:
        anyio.run(functools.partial(serve_http, registry, host=host, port=port))
    else:
        anyio.run(serve_stdio, registry)


@mcp_group.command("list")
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("workset.toml"),
    show_default=True,
    help="TOML file with [mcp.servers.NAME] tables.",
)
@click.option("--pins", is_flag=True, help="Also print the definition hashes to pin, as TOML.")
def list_servers(config_path: Path, pins: bool) -> None:
    """Start each configured MCP server, audit its tools and show which would load."""
    from workset.mcp.audit import TrustReport
    from workset.mcp.bridge import tool_name
    from workset.mcp.client import MCPHub
    from workset.mcp.config import load_learned, load_servers

    if not config_path.is_file():
        raise UsageError(
            f"no MCP config at {config_path}. Write one (or pass --config FILE) with a table "
            f"per server, e.g.:\n{CONFIG_EXAMPLE}"
        )
    try:
        data = tomllib.loads(config_path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{config_path} is not valid TOML: {exc}") from exc
    servers = load_servers(data)
    learned = load_learned(data)
    if not servers:
        _out.print(
            f"{config_path} configures no MCP servers; add a table per server, e.g.:\n"
            f"{CONFIG_EXAMPLE}",
            markup=False,
            highlight=False,
        )
        return

    async def review() -> tuple[TrustReport, dict[str, dict[str, str]]]:
        async with MCPHub(servers, learned=learned) as hub:
            report = await hub.review()
            return report, hub.trust.pins()

    report, hashes = anyio.run(review)
    table = Table(title=f"MCP tools from {config_path}")
    for column in ("tool", "server", "state", "why"):
        table.add_column(column, overflow="fold")
    for tool in report.loaded:
        table.add_row(tool_name(tool.server, tool.name), tool.server, "loaded", "")
    for item in report.blocked:
        name = tool_name(item.tool.server, item.tool.name)
        table.add_row(name, item.tool.server, "blocked", item.reason)
    _out.print(table)
    for line in report.lines()[1:]:
        _out.print(line, markup=False, highlight=False, soft_wrap=True)
    if pins:
        for server, tools in hashes.items():
            _out.print(f"\n[mcp.servers.{server}.pinned]", markup=False, highlight=False)
            for name, digest in tools.items():
                _out.print(f'"{name}" = "{digest}"', markup=False, highlight=False)
