"""Rank documents for a query: BM25 over words, cosine over embeddings, and their fusion.

Every ranker scores all documents at once (``scores(query) -> array``), so callers can fuse,
threshold or restrict to a subset without asking twice. :func:`tokenize` is the one word
splitter: lowercase, split on anything that is not a letter or digit, split ``snake_case``
and ``camelCase`` identifiers into their words, drop a short list of stopwords and a plural
``s``. Fusion comes in two kinds: reciprocal rank fusion of ranked lists (:func:`fuse_rrf`),
and a weighted sum of per-query min–max normalised scores (:func:`fuse_weighted`);
:func:`fuse_ranks` is reciprocal rank fusion over whole score arrays. On the
LiveMCPBench tool catalog the weighted sum wins at every cut-off (Hit@5 0.73 vs 0.68 for RRF;
see ``benchmarks/tool_catalog.py``), so tool discovery uses it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from workset.errors import UsageError
from workset.retrieval.embedder import DEPS_INSTALL_HINT, TextEmbedder, Vectors

Scores = npt.NDArray[np.float32]

_STOPWORDS_TEXT = """a an and are as at be by can do for from has have how i if in into is it its
me my of on or our please so that the their then there these this to use used using want was we
what when where which will with would you your need needs get gets"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^0-9a-zA-Z]+")


def tokenize(text: str) -> list[str]:
    """Lowercase content words of ``text``; identifiers split into their parts.

    ``"getWeatherForecast for Lima"`` → ``["weather", "forecast", "lima"]``.
    """
    words: list[str] = []
    for chunk in _NON_WORD.split(text):
        for part in _CAMEL.split(chunk):
            word = _singular(part.lower())
            if word and word not in STOPWORDS:
                words.append(word)
    return words


def _singular(word: str) -> str:
    """A plural ``s`` dropped (``files`` → ``file``), so both forms match; nothing smarter."""
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@dataclass(frozen=True, slots=True)
class Ranked:
    """A document by its position in the corpus, with the score that ranked it."""

    index: int
    score: float


def top(scores: Scores, k: int) -> list[Ranked]:
    """The ``k`` best documents, best first; ties keep corpus order."""
    order = np.argsort(-scores, kind="stable")[: max(k, 0)]
    return [Ranked(int(i), float(scores[i])) for i in order]


class BM25Ranker:
    """Okapi BM25 (Lucene variant, k1=1.5, b=0.75) over :func:`tokenize` words, via ``bm25s``."""

    def __init__(self, documents: Sequence[str]) -> None:
        try:
            import bm25s
        except ImportError as exc:
            raise UsageError(f"BM25 ranking needs the bm25s package: {DEPS_INSTALL_HINT}") from exc
        if not documents:
            raise UsageError("cannot build a BM25 index over no documents; pass at least one")
        self._size = len(documents)
        self._bm25: Any = bm25s.BM25()
        # An empty document still needs one token for bm25s; "" never matches a query word.
        corpus = [tokenize(doc) or [""] for doc in documents]
        self._bm25.index(corpus, show_progress=False)
        self._vocab: set[str] = set(self._bm25.vocab_dict)

    def __len__(self) -> int:
        return self._size

    def scores(self, query: str) -> Scores:
        words = [w for w in tokenize(query) if w in self._vocab]
        if not words:
            return np.zeros(self._size, dtype=np.float32)
        return np.asarray(self._bm25.get_scores(words), dtype=np.float32)

    def rank(self, query: str, k: int = 10) -> list[Ranked]:
        return top(self.scores(query), k)


class DenseRanker:
    """Cosine similarity between a query embedding and precomputed document embeddings."""

    def __init__(self, vectors: Vectors, embedder: TextEmbedder) -> None:
        if vectors.ndim != 2 or vectors.shape[0] == 0:
            raise UsageError(
                f"document vectors must be a non-empty (n, d) array, got shape {vectors.shape}"
            )
        self.vectors = vectors
        self.embedder = embedder

    @classmethod
    def build(cls, documents: Sequence[str], embedder: TextEmbedder) -> DenseRanker:
        return cls(embedder.embed(list(documents)), embedder)

    def __len__(self) -> int:
        return int(self.vectors.shape[0])

    def embed_query(self, query: str) -> Vectors:
        return np.asarray(self.embedder.embed([query])[0], dtype=np.float32)

    def scores(self, query: str) -> Scores:
        return self.scores_for(self.embed_query(query))

    def scores_for(self, query_vector: Vectors) -> Scores:
        """Cosines for an already embedded query (rows are unit length, so a dot product)."""
        return np.asarray(self.vectors @ query_vector, dtype=np.float32)

    def rank(self, query: str, k: int = 10) -> list[Ranked]:
        return top(self.scores(query), k)


def fuse_rrf(rankings: Sequence[Sequence[Ranked]], k: int = 60) -> list[Ranked]:
    """Reciprocal rank fusion: each list adds ``1 / (k + rank)`` for every document it holds."""
    fused: dict[int, float] = {}
    for ranking in rankings:
        for position, item in enumerate(ranking, start=1):
            fused[item.index] = fused.get(item.index, 0.0) + 1.0 / (k + position)
    ordered = sorted(fused.items(), key=lambda pair: (-pair[1], pair[0]))
    return [Ranked(index, score) for index, score in ordered]


def fuse_ranks(scores: Sequence[Scores], k: int = 60) -> Scores:
    """Reciprocal rank fusion of whole score arrays: ``Σ 1 / (k + rank)``, rank 1 the best.

    Scaled so that a document first in every array scores 1.0; ties keep corpus order.
    """
    if not scores:
        raise UsageError("fuse_ranks needs at least one score array")
    total = np.zeros(len(scores[0]), dtype=np.float64)
    for array in scores:
        ranks = np.empty(len(array), dtype=np.float64)
        ranks[np.argsort(-array, kind="stable")] = np.arange(1, len(array) + 1)
        total += 1.0 / (k + ranks)
    return np.asarray(total * (k + 1) / len(scores), dtype=np.float32)


def normalise(scores: Scores) -> Scores:
    """Min–max scaled to [0, 1] for this query; all zeros when every score is the same."""
    low, high = float(scores.min()), float(scores.max())
    if high - low <= 1e-12:
        return np.zeros_like(scores)
    return ((scores - low) / (high - low)).astype(np.float32)


def fuse_weighted(scores: Sequence[Scores], weights: Sequence[float]) -> Scores:
    """``Σ weight · normalise(scores)``: one fused score per document."""
    if len(scores) != len(weights) or not scores:
        raise UsageError("fuse_weighted needs one weight per score array, and at least one")
    total = np.zeros_like(scores[0], dtype=np.float32)
    for array, weight in zip(scores, weights, strict=True):
        total += np.float32(weight) * normalise(array)
    return total
