"""Serve a :class:`ToolRegistry` as an MCP server, over stdio or Streamable HTTP.

Each tool is listed with its name, description and JSON schema exactly as workset sends them
to a model, plus ``readOnlyHint``/``idempotentHint`` annotations. Calls go through
:meth:`ToolRegistry.execute`, so a bad call comes back as an error result (``isError``) with
the same fix-it text the model would see, never as a protocol error.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import mcp_types as types
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.server.stdio import stdio_server

from workset.messages import ToolCall
from workset.tools.registry import ToolRegistry

_RISK_DESTRUCTIVE = "high"


def build_server(registry: ToolRegistry, name: str = "workset") -> Server[Any]:
    """A low-level SDK server exposing ``registry``'s tools."""
    ids = itertools.count(1)

    def listed(tool_name: str) -> types.Tool:
        tool = registry.get(tool_name)
        return types.Tool(
            name=tool.name,
            description=tool.spec.description,
            input_schema=dict(tool.spec.parameters),
            annotations=types.ToolAnnotations(
                read_only_hint=tool.read_only,
                destructive_hint=None if tool.read_only else tool.risk == _RISK_DESTRUCTIVE,
                idempotent_hint=tool.idempotent,
                open_world_hint=False,
            ),
        )

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[listed(n) for n in registry.names()])

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        call = ToolCall(f"mcp-{next(ids)}", params.name, json.dumps(params.arguments or {}))
        message = await registry.execute(call)
        return types.CallToolResult(
            content=[types.TextContent(text=message.content)], is_error=message.is_error
        )

    def input_schema(tool_name: str) -> dict[str, Any] | None:
        return dict(registry.get(tool_name).spec.parameters) if tool_name in registry else None

    return Server(
        name,
        get_tool_input_schema=input_schema,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve_stdio(registry: ToolRegistry, name: str = "workset") -> None:
    """Serve over this process's stdin/stdout until the client closes stdin."""
    server = build_server(registry, name)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


async def serve_http(
    registry: ToolRegistry, *, host: str = "127.0.0.1", port: int = 8000, name: str = "workset"
) -> None:
    """Serve Streamable HTTP at ``http://host:port/mcp`` until cancelled."""
    import uvicorn

    app = build_server(registry, name).streamable_http_app(host=host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    await uvicorn.Server(config).serve()
