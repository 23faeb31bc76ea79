"""The tools a command's agent gets beyond workset's own: the configured MCP servers' (kept
open for the whole command) and ``tool_search`` over those left out of the prompt.

Both are built only when the configuration asks for them, so a plain ``workset run`` imports
neither the MCP SDK nor the discovery index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from workset.config import WorksetConfig
from workset.errors import UsageError
from workset.loop.offer import SEARCH_TOOL
from workset.messages import Message
from workset.stores.url import local_folder
from workset.tools.base import Tool

if TYPE_CHECKING:
    from workset.discovery.local import LocalDiscovery
    from workset.mcp.portal import MCPPortal


def discovery_folder(store: str | Path) -> Path:
    """Where discovery keeps its index, need memory and indexed tools: beside the session
    store (``workset run`` writes there, ``workset discovery`` reads it)."""
    return local_folder(store) / "discovery"


@dataclass
class Catalog:
    """What :func:`open_mcp` and :func:`open_discovery` opened; :meth:`close` stops the
    servers (idempotent)."""

    mcp: MCPPortal | None = None
    tools: list[Tool] = field(default_factory=list)  # the MCP tools, once opened
    discovery: LocalDiscovery | None = None
    loaded: set[str] = field(default_factory=set)  # shared with the agent's ToolOffer

    def open_mcp(self, config: WorksetConfig, err: Console) -> None:
        """Start the configured MCP servers and keep the tools their audit lets through in
        :attr:`tools`; what it blocked or could not reach is printed, one line each (the
        findings behind a block: ``workset mcp list``)."""
        if not config.mcp.servers:
            return
        from workset.mcp.portal import MCPPortal

        with err.status(f"starting {len(config.mcp.servers)} MCP server(s)…"):
            self.mcp = MCPPortal(config.mcp.servers, learned=config.mcp.learned)
            report = self.mcp.review()
            self.tools = self.mcp.tools()
        lines = report.lines()[1:]
        for line in (line for line in lines if not line.startswith("finding ")):
            err.print(f"mcp: {line}", style="yellow", markup=False, highlight=False, soft_wrap=True)
        if any(line.startswith("finding ") for line in lines):
            err.print("mcp: `workset mcp list` shows the audit's findings", style="yellow")

    def open_discovery(
        self, tools: Sequence[Tool], config: WorksetConfig, folder: Path, err: Console
    ) -> Tool | None:
        """The ``tool_search`` tool over the tools ``[agent] core_tools`` leaves out (None when
        it leaves none out, or ``[discovery] search = "off"``), indexed in ``folder``."""
        core = config.agent.core_tools
        if core is None or config.discovery.search == "off":
            return None
        from workset.discovery.local import LocalDiscovery
        from workset.retrieval.embedder import MODEL_INSTALL_HINT, Embedder

        try:
            embedder = Embedder.load()
        except UsageError as exc:
            embedder = None
            err.print(f"[yellow]discovery: ranking by words only ({exc}; {MODEL_INSTALL_HINT})[/]")
        probe = None
        if config.discovery.probe is not None:
            from workset.discovery.probe import ServabilityProbe

            try:
                probe = ServabilityProbe.load(config.discovery.probe)
            except UsageError as exc:
                raise UsageError(f"[discovery] probe: {exc}") from exc
        self.discovery = LocalDiscovery.open(
            tools, core, folder, loaded=self.loaded, embedder=embedder,
            remember=config.discovery.memory, probe=probe,
        )  # fmt: skip
        if self.discovery is not None and self.discovery.stale_probe:
            err.print(
                "[yellow]discovery: the probe was fitted on other tools than this run indexes; "
                "refit it with `workset discovery fit-probe`[/]"
            )
        if self.discovery is not None and self.discovery.forgotten:
            err.print(
                f"[yellow]discovery: forgot {self.discovery.forgotten} remembered need(s) whose "
                "tool is no longer registered[/]"
            )
        return self.discovery.tool if self.discovery is not None else None

    def core(self, config: WorksetConfig) -> tuple[str, ...] | None:
        """The tools in the prompt: ``[agent] core_tools``, with ``tool_search`` when
        discovery is on."""
        core = config.agent.core_tools
        if core is None or self.discovery is None or SEARCH_TOOL in core:
            return core
        return (*core, SEARCH_TOOL)

    @property
    def remembers(self) -> bool:
        """Whether discovery keeps a need memory (what :meth:`learn` reads a run's log for)."""
        return self.discovery is not None and self.discovery.memory is not None

    def learn(self, messages: Sequence[Message]) -> int:
        """Remember the needs a finished run's searches served (0 without discovery)."""
        return self.discovery.learn(messages) if self.discovery is not None else 0

    def close(self) -> None:
        mcp, self.mcp = self.mcp, None
        if mcp is not None:
            mcp.close()
