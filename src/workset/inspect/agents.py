"""The tree of a session's subagents, gathered from the log: each one's brief, status,
tokens, result and own model calls, and the subagents it started in turn.

Pure over stored events: ``events_of(session_id)`` gives a session's records (the CLI passes
``SessionLog.events``); the parent's :class:`~workset.events.records.AgentUpdated` records
name each subagent's session, whose records give its calls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from workset.events import AgentUpdated, ModelCalled
from workset.log.store import StoredEvent

EventsOf = Callable[[str], Sequence[StoredEvent]]
MAX_DEPTH = 8


@dataclass(frozen=True, slots=True)
class AgentCall:
    """One model call of a subagent."""

    number: int
    seq: int
    prompt_tokens: int
    completion_tokens: int
    context_tokens: int
    tools: tuple[str, ...]
    answer: str


@dataclass(frozen=True, slots=True)
class AgentBranch:
    last: AgentUpdated  # its latest record in the parent's log
    brief: str
    spawned_by: int  # the parent's model call (1-based) whose tool call started it; 0 unknown
    calls: tuple[AgentCall, ...]
    children: tuple[AgentBranch, ...]

    @property
    def agent_id(self) -> str:
        return self.last.agent_id


def agent_tree(events_of: EventsOf, session_id: str, *, depth: int = 0) -> tuple[AgentBranch, ...]:
    """The subagents ``session_id`` started, in the order it started them, with theirs."""
    if depth >= MAX_DEPTH:
        return ()
    events = events_of(session_id)
    latest: dict[str, AgentUpdated] = {}
    briefs: dict[str, str] = {}
    call_of: dict[str, int] = {}
    number = 0
    for stored in events:
        match stored.event:
            case ModelCalled(message=message):
                number += 1
                for tool_call in message.tool_calls:
                    call_of[tool_call.id] = number
            case AgentUpdated(agent_id=agent_id, task=task) as update:
                latest[agent_id] = update
                if update.status == "pending" and task:
                    briefs[agent_id] = task
    return tuple(
        AgentBranch(
            last,
            briefs.get(agent_id, last.task),
            call_of.get(last.call_id, 0),
            _calls(events_of(last.child_id)),
            agent_tree(events_of, last.child_id, depth=depth + 1),
        )
        for agent_id, last in latest.items()
    )


def _calls(events: Sequence[StoredEvent]) -> tuple[AgentCall, ...]:
    calls: list[AgentCall] = []
    for stored in events:
        event = stored.event
        if isinstance(event, ModelCalled):
            calls.append(
                AgentCall(
                    len(calls) + 1,
                    stored.seq,
                    event.usage.prompt_tokens,
                    event.usage.completion_tokens,
                    event.manifest.total_tokens,
                    tuple(c.name for c in event.message.tool_calls),
                    (event.message.content or "")[:300],
                )
            )
    return tuple(calls)


def walk(tree: Sequence[AgentBranch]) -> list[tuple[int, AgentBranch]]:
    """Every branch with its depth below the root (0 for the root's own subagents)."""
    found: list[tuple[int, AgentBranch]] = []

    def visit(branches: Sequence[AgentBranch], level: int) -> None:
        for branch in branches:
            found.append((level, branch))
            visit(branch.children, level + 1)

    visit(tree, 0)
    return found
