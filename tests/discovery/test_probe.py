"""The servability probe: "not found" learned from a catalog's labelled needs (real MiniLM).

The measurement on the LiveMCPBench catalog is ``benchmarks/discovery_probe.py``; these tests
check the behaviour on the small test catalog.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import anyio
import numpy as np
import pytest
from discovery_catalog import SERVERS

from workset.discovery import ToolIndex, tool_search_tool
from workset.discovery.probe import (
    Fitting,
    ProbedIndex,
    ServabilityProbe,
    content_words,
    fit_probe,
    probe_features,
)
from workset.errors import UsageError
from workset.messages import ToolCall
from workset.retrieval import Embedder
from workset.tools.registry import ToolRegistry

SERVED = [
    "weather forecast for Lisbon this weekend",
    "will it rain in Oslo tomorrow?",
    "what is Apple's share price right now?",
    "daily prices of the MSFT stock last year",
    "read the file notes.txt",
    "what is inside config.yaml?",
    "list what is in the downloads folder",
    "turn the Word report into a PDF",
    "start a new Word document called minutes",
    "show the commits of this repository",
    "latitude and longitude of 10 Downing Street",
    "restaurants near the Louvre",
    "parks close to Central Station",
    "severe weather warnings in Texas",
]
# Private accounts and devices: near misses of the finance, weather and file tools.
UNSERVED = [
    "what's the balance of my savings account?",
    "how much is left on my credit card this month?",
    "did my salary arrive in my checking account?",
    "what temperature is my living room thermostat set to?",
    "is the heating on in my apartment right now?",
    "how many steps did my watch count today?",
    "what was my heart rate on this morning's run?",
    "how much did I spend at the supermarket according to my bank app?",
]


@pytest.fixture(scope="module")
def index() -> ToolIndex:
    return ToolIndex.build(SERVERS, Embedder.load())


@pytest.fixture(scope="module")
def probe(index: ToolIndex) -> ServabilityProbe:
    labelled = [(n, True) for n in SERVED] + [(n, False) for n in UNSERVED]
    return fit_probe(index, labelled, Fitting(folds=4))


def test_content_words_split_camel_case_and_drop_stopwords_and_filler() -> None:
    assert content_words("Please getStockPrice for the current AAPL quote") == [
        "stock",
        "price",
        "aapl",
        "quote",
    ]


def test_the_fitted_probe_tells_a_private_account_from_a_market_question(
    index: ToolIndex, probe: ServabilityProbe
) -> None:
    def unservable(need: str) -> float:
        return probe.unservable(probe_features(index, index.search(need, k=3)))

    # Phrasings the fit did not see.
    assert unservable("what's the current balance of my bank account?") > unservable(
        "current price of the NVDA stock"
    )
    assert unservable("is my bedroom heater switched on?") > unservable(
        "forecast for Madrid on Friday"
    )


def test_a_probed_index_refuses_above_the_threshold_and_passes_below(
    index: ToolIndex, probe: ServabilityProbe
) -> None:
    need = "current price of the NVDA stock"
    plain = index.search(need, k=3)
    assert plain.found
    passing = ProbedIndex(index, index, replace(probe, threshold=1.0))
    assert passing.search(need, k=3) == plain
    refusing = ProbedIndex(index, index, replace(probe, threshold=0.0))
    refused = refusing.search(need, k=3)
    assert not refused.found
    assert refused.probed > 0.0
    assert refused.suggestions == plain.matches[:3]
    assert refusing.rank(need, k=4) == index.rank(need, k=4)


def test_the_search_tool_says_why_the_probe_refused(
    index: ToolIndex, probe: ServabilityProbe
) -> None:
    refusing = ProbedIndex(index, index, replace(probe, threshold=0.0))
    registry = ToolRegistry([tool_search_tool(refusing, set())])
    call = ToolCall("call_1", "tool_search", json.dumps({"query": "price of the NVDA stock"}))
    result = anyio.run(registry.execute, call)
    assert result.content.startswith("Not found")
    assert "labelled needs of this catalog" in result.content


def test_a_probe_round_trips_and_refuses_another_embedder(
    index: ToolIndex, probe: ServabilityProbe, tmp_path: Path
) -> None:
    path = tmp_path / "probe.npz"
    probe.save(path)
    loaded = ServabilityProbe.load(path)
    assert loaded == probe
    features = probe_features(index, index.search("restaurants near the Louvre", k=3))
    assert loaded.unservable(features) == pytest.approx(probe.unservable(features))
    with pytest.raises(UsageError, match="fitted with 'other-model'"):
        ProbedIndex(index, index, replace(probe, embedder="other-model"))
    with pytest.raises(UsageError, match="takes"):
        probe.unservable(np.zeros(3))
    with pytest.raises(UsageError, match="fit one with fit_probe"):
        ServabilityProbe.load(tmp_path / "missing.npz")


def test_fitting_needs_both_kinds_of_need(index: ToolIndex) -> None:
    with pytest.raises(UsageError, match="got 0 of one kind"):
        fit_probe(index, [(n, True) for n in SERVED])
    with pytest.raises(UsageError, match="use fewer folds"):
        fit_probe(index, [(n, True) for n in SERVED] + [(UNSERVED[0], False)])
    lexical = ToolIndex.build(SERVERS)
    with pytest.raises(UsageError, match="built with an embedder"):
        fit_probe(
            lexical, [(n, True) for n in SERVED] + [(n, False) for n in UNSERVED], Fitting(folds=4)
        )


def test_the_labelled_needs_nearest_to_a_need_vote_with_the_model(
    index: ToolIndex, probe: ServabilityProbe
) -> None:
    """Half the score is the share of unservable needs among the 3 labelled needs nearest to
    the need: a need next to labelled private-account needs scores higher than the model
    alone says, and higher than a market question."""
    assert probe.blend == 0.5 and probe.k == 3
    assert probe.neighbours.shape == (len(SERVED) + len(UNSERVED), 384)
    alone = replace(probe, blend=1.0)

    def scores(need: str) -> tuple[float, float]:
        features = probe_features(index, index.search(need, k=3))
        return probe.unservable(features), alone.unservable(features)

    private, private_alone = scores("what is the balance on my savings account today?")
    market, _ = scores("what is Apple's stock price right now?")
    assert private > private_alone and private > market


def test_a_probe_saved_without_neighbours_loads_as_the_model_alone(
    index: ToolIndex, probe: ServabilityProbe, tmp_path: Path
) -> None:
    path = tmp_path / "old.npz"
    np.savez(
        path,
        embedder=np.array(probe.embedder),
        weights=np.asarray(probe.weights),
        bias=np.array(probe.bias),
        means=np.asarray(probe.means),
        scales=np.asarray(probe.scales),
        threshold=np.array(probe.threshold),
    )
    loaded = ServabilityProbe.load(path)
    assert loaded.blend == 1.0 and not len(loaded.labels)
    features = probe_features(index, index.search("restaurants near the Louvre", k=3))
    assert loaded.unservable(features) == pytest.approx(
        replace(probe, blend=1.0).unservable(features)
    )
