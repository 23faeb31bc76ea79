"""Scoring answers: correct, another record's value, refusal, or other; rates with Wilson CIs.

A confident wrong answer (another record's value) is worse than "not found", so the two are
counted apart. The Wilson score interval for ``k`` successes in ``n`` trials at ``z``::

    p = k / n
    centre = (p + z² / 2n) / (1 + z² / n)
    half   = z / (1 + z² / n) · sqrt(p (1 − p) / n + z² / 4n²)
    interval = [centre − half, centre + half]

It stays inside [0, 1] and is sensible for the small ``n`` (six phrasings) used here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

Outcome: TypeAlias = Literal["correct", "other_record", "refusal", "other"]
OUTCOMES: tuple[Outcome, ...] = ("correct", "other_record", "refusal", "other")
Z95 = 1.959963984540054

_REFUSALS = re.compile(
    r"not found|no (?:such |matching )?(?:record|information|data|mention)|"
    r"(?:don't|do not|doesn't|does not) (?:know|have|contain|mention|say|specify)|"
    r"none available|not available|not (?:mentioned|specified|provided|given|stated)|"
    r"(?:can't|cannot|could not|couldn't|unable to) (?:find|determine|tell|locate|answer)|"
    r"\bunknown\b|not sure|no idea|^\s*none\b",
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


def _normalise(text: str) -> str:
    return re.sub(r"[\s_\-]+", "-", text.lower())


def mentions(text: str, value: str) -> bool:
    """Whether ``value`` occurs in ``text`` as a whole token, ignoring case and ``-``/``_``."""
    needle = _normalise(value.strip())
    if not needle:
        return False
    pattern = r"(?<![0-9a-z])" + re.escape(needle) + r"(?![0-9a-z])"
    return re.search(pattern, _normalise(text)) is not None


def is_refusal(text: str) -> bool:
    return _REFUSALS.search(text) is not None


def classify(
    answer: str, expected: str, *, regex: bool = False, others: Iterable[str] = ()
) -> Outcome:
    """Correct if the expected value is there; else another record's value; else refusal."""
    found = (
        re.search(expected, answer, re.IGNORECASE) is not None
        if regex
        else mentions(answer, expected)
    )
    if found:
        return "correct"
    if any(mentions(answer, other) for other in others if other):
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
