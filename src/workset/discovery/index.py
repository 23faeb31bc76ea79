"""A searchable catalog of tools grouped by server: BM25 plus local embeddings, server → tool.

Each tool is found by several texts (:mod:`workset.discovery.documents`): its full document,
a short one, and the example requests written for it offline
(:mod:`workset.discovery.expansions`), each embedded on its own. A tool's meaning score is
``(1 - expansion_weight) × max(full, short) + expansion_weight × best example`` (only the
examples of the fields in ``SearchConfig.meaning_fields`` count here); its lexical score is
BM25 over its full document plus all its examples. The two are fused as a weighted sum of
per-query min–max normalised scores, and the tools of the ``top_servers`` best servers (scored
the same way over server documents) gain ``server_weight × server score``: servers first,
then tools within them, merged with the flat ranking, so a tool whose server is described
poorly can still win on its own words. With ``SearchConfig(adapter=True)`` a query adapter
fitted on the examples at build time (:mod:`workset.discovery.adapter`) ranks the tools too,
and the two rankings are fused by reciprocal rank.

"Not found" is decided by :mod:`workset.discovery.decision` from several signals of the best
candidates, not one cosine: whether the closest tool can do the act a need commands, then a
calibrated model. Without an embedder the index is BM25-only and "not found" means
no word of the need occurs in the catalog.

With ``store`` the embeddings are kept in a :class:`~workset.discovery.store.VectorStore`
file by text hash (the adapter's matrix too), so a rebuild after a server changed embeds only
that server's texts; :meth:`ToolIndex.save` and :meth:`ToolIndex.load` persist the whole
index (catalog, examples and vectors). Numbers: ``benchmarks/tool_catalog.py``.

The index composes small modules: :mod:`~workset.discovery.entries` (one entry per tool),
:mod:`~workset.discovery.dense` (which texts are embedded, as one matrix),
:mod:`~workset.discovery.scoring` (meaning, blend and server boost; the scores of a search),
:mod:`~workset.discovery.matching` (matches and their evidence) and
:mod:`~workset.discovery.persistence` (the saved folder); result types are in
:mod:`~workset.discovery.results`. :data:`Mode` and the result types are importable from here
too.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from workset.discovery.decision import decide
from workset.discovery.dense import Dense, embed_catalog, embedded_texts, store_keys
from workset.discovery.documents import server_document, tool_document
from workset.discovery.entries import Entry, lexical_text, server_entries, specs_by_server
from workset.discovery.matching import ranked_matches
from workset.discovery.persistence import load_index, save_index
from workset.discovery.results import Match, Pooling, SearchConfig, SearchResult
from workset.discovery.rewrite import rewrite_need
from workset.discovery.scoring import Mode, Scored, blend, boost, meaning_scores
from workset.discovery.store import VectorStore
from workset.errors import UsageError
from workset.messages import ToolSpec
from workset.retrieval.embedder import TextEmbedder, Vectors
from workset.retrieval.ranking import (
    BM25Ranker,
    Scores,
    fuse_ranks,
    fuse_weighted,
    normalise,
    tokenize,
)

__all__ = ["Match", "Mode", "Pooling", "SearchConfig", "SearchResult", "ToolIndex"]


class ToolIndex:
    """Tools by server, searchable by a natural-language need. Build with :meth:`build`."""

    def __init__(
        self,
        entries: Sequence[Entry],
        descriptions: Mapping[str, str],
        embedder: TextEmbedder | None,
        store: VectorStore | None,
        config: SearchConfig,
    ) -> None:
        self._entries = tuple(entries)
        self._servers = tuple(dict.fromkeys(e.server for e in entries))
        self._descriptions = dict(descriptions)
        self._server_of = np.array([self._servers.index(e.server) for e in entries])
        self._embedder = embedder
        self.config = config
        self._tool_texts = [lexical_text(e) for e in entries]
        self._position = {(e.server, e.spec.name): i for i, e in enumerate(self._entries)}
        self._words = [frozenset(tokenize(t)) for t in self._tool_texts]
        specs = specs_by_server(self._entries, self._servers)
        server_texts = [
            server_document(s, specs[s], descriptions.get(s, "")) for s in self._servers
        ]
        self._tool_bm25 = BM25Ranker(self._tool_texts)
        self._server_bm25 = BM25Ranker(server_texts)
        self._texts = embedded_texts(self._entries, server_texts)
        if embedder is not None and store is None:
            store = VectorStore(embedder.name)
        self._store = store
        self._dense = (
            self._embed(embedder, store) if embedder is not None and store is not None else None
        )

    @classmethod
    def build(
        cls,
        servers: Mapping[str, Sequence[ToolSpec]],
        embedder: TextEmbedder | None = None,
        *,
        descriptions: Mapping[str, str] | None = None,
        expansions: Mapping[str, Sequence[str]] | None = None,
        store: Path | None = None,
        config: SearchConfig | None = None,
    ) -> ToolIndex:
        """Index ``servers`` (name → its tools); with an embedder, also by meaning.

        ``expansions`` maps :func:`~workset.discovery.expansions.definition_key` to the
        example requests of a tool (tools without an entry are indexed without examples).
        ``store`` is a vector file: read first, then rewritten with this catalog's vectors,
        so only texts it has never seen are embedded.
        """
        examples = expansions or {}
        entries = [
            e for name, specs in servers.items() for e in server_entries(name, specs, examples)
        ]
        if not entries:
            raise UsageError("cannot build a tool index with no tools; pass at least one server")
        vectors = None
        if embedder is not None:
            vectors = (
                VectorStore.open(store, embedder.name) if store else VectorStore(embedder.name)
            )
        index = cls(entries, descriptions or {}, embedder, vectors, config or SearchConfig())
        if store is not None and vectors is not None:
            vectors.save(store, keep=index._keys())
        return index

    def with_server(self, server: str, specs: Sequence[ToolSpec], **kw: Any) -> ToolIndex:
        """A new index where ``server`` has ``specs`` (added, replaced, or removed if empty).

        Only that server's texts are embedded; every other vector is reused. ``examples``
        (a keyword argument) maps definition keys to example requests for the new tools.
        """
        examples: Mapping[str, Sequence[str]] = kw.get("examples", {})
        kept = [e for e in self._entries if e.server != server]
        fresh = server_entries(server, specs, examples)
        order = [*self._servers, *([server] if server not in self._servers else [])]
        entries = [e for name in order for e in (*kept, *fresh) if e.server == name]
        if not entries:
            raise UsageError("cannot remove the last server of a tool index")
        return ToolIndex(entries, self._descriptions, self._embedder, self._store, self.config)

    def save(self, folder: Path) -> None:
        """Write the index (catalog, examples, vectors) to ``folder``; see :meth:`load`."""
        save_index(
            folder,
            self._entries,
            self._descriptions,
            self.config,
            self._embedder.name if self._embedder else None,
            self._store,
            self._keys() if self._store is not None else (),
        )

    @classmethod
    def load(cls, folder: Path, embedder: TextEmbedder | None = None) -> ToolIndex:
        """The index saved in ``folder``; the embedder must be the model it was built with."""
        saved = load_index(folder, embedder)
        return cls(saved.entries, saved.descriptions, embedder, saved.store, saved.config)

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def servers(self) -> tuple[str, ...]:
        return self._servers

    @property
    def embedder_name(self) -> str | None:
        return self._embedder.name if self._embedder is not None else None

    @property
    def has_embeddings(self) -> bool:
        return self._dense is not None

    @property
    def tools_with_examples(self) -> int:
        """How many tools have example requests (from the expansions passed to build)."""
        return sum(1 for e in self._entries if e.examples)

    def specs(self) -> tuple[tuple[str, ToolSpec], ...]:
        """Every (server, spec) in catalog order."""
        return tuple((e.server, e.spec) for e in self._entries)

    def holds(self, server: str, tool: str) -> bool:
        """Whether ``server`` has a tool ``tool`` in this index."""
        return (server, tool) in self._position

    def spec_of(self, server: str, tool: str) -> ToolSpec:
        """The definition of ``server``'s tool ``tool``."""
        return self._entries[self._at(server, tool)].spec

    def texts_of(self, server: str, tool: str) -> tuple[str, str]:
        """A tool's full document, and everything BM25 reads for it (document and examples)."""
        at = self._at(server, tool)
        entry = self._entries[at]
        return tool_document(entry.server, entry.spec), self._tool_texts[at]

    def _at(self, server: str, tool: str) -> int:
        at = self._position.get((server, tool))
        if at is None:
            raise UsageError(f"no tool {tool!r} of server {server!r} in this index")
        return at

    def embed(self, texts: Sequence[str], *, transient: Collection[str] = ()) -> Vectors:
        """``texts`` embedded by the index's model, read from its vectors when seen before and
        kept there after, except those in ``transient`` (a query, its words)."""
        if self._embedder is None:
            raise UsageError("this index has no embedder; build it with one")
        if self._store is None:
            return self._embedder.embed(texts)
        return self._store.embed(self._embedder, texts, transient=transient)

    def search(self, query: str, k: int = 5, *, also: Sequence[str] = ()) -> SearchResult:
        """The best ``k`` tools for ``query``, or "not found" with the closest as suggestions.

        ``also``: other phrasings of the same need (a model's restatement, see
        :mod:`workset.discovery.restate`); each tool scores by the best phrasing. Lexical
        evidence for the decision still counts the need's own words only.
        """
        _check(query, k)
        scored = self._score(query, "hierarchical", also)
        matches = self._matches(query, scored, max(k, 3))
        if scored.dense is None:
            found = bool(scored.lexical.max() > 0)
            return SearchResult(
                query, tuple(matches[:k]) if found else (), () if found else tuple(matches[:3])
            )
        decision = decide([m.evidence for m in matches if m.evidence is not None])
        if decision.found:
            return SearchResult(query, tuple(matches[:k]), (), decision)
        return SearchResult(query, (), tuple(matches[:3]), decision)

    def rank(
        self, query: str, k: int = 10, mode: Mode = "hierarchical", *, also: Sequence[str] = ()
    ) -> list[Match]:
        """The best ``k`` tools by one scoring mode, with no "not found" (for benchmarks)."""
        _check(query, k)
        return self._matches(query, self._score(query, mode, also), k)

    # -- scoring (the steps are in workset.discovery.scoring and .matching) -------------------

    def _score(self, query: str, mode: Mode, also: Sequence[str] = ()) -> Scored:
        others = [a for a in dict.fromkeys(also) if a.strip() and a != query]
        share = self.config.also_weight if others else 0.0
        lexical = blend(self._tool_bm25.scores, query, others, share)
        server_lexical = blend(self._server_bm25.scores, query, others, share)
        if self._dense is None or self._embedder is None:
            if mode not in ("bm25", "hierarchical", "hybrid"):
                raise UsageError(f"mode {mode!r} needs an embedder; build the index with one")
            ranked = lexical
            if mode == "hierarchical":
                ranked = self._boost(lexical, normalise(server_lexical))
            return Scored(ranked, lexical, None, None, None, None, normalise(server_lexical))
        queries = [query]
        if self.config.rewrite and (shorter := rewrite_need(query)) != query:
            queries.append(shorter)
        vectors = self._embedder.embed([*queries, *others])
        stated = np.max(self._dense.vectors @ vectors[: len(queries)].T, axis=1)
        cosines = stated
        restated_meaning = None
        if others:
            restated = np.max(self._dense.vectors @ vectors[len(queries) :].T, axis=1)
            cosines = np.asarray((1 - share) * stated + share * restated, dtype=np.float32)
            restated_meaning = self._meaning(restated, self.config.restated_pooling)[0]
        dense_ = self._dense
        pooling = self.config.restated_pooling if others else "max"
        meaning, whole, examples = self._meaning(cosines, pooling)
        server_cosines = cosines[dense_.servers]
        weights = (self.config.bm25_weight, 1.0 - self.config.bm25_weight)
        server_scores = fuse_weighted([server_lexical, server_cosines], weights)
        if mode == "bm25":
            ranked = lexical
        elif mode == "dense":
            ranked = meaning
        else:
            ranked = fuse_weighted([lexical, meaning], weights)
            if mode == "hierarchical":
                ranked = self._boost(ranked, server_scores)
                if self.config.adapter and dense_.adapter is not None:
                    adapted = dense_.adapter.cosines(vectors[0])
                    if others:
                        again = [dense_.adapter.cosines(v) for v in vectors[len(queries) :]]
                        adapted = (1 - share) * adapted + share * np.max(again, axis=0)
                    ranked = fuse_ranks([ranked, adapted], self.config.fusion_k)
        return Scored(
            ranked,
            lexical,
            meaning,
            whole,
            examples,
            server_cosines,
            server_scores,
            tuple(others),
            restated_meaning,
        )

    def _meaning(
        self, cosines: np.ndarray[Any, Any], pooling: Pooling = "max"
    ) -> tuple[Scores, Scores, Scores]:
        """Each tool's meaning score, full-document cosine and pooled example cosine."""
        assert self._dense is not None
        return meaning_scores(self._dense, cosines, self.config, pooling)

    def _boost(self, tool_scores: Scores, server_scores: Scores) -> Scores:
        """Tools of the top servers gain ``server_weight × server score`` (servers → tools)."""
        return boost(tool_scores, server_scores, self._server_of, self.config)

    def _matches(self, query: str, scored: Scored, k: int) -> list[Match]:
        return ranked_matches(query, scored, k, self._entries, self._words, self._server_of)

    # -- building ----------------------------------------------------------------------------

    def _keys(self) -> list[str]:
        model = self._embedder.name if self._embedder else ""
        return store_keys(model, self._texts, self._dense)

    def _embed(self, embedder: TextEmbedder, store: VectorStore) -> Dense:
        settings = self.config.adapter_settings if self.config.adapter else None
        return embed_catalog(self._entries, self._texts, embedder, store, settings)


def _check(query: str, k: int) -> None:
    if not query.strip():
        raise UsageError("the search query is empty; describe the capability you need")
    if k < 1:
        raise UsageError(f"k must be at least 1, got {k}")
