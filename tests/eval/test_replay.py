"""Replay counts: every call point billed as the policy would have sent it."""

from __future__ import annotations

import anyio

from workset.eval.formats import Transcript
from workset.eval.replay import ReplayResult, replay
from workset.eval.request import eval_settings
from workset.history.base import HistoryPolicy
from workset.messages import AssistantMessage, ToolMessage, ToolSpec, UserMessage
from workset.models.base import Usage
from workset.testing import call

from .helpers import ListPolicy, plain_counter

GREP = call("grep", '{"q": "bug"}', "c1")
TOOLS = (ToolSpec("grep", "Search the code."),)
# Words per message: 3, 1 (the call's name), 3, 2, 3, 1. System 2, tools 1.
TRANSCRIPT = Transcript(
    system="be brief",
    messages=(
        UserMessage("find the bug"),
        AssistantMessage(None, (GREP,)),
        ToolMessage("c1", "line one two", "grep"),
        AssistantMessage("found it"),
        UserMessage("fix it now"),
        AssistantMessage("done"),
    ),
    turns=(1, 1, 1, 1, 2, 2),
    source="hand.jsonl",
)


def _replay(policy: HistoryPolicy, window: int = 1000) -> ReplayResult:
    settings = eval_settings(TRANSCRIPT.system, plain_counter(), window=window, answer=0)
    return anyio.run(replay, TRANSCRIPT, TOOLS, policy, settings)


def test_full_history_bills_every_call_point_with_everything_before_it() -> None:
    result = _replay(ListPolicy("full"))
    # call 1: 2 + 1 + 3 = 6; call 2: 6 + 1 + 3 = 10; call 3: 10 + 2 + 3 = 15
    assert [c.total for c in result.calls] == [6, 10, 15]
    assert [c.index for c in result.calls] == [1, 3, 5]
    assert [c.turn for c in result.calls] == [1, 1, 2]
    assert result.billed == 31
    # each request starts with the whole previous one: 0, then 6, then 10 tokens reused
    assert [c.cached for c in result.calls] == [0, 6, 10]
    assert result.cached == 16
    assert result.final_context == 15


def test_a_policy_that_drops_old_turns_bills_less_and_breaks_the_cached_prefix() -> None:
    result = _replay(ListPolicy("last_turn", keep="last_turn"))
    # call 3 sees system, tools and "fix it now" only: 2 + 1 + 3
    assert [c.total for c in result.calls] == [6, 10, 6]
    assert result.billed == 22
    # call 3 shares system and tools with call 2, then "fix" differs from "find"
    assert [c.cached for c in result.calls] == [0, 6, 3]
    assert result.final_context == 6
    assert result.end.messages == TRANSCRIPT.messages[4:]


def test_a_pinned_block_costs_the_same_in_the_system_prompt_or_at_the_end() -> None:
    note = "Pinned notes:\n- employee 4417"
    block = len(note.split())
    at_system = _replay(ListPolicy("pin_sys", pinned=(note,), pinned_at="system"))
    at_end = _replay(ListPolicy("pin_end", pinned=(note,), pinned_at="end"))
    assert [c.total for c in at_system.calls] == [6 + block, 10 + block, 15 + block]
    assert at_end.billed == at_system.billed == 31 + 3 * block
    # at the end the block moves every call, so only system, tools and history are reused
    assert [c.cached for c in at_end.calls] == [0, 6, 10]
    assert [c.cached for c in at_system.calls] == [0, 6 + block, 10 + block]
    assert at_system.end.pinned_at == "system" and at_end.end.pinned == (note,)


def test_the_policys_own_model_calls_are_summed_apart_from_the_billed_tokens() -> None:
    policy = ListPolicy("summarising", cost=Usage(5, 1))
    result = _replay(policy)
    assert policy.views == 4  # three call points and the end view for the probes
    assert (result.cost.prompt_tokens, result.cost.completion_tokens) == (20, 4)
    assert result.billed == 31


def test_the_replayed_messages_are_the_recorded_objects_under_every_policy() -> None:
    full = _replay(ListPolicy("full"))
    short = _replay(ListPolicy("last_turn", keep="last_turn"))
    for message in short.end.messages:
        assert any(message is recorded for recorded in full.end.messages)
