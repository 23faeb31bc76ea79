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
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Literal, TypeAlias

import numpy as np

from workset.discovery.adapter import AdapterSettings, FittedAdapter, for_catalog
from workset.discovery.decision import OUTBOUND, Evidence, decide, names_act
from workset.discovery.documents import server_document, short_document, tool_document
from workset.discovery.expansions import definition_key, request_fields
from workset.discovery.restate import capability
from workset.discovery.results import Match, Pooling, SearchConfig, SearchResult
from workset.discovery.rewrite import action_word, rewrite_need
from workset.discovery.store import VectorStore, text_key
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

Mode: TypeAlias = Literal["bm25", "dense", "hybrid", "hierarchical"]
_CATALOG_FILE = "catalog.json"
_VECTORS_FILE = "vectors.npz"


@dataclass(frozen=True, slots=True)
class _Entry:
    server: str
    spec: ToolSpec
    examples: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Dense:
    """Every embedded text as one matrix, with where each tool's rows are."""

    vectors: Vectors
    full: np.ndarray[Any, np.dtype[np.intp]]  # row of each tool's full document
    short: np.ndarray[Any, np.dtype[np.intp]]
    example_rows: np.ndarray[Any, np.dtype[np.intp]]  # grouped by tool, in tool order
    example_starts: np.ndarray[Any, np.dtype[np.intp]]  # first row of each tool with examples
    example_tools: np.ndarray[Any, np.dtype[np.intp]]  # the tools those groups belong to
    example_fields: np.ndarray[Any, np.dtype[np.str_]]  # each example row's field ("": unknown)
    servers: np.ndarray[Any, np.dtype[np.intp]]  # row of each server document
    # The query adapter fitted on the examples (None without examples or with
    # ``SearchConfig.adapter`` off; see workset.discovery.adapter).
    adapter: FittedAdapter | None = None


