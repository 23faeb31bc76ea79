"""The embedded side of a tool index: which texts are embedded, and where each tool's rows are.

The texts are, in this order: every tool's full document, every tool's short document
(:mod:`workset.discovery.documents`), the example requests grouped by tool, and the server
documents. :func:`embed_catalog` embeds them through a
:class:`~workset.discovery.store.VectorStore` (only texts it has never seen reach the model)
into one :class:`Dense` matrix, with the query adapter fitted on the examples when asked
(:mod:`workset.discovery.adapter`); :func:`store_keys` are the keys a build keeps in the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from workset.discovery.adapter import AdapterSettings, FittedAdapter, for_catalog
from workset.discovery.documents import short_document, tool_document
from workset.discovery.entries import Entry
from workset.discovery.expansions import request_fields
from workset.discovery.store import VectorStore, text_key
from workset.retrieval.embedder import TextEmbedder, Vectors


@dataclass(frozen=True, slots=True)
class Dense:
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


def embedded_texts(entries: Sequence[Entry], server_texts: Sequence[str]) -> list[str]:
    """Full documents, short documents, examples (grouped by tool), server documents."""
    full = [tool_document(e.server, e.spec) for e in entries]
    short = [short_document(e.spec) for e in entries]
    examples = [x for e in entries for x in e.examples]
    return [*full, *short, *examples, *server_texts]


def embed_catalog(
    entries: Sequence[Entry],
    texts: Sequence[str],
    embedder: TextEmbedder,
    store: VectorStore,
    adapter_settings: AdapterSettings | None,
) -> Dense:
    """``texts`` (:func:`embedded_texts` of ``entries``) as one matrix, rows located.

    With ``adapter_settings`` the query adapter is fitted on the tools' full documents and
    examples (or read from ``store``); with None, or without examples, there is none.
    """
    vectors = store.embed(embedder, texts)
    n = len(entries)
    counts = np.array([len(e.examples) for e in entries], dtype=np.intp)
    example_rows = np.arange(2 * n, 2 * n + int(counts.sum()), dtype=np.intp)
    with_examples = np.flatnonzero(counts)
    starts = (np.cumsum(counts) - counts)[with_examples]
    fields = np.array(
        [f for e in entries for f in request_fields(e.examples) or [""] * len(e.examples)],
        dtype=np.str_,
    )
    adapter = None
    if adapter_settings is not None and example_rows.size:
        # Fitted on the full documents and the examples (not the servers' documents).
        rows = [*range(n), *example_rows]
        adapter = for_catalog(
            vectors[:n],
            vectors[example_rows],
            np.repeat(np.arange(n, dtype=np.intp), counts),
            [text_key(embedder.name, texts[i]) for i in rows],
            store,
            adapter_settings,
        )
    return Dense(
        vectors,
        np.arange(n, dtype=np.intp),
        np.arange(n, 2 * n, dtype=np.intp),
        example_rows,
        starts.astype(np.intp),
        with_examples.astype(np.intp),
        fields,
        np.arange(2 * n + int(counts.sum()), len(texts), dtype=np.intp),
        adapter,
    )


def store_keys(model: str, texts: Sequence[str], dense: Dense | None) -> list[str]:
    """The vector-file keys of ``texts`` embedded by ``model``, and of the adapter if any."""
    keys = [text_key(model, t) for t in texts]
    if dense is not None and dense.adapter is not None:
        keys.append(dense.adapter.key)
    return keys
