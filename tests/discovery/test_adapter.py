from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from discovery_catalog import SERVERS

from workset.discovery import SearchConfig, ToolIndex
from workset.discovery.adapter import (
    AdapterSettings,
    adapted_cosines,
    fit_adapter,
    prototypes,
)
from workset.discovery.expansions import definition_key
from workset.discovery.store import VectorStore
from workset.errors import UsageError
from workset.retrieval import Embedder
from workset.retrieval.embedder import Vectors

ON = SearchConfig(adapter=True)


def _unit(rows: Vectors) -> Vectors:
    return np.asarray(rows / np.linalg.norm(rows, axis=-1, keepdims=True), dtype=np.float32)


def test_the_adapter_maps_each_example_onto_its_own_tool_where_plain_cosine_does_not() -> None:
    # Two tools; each one's example request lies closer to the *other* tool's document.
    documents = _unit(np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]))
    examples = _unit(np.array([[0.2, 1.0, 0.8], [1.0, 0.2, -0.8]]))
    owners = np.array([0, 1])
    assert [int(np.argmax(documents @ e)) for e in examples] == [1, 0]

    targets = prototypes(documents, examples, owners)
    matrix = fit_adapter(examples, owners, targets, AdapterSettings(steps=300))
    assert [int(np.argmax(adapted_cosines(e, matrix, targets))) for e in examples] == [0, 1]


def test_a_prototype_is_a_document_plus_its_examples_mean_or_the_document_alone() -> None:
    documents = _unit(np.array([[1.0, 0.0], [0.0, 1.0]]))
    examples = _unit(np.array([[0.0, 1.0], [1.0, 1.0]]))
    rows = prototypes(documents, examples, np.array([0, 0]))
    expected = _unit(documents[0] + examples.mean(axis=0))
    np.testing.assert_allclose(rows[0], expected, atol=1e-6)
    np.testing.assert_allclose(rows[1], documents[1], atol=1e-6)


def test_bad_adapter_settings_and_inputs_are_refused() -> None:
    with pytest.raises(UsageError, match="temperature"):
        AdapterSettings(temperature=0.0)
    with pytest.raises(UsageError, match="one owner per example"):
        fit_adapter(np.zeros((2, 3), np.float32), np.array([0]), np.zeros((1, 3), np.float32))


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder.load()


def _examples() -> dict[str, tuple[str, ...]]:
    forecast, alerts = SERVERS["weather"]
    return {
        definition_key("weather", forecast): ("should I pack an umbrella for Oslo tomorrow?",),
        definition_key("weather", alerts): ("is a hurricane warning out for Florida?",),
    }


def test_the_fitted_adapter_is_kept_in_the_vector_file_and_read_back(
    embedder: Embedder, tmp_path: Path
) -> None:
    store = tmp_path / "vectors.npz"
    built = ToolIndex.build(SERVERS, embedder, expansions=_examples(), store=store, config=ON)
    kept = VectorStore.open(store, embedder.name)
    keys = [k for k in built._keys() if k.startswith("adapter-")]
    assert len(keys) == 1 and kept.matrix(keys[0]) is not None

    again = ToolIndex.build(SERVERS, embedder, expansions=_examples(), store=store, config=ON)
    query = "do I need a coat in Bergen tonight?"
    assert again.rank(query, k=5) == built.rank(query, k=5)


def test_a_changed_catalog_gets_its_own_adapter(embedder: Embedder, tmp_path: Path) -> None:
    store = tmp_path / "vectors.npz"
    first = ToolIndex.build(SERVERS, embedder, expansions=_examples(), store=store, config=ON)
    grown = first.with_server("time", [])  # removing nothing changes nothing...
    assert grown._keys()[-1] == first._keys()[-1]
    smaller = first.with_server("git", [])  # ...removing a server changes what was fitted on
    assert smaller._keys()[-1] != first._keys()[-1]


def test_no_adapter_is_fitted_without_examples_or_with_it_off(
    embedder: Embedder,
) -> None:
    plain = ToolIndex.build(SERVERS, embedder)
    assert not any(k.startswith("adapter-") for k in plain._keys())
    off = ToolIndex.build(SERVERS, embedder, expansions=_examples())  # off by default
    assert not any(k.startswith("adapter-") for k in off._keys())
    on = ToolIndex.build(SERVERS, embedder, expansions=_examples(), config=ON)
    best = on.rank("weather forecast for a city", k=2)
    # Reciprocal rank fusion, scaled: first in both rankings scores 1, the next less.
    assert best[0].tool == "get_forecast" and best[0].score == pytest.approx(1.0)
    assert best[1].score < 1.0


def test_a_saved_index_with_the_adapter_loads_with_it_and_ranks_the_same(
    embedder: Embedder, tmp_path: Path
) -> None:
    settings = AdapterSettings(steps=20)
    config = SearchConfig(adapter=True, adapter_settings=settings)
    built = ToolIndex.build(SERVERS, embedder, expansions=_examples(), config=config)
    built.save(tmp_path / "index")
    loaded = ToolIndex.load(tmp_path / "index", embedder)
    assert loaded.config.adapter and loaded.config.adapter_settings == settings
    query = "do I need a coat in Bergen tonight?"
    assert loaded.rank(query, k=5) == built.rank(query, k=5)