class ToolIndex:
    """Tools by server, searchable by a natural-language need. Build with :meth:`build`."""

    def __init__(
        self,
        entries: Sequence[_Entry],
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
        self._tool_texts = [_lexical_text(e) for e in entries]
        self._words = [frozenset(tokenize(t)) for t in self._tool_texts]
        specs = self._specs_by_server()
        server_texts = [
            server_document(s, specs[s], descriptions.get(s, "")) for s in self._servers
        ]
        self._tool_bm25 = BM25Ranker(self._tool_texts)
        self._server_bm25 = BM25Ranker(server_texts)
        self._texts = self._embedded_texts(server_texts)
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
            _Entry(name, spec, tuple(examples.get(definition_key(name, spec), ())))
            for name, specs in servers.items()
            for spec in specs
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
        fresh = [
            _Entry(server, s, tuple(examples.get(definition_key(server, s), ()))) for s in specs
        ]
        order = [*self._servers, *([server] if server not in self._servers else [])]
        entries = [e for name in order for e in (*kept, *fresh) if e.server == name]
        if not entries:
            raise UsageError("cannot remove the last server of a tool index")
        return ToolIndex(entries, self._descriptions, self._embedder, self._store, self.config)

    def save(self, folder: Path) -> None:
        """Write the index (catalog, examples, vectors) to ``folder``; see :meth:`load`."""
        folder.mkdir(parents=True, exist_ok=True)
        catalog = {
            "servers": {
                name: [
                    {
                        "name": e.spec.name,
                        "description": e.spec.description,
                        "parameters": e.spec.parameters,
                        "examples": list(e.examples),
                    }
                    for e in self._entries
                    if e.server == name
                ]
                for name in self._servers
            },
            "descriptions": self._descriptions,
            "config": asdict(self.config),
            "model": self._embedder.name if self._embedder else None,
        }
        partial = folder / (_CATALOG_FILE + ".tmp")
        partial.write_text(json.dumps(catalog, ensure_ascii=False, default=str), encoding="utf-8")
        if self._store is not None:
            self._store.save(folder / _VECTORS_FILE, keep=self._keys())
        partial.replace(folder / _CATALOG_FILE)

    @classmethod
    def load(cls, folder: Path, embedder: TextEmbedder | None = None) -> ToolIndex:
        """The index saved in ``folder``; the embedder must be the model it was built with."""
        path = folder / _CATALOG_FILE
        try:
            catalog = json.loads(path.read_text(encoding="utf-8"))
            entries = [
                _Entry(
                    server,
                    ToolSpec(t["name"], t["description"], t["parameters"]),
                    tuple(t["examples"]),
                )
                for server, tools in catalog["servers"].items()
                for t in tools
            ]
            settings = catalog["config"].pop("adapter_settings", None)
            if "meaning_fields" in catalog["config"]:  # a JSON list
                catalog["config"]["meaning_fields"] = tuple(catalog["config"]["meaning_fields"])
            config = SearchConfig(**catalog["config"])
            if settings is not None:
                config = replace(config, adapter_settings=AdapterSettings(**settings))
        except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
            raise UsageError(
                f"{folder} holds no saved tool index ({exc}); build one and call save()"
            ) from exc
        if embedder is not None and catalog.get("model") not in (None, embedder.name):
            raise UsageError(
                f"{folder} was built with {catalog['model']}; load it with that embedder"
            )
        store = (
            VectorStore.open(folder / _VECTORS_FILE, embedder.name)
            if embedder is not None
            else None
        )
        return cls(entries, catalog["descriptions"], embedder, store, config)

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def servers(self) -> tuple[str, ...]:
        return self._servers

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

    # -- scoring ---------------------------------------------------------------------------

    def _score(self, query: str, mode: Mode, also: Sequence[str] = ()) -> _Scored:
        others = [a for a in dict.fromkeys(also) if a.strip() and a != query]
        share = self.config.also_weight if others else 0.0
        lexical = _blend(self._tool_bm25.scores, query, others, share)
        server_lexical = _blend(self._server_bm25.scores, query, others, share)
        if self._dense is None or self._embedder is None:
            if mode not in ("bm25", "hierarchical", "hybrid"):
                raise UsageError(f"mode {mode!r} needs an embedder; build the index with one")
            ranked = lexical
            if mode == "hierarchical":
                ranked = self._boost(lexical, normalise(server_lexical))
            return _Scored(ranked, lexical, None, None, None, None, normalise(server_lexical))
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
        return _Scored(
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
        """Each tool's meaning score, full-document cosine and pooled example cosine.

        ``pooling`` says how a tool's example cosines become one: the best (``"max"``) or
        their average (``"mean"``).
        """
        assert self._dense is not None
        dense_ = self._dense
        whole = cosines[dense_.full]
        if self.config.short_documents:
            whole = np.maximum(whole, cosines[dense_.short])
        examples = whole.copy()
        if dense_.example_rows.size:
            rows = cosines[dense_.example_rows]
            fields = self.config.meaning_fields
            names = dense_.example_fields
            counted = (names == "") | np.isin(names, fields)
            starts = dense_.example_starts
            sizes = np.add.reduceat(counted.astype(np.intp), starts)
            if pooling == "mean":
                pooled = np.add.reduceat(np.where(counted, rows, 0.0), starts) / np.maximum(
                    sizes, 1
                )
            else:
                pooled = np.maximum.reduceat(np.where(counted, rows, -np.inf), starts)
            tools = dense_.example_tools
            examples[tools] = np.where(sizes > 0, pooled, whole[tools])
        weight = np.float32(self.config.expansion_weight)
        meaning = np.asarray((1 - weight) * whole + weight * examples, dtype=np.float32)
        return meaning, whole, examples

    def _boost(self, tool_scores: Scores, server_scores: Scores) -> Scores:
        """Tools of the top servers gain ``server_weight × server score`` (servers → tools)."""
        chosen = np.argsort(-server_scores, kind="stable")[: self.config.top_servers]
        bonus = np.zeros(len(self._servers), dtype=np.float32)
        bonus[chosen] = self.config.server_weight * server_scores[chosen]
        return np.asarray(normalise(tool_scores) + bonus[self._server_of], dtype=np.float32)

    def _matches(self, query: str, scored: _Scored, k: int) -> list[Match]:
        words = set(tokenize(query))
        action = action_word(query)
        acts = [a for a in (action, *map(action_word, scored.others)) if a in OUTBOUND]
        restated_words = [set(tokenize(capability(o))) for o in scored.others]
        restated_best = float(scored.restated.max()) if scored.restated is not None else 0.0
        order = [int(i) for i in np.argsort(-scored.ranked, kind="stable")[:k]]
        server_order = list(np.argsort(-scored.server_scores, kind="stable"))
        out = []
        for position, i in enumerate(order):
            entry = self._entries[i]
            shared = sorted(words & self._words[i])
            evidence = None
            if scored.dense is not None:
                assert scored.whole is not None and scored.examples is not None
                assert scored.server_cosines is not None
                runner_up = order[position + 1] if position + 1 < len(order) else None
                server = int(self._server_of[i])
                evidence = Evidence(
                    cosine=float(scored.dense[i]),
                    document_cosine=float(scored.whole[i]),
                    example_cosine=float(scored.examples[i]),
                    margin=float(scored.dense[i] - scored.dense[runner_up])
                    if runner_up is not None
                    else 0.0,
                    lexical=len(shared) / len(words) if words else 0.0,
                    server_cosine=float(scored.server_cosines[server]),
                    server_rank=server_order.index(server),
                    shared_words=tuple(shared),
                    has_examples=bool(entry.examples),
                    action_covered=action is None or action in self._words[i],
                    action=action or "",
                    restated=bool(scored.others),
                    restated_cosine=restated_best,
                    restated_lexical=max(
                        (len(w & self._words[i]) / len(w) for w in restated_words if w),
                        default=0.0,
                    ),
                    unoffered=next((a for a in acts if not names_act(self._words[i], a)), ""),
                )
            out.append(
                Match(
                    entry.server,
                    entry.spec.name,
                    float(scored.ranked[i]),
                    _why(shared, evidence),
                    entry.spec,
                    evidence,
                )
            )
        return out

    # -- building ----------------------------------------------------------------------------

    def _specs_by_server(self) -> dict[str, list[ToolSpec]]:
        specs: dict[str, list[ToolSpec]] = {s: [] for s in self._servers}
        for e in self._entries:
            specs[e.server].append(e.spec)
        return specs

    def _embedded_texts(self, server_texts: Sequence[str]) -> list[str]:
        """Full documents, short documents, examples (grouped by tool), server documents."""
        full = [tool_document(e.server, e.spec) for e in self._entries]
        short = [short_document(e.spec) for e in self._entries]
        examples = [x for e in self._entries for x in e.examples]
        return [*full, *short, *examples, *server_texts]

    def _keys(self) -> list[str]:
        model = self._embedder.name if self._embedder else ""
        keys = [text_key(model, t) for t in self._texts]
        if self._dense is not None and self._dense.adapter is not None:
            keys.append(self._dense.adapter.key)
        return keys

    def _embed(self, embedder: TextEmbedder, store: VectorStore) -> _Dense:
        vectors = store.embed(embedder, self._texts)
        n = len(self._entries)
        counts = np.array([len(e.examples) for e in self._entries], dtype=np.intp)
        example_rows = np.arange(2 * n, 2 * n + int(counts.sum()), dtype=np.intp)
        with_examples = np.flatnonzero(counts)
        starts = (np.cumsum(counts) - counts)[with_examples]
        fields = np.array(
            [
                f
                for e in self._entries
                for f in request_fields(e.examples) or [""] * len(e.examples)
            ],
            dtype=np.str_,
        )
        adapter = None
        if self.config.adapter and example_rows.size:
            # Fitted on the full documents and the examples (not the servers' documents).
            rows = [*range(n), *example_rows]
            adapter = for_catalog(
                vectors[:n],
                vectors[example_rows],
                np.repeat(np.arange(n, dtype=np.intp), counts),
                [text_key(embedder.name, self._texts[i]) for i in rows],
                store,
                self.config.adapter_settings,
            )
        return _Dense(
            vectors,
            np.arange(n, dtype=np.intp),
            np.arange(n, 2 * n, dtype=np.intp),
            example_rows,
            starts.astype(np.intp),
            with_examples.astype(np.intp),
            fields,
            np.arange(2 * n + int(counts.sum()), len(self._texts), dtype=np.intp),
            adapter,
        )


@dataclass(frozen=True, slots=True)
class _Scored:
    ranked: Scores
    lexical: Scores
    dense: Scores | None  # each tool's meaning score
    whole: Scores | None  # max cosine of its full and short documents
    examples: Scores | None  # best cosine of its examples (``whole`` when it has none)
    server_cosines: Scores | None
    server_scores: Scores
    others: tuple[str, ...] = ()  # the other phrasings searched (a model's restatement)
    restated: Scores | None = None  # each tool's meaning score for ``others`` alone


def _blend(
    scores: Callable[[str], Scores], query: str, others: Sequence[str], share: float
) -> Scores:
    """``scores`` of the need as stated, with ``share`` given to the best of ``others``."""
    stated = scores(query)
    if not others:
        return stated
    best = np.max([scores(o) for o in others], axis=0)
    return np.asarray((1 - share) * stated + share * best, dtype=np.float32)


def _lexical_text(entry: _Entry) -> str:
    return "\n".join([tool_document(entry.server, entry.spec), *entry.examples])


def _why(shared: Sequence[str], evidence: Evidence | None) -> str:
    reasons = [f"shares words: {', '.join(shared[:6])}" if shared else "no shared words"]
    if evidence is not None:
        reasons.append(f"meaning similarity {evidence.cosine:.2f}")
    return "; ".join(reasons)


def _check(query: str, k: int) -> None:
    if not query.strip():
        raise UsageError("the search query is empty; describe the capability you need")
    if k < 1:
        raise UsageError(f"k must be at least 1, got {k}")
