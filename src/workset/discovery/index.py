"""A searchable catalog of tools grouped by server: BM25 plus local embeddings, server → tool.

Each tool becomes one document (server name, tool name split into words, description,
parameter names and descriptions); each server becomes one document (its name, optional
description, and its tools' names and descriptions). A search scores every tool twice, by BM25
and by embedding cosine, and fuses the two as a weighted sum of per-query min–max normalised
scores; servers are scored the same way. The hierarchical ranking then adds
``server_weight × server score`` to the tools of the ``top_servers`` best servers: "servers
first, then tools within them", merged with the flat tool ranking, so a tool whose server is
described poorly can still win on its own words.

Measured by ``benchmarks/tool_catalog.py`` on LiveMCPBench (527 tools, 95 tasks, query = the
task text; Hit@5 = an annotated tool in the top 5): BM25 0.61, dense 0.61, weighted hybrid
0.73, RRF hybrid 0.68, hierarchical 0.72 (Recall@10 of all annotated tools: 0.44, 0.48, 0.52,
0.51, 0.55). Weighted fusion beats RRF at every cut-off, so it is the one used. The two weights
were tuned on half of the tasks (A) and give Hit@5 0.72 / Recall@10 0.61 on the other half;
tuning on B instead picks other weights that score 0.65 / 0.51 on A: the differences between
settings are within a few tasks, so treat them as a sensible default, not an optimum. The
hierarchical step mostly helps deeper recall (Recall@10), which suits a search whose best
three schemas are shown.

Below :attr:`SearchConfig.threshold` (the best embedding cosine over the whole catalog: an
absolute scale, unlike BM25, that fusion weights do not move) a search answers "not found" and
keeps the closest tools as suggestions. At 0.33, 11 of 15 hand-written off-catalog needs are
"not found" and 87 % of the 268 annotated task steps (in-catalog needs) find tools. Without an
embedder the index is BM25-only and "not found" means no query word occurs in the catalog.

Embeddings of the catalog are computed once; with ``cache_dir`` they are saved to a ``.npy``
file named by a hash of the model name and every document text, and reused by the next build.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeAlias

import numpy as np

from workset.errors import UsageError
from workset.messages import ToolSpec
from workset.retrieval.embedder import TextEmbedder, Vectors
from workset.retrieval.ranking import (
    BM25Ranker,
    DenseRanker,
    Scores,
    fuse_weighted,
    normalise,
    tokenize,
)

Mode: TypeAlias = Literal["bm25", "dense", "hybrid", "hierarchical"]
_DESCRIPTION_CHARS = 600  # per tool in a server document; keeps big servers readable


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How scores are fused; defaults measured on LiveMCPBench (see the module docstring)."""

    bm25_weight: float = 0.3
    top_servers: int = 3
    server_weight: float = 0.25
    threshold: float = 0.33


