from __future__ import annotations

import numpy as np
import pytest

from workset.errors import UsageError
from workset.retrieval import (
    BM25Ranker,
    DenseRanker,
    Embedder,
    Ranked,
    fuse_rrf,
    fuse_weighted,
    tokenize,
)
from workset.retrieval.ranking import fuse_ranks

DOCS = [
    "get_forecast: weather forecast for a city, with temperature and rain",
    "read_file: read the contents of a text file",
    "getStockPrice: latest stock price for a ticker symbol",
    "create_branch: create a new git branch in a repository",
]


def test_tokenize_splits_identifiers_and_drops_stopwords_and_plurals() -> None:
    assert tokenize("getWeatherForecast for the files") == ["weather", "forecast", "file"]
    assert tokenize("read_file HTTPServer v2") == ["read", "file", "http", "server", "v2"]
    assert tokenize("!!! the of") == []


def test_bm25_ranks_the_document_sharing_the_query_words_first() -> None:
    ranker = BM25Ranker(DOCS)
    assert [r.index for r in ranker.rank("weather forecast", k=1)] == [0]
    assert ranker.rank("stock prices", k=1)[0].index == 2
    assert ranker.rank("read files", k=1)[0].index == 1


def test_bm25_scores_are_zero_when_no_query_word_is_known() -> None:
    scores = BM25Ranker(DOCS).scores("zebra xylophone")
    assert scores.shape == (4,)
    assert not scores.any()


def test_bm25_refuses_an_empty_corpus() -> None:
    with pytest.raises(UsageError, match="no documents"):
        BM25Ranker([])


def test_dense_ranking_finds_a_paraphrase_with_no_shared_word() -> None:
    ranker = DenseRanker.build(DOCS, Embedder.load())
    assert ranker.rank("will it rain tomorrow?", k=1)[0].index == 0
    assert ranker.rank("how much is one Apple share worth", k=1)[0].index == 2


def test_rank_fusion_of_score_arrays_gives_one_to_a_document_first_in_all() -> None:
    lexical = np.array([5.0, 9.0, 1.0], dtype=np.float32)
    dense = np.array([0.9, 0.8, 0.1], dtype=np.float32)
    fused = fuse_ranks([lexical, dense])
    assert list(np.argsort(-fused, kind="stable")) == [0, 1, 2]  # a tie, kept in corpus order
    assert fuse_ranks([dense, dense])[0] == pytest.approx(1.0)
    with pytest.raises(UsageError):
        fuse_ranks([])


def test_reciprocal_rank_fusion_rewards_documents_high_in_both_lists() -> None:
    lexical = [Ranked(1, 9.0), Ranked(0, 5.0), Ranked(2, 1.0)]
    dense = [Ranked(0, 0.9), Ranked(2, 0.5), Ranked(1, 0.1)]
    assert [r.index for r in fuse_rrf([lexical, dense])] == [0, 1, 2]


def test_weighted_fusion_normalises_each_score_array_before_weighting() -> None:
    bm25 = np.array([10.0, 0.0, 5.0], dtype=np.float32)
    cosine = np.array([0.2, 0.4, 0.3], dtype=np.float32)
    fused = fuse_weighted([bm25, cosine], [0.5, 0.5])
    assert np.allclose(fused, [0.5, 0.5, 0.5])
    assert np.allclose(fuse_weighted([bm25, cosine], [1.0, 0.0]), [1.0, 0.0, 0.5])
