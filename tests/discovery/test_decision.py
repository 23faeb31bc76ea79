from __future__ import annotations

import numpy as np
import pytest

from workset.discovery.decision import (
    FEATURES,
    RESTATED,
    STATED,
    USED,
    Calibration,
    Evidence,
    decide,
    features,
    fit_calibration,
    names_act,
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
        cosine=0.1,
        document_cosine=0.11,
        example_cosine=0.09,
        margin=0.005,
        lexical=0.0,
        server_cosine=0.05,
        server_rank=4,
        shared_words=(),
        action_covered=False,
        action="book",
    ),
    evidence(cosine=0.195, server_rank=9, lexical=0.0, shared_words=()),
    evidence(cosine=0.19, server_rank=11, lexical=0.0, shared_words=()),
]


@pytest.mark.parametrize("calibration", [RESTATED, STATED])
def test_a_close_specific_candidate_is_found_and_a_vague_far_one_is_not(
    calibration: Calibration,
) -> None:
    assert decide(STRONG, calibration).found
    assert not decide(WEAK, calibration).found
    assert decide(STRONG, calibration).probability > decide(WEAK, calibration).probability


def test_the_decision_uses_more_than_the_cosine() -> None:
    """Same best cosine: the server's agreement alone moves the probability across the line."""
    agreed = evidence(cosine=0.2, server_cosine=0.45)
    alone = evidence(cosine=0.2, server_cosine=0.0)
    assert decide([agreed, agreed], STATED).found
    assert not decide([alone, alone], STATED).found


def test_a_close_tool_that_cannot_do_the_act_commanded_is_not_a_match() -> None:
    """A stock quote for "buy 10 shares": close in meaning, but it cannot buy."""
    quote = evidence(cosine=0.7, server_cosine=0.6, action="buy", action_covered=False)
    assert decide([quote, quote], STATED).found
    cannot = evidence(
        cosine=0.7, server_cosine=0.6, action="buy", action_covered=False, unoffered="buy"
    )
    decided = decide([cannot, quote], STATED)
    assert not decided.found
    assert decided.unoffered == "buy"
    assert decided.probability >= STATED.threshold  # refused by the rule, not by the model
    assert "nothing in it says it can 'buy'" in why_rejected(cannot, STATED)


def test_only_the_closest_tool_decides_the_act_rule() -> None:
    cannot = evidence(cosine=0.5, unoffered="post")
    assert decide([evidence(cosine=0.7), cannot], STATED).found


def test_an_act_counts_as_named_in_any_form_of_the_word() -> None:
    assert names_act({"posting", "comment"}, "post")
    assert names_act({"shared", "link"}, "share")
    assert names_act({"booking"}, "book")
    assert not names_act({"price", "stock", "ticker"}, "buy")
    assert not names_act({"transcript", "video"}, "upload")


def test_the_calibration_follows_whether_the_need_was_also_searched_as_restated() -> None:
    restated = decide([evidence(restated=True, restated_cosine=0.5, restated_lexical=0.4)])
    assert restated.calibration is RESTATED
    assert decide([evidence()]).calibration is STATED
    named = dict(zip(FEATURES, restated.features, strict=True))
    assert named["restated_cosine"] == pytest.approx(0.5)
    plain = dict(zip(FEATURES, decide([evidence()]).features, strict=True))
    assert plain["restated_cosine"] == plain["cosine"]  # no restatement: the need's own


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
    text = why_rejected(WEAK[0], RESTATED)
    assert "not close" in text
    assert "shares no word" in text
    assert "server is not one of those closest" in text
    partial = why_rejected(evidence(cosine=0.9, lexical=0.2, shared_words=("train",)), RESTATED)
    assert "shares only 'train'" in partial
    assert "not close" not in partial
    booking = evidence(cosine=0.9, action_covered=False, action="book")
    assert "nothing in it says it can 'book'" in why_rejected(booking, RESTATED)
    far = evidence(cosine=0.9, restated=True, restated_cosine=0.1)
    assert "restated as a tool description is not close" in why_rejected(far, RESTATED)


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


def test_needs_the_act_rule_refuses_are_left_out_of_the_fit_and_spend_the_budget() -> None:
    rng = np.random.default_rng(3)
    servable = rng.normal(0.55, 0.08, size=(100, len(FEATURES)))
    unservable = rng.normal(0.3, 0.08, size=(20, len(FEATURES)))
    rows = np.vstack([servable, unservable])
    labels = np.array([1.0] * 100 + [0.0] * 20)
    vetoed = np.zeros(120, dtype=bool)
    vetoed[:3] = True  # three servable needs the rule already refuses
    vetoed[100:110] = True
    free = fit_calibration(rows, labels, refuse_at_most=0.05)
    spent = fit_calibration(rows, labels, refuse_at_most=0.05, vetoed=vetoed)

    def refused(c: Calibration, part: np.ndarray) -> int:
        return sum(c.probability(list(r)) < c.threshold for r in part)

    assert refused(free, servable) == 5
    assert refused(spent, servable[3:]) == 2  # 5 % of 100, less the rule's 3
    with pytest.raises(UsageError, match="rule lets through"):
        fit_calibration(rows, labels, vetoed=labels < 0.5)


def test_fitting_needs_both_kinds_of_need_and_the_right_shape() -> None:
    with pytest.raises(UsageError, match="both"):
        fit_calibration(np.ones((5, len(FEATURES))), np.ones(5))
    with pytest.raises(UsageError, match="array"):
        fit_calibration(np.ones((5, 3)), np.ones(5))
