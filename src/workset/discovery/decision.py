"""Whether the catalog serves a need: several signals of the best candidates, one calibrated model.

One cosine cannot tell "no tool does this" from "the right tool is described in other words":
wrong matches for off-catalog needs often score above right matches for oddly phrased ones.
The decision reads, for the best candidate (:class:`Evidence`): its meaning score, how far it
stands above the next candidate, its full-document and best-example cosines (does the tool's
own text agree with the requests written for it?), the share of the need's words it holds,
its server's cosine and whether that server is the best-matching one, how many of the top
three candidates come from that server, and whether a command's first word ("book",
"publish") occurs in the tool's texts at all: near misses often do the right thing to the
right object except for the action asked ("book" a train where the tool searches tickets).
A logistic model over those features, standardised, gives the probability that the need is
servable; below :attr:`Calibration.threshold` the answer is "not found".

The coefficients are fitted on the tuning half of ``benchmarks/data/needs/needs.jsonl``
(class-balanced, L2-regularised; refit and print them with
``python benchmarks/tool_catalog.py --fit``) and committed here; the threshold is chosen on
that half too, at the point where at most 5 % of answerable needs are refused. Two sets exist:
for an index whose tools have example requests and for one without (features shift when
examples exist). :func:`why_rejected` turns a rejected candidate's evidence into the reasons
the ``tool_search`` result shows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from workset.errors import UsageError

FEATURES = (
    "cosine",
    "margin",
    "document_cosine",
    "example_cosine",
    "lexical",
    "server_cosine",
    "server_is_best",
    "same_server_share",
    "action_covered",
)


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the index measured for one candidate tool."""

    cosine: float  # the meaning score the ranking used
    document_cosine: float  # best of its full and short documents
    example_cosine: float  # best of its example requests (document_cosine without any)
    margin: float  # its meaning score minus the next candidate's
    lexical: float  # share of the need's content words found in its texts
    server_cosine: float
    server_rank: int  # 0 = its server matches the need best of all servers
    shared_words: tuple[str, ...] = ()
    has_examples: bool = False
    action_covered: bool = True  # a command's first word occurs in its texts (or a question)
    action: str = ""  # that word


@dataclass(frozen=True, slots=True)
class Calibration:
    """A logistic model over standardised :data:`FEATURES`, and the decision threshold."""

    weights: tuple[float, ...]
    bias: float
    means: tuple[float, ...]
    scales: tuple[float, ...]
    threshold: float
    typical_cosine: float  # a low quantile of right matches' cosines: "below what matches score"

    def probability(self, features: Sequence[float]) -> float:
        z = self.bias + sum(
            w * (x - m) / s
            for w, x, m, s in zip(self.weights, features, self.means, self.scales, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))


@dataclass(frozen=True, slots=True)
class Decision:
    found: bool
    probability: float
    features: tuple[float, ...]
    calibration: Calibration


# Fitted by `python benchmarks/tool_catalog.py --fit` on the tuning half (152 servable, 21
# unservable needs), with no example requests in the index, on the features in USED. On that
# half (with a BM25 weight of 0.2) they ranked needs better than the cosine alone (AUC 0.80
# vs 0.72), but at this
# operating point they refuse fewer unservable needs (2 vs 4 of 21, at 7 and 8 of 152
# servable ones refused): 21 negatives are too few to tell these apart; see the benchmark.
WITHOUT_EXAMPLES = Calibration(
    weights=(0.9797, -0.3028, 0.0, 0.0, 0.1338, 0.0, 0.0, 0.0, 0.6884),
    bias=0.4798,
    means=(0.3787, 0.0474, 0.3787, 0.3787, 0.2999, 0.2666, 0.7168, 0.7264, 0.5723),
    scales=(0.1384, 0.0953, 0.1384, 0.1384, 0.1918, 0.1242, 0.4506, 0.2746, 0.4948),
    threshold=0.2038,
    typical_cosine=0.234,
)
# The committed expansions file does not cover the catalog yet (benchmarks/expand_tools.py
# resumes it); until it does, an index with examples uses the same model. Refit with --fit.
WITH_EXAMPLES = WITHOUT_EXAMPLES


def features(candidates: Sequence[Evidence]) -> tuple[float, ...]:
    """The :data:`FEATURES` of a search, from its candidates best first."""
    if not candidates:
        raise UsageError("a decision needs at least one candidate")
    best = candidates[0]
    top = candidates[:3]
    same = sum(1 for c in top if c.server_rank == best.server_rank) / len(top)
    return (
        best.cosine,
        best.margin,
        best.document_cosine,
        best.example_cosine,
        best.lexical,
        best.server_cosine,
        1.0 if best.server_rank == 0 else 0.0,
        same,
        1.0 if best.action_covered else 0.0,
    )


