"""Tool discovery: find the right tool in a large catalog from a need stated in plain words.

:class:`ToolIndex` indexes tools grouped by server (BM25 plus local embeddings, ranked server
→ tool, with a "not found" threshold); :func:`tool_search_tool` wraps it as the ``tool_search``
meta-tool, so only core tools and that one tool sit in the stable prompt prefix and the schemas
of discovered tools arrive later, in tool results. Needs the ``retrieval`` extra.
"""

from workset.discovery.index import Match, SearchConfig, SearchResult, ToolIndex
from workset.discovery.meta import LoadedTools, tool_search_tool

__all__ = [
    "LoadedTools",
    "Match",
    "SearchConfig",
    "SearchResult",
    "ToolIndex",
    "tool_search_tool",
]
