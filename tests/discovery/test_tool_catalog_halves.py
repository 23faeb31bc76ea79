"""``tool_catalog.py --half tune`` and ``discovery_misses.py`` keep the held-out half out."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from workset.discovery.needs import Need, ToolRef

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


tool_catalog = _module("tool_catalog")
tool_needs = sys.modules["tool_needs"]

WEATHER = ToolRef("weather", "get_forecast")
NEEDS = [
    Need("t-1", "weather in Oslo", (WEATHER,), "name", "tune"),
    Need("t-2", "buy a plane ticket", (), "unservable", "tune"),
    Need("h-1", "forecast for Lima", (WEATHER,), "paraphrase", "held_out"),
    Need("h-2", "order a pizza", (), "unservable", "held_out"),
]


def test_half_tune_keeps_only_the_tuning_needs() -> None:
    halves = tool_catalog.split(NEEDS, "tune")
    assert list(halves) == ["tune"]
    assert [n.id for n in halves["tune"]] == ["t-1", "t-2"]


def test_both_halves_are_split_by_their_split_field() -> None:
    halves = tool_catalog.split(NEEDS)
    assert {name: [n.id for n in half] for name, half in halves.items()} == {
        "tune": ["t-1", "t-2"],
        "held_out": ["h-1", "h-2"],
    }


def test_no_other_half_can_be_asked_for_alone() -> None:
    with pytest.raises(ValueError, match="half"):
        tool_catalog.split(NEEDS, "held_out")


def test_needs_are_listed_one_by_one_for_the_tuning_half_only() -> None:
    nf = tool_needs.NotFound(1, 1, 1, 0, ("x: 'order a pizza' -> y",), ("z: 'forecast'",))
    assert tool_catalog.listed(nf, "held_out") == []
    assert tool_catalog.listed(nf, "tune") == [
        "answered anyway: x: 'order a pizza' -> y",
        "refused: z: 'forecast'",
    ]


discovery_misses = _module("discovery_misses")


def test_the_miss_listing_reads_the_tuning_half_only() -> None:
    assert [n.id for n in discovery_misses.tune_only(NEEDS)] == ["t-1", "t-2"]


def test_misses_are_counted_by_where_the_expected_server_ranks() -> None:
    rows = [
        {"server_rank": 0, "examples": 3, "document": 9},
        {"server_rank": 5, "examples": 9, "document": 3},
        {"server_rank": 30, "examples": 1, "document": 2},
    ]
    counts = discovery_misses.classes(rows, top_servers=3)
    assert counts["server among the boosted; a sibling or other tool wins"] == 1
    assert counts["server 4th-10th"] == 1
    assert counts["server beyond 10th"] == 1
    assert counts["examples rank it better than its document"] == 2
