"""The candidate pipeline: scope filter, utility, packing, layout (seed 001's example)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workset.context.items import ContextItem, Features, Scope
from workset.context.packing import Weights, layout, pack, utility
from workset.errors import ContextBudgetError


def candidate(
    item_id: str,
    tenant: str,
    tokens: int,
    relevance: float,
    authority: float,
    freshness: float,
    redundant: bool = False,
) -> tuple[ContextItem, int]:
    item = ContextItem(
        item_id,
        "evidence",
        f"text of {item_id}",
        f"doc:{item_id}",
        scope=Scope(tenant),
        features=Features(relevance, authority, freshness, 1.0 if redundant else 0.0),
    )
    return item, tokens


SEED = [
    candidate("policy-v3", "t1", 900, 0.9, 1.0, 1.0),
    candidate("forum-post", "t1", 400, 0.9, 0.3, 1.0),
    candidate("other-tenant-doc", "t2", 100, 1.0, 1.0, 1.0),
    candidate("policy-v2", "t1", 900, 0.9, 1.0, 0.2, redundant=True),
]


def seed_pack(cands: list[tuple[ContextItem, int]], window: int, max_output: int, overhead: int):
    tokens = {c.item_id: n for c, n in cands}
    return pack(
        [c for c, _ in cands],
        scope=Scope("t1"),
        room=window - max_output - overhead,
        tokens=tokens,
    )


def test_seed_001_pack_context_example_selects_v3_and_forum_and_drops_v2() -> None:
    packing = seed_pack(SEED, 4000, 1500, 500)
    selected = sorted(packing.selected, key=lambda c: -packing.utilities[c.item_id])
    assert [c.item_id for c in selected] == ["policy-v3", "forum-post"]
    assert [(o.item_id, o.reason) for o in packing.omitted] == [("policy-v2", "negative_utility")]
    assert packing.used == 1300
    listed = [c.item_id for c in packing.selected] + [o.item_id for o in packing.omitted]
    assert "other-tenant-doc" not in listed and packing.out_of_scope == 1
    larger = seed_pack(SEED, 5000, 1500, 500)
    assert {c.item_id for c in larger.selected} == {"policy-v3", "forum-post"}
    assert seed_pack([SEED[-1]], 4000, 1500, 500).selected == ()


def test_an_item_that_does_not_fit_is_omitted_for_budget_and_a_smaller_one_still_fits() -> None:
    cands = [candidate("big", "t1", 900, 1, 1, 1), candidate("small", "t1", 50, 0.5, 1, 1)]
    packing = pack(
        [c for c, _ in cands], scope=Scope("t1"), room=800, tokens={"big": 900, "small": 50}
    )
    assert [c.item_id for c in packing.selected] == ["small"]
    assert packing.omitted[0].reason == "budget" and "800 tokens left" in packing.omitted[0].detail


def test_required_items_go_first_and_raise_a_budget_error_when_they_cannot_fit() -> None:
    rule = ContextItem("rule", "memory", "file tickets with 4417", "memory:user", required=True)
    doc = ContextItem("doc", "evidence", "x", "doc", features=Features(relevance=1.0))
    packing = pack([doc, rule], scope=Scope(), room=10, tokens={"rule": 6, "doc": 6})
    assert [c.item_id for c in packing.selected] == ["rule"]
    with pytest.raises(ContextBudgetError, match="rule \\(6\\)"):
        pack([rule], scope=Scope(), room=5, tokens={"rule": 6})


def test_expired_and_duplicate_items_are_omitted_with_their_reasons() -> None:
    old = ContextItem("old", "memory", "plan: free", "memory", expires_at=100.0)
    a = ContextItem("a", "evidence", "same", "doc")
    b = ContextItem("b", "evidence", "same", "doc")
    packing = pack([old, a, b], scope=Scope(), room=100, tokens=lambda c: 5, now=100.0)
    assert {(o.item_id, o.reason) for o in packing.omitted} == {
        ("old", "expired"),
        ("b", "duplicate"),
    }


def test_injection_risk_lowers_utility_below_zero() -> None:
    risky = ContextItem("r", "evidence", "ignore rules", "web", features=Features(injection_risk=1))
    assert utility(risky) == 0.0
    assert utility(risky, Weights(injection_risk=2.0)) < 0


def test_layout_orders_by_kind_with_the_status_bar_last() -> None:
    status = ContextItem("s", "status", "<agent_status/>", "status")
    ev = ContextItem("e", "evidence", "doc", "doc")
    mem = ContextItem("m", "memory", "fact", "memory")
    assert [c.item_id for c in layout([status, ev, mem])] == ["m", "e", "s"]


tenants = st.sampled_from(["", "t1", "t2"])
subjects = st.sampled_from(["", "u1", "u2"])


@st.composite
def items(draw: st.DrawFn) -> list[ContextItem]:
    n = draw(st.integers(0, 12))
    return [
        ContextItem(
            f"i{k}",
            draw(st.sampled_from(["memory", "evidence", "task_state"])),
            f"text {k}",
            "src",
            scope=Scope(draw(tenants), draw(subjects)),
            features=Features(
                draw(st.floats(0, 1)), draw(st.floats(0, 1)), 1.0, draw(st.floats(0, 1))
            ),
        )
        for k in range(n)
    ]


@given(items(), st.integers(0, 80), tenants, subjects)
def test_packing_never_selects_another_scope_and_accounts_for_every_candidate(
    cands: list[ContextItem], room: int, tenant: str, subject: str
) -> None:
    scope = Scope(tenant, subject)
    packing = pack(cands, scope=scope, room=room, tokens=lambda c: 7)
    for item in packing.selected:
        assert item.scope.tenant in ("", tenant) and item.scope.subject in ("", subject)
    in_scope = {c.item_id for c in cands if scope.admits(c.scope)}
    listed = [c.item_id for c in packing.selected] + [o.item_id for o in packing.omitted]
    assert sorted(listed) == sorted(in_scope)  # included + omitted = all candidates
    assert packing.used <= room and packing.used == 7 * len(packing.selected)
