"""Context items in the assembled request: scope, packing, layout, exact buckets."""

from __future__ import annotations

from context_support import TOOLS, counter, turns
from hypothesis import given, settings
from hypothesis import strategies as st

from workset.context.assemble import Assembler, BudgetConfig
from workset.context.items import ContextItem, Features, Reference, Scope
from workset.errors import ContextBudgetError
from workset.messages import (
    SystemMessage,
    UserMessage,
    group_units,
)

ACME_U1 = Scope("acme", "u1")


def status(text: str = "calls: read_file 2") -> ContextItem:
    return ContextItem(
        "status", "status", f"<agent_status>{text}</agent_status>", "status_bar", required=True
    )


RULE = ContextItem(
    "mem-1",
    "memory",
    '<standing_rule source="user_stated">File every ticket with employee number 4417.'
    "</standing_rule>",
    "memory:user_stated",
    scope=Scope("acme", "u1"),
    required=True,
    why="standing rule stated by the user at seq 3",
)
DOC = ContextItem(
    "doc:runbook@v3#2",
    "evidence",
    '<external_content source="doc:runbook" trust="untrusted">Restart the pool.</external_content>',
    "evidence:runbook.md",
    trust="untrusted",
    version="v3",
    scope=Scope("acme"),
    reference=Reference("doc://runbook@v3", "lines 10-14"),
    features=Features(relevance=0.8),
)
OTHER_TENANT = ContextItem(
    "doc:secret", "evidence", "globex internal numbers", "evidence:x", scope=Scope("globex")
)


def assemble_with(items: list[ContextItem], window: int = 8192, scope: Scope = ACME_U1):  # type: ignore[no-untyped-def]
    c = counter()
    result = Assembler(c, BudgetConfig(window)).assemble(
        session_id="s", system="Be terse.", tools=TOOLS, history=turns(2), items=items, scope=scope
    )
    return c, result


def test_items_follow_the_trajectory_with_the_status_bar_last_and_exact_buckets() -> None:
    c, result = assemble_with([status(), DOC, RULE, OTHER_TENANT])
    messages = result.request.messages
    assert messages[-1] == UserMessage(status().text)
    assert messages[-3:-1] == (UserMessage(RULE.text), UserMessage(DOC.text))  # memory, evidence
    assert all("globex" not in (m.content or "") for m in messages)
    system, rest = messages[0], messages[1:]
    assert isinstance(system, SystemMessage)
    exact = c.count_request(system.content, TOOLS, rest).total
    manifest = result.manifest
    assert manifest.total_tokens == exact == sum(manifest.buckets.values())
    assert manifest.buckets["memory"] > 0 and manifest.buckets["evidence"] > 0
    assert manifest.buckets["status"] > 0
    by_id = {i.item_id: i for i in manifest.included}
    assert by_id["mem-1"].why == "standing rule stated by the user at seq 3"
    assert by_id["doc:runbook@v3#2"].trust == "untrusted"
    assert by_id["doc:runbook@v3#2"].reference == "doc://runbook@v3 lines 10-14"
    assert manifest.out_of_scope == 1
    assert "doc:secret" not in {i.item_id for i in manifest.omitted}


def test_optional_items_that_do_not_fit_are_omitted_for_budget_and_required_ones_stay() -> None:
    big = ContextItem("big", "evidence", "word " * 3000, "evidence:big", scope=Scope("acme"))
    _, result = assemble_with([RULE, big, status()], window=3000)
    included = {i.item_id for i in result.manifest.included}
    assert {"mem-1", "status"} <= included and "big" not in included
    assert [o.reason for o in result.manifest.omitted if o.item_id == "big"] == ["budget"]


scopes = st.builds(
    Scope, st.sampled_from(["", "acme", "globex"]), st.sampled_from(["", "u1", "u2"])
)


@st.composite
def candidates(draw: st.DrawFn) -> list[ContextItem]:
    return [
        ContextItem(
            f"item-{k}",
            draw(st.sampled_from(["memory", "evidence", "task_state"])),
            f"ITEM{k} " + "fact " * draw(st.integers(1, 60)),
            "src",
            scope=draw(scopes),
            features=Features(draw(st.floats(0, 1)), 1.0, 1.0, draw(st.floats(0, 1))),
        )
        for k in range(draw(st.integers(0, 8)))
    ]


@settings(max_examples=60, deadline=None)
@given(candidates(), st.integers(1, 10), st.integers(500, 4000), scopes)
def test_no_item_of_another_scope_ever_appears_and_every_candidate_is_accounted_for(
    items: list[ContextItem], n: int, window: int, scope: Scope
) -> None:
    c = counter()
    history = turns(n, 30)
    try:
        result = Assembler(c, BudgetConfig(window, output_reserve=100, margin=0)).assemble(
            session_id="s", system="S", tools=TOOLS, history=history, items=items, scope=scope
        )
    except ContextBudgetError:
        return
    text = "\n".join(m.content or "" for m in result.request.messages)
    manifest = result.manifest
    for item in items:
        visible = f"ITEM{item.item_id.split('-')[1]} " in text
        if not scope.admits(item.scope):
            assert not visible  # another tenant or subject never appears
            assert item.item_id not in {i.item_id for i in (*manifest.included, *manifest.omitted)}
    in_scope = {i.item_id for i in items if scope.admits(i.scope)}
    listed = {i.item_id for i in manifest.included} | {o.item_id for o in manifest.omitted}
    assert in_scope <= listed  # included + omitted = all candidates
    kept = [m for m in result.request.messages[1:] if m in history]
    group_units(kept)  # raises if a protocol unit was split
    system, rest = result.request.messages[0], result.request.messages[1:]
    assert isinstance(system, SystemMessage)
    exact = c.count_request(system.content, TOOLS, rest).total
    assert manifest.total_tokens == exact == sum(manifest.buckets.values())


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.integers(400, 2500), st.data())
def test_messages_a_policy_kept_on_purpose_survive_a_budget_cut_before_older_ones(
    n: int, window: int, data: st.DataObject
) -> None:
    history = turns(n, 40)
    users = [i for i, m in enumerate(history) if isinstance(m, UserMessage)]
    keep = data.draw(st.sets(st.sampled_from(users)))
    try:
        result = Assembler(counter(), BudgetConfig(window, output_reserve=100, margin=0)).assemble(
            session_id="s",
            system="S",
            tools=TOOLS,
            history=history,
            seqs=list(range(len(history))),
            kept_because={i: "user message kept verbatim" for i in keep},
        )
    except ContextBudgetError:
        return
    kept = list(result.request.messages[1:])
    group_units(kept)  # no protocol unit split
    manifest = result.manifest
    assert len(kept) + len(manifest.omitted) == len(history)  # every message accounted for
    assert [m for m in kept if m in history] == [m for m in history if m in kept]  # in order
    kept_seqs = {i.seq for i in manifest.included if i.seq is not None}
    dropped_plain = [i for i in range(len(history)) if i not in kept_seqs and i not in keep]
    if dropped_plain:  # a protected message is only dropped if it alone did not fit
        newest_dropped = max(dropped_plain)
        for i in keep:
            if i < newest_dropped and i not in kept_seqs:
                assert any(o.seq == i and o.reason == "budget" for o in manifest.omitted)
    assert manifest.total_tokens == sum(manifest.buckets.values())
    assert all(i.why == "user message kept verbatim" for i in manifest.included if i.seq in keep)
