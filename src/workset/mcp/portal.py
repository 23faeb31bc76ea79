"""MCP servers kept open across event loops: a hub that lives in a thread of its own.

An :class:`~workset.mcp.client.MCPHub` holds its servers' connections in a task group, so they
live as long as the event loop that opened them. The CLI runs its setup and each run (each
turn of ``workset chat``) in separate ``anyio.run`` calls, and a server restarted for every
turn would lose its state and pay its start-up each time. :class:`MCPPortal` opens the hub in
a blocking portal (an event loop in a thread of its own, :mod:`anyio.from_thread`): the
review runs there once, and each bridged tool crosses to that loop for its call and back with
the result. A call cancelled on the caller's side (the tool timeout, an interrupt) stops
waiting at once; the server's own timeout ends the call in the portal's loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager
from typing import Any

import anyio
import anyio.to_thread
from anyio.from_thread import BlockingPortal, start_blocking_portal

from workset.mcp.audit import TrustReport
from workset.mcp.bridge import bridged, hub_caller
from workset.mcp.client import MCPHub
from workset.mcp.config import LearnedMode, MCPServerConfig
from workset.mcp.remote import CallResult
from workset.tools.base import Tool


class MCPPortal:
    """An open hub over ``configs`` in a thread of its own; :meth:`close` stops the servers
    and the thread (also as a context manager). Servers start on first use, as in the hub."""

    def __init__(self, configs: Iterable[MCPServerConfig], *, learned: LearnedMode = "off") -> None:
        self.hub = MCPHub(configs, learned=learned)
        self._direct = hub_caller(self.hub)  # awaited in the portal's loop
        self._portal_cm: AbstractContextManager[BlockingPortal] | None = start_blocking_portal()
        self._portal = self._portal_cm.__enter__()
        self._hub_cm: AbstractContextManager[MCPHub] | None = None
        try:
            self._hub_cm = self._portal.wrap_async_context_manager(self.hub)
            self._hub_cm.__enter__()
        except BaseException:
            self.close()
            raise
        self.report: TrustReport | None = None

    def review(self) -> TrustReport:
        """List every server's tools and apply the trust checks (blocking; see
        :meth:`MCPHub.review`); kept as :attr:`report`."""
        self.report = self._portal.call(self.hub.review)
        return self.report

    def tools(self) -> list[Tool]:
        """The tools the last review (one is made if none was) let through, bridged so that
        their calls run in the portal's loop, from any event loop."""
        report = self.report or self.review()
        return bridged(self.hub, report, self._call)

    async def _call(self, server: str, name: str, arguments: Mapping[str, Any]) -> CallResult:
        return await anyio.to_thread.run_sync(
            self._portal.call, self._direct, server, name, dict(arguments), abandon_on_cancel=True
        )

    def close(self) -> None:
        """Stop every started server, then the portal's thread. Idempotent."""
        hub, self._hub_cm = self._hub_cm, None
        portal, self._portal_cm = self._portal_cm, None
        try:
            if hub is not None:
                hub.__exit__(None, None, None)
        finally:
            if portal is not None:
                portal.__exit__(None, None, None)

    def __enter__(self) -> MCPPortal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
