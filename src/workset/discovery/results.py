"""What a tool search returns, and how its scores are fused (:class:`SearchConfig`).

:class:`~workset.discovery.index.ToolIndex` builds these; the meta-tools and the benchmarks
read them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypeAlias

from workset.discovery.adapter import AdapterSettings
from workset.discovery.decision import Decision, Evidence
from workset.errors import UsageError
from workset.messages import ToolSpec

Pooling: TypeAlias = Literal["max", "mean"]


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How scores are fused (see ``benchmarks/tool_catalog.py`` for each setting measured).

    Tuned on the tune half of the need set once every LiveMCPBench tool had its example
    requests (``benchmarks/data/tool_expansions.jsonl``, written by the 1.5B): BM25 0.2,
    server 0.1, examples 0.3 by mean Hit@5 over the bands (hard Hit@5 on tune 0.73, on the
    held-out half 0.70 against 0.53 before the examples; docs/results/discovery.md).
    """

    bm25_weight: float = 0.2
    top_servers: int = 3
    server_weight: float = 0.1
    expansion_weight: float = 0.3
    # Measured and off: on the tuning half neither moved Hit@5 up (the short document lost
    # hard needs, rewriting changed nothing MiniLM did not already ignore).
    rewrite: bool = False  # also match the need with its filler words dropped
    short_documents: bool = False  # a tool's cosine is the better of its full and short text
    # With other phrasings of the need (``search(also=...)``): their share of every score,
    # the need as stated keeping the rest (so one bad restatement cannot take over).
    also_weight: float = 0.3  # tuned on the tune half (benchmarks/discovery_restate.py --tune)
    # How a tool's example-request cosines become one when the need was also searched as
    # restated: the best one ("max", as for a need searched as stated) or their average
    # ("mean": a tool must fit the blended phrasing in all its examples, not in one). Tune
    # chose "mean" (hard Hit@5 with the restatement 0.70 -> 0.79); the held-out half did not
    # confirm it (0.72 -> 0.70, Hit@1 0.55 -> 0.60), so "max" stays the default.
    restated_pooling: Pooling = "max"
    # Which example requests count in the meaning score (workset.discovery.expansions: the
    # summary and FIELDS, told apart by request_fields; a tool whose requests fit no layout
    # counts them all). BM25 and the query adapter read every request whatever this says.
    # ("situation",) alone raised hard Hit@5 on both tune halves (0.73 -> 0.79, 0.72 -> 0.77)
    # but not on the held-out halves (0.70 -> 0.68, 0.42 -> 0.44; Hit@10 0.64 -> 0.56 on the
    # blind set), so every field counts by default (docs/results/discovery.md, disc14).
    meaning_fields: tuple[str, ...] = ("summary", "situation", "question", "synonyms")
    # A query adapter fitted on the catalog's example requests at build time
    # (workset.discovery.adapter); its ranking is fused with the hierarchical one by
    # reciprocal rank (``fusion_k``). Off: on the tune half hard Hit@5 rose 0.73 -> 0.82, but
    # on the held-out half it stayed 0.70 (Hit@1 0.38 -> 0.50, Hit@10 0.70 -> 0.78),
    # paraphrase Hit@1 fell 0.71 -> 0.62 and LiveMCPBench task Hit@1 0.511 -> 0.447.
    adapter: bool = False
    adapter_settings: AdapterSettings = field(default_factory=AdapterSettings)
    fusion_k: int = 60

    def __post_init__(self) -> None:
        if self.restated_pooling not in ("max", "mean"):
            raise UsageError(
                f"restated_pooling must be 'max' or 'mean', got {self.restated_pooling!r}"
            )


@dataclass(frozen=True, slots=True)
class Match:
    """One tool found for a query, with a short human-readable reason."""

    server: str
    tool: str
    score: float
    why: str
    spec: ToolSpec = field(compare=False)
    evidence: Evidence | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Matches for a query; when nothing fits, none, and the closest as suggestions."""

    query: str
    matches: tuple[Match, ...]
    suggestions: tuple[Match, ...] = ()
    decision: Decision | None = None
    # A model's verdicts on the best candidates, (server, tool, can it), when it was asked
    # (:func:`workset.discovery.verify.checked_search`).
    verdicts: tuple[tuple[str, str, bool], ...] = ()
    # Answered by the second, stronger index of a cascade, because the first was unsure
    # (:class:`workset.discovery.cascade.CascadeIndex`).
    escalated: bool = False
    # Turned into "not found" by a servability probe (:mod:`workset.discovery.probe`): its
    # probability that no tool of the catalog serves the need (0 when no probe refused it).
    probed: float = 0.0

    @property
    def found(self) -> bool:
        return bool(self.matches)

    @property
    def confidence(self) -> float:
        """The decision's probability that the catalog serves the need (0 without one)."""
        return self.decision.probability if self.decision is not None else 0.0


class Searchable(Protocol):
    """What the ``tool_search`` meta-tool and a model's check search: a
    :class:`~workset.discovery.index.ToolIndex` or a
    :class:`~workset.discovery.cascade.CascadeIndex`."""

    def search(self, query: str, k: int = 5, *, also: Sequence[str] = ()) -> SearchResult: ...

    def rank(self, query: str, k: int = 10, *, also: Sequence[str] = ()) -> list[Match]: ...
