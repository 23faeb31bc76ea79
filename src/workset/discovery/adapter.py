"""A query adapter learned per catalog from the tools' example requests, at index-build time.

A sentence embedder puts "does Kellogg reward its owners with regular payouts?" nowhere near
"Get dividends for a given stock symbol". The example requests written for each tool
(:mod:`workset.discovery.expansions`) say how people ask for it; a linear map ``W`` of the
query's embedding is fitted so that each example request, mapped, lands closest to its own
tool among all tools of the catalog (softmax cross-entropy over the tools' prototypes at
temperature ``temperature``, ``W`` pulled towards the identity by ``l2``, plain gradient
descent from the identity). Nothing of any need set is used: only the catalog and its
examples, so it works for any catalog that has example requests.

A tool's prototype (:func:`prototypes`) is its document vector plus the mean of its example
vectors, normalised; a tool without examples has its document vector. The index scores each
tool by the cosine between the mapped query and its prototype and fuses that ranking with its
own by reciprocal rank (``ToolIndex``; numbers in docs/results/discovery.md). The matrix is
kept in the vector file under :func:`adapter_key` (the texts it was fitted on and the
settings), so a rebuild of an unchanged catalog reads it, and a changed catalog refits it
(seconds; no text is embedded again for it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from workset.discovery.store import VectorStore
from workset.errors import UsageError
from workset.retrieval.embedder import Vectors

Rows = npt.NDArray[np.intp]


@dataclass(frozen=True, slots=True)
class AdapterSettings:
    """How the adapter is fitted; chosen on the tune half of the need set (see the module)."""

    steps: int = 100
    temperature: float = 0.2
    l2: float = 0.003  # pull towards the identity: the query's own meaning is kept
    rate: float = 8.0  # gradient step; scaled with the temperature (2.0 at 0.05)

    def __post_init__(self) -> None:
        if self.steps < 1 or self.temperature <= 0 or self.l2 < 0 or self.rate <= 0:
            raise UsageError(
                "adapter settings need steps >= 1, temperature > 0, l2 >= 0 and rate > 0"
            )


@dataclass(frozen=True, slots=True)
class FittedAdapter:
    """A catalog's adapter: the matrix, the tools' prototypes, and the key it is kept under."""

    matrix: Vectors
    targets: Vectors
    key: str

    def cosines(self, query: Vectors) -> Vectors:
        return adapted_cosines(query, self.matrix, self.targets)


def for_catalog(
    documents: Vectors,
    examples: Vectors,
    owners: Rows,
    fitted_on: Sequence[str],
    store: VectorStore,
    settings: AdapterSettings,
) -> FittedAdapter:
    """The catalog's adapter, read from ``store`` or fitted and kept there.

    ``fitted_on`` are the store keys of the documents and examples (see :func:`adapter_key`).
    """
    targets = prototypes(documents, examples, owners)
    key = adapter_key(store.model, fitted_on, owners, settings)
    matrix = store.matrix(key)
    if matrix is None:
        matrix = fit_adapter(examples, owners, targets, settings)
        store.keep_matrix(key, matrix)
    return FittedAdapter(matrix, targets, key)


def prototypes(documents: Vectors, examples: Vectors, owners: Rows) -> Vectors:
    """One unit row per tool: its document vector plus the mean of its examples' vectors.

    ``owners[i]`` is the tool (row of ``documents``) that example ``i`` belongs to.
    """
    summed = np.zeros_like(documents, dtype=np.float64)
    counts = np.zeros(len(documents))
    if len(owners):
        np.add.at(summed, owners, examples.astype(np.float64))
        np.add.at(counts, owners, 1.0)
    mean = summed / np.maximum(counts, 1.0)[:, None]
    rows = documents.astype(np.float64) + mean
    return _unit(rows).astype(np.float32)


def fit_adapter(
    examples: Vectors,
    owners: Rows,
    targets: Vectors,
    settings: AdapterSettings | None = None,
) -> Vectors:
    """The (d, d) matrix that maps each example's vector closest to its owner's target row.

    Softmax cross-entropy over all ``targets`` (each tool's prototype), L2 towards the
    identity, ``settings.steps`` steps of full-batch gradient descent from the identity.
    """
    chosen = settings or AdapterSettings()
    if examples.ndim != 2 or len(examples) != len(owners) or len(examples) == 0:
        raise UsageError("fit_adapter needs one owner per example row, and at least one example")
    x = examples.astype(np.float32)
    t = targets.astype(np.float32)
    n, d = x.shape
    identity = np.eye(d, dtype=np.float32)
    w = identity.copy()
    scale = np.float32(1.0 / chosen.temperature)
    rows = np.arange(n)
    for _ in range(chosen.steps):
        logits = (x @ w) @ t.T * scale
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        p[rows, owners] -= 1.0
        gradient = x.T @ (p @ t) * (scale / n) + np.float32(chosen.l2) * (w - identity)
        w -= np.float32(chosen.rate) * gradient
    return w


def adapted_cosines(query: Vectors, matrix: Vectors, targets: Vectors) -> Vectors:
    """Cosine of the mapped query with every target row (``targets`` are unit rows)."""
    mapped = query @ matrix
    norm = float(np.linalg.norm(mapped))
    if norm <= 1e-12:
        return np.zeros(len(targets), dtype=np.float32)
    return np.asarray(targets @ (mapped / norm), dtype=np.float32)


def adapter_key(model: str, text_keys: Sequence[str], owners: Rows, s: AdapterSettings) -> str:
    """What a fitted matrix depends on: the model, the texts (by key), ownership, settings."""
    digest = hashlib.sha256(f"adapter\0{model}\0{s!r}".encode())
    for key in text_keys:
        digest.update(key.encode())
    digest.update(np.asarray(owners, dtype=np.int64).tobytes())
    return "adapter-" + digest.hexdigest()


def _unit(rows: npt.NDArray[Any]) -> npt.NDArray[Any]:
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    return np.asarray(rows / np.maximum(norms, 1e-12))
