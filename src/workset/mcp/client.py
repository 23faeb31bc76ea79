"""Connections to MCP servers over stdio or Streamable HTTP, through the official SDK.

A connection starts nothing until its first request. The SDK's client is an anyio context
manager that must be entered and left in one task, so each live connection is owned by one
background task of the connection's task group (``async with MCPConnection(config)`` or
``async with MCPHub(configs)``); callers in any other task send requests through it safely.

Failures come back as :class:`ToolError` with text the model can act on: a call that outlives
``timeout_s``, a server that cannot start, and a server that dies mid-call ("server X stopped
during call Y (exit code 3); it will be restarted on the next call"). A connection whose
server has died is restarted once on the next request.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, TypeVar

import anyio
import anyio.abc
import httpx2
import mcp_types as types
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from workset.errors import ToolError, UsageError
from workset.mcp.audit import PinStatus, TrustGate, TrustReport
from workset.mcp.config import LearnedMode, MCPServerConfig
from workset.mcp.remote import (
    CallResult,
    PromptArgument,
    PromptMessage,
    RemotePrompt,
    RemoteResource,
    RemoteTool,
)
from workset.mcp.stdio import StdioProcess

T = TypeVar("T")
_MAX_PAGES = 100
_EXIT_WAIT_S = 2.0
_LOST = (MCPError, OSError, httpx2.HTTPError, anyio.BrokenResourceError, anyio.ClosedResourceError)


@dataclass(slots=True)
class _Live:
    """One running session and the task that owns it."""

    client: Client
    process: StdioProcess | None
    stop: anyio.Event = field(default_factory=anyio.Event)
    closed: anyio.Event = field(default_factory=anyio.Event)

    def alive(self) -> bool:
        running = self.process is None or self.process.returncode is None
        return running and not self.closed.is_set()


class MCPConnection:
    """One MCP server, started lazily and restarted once after it dies."""

    def __init__(
        self, config: MCPServerConfig, *, task_group: anyio.abc.TaskGroup | None = None
    ) -> None:
        self.config = config
        self._tg = task_group
        self._own_tg: anyio.abc.TaskGroup | None = None
        self._live: _Live | None = None
        self._lock = anyio.Lock()

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def started(self) -> bool:
        return self._live is not None and self._live.alive()

    async def __aenter__(self) -> MCPConnection:
        if self._tg is None:
            self._own_tg = anyio.create_task_group()
            self._tg = await self._own_tg.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
        if self._own_tg is not None:
            own, self._own_tg, self._tg = self._own_tg, None, None
            await own.__aexit__(exc_type, exc, tb)

    async def aclose(self) -> None:
        """Stop the server (if it was started); a later request starts it again."""
        async with self._lock:
            await self._retire()

    async def list_tools(self) -> tuple[RemoteTool, ...]:
        listed: list[types.Tool] = []

        async def pages(client: Client) -> None:
            cursor: str | None = None
            for _ in range(_MAX_PAGES):
                page = await client.list_tools(cursor=cursor)
                listed.extend(page.tools)
                cursor = page.next_cursor
                if cursor is None:
                    return

        await self._request("tools/list", pages)
        return tuple(_remote_tool(self.name, tool) for tool in listed)

    async def call_tool(self, name: str, arguments: Mapping[str, Any]) -> CallResult:
        """Call ``name``; the server's own error results come back with ``is_error`` set."""
        result = await self._request(name, lambda c: c.call_tool(name, dict(arguments)))
        return CallResult(
            text=_content_text(result.content, result.structured_content),
            is_error=result.is_error,
            structured=result.structured_content,
        )

    async def list_resources(self) -> tuple[RemoteResource, ...]:
        result = await self._request("resources/list", lambda c: c.list_resources())
        return tuple(
            RemoteResource(r.uri, r.name, r.description or "", r.mime_type or "")
            for r in result.resources
        )

    async def read_resource(self, uri: str) -> str:
        result = await self._request(f"resources/read {uri}", lambda c: c.read_resource(uri))
        return "\n".join(_resource_text(item) for item in result.contents)

    async def list_prompts(self) -> tuple[RemotePrompt, ...]:
        result = await self._request("prompts/list", lambda c: c.list_prompts())
        return tuple(
            RemotePrompt(
                p.name,
                p.description or "",
                tuple(
                    PromptArgument(a.name, a.description or "", bool(a.required))
                    for a in p.arguments or ()
                ),
            )
            for p in result.prompts
        )

    async def get_prompt(
        self, name: str, arguments: Mapping[str, str] | None = None
    ) -> tuple[PromptMessage, ...]:
        args = dict(arguments or {})
        result = await self._request(f"prompt {name}", lambda c: c.get_prompt(name, args))
        return tuple(
            PromptMessage(m.role, _content_text([m.content], None)) for m in result.messages
        )

    async def _request(self, what: str, op: Callable[[Client], Awaitable[T]]) -> T:
        live = await self._ensure()
        try:
            with anyio.fail_after(self.config.timeout_s):
                return await op(live.client)
        except TimeoutError:
            raise ToolError(
                f"MCP server {self.name!r} did not answer {what!r} within "
                f"{self.config.timeout_s:g} s",
                hint="try again later, with a smaller request, or use another tool",
            ) from None
        except _LOST as exc:
            if isinstance(exc, MCPError) and exc.code != types.CONNECTION_CLOSED:
                raise ToolError(
                    f"MCP server {self.name!r} rejected {what!r}: {exc.message}",
                    hint="check the tool name and arguments against its schema",
                ) from None
            raise await self._lost(live, what) from None

    async def _lost(self, live: _Live, what: str) -> ToolError:
        """The error for a session that ended under a request; the server is restarted later."""
        if live.process is None:
            ending = f" (connection to {self.config.url} lost)"
        else:
            ending = await _ending(live.process) or " (it closed its output)"
        async with self._lock:
            if self._live is live:
                await self._retire()
        return ToolError(
            f"MCP server {self.name!r} stopped during call {what!r}{ending}; it will be "
            "restarted on the next call",
            hint="the call may or may not have taken effect; check before repeating it",
        )

    async def _ensure(self) -> _Live:
        async with self._lock:
            if self._live is not None and self._live.alive():
                return self._live
            await self._retire()
            if self._tg is None:
                raise UsageError(
                    f"MCP server {self.name!r} is used outside its context: open it with "
                    "`async with MCPConnection(config)` or `async with MCPHub(configs)`"
                )
            process = None
            if self.config.transport == "stdio":
                process = StdioProcess(self.config.command, self.config.env)
            try:
                with anyio.fail_after(self.config.connect_timeout_s):
                    self._live = await self._tg.start(self._own, process)
            except TimeoutError:
                raise ToolError(
                    f"MCP server {self.name!r} did not finish starting within "
                    f"{self.config.connect_timeout_s:g} s",
                    hint="raise connect_timeout_s in its config, or check that it starts",
                ) from None
            except Exception as exc:
                raise ToolError(
                    f"MCP server {self.name!r} could not be "
                    f"{'started' if process else 'reached'}: {_describe(exc)}"
                    + await _ending(process),
                    hint=f"check its {'command' if process else 'url'} in the MCP config and "
                    "that it runs by hand",
                ) from None
            return self._live

    async def _retire(self) -> None:
        live, self._live = self._live, None
        if live is not None:
            live.stop.set()
            with anyio.CancelScope(shield=True):
                await live.closed.wait()

    async def _own(
        self, process: StdioProcess | None, *, task_status: anyio.abc.TaskStatus[_Live]
    ) -> None:
        """Hold one session open from handshake to ``stop`` (or the server's end)."""
        live: _Live | None = None
        try:
            async with AsyncExitStack() as stack:
                transport: Any = process
                if process is None:
                    http = await stack.enter_async_context(
                        httpx2.AsyncClient(
                            headers=dict(self.config.headers),
                            timeout=httpx2.Timeout(self.config.connect_timeout_s, read=300.0),
                        )
                    )
                    transport = streamable_http_client(self.config.url, http_client=http)
                client = Client(transport, cache=None)
                await stack.enter_async_context(client)
                live = _Live(client, process)
                task_status.started(live)
                await live.stop.wait()
        except Exception:
            if live is None:
                raise  # start() re-raises it in the caller
            # a session torn down after its server died: the next request starts a new one
        finally:
            if live is not None:
                live.closed.set()


