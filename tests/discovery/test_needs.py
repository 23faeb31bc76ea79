from __future__ import annotations

import json
from pathlib import Path

import pytest

from workset.discovery.needs import (
    Need,
    ToolRef,
    band_of,
    check_needs,
    content_words,
    read_needs,
    split_of,
)
from workset.errors import UsageError
from workset.messages import ToolSpec

WEATHER = ToolSpec(
    "get_weather_by_city",
    "Get current weather and forecast for a city by name.",
    {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name"},
            "units": {"type": "string", "description": "celsius or fahrenheit"},
        },
    },
)
TRANSCRIPT = ToolSpec("get_transcript", "Extract transcript from a YouTube video URL or ID")
SERVERS = {"weather": [WEATHER], "youtube-transcript": [TRANSCRIPT]}
ROOT = Path(__file__).resolve().parents[2]
NEED_SET = ROOT / "benchmarks" / "data" / "needs" / "needs.jsonl"


def test_content_words_are_stemmed_and_stopwords_and_filler_are_dropped() -> None:
    assert content_words("I need to get the forecasts for Oslo") == {"forecast", "oslo"}
    assert content_words("getWeatherByCity") >= {"weather", "citi"}
    assert "youtub" in content_words("a YouTube link")  # a camelCase word also counts whole


@pytest.mark.parametrize(
    ("need", "band"),
    [
        ("what's the weather in Paris?", "name"),  # shares "weather" with the name
        ("the forecast for Lima tomorrow", "paraphrase"),  # only the description says it
        ("do I need an umbrella in Amsterdam tomorrow?", "hard"),
        ("is it above 20 celsius in Rome?", "paraphrase"),  # a parameter's description counts
    ],
)
def test_the_band_is_computed_from_the_words_shared_with_the_expected_tools(
    need: str, band: str
) -> None:
    assert band_of(need, [("weather", WEATHER)]) == band


def test_a_need_is_only_hard_when_no_expected_tool_shares_a_word() -> None:
    tools = [("weather", WEATHER), ("youtube-transcript", TRANSCRIPT)]
    assert band_of("what does the speaker say in this video?", tools) == "paraphrase"
    assert band_of("will I need a coat tonight?", tools) == "hard"
    assert band_of("anything", []) == "unservable"


def test_the_split_is_a_pure_function_of_the_id() -> None:
    splits = {split_of(f"need-{i}") for i in range(20)}
    assert splits == {"tune", "held_out"}
    assert split_of("weather-umbrella") == split_of("weather-umbrella")


def test_the_checker_reports_a_wrong_band_a_wrong_split_and_unknown_tools() -> None:
    ref = (ToolRef("weather", "get_weather_by_city"),)
    need_id = "umbrella"
    wrong_split = "tune" if split_of(need_id) == "held_out" else "held_out"
    needs = [
        Need(need_id, "do I need an umbrella in Amsterdam?", ref, "name", wrong_split),
        Need("ghost", "weather please", (ToolRef("weather", "nope"),), "name", "tune"),
    ]
    problems = check_needs(needs, SERVERS)
    assert any("band is 'hard', the file says 'name'" in p for p in problems)
    assert any(f"split is {split_of(need_id)!r}" in p for p in problems)
    assert any("ghost: not in the catalog" in p for p in problems)


def test_need_lines_round_trip_and_bad_lines_name_their_line(tmp_path: Path) -> None:
    need = Need(
        "no-sms",
        "send an SMS",
        (),
        "unservable",
        split_of("no-sms"),
        near_misses=(ToolRef("weather", "get_weather_by_city"),),
    )
    path = tmp_path / "needs.jsonl"
    path.write_text(need.to_json() + "\n")
    assert read_needs(path) == [need]
    path.write_text(need.to_json() + "\n" + need.to_json() + "\n")
    with pytest.raises(UsageError, match="used twice"):
        read_needs(path)
    path.write_text(json.dumps({"id": "x"}) + "\n")
    with pytest.raises(UsageError, match=r"needs.jsonl:1 is not a need line"):
        read_needs(path)


def test_the_committed_need_sets_check_against_the_livemcpbench_catalog() -> None:
    data = next(
        (p / "shared/data/livemcpbench" for p in ROOT.parents if (p / "shared/data").is_dir()),
        None,
    )
    if data is None:
        pytest.skip("the LiveMCPBench catalog (shared/data/livemcpbench) is not beside the repo")
    servers: dict[str, list[ToolSpec]] = {}
    for entry in json.loads((data / "tools.json").read_text()):
        for key, listing in entry["tools"].items():
            name = key if key not in servers else f"{key}-{entry['name']}"
            servers[name] = [
                ToolSpec(t["name"], t.get("description") or "", t.get("inputSchema") or {})
                for t in listing["tools"]
            ]
    for blind in ("blind_needs2.jsonl", "blind_needs3.jsonl"):
        assert check_needs(read_needs(NEED_SET.parent / blind), servers) == [], blind
    needs = read_needs(NEED_SET)
    assert check_needs(needs, servers) == []
    answerable = [n for n in needs if n.answerable]
    assert len(answerable) >= 150
    assert sum(1 for n in needs if not n.answerable) >= 20
    assert {n.band for n in answerable} == {"name", "paraphrase", "hard"}
