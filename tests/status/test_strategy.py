"""Replace and append place the status block last; the cost model picks the cheaper one."""

from __future__ import annotations

import itertools

import pytest

from workset.errors import UsageError
from workset.messages import AssistantMessage, Message, ToolCall, ToolMessage, UserMessage
from workset.status.strategy import (
    StatusStrategy,
    cost_model,
    is_status_message,
    place_status,
)

# The seed: reading from the prompt cache costs "about a tenth" of a normal input token.
SEED_ALPHA = 0.1


def block(n: int) -> str:
    return f"<agent_status>\n- phone_call: {n} calls\n</agent_status>"


def simulate(strategy: StatusStrategy, rounds: int) -> list[tuple[Message, ...]]:
    """The requests of ``rounds`` rounds of one tool call each, as the loop would send them."""
    history: list[Message] = [UserMessage("Cancel my Xfinity plan")]
    requests = []
    for n in range(rounds):
        placed = place_status(history, block(n), strategy)
        requests.append(placed.messages)
        if placed.record is not None:
            history.append(placed.record)
        call = ToolCall(f"c{n}", "phone_call", '{"company": "Xfinity"}')
        history += [AssistantMessage(None, (call,)), ToolMessage(f"c{n}", "on hold", "phone_call")]
    return requests


def test_replace_sends_exactly_one_current_block_last_and_records_none() -> None:
    requests = simulate("replace", 3)
    for n, request in enumerate(requests):
        assert request[-1] == UserMessage(block(n))
        assert sum(is_status_message(m) for m in request) == 1
    # only the tail changes: each request minus its block is a prefix of the next one
    for before, after in itertools.pairwise(requests):
        assert after[: len(before) - 1] == before[:-1]


def test_append_keeps_every_block_so_each_request_extends_the_previous_one() -> None:
    requests = simulate("append", 3)
    for n, request in enumerate(requests):
        assert request[-1] == UserMessage(block(n))
        assert sum(is_status_message(m) for m in request) == n + 1
    for before, after in itertools.pairwise(requests):
        assert after[: len(before)] == before


def test_an_unknown_strategy_is_refused() -> None:
    with pytest.raises(UsageError, match="'replace' or 'append'"):
        place_status([], block(0), "rewrite")  # type: ignore[arg-type]


def test_a_small_status_with_long_rounds_favours_append() -> None:
    # α = 0.1, S = 200-token block, N = 20 updates, R = 1,000 tokens between updates
    cost = cost_model(SEED_ALPHA, 200, 20, 1000)
    assert cost.append_side == pytest.approx(200.0)  # α·S·N/2
    assert cost.replace_side == pytest.approx(900.0)  # (1−α)·R
    assert cost.replace_cost == pytest.approx(17_100.0)  # (N−1)(1−α)R
    assert cost.append_cost == pytest.approx(3_800.0)  # α·S·N(N−1)/2
    assert cost.winner == "append"
    assert cost.explain().startswith("α·S·N/2 = 0.1·200·20/2 = 200 < (1−α)·R = 900: append wins")


def test_a_big_status_updated_often_favours_replace() -> None:
    # α = 0.1, S = 2,000-token block, N = 50 updates, R = 300 tokens between updates
    cost = cost_model(SEED_ALPHA, 2000, 50, 300)
    assert cost.append_side == pytest.approx(5_000.0)
    assert cost.replace_side == pytest.approx(270.0)
    assert cost.replace_cost == pytest.approx(13_230.0)
    assert cost.append_cost == pytest.approx(245_000.0)
    assert cost.winner == "replace"


def test_the_inequality_and_the_two_costs_always_agree() -> None:
    for alpha, s, n, r in itertools.product(
        (0.0, 0.1, 0.5, 0.9), (0, 50, 800), (2, 10), (0, 100, 2000)
    ):
        cost = cost_model(alpha, s, n, r)
        if cost.append_cost != cost.replace_cost:
            cheaper = "append" if cost.append_cost < cost.replace_cost else "replace"
            assert cost.winner == cheaper, (alpha, s, n, r)


def test_a_tie_goes_to_replace_as_the_seed_says_otherwise() -> None:
    assert cost_model(0.5, 1, 2, 1).winner == "replace"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((1.5, 10, 2, 10), "within 0..1"),
        ((0.1, -1, 2, 10), "cannot be negative"),
        ((0.1, 10, 0, 10), "at least 1"),
    ],
)
def test_impossible_cost_inputs_are_refused(
    arguments: tuple[float, int, int, int], message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        cost_model(*arguments)