class MCPHub:
    """Many servers at once; each starts on first use, and one ``aclose()`` stops them all."""

    def __init__(self, configs: Iterable[MCPServerConfig], *, learned: LearnedMode = "off") -> None:
        """``learned``: the audit's learned layer (``[mcp] learned``, see :class:`TrustGate`)."""
        self._configs = {c.name: c for c in configs}
        self._tg: anyio.abc.TaskGroup | None = None
        self._connections: dict[str, MCPConnection] = {}
        self.trust = TrustGate(self._configs.values(), learned=learned)

    @property
    def configs(self) -> tuple[MCPServerConfig, ...]:
        return tuple(self._configs[n] for n in sorted(self._configs))

    def names(self) -> tuple[str, ...]:
        return tuple(sorted(self._configs))

    def connection(self, name: str) -> MCPConnection:
        if name not in self._configs:
            known = ", ".join(self.names()) or "none"
            raise UsageError(f"no MCP server named {name!r}; configured servers: {known}")
        if self._tg is None:
            raise UsageError("open the hub first: `async with MCPHub(configs) as hub:`")
        if name not in self._connections:
            self._connections[name] = MCPConnection(self._configs[name], task_group=self._tg)
        return self._connections[name]

    async def __aenter__(self) -> MCPHub:
        tg = anyio.create_task_group()
        self._tg = await tg.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
        tg, self._tg = self._tg, None
        if tg is not None:
            await tg.__aexit__(exc_type, exc, tb)

    async def aclose(self) -> None:
        """Stop every started server."""
        for connection in self._connections.values():
            await connection.aclose()

    async def list_all_tools(self) -> dict[str, tuple[RemoteTool, ...] | ToolError]:
        """Every server's tool listing (concurrently), or the error that server gave."""
        found: dict[str, tuple[RemoteTool, ...] | ToolError] = {}

        async def one(name: str) -> None:
            try:
                found[name] = await self.connection(name).list_tools()
            except ToolError as exc:
                found[name] = exc

        async with anyio.create_task_group() as tg:
            for name in self.names():
                tg.start_soon(one, name)
        return {name: found[name] for name in self.names()}

    async def review(self) -> TrustReport:
        """List every server's tools and apply the trust checks (see :mod:`workset.mcp.audit`)."""
        return self.trust.review(await self.list_all_tools())

    def pin_report(self) -> tuple[PinStatus, ...]:
        """How the last review's definitions compare with the pinned hashes."""
        return self.trust.pin_report()

    def accept(self, tool_names: Iterable[str]) -> None:
        """Accept changed or added definitions (``server/tool``); they load on the next review."""
        self.trust.accept(tool_names)


