"""How a need scores the tools: the pure steps a tool index composes, and what they produce.

:data:`Mode` names the rankings (BM25 alone, meaning alone, the two fused, or fused and
lifted by server). :class:`Scored` holds every tool's scores for one need: the final ranking
and the lexical, meaning, document, example and server scores the "not found" decision reads
as evidence. :func:`blend` gives other phrasings of the need their share of a score;
:func:`meaning_scores` pools a tool's cosines into its meaning score (``(1 - expansion_weight)
× document + expansion_weight × pooled examples``); :func:`boost` lifts the tools of the best
servers. How they are mixed is told in :mod:`workset.discovery.index`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

import numpy as np

from workset.discovery.dense import Dense
from workset.discovery.results import Pooling, SearchConfig
from workset.retrieval.ranking import Scores, normalise

Mode: TypeAlias = Literal["bm25", "dense", "hybrid", "hierarchical"]


@dataclass(frozen=True, slots=True)
class Scored:
    """Every tool's scores for one need, in entry order (servers' in server order)."""

    ranked: Scores
    lexical: Scores
    dense: Scores | None  # each tool's meaning score
    whole: Scores | None  # max cosine of its full and short documents
    examples: Scores | None  # best cosine of its examples (``whole`` when it has none)
    server_cosines: Scores | None
    server_scores: Scores
    others: tuple[str, ...] = ()  # the other phrasings searched (a model's restatement)
    restated: Scores | None = None  # each tool's meaning score for ``others`` alone


def blend(
    scores: Callable[[str], Scores], query: str, others: Sequence[str], share: float
) -> Scores:
    """``scores`` of the need as stated, with ``share`` given to the best of ``others``."""
    stated = scores(query)
    if not others:
        return stated
    best = np.max([scores(o) for o in others], axis=0)
    return np.asarray((1 - share) * stated + share * best, dtype=np.float32)


def meaning_scores(
    dense: Dense, cosines: np.ndarray[Any, Any], config: SearchConfig, pooling: Pooling = "max"
) -> tuple[Scores, Scores, Scores]:
    """Each tool's meaning score, full-document cosine and pooled example cosine.

    ``cosines`` has one entry per row of ``dense``. ``pooling`` says how a tool's example
    cosines become one: the best (``"max"``) or their average (``"mean"``); only examples of
    ``config.meaning_fields`` (or of no known field) count.
    """
    whole = cosines[dense.full]
    if config.short_documents:
        whole = np.maximum(whole, cosines[dense.short])
    examples = whole.copy()
    if dense.example_rows.size:
        rows = cosines[dense.example_rows]
        fields = config.meaning_fields
        names = dense.example_fields
        counted = (names == "") | np.isin(names, fields)
        starts = dense.example_starts
        sizes = np.add.reduceat(counted.astype(np.intp), starts)
        if pooling == "mean":
            pooled = np.add.reduceat(np.where(counted, rows, 0.0), starts) / np.maximum(sizes, 1)
        else:
            pooled = np.maximum.reduceat(np.where(counted, rows, -np.inf), starts)
        tools = dense.example_tools
        examples[tools] = np.where(sizes > 0, pooled, whole[tools])
    weight = np.float32(config.expansion_weight)
    meaning = np.asarray((1 - weight) * whole + weight * examples, dtype=np.float32)
    return meaning, whole, examples


def boost(
    tool_scores: Scores,
    server_scores: Scores,
    server_of: np.ndarray[Any, Any],
    config: SearchConfig,
) -> Scores:
    """Tools of the top servers gain ``server_weight × server score`` (servers → tools).

    ``server_scores`` has one score per server; ``server_of`` is each tool's server.
    """
    chosen = np.argsort(-server_scores, kind="stable")[: config.top_servers]
    bonus = np.zeros(len(server_scores), dtype=np.float32)
    bonus[chosen] = config.server_weight * server_scores[chosen]
    return np.asarray(normalise(tool_scores) + bonus[server_of], dtype=np.float32)
