from __future__ import annotations

import pytest
from context_support import TOOLS, counter, turns
from hypothesis import given, settings
from hypothesis import strategies as st

from workset.context.assemble import Assembler, BudgetConfig
from workset.errors import ContextBudgetError
from workset.messages import (
    Message,
    SystemMessage,
    UserMessage,
    group_units,
)


def assemble(assembler: Assembler, history: list[Message], **kw: object):  # type: ignore[no-untyped-def]
    return assembler.assemble(
        session_id="s1", system="You are terse.", tools=TOOLS, history=history, **kw
    )  # type: ignore[arg-type]


def test_the_layout_is_system_then_tools_then_trajectory_then_suffix() -> None:
    history = turns(2)
    status = UserMessage("<agent_status>calls: 2</agent_status>")
    result = assemble(Assembler(counter(), BudgetConfig(8192)), history, suffix=[status])
    assert result.request.messages[0] == SystemMessage("You are terse.")
    assert list(result.request.messages[1:-1]) == history
    assert result.request.messages[-1] == status
    kinds = [i.kind for i in result.manifest.included]
    assert kinds[:2] == ["instruction", "tool"] and kinds[-2:] == ["status", "template"]


def test_manifest_buckets_sum_to_the_exact_request_count() -> None:
    c = counter()
    result = assemble(Assembler(c, BudgetConfig(8192)), turns(3))
    system, rest = result.request.messages[0], result.request.messages[1:]
    assert isinstance(system, SystemMessage)
    expected = c.count_request(system.content, TOOLS, rest).total
    assert result.manifest.total_tokens == expected
    assert sum(result.manifest.buckets.values()) == expected
    assert sum(i.tokens for i in result.manifest.included) == expected
    assert result.manifest.buckets["tool_results"] > 0


def test_old_turns_that_do_not_fit_are_omitted_whole_with_a_reason() -> None:
    history = turns(10, size=60)
    result = assemble(
        Assembler(counter(), BudgetConfig(700, output_reserve=100, margin=10)),
        history,
        seqs=list(range(len(history))),
    )
    kept = list(result.request.messages[1:])
    assert kept == history[-len(kept) :]  # a contiguous, most recent run
    group_units(kept)  # no orphan results: would raise
    omitted = result.manifest.omitted
    assert omitted and all(o.reason == "budget" for o in omitted)
    assert len(omitted) + len(kept) == len(history)
    assert [o.seq for o in omitted] == list(range(len(omitted)))
    assert result.manifest.budget.used <= result.manifest.budget.available


def test_a_task_that_cannot_fit_raises_a_budget_error_with_the_numbers() -> None:
    history = [UserMessage(" ".join(["long"] * 900))]
    with pytest.raises(ContextBudgetError, match=r"window 600 minus output reserve 100"):
        assemble(Assembler(counter(), BudgetConfig(600, output_reserve=100)), history)


def test_prefix_reuse_is_whole_when_the_trajectory_only_grows() -> None:
    assembler = Assembler(counter(), BudgetConfig(8192))
    history = turns(2)
    first = assemble(assembler, history)
    history.append(UserMessage("and then?"))
    second = assemble(assembler, history)
    prefix = second.manifest.prefix
    assert prefix.hash == first.manifest.prefix.hash
    assert prefix.first_divergence == ""
    assert prefix.reused_tokens >= first.manifest.total_tokens - 3


def test_a_changed_system_prompt_is_named_as_the_first_divergence() -> None:
    assembler = Assembler(counter(), BudgetConfig(8192))
    history = turns(2)
    first = assemble(assembler, history)
    second = assembler.assemble(
        session_id="s1", system="You are terse. Time: 10:31", tools=TOOLS, history=history
    )
    assert second.manifest.prefix.hash != first.manifest.prefix.hash
    assert second.manifest.prefix.reused_tokens < 10
    assert second.manifest.prefix.first_divergence.startswith("position 0: system")


def test_tools_withheld_for_one_call_are_named_as_such_not_as_a_changed_system_prompt() -> None:
    assembler = Assembler(counter(), BudgetConfig(8192))
    history = turns(2)
    assemble(assembler, history)
    withheld = assembler.assemble(
        session_id="s1", system="You are terse.", tools=(), history=history, withheld_tools=TOOLS
    )
    divergence = withheld.manifest.prefix.first_divergence
    assert "tool definitions were withheld for this call by workset itself" in divergence
    assert "timestamp" not in divergence.split("not a timestamp")[0]
    back = assemble(assembler, history)
    assert "the tool definitions are back" in back.manifest.prefix.first_divergence


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 12), size=st.integers(1, 80), window=st.integers(400, 3000))
def test_any_budget_keeps_units_whole_and_accounts_for_every_message(
    n: int, size: int, window: int
) -> None:
    history = turns(n, size)
    try:
        result = assemble(
            Assembler(counter(), BudgetConfig(window, output_reserve=100, margin=0)), history
        )
    except ContextBudgetError:
        return
    kept = list(result.request.messages[1:])
    group_units(kept)
    assert len(kept) + len(result.manifest.omitted) == len(history)
    assert sum(result.manifest.buckets.values()) == result.manifest.total_tokens
    assert result.manifest.total_tokens <= window - 100
