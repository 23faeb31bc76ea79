from __future__ import annotations

import pytest

from workset.evidence import CachedEmbedder
from workset.retrieval import Embedder


@pytest.fixture(scope="session")
def embedder() -> CachedEmbedder:
    """The real all-MiniLM-L6-v2 (offline), remembering vectors so repeated queries are cheap."""
    return CachedEmbedder(Embedder.load())
