"""Scoring answers: correct, another record's value, refusal, or other; rates with Wilson CIs.

A confident wrong answer (another record's value) is worse than "not found", so the two are
counted apart. The Wilson score interval for ``k`` successes in ``n`` trials at ``z``::

    p = k / n
    centre = (p + z² / 2n) / (1 + z² / n)
    half   = z / (1 + z² / n) · sqrt(p (1 − p) / n + z² / 4n²)
    interval = [centre − half, centre + half]

It stays inside [0, 1] and is sensible for the small ``n`` (six phrasings) used here.

A refusal is an answer that says the value is not there ("not found", "I don't know", "the
logs do not mention it"). A hedge ("I'm not sure, but …") is not one: what follows it is
classified like any other answer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from .match import Value, mentions, mentions_any

Outcome: TypeAlias = Literal["correct", "other_record", "refusal", "other"]
OUTCOMES: tuple[Outcome, ...] = ("correct", "other_record", "refusal", "other")
Z95 = 1.959963984540054

_REFUSALS = re.compile(
    r"not found|no (?:such |matching )?(?:record|information|data|mention)|"
    r"(?:don't|do not|doesn't|does not) (?:know|have|contain|mention|say|specify)|"
    r"none available|not available|not (?:mentioned|specified|provided|given|stated)|"
    r"\bno (?:\w+ ){1,3}(?:was|were|is|are|has been) (?:mentioned|specified|provided|given|"
    r"stated|found|recorded)|"
    r"(?:can't|cannot|could not|couldn't|unable to) (?:find|determine|tell|locate|answer)|"
    r"\bunknown\b|no idea|^\s*none\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Rate:
    """``successes`` out of ``n`` with its Wilson 95 % interval."""

    successes: int
    n: int
    low: float
    high: float

    @property
    def value(self) -> float:
        return self.successes / self.n if self.n else 0.0

    def __str__(self) -> str:
        return f"{self.successes}/{self.n} [{self.low:.2f}, {self.high:.2f}]"


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval; ``(0, 1)`` when there are no trials."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n={n}, got {successes}")
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(successes: int, n: int) -> Rate:
    low, high = wilson(successes, n)
    return Rate(successes, n, low, high)


def is_refusal(text: str) -> bool:
    return _REFUSALS.search(text) is not None


def classify(
    answer: str,
    expected: Value = "",
    *,
    regex: str | None = None,
    others: Iterable[Value] = (),
) -> Outcome:
    """Correct if the expected value is named (or the regex matches); else another record's
    value; else a refusal; else other.

    ``expected`` and ``others`` are compared in canonical form (:mod:`workset.eval.match`:
    numbers, currencies, units, dates), so "$5,000" names ``5000 USD`` and a timestamp on
    the day of a distractor date names that date. ``expected`` and any item of ``others`` may
    be a composite (a tuple whose parts must all be named: a partition of a table).
    """
    if (expected and mentions(answer, expected)) or (
        regex is not None and re.search(regex, answer, re.IGNORECASE) is not None
    ):
        return "correct"
    if mentions_any(answer, tuple(others)):
        return "other_record"
    if is_refusal(answer) or not answer.strip():
        return "refusal"
    return "other"


@dataclass
class Tally:
    """Outcome counts for one row of a report (mutable while results come in)."""

    counts: dict[Outcome, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))

    def add(self, outcome: Outcome) -> None:
        self.counts[outcome] += 1

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    @property
    def correct(self) -> Rate:
        return rate(self.counts["correct"], self.n)

    def as_dict(self) -> Mapping[str, object]:
        correct = self.correct
        counts: dict[str, object] = {k: v for k, v in self.counts.items()}
        return {
            **counts,
            "n": self.n,
            "rate": round(correct.value, 4),
            "low": round(correct.low, 4),
            "high": round(correct.high, 4),
        }


def tally(outcomes: Iterable[Outcome]) -> Tally:
    result = Tally()
    for outcome in outcomes:
        result.add(outcome)
    return result