def _remote_tool(server: str, tool: types.Tool) -> RemoteTool:
    hints = tool.annotations
    return RemoteTool(
        server=server,
        name=tool.name,
        description=tool.description or "",
        input_schema=tool.input_schema,
        read_only_hint=hints.read_only_hint if hints else None,
        destructive_hint=hints.destructive_hint if hints else None,
        idempotent_hint=hints.idempotent_hint if hints else None,
        title=tool.title or (hints.title if hints and hints.title else ""),
        output_schema=tool.output_schema,
    )


def _content_text(blocks: Iterable[types.ContentBlock], structured: Any) -> str:
    parts: list[str] = []
    for block in blocks:
        if isinstance(block, types.TextContent):
            parts.append(block.text)
        elif isinstance(block, types.ImageContent | types.AudioContent):
            kind = "image" if isinstance(block, types.ImageContent) else "audio"
            parts.append(f"[{kind} {block.mime_type}, {len(block.data) * 3 // 4} bytes, not shown]")
        elif isinstance(block, types.EmbeddedResource):
            parts.append(_resource_text(block.resource))
        else:
            parts.append(f"[resource link: {block.uri} ({block.name})]")
    if not parts and structured is not None:
        parts.append(json.dumps(structured, ensure_ascii=False, indent=2))
    return "\n".join(parts)


def _resource_text(item: types.TextResourceContents | types.BlobResourceContents) -> str:
    if isinstance(item, types.TextResourceContents):
        return item.text
    mime = item.mime_type or "binary data"
    return f"[{mime} at {item.uri}, {len(item.blob) * 3 // 4} bytes, not shown]"


async def _ending(process: StdioProcess | None) -> str:
    """How a stdio server ended (" (exit code 2); its last stderr lines: …"), or ""."""
    if process is None or await process.wait_exit(_EXIT_WAIT_S) is None:
        return ""
    tail = process.stderr_tail().splitlines()[-3:]
    said = f"; its last stderr lines: {' | '.join(tail)}" if tail else ""
    return f" (exit code {process.returncode}){said}"


def _describe(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(e) for e in exc.exceptions)
    return f"{type(exc).__name__}: {exc}"
