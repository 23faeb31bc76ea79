from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from discovery_catalog import SERVERS

from workset.discovery import ToolIndex
from workset.errors import UsageError
from workset.messages import ToolSpec
from workset.retrieval import Embedder
from workset.retrieval.embedder import Vectors


class CountingEmbedder:
    """The real embedder, counting how many texts it was asked to embed."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.texts = 0

    @property
    def name(self) -> str:
        return self.inner.name

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.texts += len(texts)
        return self.inner.embed(texts)


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder.load()


@pytest.fixture(scope="module")
def index(embedder: Embedder) -> ToolIndex:
    return ToolIndex.build(SERVERS, embedder)


def test_a_paraphrased_need_finds_the_weather_tool(index: ToolIndex) -> None:
    result = index.search("I need the weather forecast", k=3)
    assert result.found
    best = result.matches[0]
    assert (best.server, best.tool) == ("weather", "get_forecast")
    assert best.spec.name == "get_forecast"
    assert "meaning similarity" in best.why


def test_a_need_with_no_shared_word_still_finds_its_tool(index: ToolIndex) -> None:
    best = index.search("how much is one Apple share worth right now?").matches[0]
    assert best.server == "yahoo-finance"


def test_an_off_catalog_need_is_not_found_but_gets_suggestions(index: ToolIndex) -> None:
    result = index.search("order a pizza delivery to my home")
    assert not result.found
    assert result.matches == ()
    assert 1 <= len(result.suggestions) <= 3
    assert result.confidence < index.config.threshold


def test_every_mode_ranks_the_obvious_tool_first(index: ToolIndex) -> None:
    for mode in ("bm25", "dense", "hybrid", "hierarchical"):
        best = index.rank("convert the Word document to PDF", k=1, mode=mode)[0]
        assert best.tool == "convert_to_pdf", mode


def test_an_index_without_an_embedder_searches_by_words_only() -> None:
    index = ToolIndex.build(SERVERS)
    assert not index.has_embeddings
    assert index.search("stock price history").matches[0].tool == "get_price_history"
    assert not index.search("zebra xylophone").found
    with pytest.raises(UsageError, match="needs an embedder"):
        index.rank("weather", mode="dense")


def test_the_second_build_reads_the_cached_embeddings(embedder: Embedder, tmp_path: Path) -> None:
    counting = CountingEmbedder(embedder)
    first = ToolIndex.build(SERVERS, counting, cache_dir=tmp_path)
    embedded = counting.texts
    assert embedded == len(first) + len(SERVERS)
    assert len(list(tmp_path.glob("tool-index-*.npy"))) == 1

    second = ToolIndex.build(SERVERS, counting, cache_dir=tmp_path)
    assert counting.texts == embedded
    query = "weather forecast"
    assert second.search(query).matches == first.search(query).matches


def test_a_changed_catalog_does_not_reuse_the_old_cache(embedder: Embedder, tmp_path: Path) -> None:
    counting = CountingEmbedder(embedder)
    ToolIndex.build(SERVERS, counting, cache_dir=tmp_path)
    before = counting.texts
    changed = {**SERVERS, "time": [ToolSpec("now", "The current time in a time zone.")]}
    ToolIndex.build(changed, counting, cache_dir=tmp_path)
    assert counting.texts > before
    assert len(list(tmp_path.glob("tool-index-*.npy"))) == 2
    cached = [np.load(p) for p in tmp_path.glob("tool-index-*.npy")]
    documents = sum(len(specs) for specs in SERVERS.values()) + len(SERVERS)
    assert sorted(c.shape[0] for c in cached) == [documents, documents + 2]


def test_empty_catalogs_and_empty_queries_are_refused(index: ToolIndex) -> None:
    with pytest.raises(UsageError, match="no tools"):
        ToolIndex.build({})
    with pytest.raises(UsageError, match="empty"):
        index.search("   ")
