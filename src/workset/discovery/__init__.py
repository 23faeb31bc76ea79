"""Tool discovery: find the right tool in a large catalog from a need stated in plain words.

:class:`ToolIndex` indexes tools grouped by server (BM25 plus local embeddings of each tool's
text and of example requests written for it offline, ranked server → tool) and persists its
vectors by text hash, so a changed server is the only one embedded again (an opt-in query
adapter learned from the example requests, :mod:`~workset.discovery.adapter`); a calibrated
decision over several signals answers "not found" (:mod:`~workset.discovery.decision`);
:func:`tool_search_tool` wraps the index as the ``tool_search`` meta-tool, so only core tools
and that one tool sit in the stable prompt prefix and the schemas of discovered tools arrive
later, in tool results. :mod:`~workset.discovery.needs` is the format of need sets that
measure all this. :class:`CascadeIndex` pairs a fast index with a stronger one (all-mpnet-base-v2)
that answers only when the fast one is unsure; :class:`ProbedIndex` adds a servability probe
fitted on a catalog's labelled needs (:mod:`~workset.discovery.probe`);
:class:`RememberingIndex` reorders by the tools that served remembered needs like the query
(:mod:`~workset.discovery.memory`). Needs the ``retrieval`` extra.
"""

from workset.discovery.cascade import CascadeIndex
from workset.discovery.decision import Decision, Evidence
from workset.discovery.index import ToolIndex
from workset.discovery.memory import NeedMemory, Remembered, RememberingIndex
from workset.discovery.meta import LoadedTools, tool_search_tool
from workset.discovery.probe import ProbedIndex, ServabilityProbe, fit_probe
from workset.discovery.results import Match, Searchable, SearchConfig, SearchResult

__all__ = [
    "CascadeIndex",
    "Decision",
    "Evidence",
    "LoadedTools",
    "Match",
    "NeedMemory",
    "ProbedIndex",
    "Remembered",
    "RememberingIndex",
    "SearchConfig",
    "SearchResult",
    "Searchable",
    "ServabilityProbe",
    "ToolIndex",
    "fit_probe",
    "tool_search_tool",
]
