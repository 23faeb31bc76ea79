"""Discovery over an agent's own tools: those left out of the prompt, found by need, and the
needs they served remembered from one run to the next.

When a configuration keeps only some tools in the prompt (``[agent] core_tools``), the others
are reachable through the ``tool_search`` meta-tool (:mod:`~workset.discovery.meta`).
:meth:`LocalDiscovery.open` indexes them by server (an MCP tool ``s__t`` under its server
``s``, workset's own tools under ``workset``) in a folder of its own (the vectors by text
hash, so a restart or a changed server embeds only what is new), and, with an embedder,
wraps the index in a :class:`~workset.discovery.memory.RememberingIndex` whose
:class:`~workset.discovery.memory.NeedMemory` is read from the same folder. After each run,
:meth:`LocalDiscovery.learn` remembers the needs that run's searches served (a search, then a
successful call of a tool it listed) and saves them: the next run that states a similar need
in other words finds the tool that served it. Two runs sharing the folder each add to the file
(the save merges under a lock). A remembered tool that is no longer registered
(a server removed, a tool renamed) is forgotten when the memory is read.

With a ``probe`` (a :class:`~workset.discovery.probe.ServabilityProbe` fitted with
:func:`~workset.discovery.probe.fit_probe` on needs labelled for these tools, over
:attr:`LocalDiscovery.index`), a search the probe judges unservable answers "not found" with
its nearest candidates as suggestions (:class:`~workset.discovery.probe.ProbedIndex`). A probe
fitted on another embedder, or on no embedder at all, is refused with the fix; one fitted on
other tools than these is used, and :attr:`LocalDiscovery.stale_probe` says to refit it. The
definitions indexed are written beside the vectors (``tools.json``), which is what
``workset discovery fit-probe`` fits a probe over (:mod:`~workset.discovery.labelled`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from workset.discovery.index import ToolIndex
from workset.discovery.labelled import catalog_key, save_indexed
from workset.discovery.memory import NeedMemory, RememberingIndex, merged_save, read_needs
from workset.discovery.meta import tool_search_tool
from workset.discovery.probe import ProbedIndex, ServabilityProbe
from workset.discovery.results import Searchable
from workset.errors import UsageError
from workset.loop.offer import SEARCH_TOOL
from workset.messages import Message, ToolSpec
from workset.retrieval import TextEmbedder
from workset.tools.base import Tool

OWN_SERVER = "workset"  # the server name of workset's own tools in the index
VECTORS = "vectors.npz"
NEEDS = "needs.jsonl"


def server_of(tool_name: str) -> str:
    """The server a registry tool belongs to: ``s`` for an MCP tool ``s__t``
    (:func:`workset.mcp.bridge.tool_name`), :data:`OWN_SERVER` otherwise."""
    server, sep, _ = tool_name.partition("__")
    return server if sep and server else OWN_SERVER


@dataclass
class LocalDiscovery:
    """The ``tool_search`` tool over the tools outside the prompt, and its need memory."""

    index: ToolIndex
    memory: NeedMemory | None
    folder: Path
    tool: Tool
    forgotten: int = 0  # remembered needs dropped on reading: their tools are gone
    stale_probe: bool = False  # the probe was fitted on other tools than these

    @classmethod
    def open(
        cls,
        tools: Sequence[Tool],
        core: Sequence[str],
        folder: Path,
        *,
        loaded: set[str],
        embedder: TextEmbedder | None = None,
        remember: bool = True,
        probe: ServabilityProbe | None = None,
    ) -> LocalDiscovery | None:
        """Discovery over ``tools`` not named in ``core``; None when every tool is core.
        ``loaded`` is the set the agent's tool offer shares (names a search loads); without
        an ``embedder`` the index ranks by words alone and nothing is remembered. ``probe``
        turns the searches it judges unservable into "not found" (it needs the embedder it
        was fitted with)."""
        hidden = [t for t in tools if t.name not in set(core) and t.name != SEARCH_TOOL]
        if not hidden:
            return None
        folder.mkdir(parents=True, exist_ok=True)
        servers: dict[str, list[ToolSpec]] = {}
        for tool in hidden:
            servers.setdefault(server_of(tool.name), []).append(tool.spec)
        store = folder / VECTORS if embedder is not None else None
        index = ToolIndex.build(servers, embedder, store=store)
        save_indexed(folder, servers)  # what `workset discovery fit-probe` fits over
        memory, forgotten = None, 0
        if remember and embedder is not None:
            rows = read_needs(folder / NEEDS)
            kept = [r for r in rows if index.holds(r.server, r.tool)]
            memory, forgotten = NeedMemory(index, kept), len(rows) - len(kept)
        searchable: Searchable = RememberingIndex(index, memory) if memory is not None else index
        if probe is not None:
            if embedder is None:
                raise UsageError(
                    "the discovery probe reads the need's embedding, and no embedder is "
                    "loaded; install the embedder or remove [discovery] probe"
                )
            searchable = ProbedIndex(searchable, index, probe)
        stale = probe is not None and probe.catalog not in ("", catalog_key(servers))
        tool = tool_search_tool(searchable, loaded)
        return cls(index, memory, folder, tool, forgotten, stale)

    def learn(self, messages: Sequence[Message]) -> int:
        """Remember what a run's searches served (see the module) and save the memory when
        something is new; how many (need, tool) pairs were new (0 without a memory)."""
        if self.memory is None:
            return 0
        fresh = self.memory.learn(messages)
        if fresh or self.forgotten:
            merged_save(self.memory, self.folder / NEEDS)
            self.forgotten = 0
        return fresh
