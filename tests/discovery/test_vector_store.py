from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from discovery_catalog import LetterEmbedder

from workset.discovery.store import VectorStore
from workset.errors import UsageError


def test_only_texts_never_seen_are_embedded_and_the_file_round_trips(tmp_path: Path) -> None:
    embedder = LetterEmbedder()
    path = tmp_path / "vectors.npz"
    store = VectorStore.open(path, embedder.name)
    first = store.embed(embedder, ["alpha", "beta", "alpha"])
    assert embedder.calls == [["alpha", "beta"]]
    store.save(path)

    again = VectorStore.open(path, embedder.name)
    second = again.embed(embedder, ["beta", "gamma", "alpha"])
    assert embedder.calls[1:] == [["gamma"]]
    np.testing.assert_allclose(second[0], first[1])
    np.testing.assert_allclose(second[2], first[0])


def test_saving_with_keep_drops_vectors_no_longer_used(tmp_path: Path) -> None:
    embedder = LetterEmbedder()
    path = tmp_path / "vectors.npz"
    store = VectorStore(embedder.name)
    store.embed(embedder, ["old", "new"])
    from workset.discovery.store import text_key

    store.save(path, keep=[text_key(embedder.name, "new")])
    assert len(VectorStore.open(path, embedder.name)) == 1


def test_vectors_of_another_model_are_never_reused(tmp_path: Path) -> None:
    path = tmp_path / "vectors.npz"
    store = VectorStore("letters")
    store.embed(LetterEmbedder(), ["alpha"])
    store.save(path)
    assert len(VectorStore.open(path, "other-model")) == 0
    with pytest.raises(UsageError, match="open it with that model"):
        VectorStore.open(path, "letters").embed(LetterEmbedder("other-model"), ["alpha"])


def test_a_damaged_file_says_to_delete_it(tmp_path: Path) -> None:
    path = tmp_path / "vectors.npz"
    path.write_bytes(b"not a zip file")
    with pytest.raises(UsageError, match="delete it"):
        VectorStore.open(path, "letters")


def test_a_kept_matrix_round_trips_and_is_dropped_when_not_kept(tmp_path: Path) -> None:
    embedder = LetterEmbedder()
    path = tmp_path / "vectors.npz"
    store = VectorStore(embedder.name)
    store.embed(embedder, ["alpha"])
    matrix = np.eye(26, dtype=np.float32) * 2
    store.keep_matrix("adapter-1", matrix)
    store.save(path)
    again = VectorStore.open(path, embedder.name)
    kept = again.matrix("adapter-1")
    assert kept is not None
    np.testing.assert_allclose(kept, matrix)

    from workset.discovery.store import text_key

    again.save(path, keep=[text_key(embedder.name, "alpha")])
    assert VectorStore.open(path, embedder.name).matrix("adapter-1") is None


def test_transient_texts_are_embedded_with_the_rest_but_not_kept() -> None:
    embedder = LetterEmbedder()
    store = VectorStore(embedder.name)
    rows = store.embed(embedder, ["query", "tool"], transient=("query",))
    assert embedder.calls == [["query", "tool"]]
    assert rows.shape == (2, 26)
    store.embed(embedder, ["query", "tool"])
    assert embedder.calls[1:] == [["query"]]