def decide(candidates: Sequence[Evidence], calibration: Calibration | None = None) -> Decision:
    """Found or not found, from the candidates of one search (best first)."""
    chosen = calibration or (
        WITH_EXAMPLES if any(c.has_examples for c in candidates) else WITHOUT_EXAMPLES
    )
    x = features(candidates)
    p = chosen.probability(x)
    return Decision(p >= chosen.threshold, p, x, chosen)


def why_rejected(evidence: Evidence, calibration: Calibration, *, top_servers: int = 3) -> str:
    """Plain reasons a candidate is not taken as a match, for the model to read."""
    reasons = []
    if evidence.cosine < calibration.typical_cosine:
        reasons.append(
            f"its meaning is not close (similarity {evidence.cosine:.2f}; real matches "
            f"usually score above {calibration.typical_cosine:.2f})"
        )
    if not evidence.shared_words:
        reasons.append("it shares no word with the need")
    elif evidence.lexical < 0.34:
        reasons.append(f"it shares only {', '.join(repr(w) for w in evidence.shared_words)}")
    if evidence.server_rank >= top_servers:
        reasons.append("its server is not one of those closest to the need")
    if not evidence.action_covered:
        reasons.append(f"nothing in it says it can {evidence.action!r}")
    if evidence.has_examples and evidence.example_cosine < evidence.document_cosine - 0.05:
        reasons.append("none of the requests it serves resembles the need")
    if not reasons:
        reasons.append("the closest tool, but nothing in it clearly does what is asked")
    return "; ".join(reasons)


# The features the committed models use, chosen on the tuning half (see the module docstring).
USED = ("cosine", "margin", "lexical", "action_covered")


def fit_calibration(
    rows: npt.NDArray[np.float64],
    labels: npt.NDArray[np.float64],
    *,
    use: Sequence[str] = USED,
    refuse_at_most: float = 0.05,
    l2: float = 3.0,
    iterations: int = 50,
) -> Calibration:
    """Fit a class-balanced, L2-regularised logistic model by Newton's method.

    ``rows`` are :data:`FEATURES` per search, ``labels`` 1 for servable needs and 0 for the
    rest; only the features named in ``use`` get a weight (the others get 0). The threshold
    is the highest probability that still accepts all but ``refuse_at_most`` of the servable
    needs. ``typical_cosine`` (the reasons' yardstick) is the 10th percentile of the servable
    needs' cosine.
    """
    if rows.ndim != 2 or rows.shape[1] != len(FEATURES) or rows.shape[0] != labels.shape[0]:
        raise UsageError(f"fit needs an (n, {len(FEATURES)}) array and n labels")
    if labels.min() == labels.max():
        raise UsageError("fit needs both servable and unservable needs")
    unknown = sorted(set(use) - set(FEATURES))
    if unknown:
        raise UsageError(f"unknown features {unknown}; use names from FEATURES")
    mask = np.array([name in use for name in FEATURES])
    means = rows.mean(axis=0)
    scales = rows.std(axis=0)
    scales[scales < 1e-6] = 1.0
    x = np.hstack([np.ones((rows.shape[0], 1)), (rows - means) / scales * mask])
    positive = labels.mean()
    sample = np.where(labels > 0.5, 0.5 / positive, 0.5 / (1 - positive))
    beta = np.zeros(x.shape[1])
    penalty = np.eye(x.shape[1]) * l2
    penalty[0, 0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        gradient = x.T @ (sample * (p - labels)) + penalty @ beta
        hessian = (x.T * (sample * p * (1 - p))) @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    probabilities = 1.0 / (1.0 + np.exp(-(x @ beta)))
    servable = np.sort(probabilities[labels > 0.5])
    cut = math.floor(refuse_at_most * len(servable))
    threshold = float(servable[cut]) if cut < len(servable) else 0.5
    cosines = rows[labels > 0.5, FEATURES.index("cosine")]
    return Calibration(
        weights=tuple(round(float(b), 4) for b in beta[1:]),
        bias=round(float(beta[0]), 4),
        means=tuple(round(float(m), 4) for m in means),
        scales=tuple(round(float(s), 4) for s in scales),
        threshold=round(threshold - 1e-4, 4),
        typical_cosine=round(float(np.quantile(cosines, 0.1)), 3),
    )
