"""A 40-turn session under a budget that excludes most of it: what must survive, survives.

Seed 003's planted facts: a standing rule at turn 2 (an employee number) and a fact at turn 19
(the affected shard). At turn 40 both are in the request, and the manifest says why.
"""

from __future__ import annotations

from pathlib import Path

import anyio

from workset.context.items import Scope
from workset.context.manifest import Manifest
from workset.events import LoopEvent, ModelCalled
from workset.history.policies import make_policy
from workset.memory.context import MemoryContext
from workset.memory.store import MemoryStore
from workset.messages import AssistantMessage, Message
from workset.session.agent import Agent
from workset.testing import ScriptedModel, call, current_store
from workset.tools.base import tool
from workset.tools.registry import ToolRegistry

RULE = "Any ticket you open must be filed with my employee number, 4417."
FACT = "The affected shard is pay-shard-7, confirmed by the payments team."


def user_turn(turn: int) -> str:
    if turn == 2:
        return RULE
    if turn == 19:
        return FACT
    if turn == 40:
        return "Open the incident ticket now."
    return f"Check the error rate of the payments API in window {turn}."


@tool(read_only=True, examples=({"query": "timeout"},))
def search_logs(query: str) -> str:
    """Search the service logs.

    Args:
        query: Words to look for, e.g. "timeout".
    """
    line = "2026-11-30T10:00:00Z ERROR payments-api pool_exhausted request_id=r-{} latency_ms=812"
    return "\n".join(line.format(i) for i in range(12))


def run_session(tmp_path: Path, policy: str) -> tuple[list[Manifest], list[Message]]:
    script: list[AssistantMessage | str] = []
    for turn in range(1, 41):
        args = f'{{"query": "window {turn}"}}'
        script += [AssistantMessage(None, (call("search_logs", args, f"t{turn}"),)), f"ok {turn}"]
    model = ScriptedModel(script, context_window=2600)
    seen: list[LoopEvent] = []
    agent = Agent(
        model,
        ToolRegistry([search_logs]),
        current_store(),
        subscribers=[seen.append],
        sources=[MemoryContext(MemoryStore(tmp_path / "memory.db"))],
        scope=Scope("acme", "u1"),
        history_policy=lambda: make_policy(policy, turns=4),
    )
    session: str | None = None

    async def go() -> None:
        nonlocal session
        for turn in range(1, 41):
            result = await agent.run(user_turn(turn), session_id=session)
            assert result.status == "finished", result.error
            session = result.session_id

    anyio.run(go)
    manifests = [e.manifest for e in seen if isinstance(e, ModelCalled)]
    return manifests, list(model.requests[-1].messages)


def test_the_turn_2_rule_and_the_turn_19_fact_reach_turn_40_with_reasons(tmp_path: Path) -> None:
    manifests, final = run_session(tmp_path, "user_verbatim")
    last = manifests[-1]
    text = "\n".join(m.content or "" for m in final)
    assert "4417" in text and "pay-shard-7" in text
    # most of the history is not in the request
    assert len(last.omitted) > 100 and last.history_policy == "user_verbatim"
    [rule] = [i for i in last.included if i.kind == "memory" and i.item_id.startswith("mem")]
    assert "standing rule" in rule.why and "seq:" in rule.why
    [fact] = [i for i in last.included if i.seq is not None and "pay-shard-7" in _at(final, i)]
    assert "verbatim" in fact.why
    assert last.total_tokens <= 2600 - 512 - 64


def test_a_pinned_rule_survives_a_window_that_dropped_the_message_stating_it(
    tmp_path: Path,
) -> None:
    manifests, final = run_session(tmp_path, "window")
    text = "\n".join(m.content or "" for m in final)
    assert RULE not in [m.content for m in final]  # the turn-2 message itself is gone
    assert "4417" in text  # but the rule is there, pinned
    assert "pay-shard-7" not in text  # a plain window loses the turn-19 fact (seed 003)
    omitted = {o.reason for o in manifests[-1].omitted}
    assert "policy" in omitted


def _at(messages: list[Message], item: object) -> str:
    """The content of the message an included trajectory item stands for."""
    position = item.position
    # position counts rendered parts: system (and tools) come first, then one part per message
    return messages[position - 1].content or ""
