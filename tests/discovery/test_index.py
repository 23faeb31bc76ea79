from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from discovery_catalog import SERVERS

from workset.discovery import SearchConfig, ToolIndex
from workset.discovery.expansions import FIELDS, SUMMARY, definition_key
from workset.errors import UsageError
from workset.messages import ToolSpec
from workset.retrieval import Embedder
from workset.retrieval.embedder import Vectors


class CountingEmbedder:
    """The real embedder, recording every text it was asked to embed."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.seen: list[str] = []

    @property
    def texts(self) -> int:
        return len(self.seen)

    @property
    def name(self) -> str:
        return self.inner.name

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.seen += list(texts)
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
    best = index.rank("how much is one Apple share worth right now?", k=1)[0]
    assert best.server == "yahoo-finance"


def test_an_off_catalog_need_is_not_found_but_gets_suggestions(index: ToolIndex) -> None:
    result = index.search("order a pizza delivery to my home")
    assert not result.found
    assert result.matches == ()
    assert 1 <= len(result.suggestions) <= 3
    assert result.decision is not None
    assert result.decision.unoffered or result.confidence < result.decision.calibration.threshold
    assert all(m.evidence is not None for m in result.suggestions)


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


def test_a_rebuild_from_the_vector_file_embeds_nothing_of_the_catalog(
    embedder: Embedder, tmp_path: Path
) -> None:
    counting = CountingEmbedder(embedder)
    store = tmp_path / "vectors.npz"
    first = ToolIndex.build(SERVERS, counting, store=store)
    tools = sum(len(specs) for specs in SERVERS.values())
    assert counting.texts == 2 * tools + len(SERVERS)  # full and short documents, servers

    second = ToolIndex.build(SERVERS, counting, store=store)
    assert counting.texts == 2 * tools + len(SERVERS)
    query = "weather forecast"
    assert second.search(query).matches == first.search(query).matches


def test_when_one_server_changes_only_its_texts_are_embedded_again(
    embedder: Embedder, tmp_path: Path
) -> None:
    counting = CountingEmbedder(embedder)
    store = tmp_path / "vectors.npz"
    ToolIndex.build(SERVERS, counting, store=store)
    counting.seen.clear()
    forecast, alerts = SERVERS["weather"]
    edited = ToolSpec(forecast.name, forecast.description + " Up to 16 days.", forecast.parameters)
    changed = {**SERVERS, "weather": [edited, alerts]}

    rebuilt = ToolIndex.build(changed, counting, store=store)
    # The edited tool's full document and the weather server's document (its short document,
    # the first sentence, did not change); nothing of the five servers that did not change.
    assert len(counting.seen) == 2
    assert all("Up to 16 days" in text for text in counting.seen)
    assert rebuilt.search("weather forecast for Lima").matches[0].spec == edited


def test_adding_a_server_in_memory_embeds_only_that_server(
    embedder: Embedder, index: ToolIndex
) -> None:
    counting = CountingEmbedder(embedder)
    base = ToolIndex.build(SERVERS, counting)
    counting.seen.clear()
    grown = base.with_server("time", [ToolSpec("now", "The current time in a time zone.")])
    assert len(counting.seen) == 3  # its tool's two documents and the server document
    assert grown.search("what time is it in Lima right now?").matches[0].tool == "now"
    assert len(grown) == len(base) + 1
    shrunk = grown.with_server("time", [])
    assert len(shrunk) == len(base)


def test_a_saved_index_loads_without_embedding_the_catalog(
    embedder: Embedder, tmp_path: Path
) -> None:
    key = definition_key("weather", SERVERS["weather"][0])
    built = ToolIndex.build(
        SERVERS, embedder, expansions={key: ("will it rain in Oslo tomorrow?",)}
    )
    built.save(tmp_path / "index")
    counting = CountingEmbedder(embedder)
    loaded = ToolIndex.load(tmp_path / "index", counting)
    assert counting.texts == 0
    assert loaded.specs() == built.specs()
    assert loaded.tools_with_examples == 1
    for query in ("will it rain in Lima?", "convert the Word document to PDF"):
        assert loaded.search(query).matches == built.search(query).matches
    assert counting.texts == 2  # the two queries (each also rewritten: same text, one call)


def test_loading_a_folder_without_an_index_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="build one and call save"):
        ToolIndex.load(tmp_path)


def test_example_requests_let_a_need_with_no_shared_word_find_its_tool(
    embedder: Embedder,
) -> None:
    forecast = SERVERS["weather"][0]
    need = "should I pack a warm coat for Reykjavik tonight?"
    examples = {
        definition_key("weather", forecast): (
            "what clothes should I bring for my trip to Oslo?",
            "is it going to be cold in Helsinki tonight?",
        )
    }
    with_examples = ToolIndex.build(SERVERS, embedder, expansions=examples)
    top = with_examples.rank(need, k=1)[0]
    assert (top.server, top.tool) == ("weather", "get_forecast")
    assert top.evidence is not None and top.evidence.has_examples


def test_mean_pooling_scores_a_restated_need_by_the_average_of_a_tools_examples(
    embedder: Embedder,
) -> None:
    forecast = SERVERS["weather"][0]
    need, restated = "will it rain in Oslo tomorrow?", "Check the weather forecast for a city"
    examples = ("is it going to rain in Bergen tonight?", "list the best chess openings")
    index = ToolIndex.build(
        SERVERS,
        embedder,
        expansions={definition_key("weather", forecast): examples},
        config=SearchConfig(restated_pooling="mean"),
    )
    vectors = embedder.embed([need, restated, *examples])
    share = index.config.also_weight
    blended = [(1 - share) * vectors[0] @ v + share * vectors[1] @ v for v in vectors[2:]]
    top = next(m for m in index.rank(need, k=5, also=(restated,)) if m.tool == "get_forecast")
    assert top.evidence is not None
    assert top.evidence.example_cosine == pytest.approx(sum(blended) / 2, abs=1e-5)


def test_pooling_leaves_a_need_searched_as_stated_on_its_best_example(
    embedder: Embedder,
) -> None:
    forecast = SERVERS["weather"][0]
    need = "will it rain in Oslo tomorrow?"
    examples = ("is it going to rain in Bergen tonight?", "list the best chess openings")
    index = ToolIndex.build(
        SERVERS,
        embedder,
        expansions={definition_key("weather", forecast): examples},
        config=SearchConfig(restated_pooling="mean"),
    )
    vectors = embedder.embed([need, *examples])
    top = next(m for m in index.rank(need, k=5) if m.tool == "get_forecast")
    assert top.evidence is not None
    assert top.evidence.example_cosine == pytest.approx(float(max(vectors[1:] @ vectors[0])))


def test_meaning_fields_choose_which_example_requests_count_in_the_meaning_score(
    embedder: Embedder, tmp_path: Path
) -> None:
    forecast = SERVERS["weather"][0]
    need = "will it rain in Oslo tomorrow?"
    # situation, question, synonyms (expansions.FIELDS order): the question is the closest
    examples = ("I am packing for a trip", "will it rain in Oslo tomorrow?", "outlook, forecast")
    expansions = {definition_key("weather", forecast): examples}
    vectors = embedder.embed([need, *examples])
    cosines = vectors[1:] @ vectors[0]

    def example_cosine(index: ToolIndex) -> float:
        top = next(m for m in index.rank(need, k=10) if m.tool == "get_forecast")
        assert top.evidence is not None
        return top.evidence.example_cosine

    default = ToolIndex.build(SERVERS, embedder, expansions=expansions)
    assert example_cosine(default) == pytest.approx(float(cosines.max()), abs=1e-5)
    situation = SearchConfig(meaning_fields=("situation",))
    only = ToolIndex.build(SERVERS, embedder, expansions=expansions, config=situation)
    assert example_cosine(only) == pytest.approx(float(cosines[0]), abs=1e-5)
    only.save(tmp_path / "index")
    assert ToolIndex.load(tmp_path / "index", embedder).config == situation


def test_every_request_field_counts_by_default() -> None:
    assert SearchConfig().meaning_fields == (SUMMARY[0], *FIELDS)


def test_requests_of_no_known_layout_all_count_in_the_meaning_score(embedder: Embedder) -> None:
    forecast = SERVERS["weather"][0]
    need = "will it rain in Oslo tomorrow?"
    examples = ("list the best chess openings", "will it rain in Oslo tomorrow?")
    index = ToolIndex.build(
        SERVERS, embedder, expansions={definition_key("weather", forecast): examples}
    )
    vectors = embedder.embed([need, *examples])
    top = next(m for m in index.rank(need, k=10) if m.tool == "get_forecast")
    assert top.evidence is not None
    assert top.evidence.example_cosine == pytest.approx(float(max(vectors[1:] @ vectors[0])))


def test_an_unknown_pooling_is_refused() -> None:
    with pytest.raises(UsageError, match="restated_pooling"):
        SearchConfig(restated_pooling="median")  # type: ignore[arg-type]


def test_empty_catalogs_and_empty_queries_are_refused(index: ToolIndex) -> None:
    with pytest.raises(UsageError, match="no tools"):
        ToolIndex.build({})
    with pytest.raises(UsageError, match="empty"):
        index.search("   ")
