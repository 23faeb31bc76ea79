"""Wilson intervals and the four answer classes."""

from __future__ import annotations

from pathlib import Path

import pytest

from workset.eval.score import classify, is_refusal, mentions, rate, tally, wilson


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),  # the textbook example (Newcombe 1998 method 3 / Wilson)
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 2, 0.0945, 0.9055),
        (6, 6, 0.6097, 1.0),
        (0, 6, 0.0, 0.3903),
    ],
)
def test_the_wilson_interval_matches_published_values(
    successes: int, n: int, low: float, high: float
) -> None:
    got_low, got_high = wilson(successes, n)
    assert got_low == pytest.approx(low, abs=5e-4)
    assert got_high == pytest.approx(high, abs=5e-4)


def test_the_wilson_interval_is_symmetric_and_covers_everything_without_trials() -> None:
    low, high = wilson(2, 9)
    mirror_low, mirror_high = wilson(7, 9)
    assert low == pytest.approx(1 - mirror_high)
    assert high == pytest.approx(1 - mirror_low)
    assert wilson(0, 0) == (0.0, 1.0)
    assert str(rate(5, 6)).startswith("5/6 [0.44, 0.97]")


def test_the_expected_value_counts_only_as_a_whole_token() -> None:
    assert mentions("The affected shard is pay-shard-7.", "pay-shard-7")
    assert mentions("shard: PAY_SHARD_7", "pay-shard-7")
    assert not mentions("pay-shard-70 is degraded", "pay-shard-7")
    assert not mentions("extension 44170", "4417")


@pytest.mark.parametrize(
    ("answer", "outcome"),
    [
        ("The affected payments shard is pay-shard-7.", "correct"),
        ("The affected payments shard is shard 4417", "other_record"),
        ("pay_shard_1", "other_record"),
        ("I don't know which shard was affected.", "refusal"),
        ("None available", "refusal"),
        ("The shard was not found in the conversation.", "refusal"),
        ("", "refusal"),
        ("pool", "other"),
        ("It was the pool_exhausted shard", "other"),
    ],
)
def test_answers_are_classified_as_correct_another_record_refusal_or_other(
    answer: str, outcome: str
) -> None:
    others = ("4417", "pay-shard-1", "pay-shard-3")
    assert classify(answer, "pay-shard-7", others=others) == outcome


def test_a_regex_expectation_matches_case_insensitively() -> None:
    assert classify("PAY SHARD 7 it is", regex=r"pay[-_ ]shard[-_ ]7") == "correct"
    assert classify("shard 9", regex=r"pay[-_ ]shard[-_ ]7") == "other"


def test_with_a_regex_the_plain_value_and_the_distractors_still_count() -> None:
    regex = r"refund.{0,30}approved"
    # the value in a form the regex does not cover is still correct
    assert classify("It was $3,000.", "3000 USD", regex=regex) == "correct"
    # another record's value in other words is another record's, not "other"
    others = ("5000 USD", ("orders", "2026-03-13"), "2026-03-12")
    assert classify("The cap is 5,000 dollars.", "3000 USD", regex=regex, others=others) == (
        "other_record"
    )
    assert classify("At 2026-03-12T08:15:00Z", "2026-03-14", regex=regex, others=others) == (
        "other_record"
    )
    assert classify("orders, partition of March 13", "x", regex=regex, others=others) == (
        "other_record"
    )
    assert classify("the events table, 2026-03-13", "x", regex=regex, others=others) == "other"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("$5,000", "5000 USD"),
        ("USD 5000.00", "5000 usd"),
        ("5k euros", "5000 EUR"),
        ("on 14 March 2026", "2026-03-14"),
        ("March 14, 2026 at noon", "2026-03-14"),
        ("2026/03/14", "2026-03-14"),
        ("logged 2026-03-14T09:12:00.120Z", "2026-03-14"),
        ("it broke on March 14", "2026-03-14"),
        ("p99 of 250 milliseconds", "250 ms"),
        ("waits 30 seconds", "30s"),
    ],
)
def test_values_are_recognised_in_the_forms_models_write_them(text: str, value: str) -> None:
    assert mentions(text, value)


def test_normalised_values_still_need_the_same_value() -> None:
    assert not mentions("$50,000", "5000 USD")
    assert not mentions("on 2025-03-14", "2026-03-14")
    assert not mentions("on March 15", "2026-03-14")
    assert not mentions("window 30m", "30000")
    assert mentions("orders partition 2026-03-13", ("orders", "2026-03-13"))
    assert not mentions("orders partition 2026-03-14", ("orders", "2026-03-13"))


def test_a_refusal_is_recognised_in_its_usual_phrasings() -> None:
    for text in ("Not found.", "I cannot find that", "The logs do not mention it", "Unknown"):
        assert is_refusal(text), text
    assert not is_refusal("The extension is 5805.")


def test_a_hedge_is_not_a_refusal() -> None:
    assert not is_refusal("I'm not sure, but I think it is the primary replica.")
    answer = "I'm not sure, but it should be pay-shard-1."
    assert classify(answer, "pay-shard-7", others=("pay-shard-1",)) == "other_record"


def test_a_tally_reports_the_correct_rate_with_its_interval() -> None:
    result = tally(["correct", "correct", "other_record", "refusal"])
    assert result.n == 4
    assert result.counts == {"correct": 2, "other_record": 1, "refusal": 1, "other": 0}
    summary = result.as_dict()
    assert summary["rate"] == 0.5
    assert summary["low"] == pytest.approx(wilson(2, 4)[0], abs=1e-4)


def test_the_classifier_agrees_with_the_hand_labelled_answers() -> None:
    import yaml

    path = Path(__file__).resolve().parents[2] / "benchmarks/data/answers/labelled.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))

    def value(v: object) -> str | tuple[str, ...]:
        return tuple(str(x) for x in v) if isinstance(v, list) else str(v)

    agree = 0
    for item in data["answers"]:
        probe = data["probes"][item["probe"]]
        got = classify(
            item["answer"],
            value(probe.get("expected", "")),
            regex=probe.get("expected_regex"),
            others=[value(d) for d in probe.get("distractors", [])],
        )
        agree += got == item["label"]
    assert len(data["answers"]) >= 100
    assert agree / len(data["answers"]) >= 0.95
