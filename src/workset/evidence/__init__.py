"""Evidence: documents split into citable chunks, retrieved with authorisation first.

:mod:`~workset.evidence.ingest` loads versioned documents (markdown, text, code) and splits
them at sections and paragraphs into chunks that keep their line span, heading path and hash;
:mod:`~workset.evidence.retriever` filters chunks by tenant scope and permission groups
*before* ranking them with BM25 and MiniLM embeddings fused, and answers "not found" below a
similarity threshold; :mod:`~workset.evidence.items` turns the results into untrusted
``evidence`` context items wrapped with their provenance, large chunks as an excerpt plus a
reference to the rest. Needs the ``retrieval`` extra (numpy, bm25s, the MiniLM weights).
"""

from workset.evidence.ingest import (
    Chunk,
    ChunkConfig,
    Document,
    Loaded,
    Skipped,
    chunk_document,
    load_documents,
)
from workset.evidence.items import EvidencePolicy, evidence_items, read_file_hint
from workset.evidence.retriever import (
    Access,
    CachedEmbedder,
    Evidence,
    EvidenceIndex,
    RetrievalConfig,
)

__all__ = [
    "Access",
    "CachedEmbedder",
    "Chunk",
    "ChunkConfig",
    "Document",
    "Evidence",
    "EvidenceIndex",
    "EvidencePolicy",
    "Loaded",
    "RetrievalConfig",
    "Skipped",
    "chunk_document",
    "evidence_items",
    "load_documents",
    "read_file_hint",
]