@dataclass(frozen=True, slots=True)
class Match:
    """One tool found for a query, with a short human-readable reason."""

    server: str
    tool: str
    score: float
    why: str
    spec: ToolSpec = field(compare=False)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Matches for a query; when nothing is close enough, none, and the closest as suggestions."""

    query: str
    matches: tuple[Match, ...]
    suggestions: tuple[Match, ...] = ()
    confidence: float = 0.0  # the best match's embedding cosine (0 without an embedder)

    @property
    def found(self) -> bool:
        return bool(self.matches)


@dataclass(frozen=True, slots=True)
class _Entry:
    server: str
    spec: ToolSpec


def tool_document(server: str, spec: ToolSpec) -> str:
    """The text a tool is found by: server, name in words, description, parameters."""
    params = spec.parameters.get("properties", {})
    lines = [f"{server}: {' '.join(tokenize(spec.name))} ({spec.name})", spec.description]
    if isinstance(params, Mapping):
        for name, schema in params.items():
            about = schema.get("description", "") if isinstance(schema, Mapping) else ""
            lines.append(f"{name}: {about}".strip())
    return "\n".join(line for line in lines if line)


def server_document(server: str, specs: Sequence[ToolSpec], description: str = "") -> str:
    """The text a server is found by: its name, description, and its tools."""
    lines = [server, description]
    for spec in specs:
        lines.append(f"{' '.join(tokenize(spec.name))}: {spec.description[:_DESCRIPTION_CHARS]}")
    return "\n".join(line for line in lines if line)


class ToolIndex:
    """Tools by server, searchable by a natural-language need. Build with :meth:`build`."""

    def __init__(
        self,
        entries: Sequence[_Entry],
        servers: Sequence[str],
        lexical: tuple[BM25Ranker, BM25Ranker],
        dense: tuple[DenseRanker, DenseRanker] | None,
        config: SearchConfig,
    ) -> None:
        self._entries = tuple(entries)
        self._servers = tuple(servers)
        self._server_of = np.array([self._servers.index(e.server) for e in entries])
        self._tool_bm25, self._server_bm25 = lexical
        self._dense = dense
        self.config = config

    @classmethod
    def build(
        cls,
        servers: Mapping[str, Sequence[ToolSpec]],
        embedder: TextEmbedder | None = None,
        *,
        descriptions: Mapping[str, str] | None = None,
        cache_dir: Path | None = None,
        config: SearchConfig | None = None,
    ) -> ToolIndex:
        """Index ``servers`` (name → its tools); with an embedder, also by meaning."""
        entries = [_Entry(name, spec) for name, specs in servers.items() for spec in specs]
        if not entries:
            raise UsageError("cannot build a tool index with no tools; pass at least one server")
        about = descriptions or {}
        names = list(servers)
        tool_docs = [tool_document(e.server, e.spec) for e in entries]
        server_docs = [server_document(n, servers[n], about.get(n, "")) for n in names]
        lexical = (BM25Ranker(tool_docs), BM25Ranker(server_docs))
        dense = None
        if embedder is not None:
            vectors = _embeddings(embedder, tool_docs + server_docs, cache_dir)
            dense = (
                DenseRanker(vectors[: len(tool_docs)], embedder),
                DenseRanker(vectors[len(tool_docs) :], embedder),
            )
        return cls(entries, names, lexical, dense, config or SearchConfig())

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def servers(self) -> tuple[str, ...]:
        return self._servers

    @property
    def has_embeddings(self) -> bool:
        return self._dense is not None

    def specs(self) -> tuple[tuple[str, ToolSpec], ...]:
        """Every (server, spec) in catalog order."""
        return tuple((e.server, e.spec) for e in self._entries)

    def search(self, query: str, k: int = 5) -> SearchResult:
        """The best ``k`` tools for ``query``, or "not found" with the closest as suggestions."""
        if not query.strip():
            raise UsageError("the search query is empty; describe the capability you need")
        if k < 1:
            raise UsageError(f"k must be at least 1, got {k}")
        ranked, cosines = self._score(query, "hierarchical")
        matches = self._matches(query, ranked, cosines, k)
        # The best cosine over the whole catalog: an absolute scale that fusion weights and
        # k do not move, so the threshold means the same for every query.
        best = float(cosines.max()) if cosines is not None else 0.0
        if cosines is not None:
            found = best >= self.config.threshold
        else:
            found = bool(self._tool_bm25.scores(query).max() > 0)
        if found:
            return SearchResult(query, tuple(matches), (), best)
        return SearchResult(query, (), tuple(matches[:3]), best)

    def rank(self, query: str, k: int = 10, mode: Mode = "hierarchical") -> list[Match]:
        """The best ``k`` tools by one scoring mode, with no threshold (for benchmarks)."""
        ranked, cosines = self._score(query, mode)
        return self._matches(query, ranked, cosines, k)

    def _score(self, query: str, mode: Mode) -> tuple[Scores, Scores | None]:
        """Per-tool scores for ``mode``, and the per-tool cosines when there is an embedder."""
        lexical = self._tool_bm25.scores(query)
        if self._dense is None:
            if mode not in ("bm25", "hierarchical", "hybrid"):
                raise UsageError(f"mode {mode!r} needs an embedder; build the index with one")
            if mode != "hierarchical":
                return lexical, None
            return self._boost(lexical, normalise(self._server_bm25.scores(query))), None
        tool_dense, server_dense = self._dense
        query_vector = tool_dense.embed_query(query)
        cosines = tool_dense.scores_for(query_vector)
        weights = (self.config.bm25_weight, 1.0 - self.config.bm25_weight)
        if mode == "bm25":
            return lexical, cosines
        if mode == "dense":
            return cosines, cosines
        fused = fuse_weighted([lexical, cosines], weights)
        if mode == "hybrid":
            return fused, cosines
        server_scores = fuse_weighted(
            [self._server_bm25.scores(query), server_dense.scores_for(query_vector)], weights
        )
        return self._boost(fused, server_scores), cosines

    def _boost(self, tool_scores: Scores, server_scores: Scores) -> Scores:
        """Tools of the top servers gain ``server_weight × server score`` (servers → tools)."""
        chosen = np.argsort(-server_scores, kind="stable")[: self.config.top_servers]
        bonus = np.zeros(len(self._servers), dtype=np.float32)
        bonus[chosen] = self.config.server_weight * server_scores[chosen]
        return np.asarray(normalise(tool_scores) + bonus[self._server_of], dtype=np.float32)

    def _matches(self, query: str, scores: Scores, cosines: Scores | None, k: int) -> list[Match]:
        words = set(tokenize(query))
        out = []
        for i in _top(scores, k):
            entry = self._entries[i]
            shared = sorted(words & set(tokenize(tool_document(entry.server, entry.spec))))
            reasons = [f"shares words: {', '.join(shared[:6])}" if shared else "no shared words"]
            if cosines is not None:
                reasons.append(f"meaning similarity {cosines[i]:.2f}")
            out.append(
                Match(
                    entry.server, entry.spec.name, float(scores[i]), "; ".join(reasons), entry.spec
                )
            )
        return out


def _top(scores: Scores, k: int) -> list[int]:
    return [int(i) for i in np.argsort(-scores, kind="stable")[: max(k, 0)]]


def catalog_key(model: str, documents: Sequence[str]) -> str:
    """A hash of the model name and every document: the cache file's identity."""
    digest = hashlib.sha256(model.encode())
    digest.update(json.dumps(list(documents), ensure_ascii=False).encode())
    return digest.hexdigest()[:24]


def _embeddings(
    embedder: TextEmbedder, documents: Sequence[str], cache_dir: Path | None
) -> Vectors:
    if cache_dir is None:
        return embedder.embed(documents)
    path = cache_dir / f"tool-index-{catalog_key(embedder.name, documents)}.npy"
    if path.is_file():
        cached = np.load(path, allow_pickle=False)
        if cached.ndim == 2 and cached.shape[0] == len(documents):
            return np.asarray(cached, dtype=np.float32)
    vectors = embedder.embed(documents)
    cache_dir.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".tmp.npy")
    np.save(partial, vectors, allow_pickle=False)
    partial.replace(path)  # atomic: a reader never sees half a file
    return vectors
