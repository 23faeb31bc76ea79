from __future__ import annotations

import numpy as np
import pytest

from workset.discovery.decision import (
    FEATURES,
    USED,
    WITH_EXAMPLES,
    WITHOUT_EXAMPLES,
    Calibration,
    Evidence,
    decide,
    features,
    fit_calibration,
    why_rejected,
)
from workset.errors import UsageError


def evidence(**changes: object) -> Evidence:
    base: dict[str, object] = {
        "cosine": 0.55,
        "document_cosine": 0.52,
        "example_cosine": 0.6,
        "margin": 0.08,
        "lexical": 0.5,
        "server_cosine": 0.4,
        "server_rank": 0,
        "shared_words": ("weather", "city"),
        "has_examples": True,
    }
    base.update(changes)
    return Evidence(**base)  # type: ignore[arg-type]


STRONG = [evidence(), evidence(cosine=0.4, margin=0.02), evidence(cosine=0.35, server_rank=2)]
WEAK = [
    evidence(
        cosine=0.2,
        document_cosine=0.21,
        example_cosine=0.19,
        margin=0.005,
        lexical=0.0,
        server_cosine=0.12,
        server_rank=4,
        shared_words=(),
        action_covered=False,
        action="book",
    ),
    evidence(cosine=0.195, server_rank=9, lexical=0.0, shared_words=()),
    evidence(cosine=0.19, server_rank=11, lexical=0.0, shared_words=()),
]


@pytest.mark.parametrize("calibration", [WITH_EXAMPLES, WITHOUT_EXAMPLES])
def test_a_close_specific_candidate_is_found_and_a_vague_far_one_is_not(
    calibration: Calibration,
) -> None:
    assert decide(STRONG, calibration).found
    assert not decide(WEAK, calibration).found
    assert decide(STRONG, calibration).probability > decide(WEAK, calibration).probability


def test_the_decision_uses_more_than_the_cosine() -> None:
    """Same best cosine: the other signals alone move the probability across the threshold."""
    asked = evidence(cosine=0.22, document_cosine=0.22, example_cosine=0.22)
    unsupported = evidence(
        cosine=0.22, document_cosine=0.22, example_cosine=0.22, action_covered=False, action="book"
    )
    decided = decide([asked, asked], WITHOUT_EXAMPLES)
    refused = decide([unsupported, unsupported], WITHOUT_EXAMPLES)
    assert decided.found and not refused.found
    lexical = decide([evidence(cosine=0.3, lexical=0.0, shared_words=())], WITHOUT_EXAMPLES)
    assert lexical.probability != decide([evidence(cosine=0.3)], WITHOUT_EXAMPLES).probability


def test_the_calibration_follows_whether_the_tools_have_examples() -> None:
    with_examples = decide([evidence(has_examples=True)])
    without = decide([evidence(has_examples=False)])
    assert with_examples.calibration is WITH_EXAMPLES
    assert without.calibration is WITHOUT_EXAMPLES


def test_features_read_the_best_candidate_and_its_servers_share_of_the_top_three() -> None:
    row = features([evidence(server_rank=0), evidence(server_rank=0), evidence(server_rank=3)])
    assert len(row) == len(FEATURES)
    named = dict(zip(FEATURES, row, strict=True))
    assert named["cosine"] == pytest.approx(0.55)
    assert named["server_is_best"] == 1.0
    assert named["same_server_share"] == pytest.approx(2 / 3)
    with pytest.raises(UsageError, match="at least one candidate"):
        features([])


def test_rejection_reasons_name_what_was_weak() -> None:
    text = why_rejected(WEAK[0], WITH_EXAMPLES)
    assert "not close" in text
    assert "shares no word" in text
    assert "server is not one of those closest" in text
    partial = why_rejected(
        evidence(cosine=0.9, lexical=0.2, shared_words=("train",)), WITH_EXAMPLES
    )
    assert "shares only 'train'" in partial
    assert "not close" not in partial
    booking = evidence(cosine=0.9, action_covered=False, action="book")
    assert "nothing in it says it can 'book'" in why_rejected(booking, WITH_EXAMPLES)


def test_a_fitted_model_separates_what_it_was_fitted_on_and_refuses_few_servable_needs() -> None:
    rng = np.random.default_rng(7)
    servable = rng.normal(0.55, 0.08, size=(200, len(FEATURES)))
    unservable = rng.normal(0.3, 0.08, size=(40, len(FEATURES)))
    rows = np.vstack([servable, unservable])
    labels = np.array([1.0] * 200 + [0.0] * 40)
    fitted = fit_calibration(rows, labels, refuse_at_most=0.03, l2=1.0)
    accepted = [fitted.probability(list(r)) >= fitted.threshold for r in rows]
    assert sum(accepted[:200]) >= 194  # at most 3 % of servable needs refused
    assert sum(not a for a in accepted[200:]) >= 36
    used = [w for name, w in zip(FEATURES, fitted.weights, strict=True) if name in USED]
    unused = [w for name, w in zip(FEATURES, fitted.weights, strict=True) if name not in USED]
    assert all(w > 0 for w in used) and all(w == 0 for w in unused)


def test_fitting_needs_both_kinds_of_need_and_the_right_shape() -> None:
    with pytest.raises(UsageError, match="both"):
        fit_calibration(np.ones((5, len(FEATURES))), np.ones(5))
    with pytest.raises(UsageError, match="array"):
        fit_calibration(np.ones((5, 3)), np.ones(5))
