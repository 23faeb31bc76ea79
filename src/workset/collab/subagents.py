"""Subagents: sessions of the engine started by another session, and what links them.

A subagent is a session in the same log (created with ``parent_id``, ``agent_id`` and
``depth`` in its config) run by an agent made from its definition: its own system prompt
(role, boundaries, result format), the tools the definition allows, its own model. Its brief
enters as its first message; it runs until idle; its final answer is checked against the
result shape (:mod:`.result`) and becomes one short tool result of the parent — nothing else
of it enters the parent's context. An ``inherit`` subagent is instead a fork of the parent's
session on the parent's agent (:class:`~workset.events.records.SessionForked`): the same system
prompt, tools and trajectory, byte for byte, then the brief.

The parent's log records each subagent's life (:class:`~workset.events.records.AgentUpdated`:
pending → running ⇄ waiting_for_human → completed | failed | cancelled) with its brief, tokens
and result, which ``list_agents``, ``workset show`` and the inspect page read.

Limits: ``max_depth`` and ``max_concurrent`` (per parent) refuse a spawn with an error the
model can act on; a subagent's token budget, wall time and model calls end it with a result
that names the limit. Cancelling a subagent cancels its own subagents first, each recorded.
Async subagents run as background tasks of the parent: their result arrives as a
``task.finished`` event that wakes the parent even when it is idle.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import anyio

from workset.collab.brief import (
    Handoff,
    brief_text,
    extracted_handoff,
    minimal_handoff,
    system_prompt,
)
from workset.collab.definitions import GENERAL, AgentDefinition
from workset.collab.definitions import Handoff as HandoffName
from workset.collab.repair import checked, stopped
from workset.collab.result import SubagentResult, render_for_parent, with_run
from workset.errors import ModelError, ToolError
from workset.events import (
    AgentStatus,
    AgentUpdated,
    HumanAnswered,
    HumanAsked,
    LoopEvent,
    ModelCalled,
    RunFailed,
    SessionForked,
    ToolStarted,
    new_event,
)
from workset.loop.bus import Subscriber
from workset.models.base import Model, Usage
from workset.session.agent import Agent
from workset.session.engine import Session
from workset.session.state import SessionState
from workset.tools.base import Tool
from workset.tools.registry import ToolRegistry

Mode = Literal["sync", "async"]
HANDOFF_ROOM = 6000  # tokens of the parent's trajectory an extracted handoff may read


@dataclass
class AgentNode:
    """A subagent while this process knows it (its records are the truth after a restart)."""

    agent_id: str
    definition: AgentDefinition
    parent: Session
    child_id: str
    depth: int
    task: str
    handoff: HandoffName
    mode: Mode
    call_id: str
    started_at: float
    status: AgentStatus = "pending"
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    done: anyio.Event = field(default_factory=anyio.Event)
    session: Session | None = None
    task_id: str = ""
    tokens: int = 0
    calls: int = 0
    limit: str = ""
    last_tool: str = ""
    brief: str = ""
    result: SubagentResult | None = None
    cancel_reason: str = ""

    @property
    def final(self) -> bool:
        return self.status in ("completed", "failed", "cancelled")


class Collaboration:
    """Spawns, runs, messages and cancels the subagents of every session of an agent.

    ``tools`` are what subagents may be given (a definition picks among them; none listed
    means all); ``models`` the models a definition may name (``inherit`` uses the parent's);
    ``subscribers`` see every subagent's records (a CLI printer).
    """

    def __init__(
        self,
        tools: Sequence[Tool] = (),
        definitions: Sequence[AgentDefinition] = (),
        *,
        models: Mapping[str, Model] | None = None,
        max_depth: int = 2,
        max_concurrent: int = 3,
        subscribers: Sequence[Subscriber] = (),
        default_handoff: HandoffName = "minimal",
    ) -> None:
        self.base = {t.name: t for t in tools}
        named = {d.name: d for d in definitions}
        named.setdefault(GENERAL.name, GENERAL)
        self.definitions = tuple(named[n] for n in sorted(named))
        self.models = dict(models or {})
        self.max_depth = max_depth
        self.max_concurrent = max_concurrent
        self.subscribers = tuple(subscribers)
        self.default_handoff = default_handoff
        self.nodes: dict[str, AgentNode] = {}
        self._by_child: dict[str, str] = {}  # child session id -> agent id
        self._watched: set[int] = set()
        self._own_tools: dict[str, Tool] = {}

    # -- what the tools ask -----------------------------------------------------------------

    def register_tools(self, tools: Sequence[Tool]) -> None:
        """The collaboration tools themselves, which a definition may list too."""
        self._own_tools = {t.name: t for t in tools}

    def depth_of(self, session_id: str) -> int:
        agent_id = self._by_child.get(session_id)
        return self.nodes[agent_id].depth if agent_id else 0

    def node_of(self, session_id: str) -> AgentNode | None:
        agent_id = self._by_child.get(session_id)
        return self.nodes.get(agent_id) if agent_id else None

    def children(self, session_id: str) -> list[AgentNode]:
        return [n for n in self.nodes.values() if n.parent.id == session_id]

    def node(self, parent: Session, agent_id: str) -> AgentNode:
        """The subagent ``agent_id`` of ``parent`` (or of its descendants)."""
        found = self.nodes.get(agent_id)
        if found is None or not self._under(found, parent.id):
            known = [n.agent_id for n in self.children(parent.id)]
            hint = f"this session's subagents: {', '.join(known)}" if known else (
                "this session has started no subagent; start one with spawn_subagent"
            )  # fmt: skip
            raise ToolError(f"no subagent {agent_id!r} here", hint=hint)
        return found

    def _under(self, node: AgentNode, session_id: str) -> bool:
        while True:
            if node.parent.id == session_id:
                return True
            above = self.node_of(node.parent.id)
            if above is None:
                return False
            node = above

    # -- spawning -----------------------------------------------------------------------------

    def check_spawn(self, parent: Session) -> int:
        """The depth a new subagent of ``parent`` would have; refuses past the limits."""
        depth = self.depth_of(parent.id) + 1
        if depth > self.max_depth:
            raise ToolError(
                f"cannot spawn: a subagent here would be at depth {depth}, over the limit of "
                f"{self.max_depth}",
                hint="do this part yourself, or return it in open_questions for your parent",
            )
        running = [n for n in self.children(parent.id) if not n.final]
        if len(running) >= self.max_concurrent:
            ids = ", ".join(f"{n.agent_id} ({n.definition.name})" for n in running)
            raise ToolError(
                f"cannot spawn: {len(running)} subagents are already running ({ids}), the "
                f"limit is {self.max_concurrent}",
                hint="wait for one to finish (async results arrive as events) or cancel one "
                "with cancel_subagent",
            )
        return depth

    async def spawn(
        self,
        parent: Session,
        definition: AgentDefinition,
        task: str,
        *,
        context: str = "",
        handoff: HandoffName | None = None,
        mode: Mode = "sync",
        call_id: str = "",
        timeout_s: float = 0.0,
    ) -> AgentNode:
        """Create the subagent's session, record it, and make its brief (not run yet)."""
        if not task.strip():
            raise ToolError("task is empty", hint="say what the subagent must do and return")
        depth = self.check_spawn(parent)
        strategy: HandoffName = handoff or definition.handoff or self.default_handoff
        agent_id = f"agent-{secrets.token_hex(3)}"
        log = parent.agent.log
        child_id = log.create_session(
            title=f"{definition.name}: {task.strip()[:70]}",
            workspace="",
            model=self._model(parent, definition, strategy).info.name,
            config={
                "parent_id": parent.id,
                "agent_id": agent_id,
                "agent": definition.name,
                "depth": depth,
                "handoff": strategy,
            },
        )
        limits = definition.limits
        if timeout_s > 0:
            limits = replace(limits, wall_time_s=min(limits.wall_time_s, timeout_s))
        node = AgentNode(
            agent_id, replace(definition, limits=limits), parent, child_id, depth, task.strip(),
            strategy, mode, call_id, parent.now(),
        )  # fmt: skip
        self.nodes[agent_id] = node
        self._by_child[child_id] = agent_id
        self._record(node, "pending", "brief being prepared")
        try:
            if strategy == "inherit":
                through = parent.state.seqs[-1] if parent.state.seqs else 0
                log.append(SessionForked(child_id, parent.id, through, "subagent", parent.now()))
            made = await self._handoff(parent, node, context)
        except BaseException as exc:  # recorded as failed, then raised as it came
            why = "cancelled" if isinstance(exc, anyio.get_cancelled_exc_class()) else str(exc)
            self._end(node, SubagentResult("failed", f"its brief could not be made: {why}"))
            raise
        node.tokens += made.usage.prompt_tokens + made.usage.completion_tokens
        node.brief = brief_text(
            node.task, made, limits, definition=node.definition if strategy == "inherit" else None
        )
        self._record(node, "pending", f"brief ready ({strategy} handoff)")
        return node

    async def _handoff(self, parent: Session, node: AgentNode, context: str) -> Handoff:
        if node.handoff != "extracted":
            return minimal_handoff(context)
        agent = parent.agent
        room = min(HANDOFF_ROOM, agent.model.info.context_window - 1000)
        try:
            return await extracted_handoff(
                agent.model,
                agent.request_settings.system_prompt,
                parent.state.messages,
                node.task,
                context,
                agent.request_settings.counter,
                room=room,
            )
        except ModelError as exc:  # the brief still goes out, with the task parameters
            fallback = minimal_handoff(context)
            note = f"[FROM_MAIN_AGENT] (the handoff could not be distilled: {exc})"
            return Handoff((*fallback.lines, note), strategy="minimal")

    # -- running ------------------------------------------------------------------------------

    async def run(self, node: AgentNode) -> SubagentResult:
        """Run ``node`` to its end and record how it ended; never raises for the model."""
        if node.result is not None:  # cancelled before it started
            return node.result
        agent, inherit = self._agent(node), node.handoff == "inherit"
        config = replace(agent.config, max_iterations=node.definition.limits.max_model_calls)
        state = SessionState.load(agent.log, node.child_id)
        child = Session(agent, state, side_of=node.parent.id if inherit else "", config=config)
        node.session = child
        begun = time.monotonic()
        result: SubagentResult | None = None
        try:
            self._record(node, "running", "started")
            with node.scope, anyio.move_on_after(node.definition.limits.wall_time_s) as timer:
                async with child.running():
                    brief = new_event(
                        "user.input",
                        node.brief,
                        source="agent",
                        channel="subagent",
                        sender="main agent",
                        trusted=True,
                    )
                    await child.deliver(brief)
                    outcome = await child.run_until_idle()
                    if outcome.status == "failed":
                        node.limit = node.limit or _limit_of(child)
                        result = SubagentResult("failed", f"stopped: {outcome.error}")
                    else:
                        system = child.maker.settings.system_prompt
                        messages = child.state.messages
                        result, usage = await checked(agent.model, system, messages, outcome.answer)
                        if usage is not None:
                            self._count(node, usage)
            if result is None:
                node.limit = "wall_time" if timer.cancel_called else node.limit
                why = node.cancel_reason or "cancel_subagent was called"
                limits = node.definition.limits
                result = stopped(node.limit, limits, node.tokens, node.calls, why)
        finally:
            seconds = time.monotonic() - begun
            if result is None:  # cancelled from outside (its task, a stop, its parent)
                why = node.cancel_reason or "its parent stopped it"
                result = SubagentResult("cancelled", f"cancelled: {why}")
            if node.limit and result.status == "completed":
                result = replace(result, status="failed")
            result = with_run(
                result,
                agent_id=node.agent_id,
                agent=node.definition.name,
                limit=node.limit,
                tokens=node.tokens,
                model_calls=node.calls,
                seconds=seconds,
            )
            self._end(node, result)
        return result

    def _end(self, node: AgentNode, result: SubagentResult) -> None:
        child = node.session
        for below in self.children(node.child_id):
            if not below.final:
                self.cancel(below, f"its parent {node.agent_id} ended")
        if child is not None:
            child.tasks.cancel_all(f"its agent {node.agent_id} ended")
        node.result = result
        self._record(node, result.status, result.summary[:200], result=render_for_parent(result))
        node.done.set()

    # -- messages and cancellation ---------------------------------------------------------

    async def message(self, node: AgentNode, text: str) -> str:
        """Deliver ``text`` to a running subagent: taken at its next safe point."""
        if node.final:
            summary = node.result.summary[:200] if node.result else ""
            raise ToolError(
                f"{node.agent_id} has already {node.status}; a message cannot reach it",
                hint=f"its result was: {summary!r}. To go on, spawn a new subagent with what "
                "it needs to know",
            )
        if node.session is None:
            raise ToolError(f"{node.agent_id} has not started yet", hint="try again in a moment")
        event = new_event(
            "agent.input",
            f"[FROM_MAIN_AGENT] {text.strip()}",
            source="agent",
            channel="subagent",
            sender="main agent",
            trusted=True,
        )
        return await node.session.deliver(event)

    def cancel(self, node: AgentNode, reason: str) -> list[AgentNode]:
        """Cancel ``node`` and, first, its own subagents; returns every node cancelled."""
        if node.final:
            return []
        stopped: list[AgentNode] = []
        for below in self.children(node.child_id):
            stopped += self.cancel(below, f"its parent {node.agent_id} was cancelled")
        node.limit, node.cancel_reason = "", reason
        if node.session is None:  # never started: nothing runs to notice the cancel
            result = SubagentResult("cancelled", f"cancelled: {reason}", agent_id=node.agent_id)
            self._end(node, replace(result, agent=node.definition.name, tokens=node.tokens))
        elif node.task_id:  # async: its task stops, the run records how it ended
            node.parent.tasks.cancel(node.task_id, reason)
        node.scope.cancel()
        stopped.append(node)
        return stopped

    # -- bookkeeping ---------------------------------------------------------------------------

    def _record(self, node: AgentNode, status: AgentStatus, detail: str, result: str = "") -> None:
        """One AgentUpdated in the parent's log; ``task`` holds the brief once it is made."""
        if node.final:
            return
        node.status = status
        node.parent.record(
            AgentUpdated(
                node.parent.id, node.agent_id, node.child_id, node.definition.name, status,
                node.parent.now(), detail=detail, task=node.brief or node.task,
                call_id=node.call_id, depth=node.depth, handoff=node.handoff,
                tokens=node.tokens, result=result,
            )
        )  # fmt: skip

    def _count(self, node: AgentNode, usage: Usage) -> None:
        node.tokens += usage.prompt_tokens + usage.completion_tokens
        node.calls += 1

    def _watch(self, event: LoopEvent) -> None:
        agent_id = self._by_child.get(event.session_id)
        node = self.nodes.get(agent_id) if agent_id else None
        if node is None or node.final:
            return
        match event:
            case ModelCalled(usage=usage):
                self._count(node, usage)
                if node.tokens > node.definition.limits.token_budget:
                    node.limit = "token_budget"
                    node.scope.cancel()
            case ToolStarted(call=call):
                node.last_tool = call.name
            case HumanAsked(question=question):
                self._record(node, "waiting_for_human", f"asked a person: {question[:150]}")
            case HumanAnswered(outcome=outcome):
                self._record(node, "running", f"the person's request ended: {outcome}")

    def _model(self, parent: Session, definition: AgentDefinition, handoff: str) -> Model:
        if definition.model == "inherit" or handoff == "inherit":
            return parent.agent.model
        found = self.models.get(definition.model)
        if found is None:
            known = ", ".join(sorted(self.models)) or "none besides inherit"
            raise ToolError(
                f"agent {definition.name!r} asks for model {definition.model!r}, which is not "
                "available here",
                hint=f"models: {known}; set 'model: inherit' in its AGENT.md",
            )
        return found

    def _agent(self, node: AgentNode) -> Agent:
        parent = node.parent.agent
        if node.handoff == "inherit":
            self._subscribe(parent)
            return parent
        definition = node.definition
        available = {**self.base, **self._own_tools}
        names = definition.tools or tuple(available)
        tools = [available[n] for n in names if n in available]
        config = replace(
            parent.config,
            system_prompt=system_prompt(definition),
            max_iterations=definition.limits.max_model_calls,
        )
        agent = Agent(
            self._model(node.parent, definition, node.handoff),
            ToolRegistry(tools),
            parent.log,
            config,
            clock=parent.clock,
            gate=parent.gate,
            secrets=parent.secrets,
            subscribers=self.subscribers,
        )
        self._subscribe(agent)
        return agent

    def _subscribe(self, agent: Agent) -> None:
        if id(agent) not in self._watched:
            self._watched.add(id(agent))
            agent.bus.subscribe(self._watch)


def _limit_of(child: Session) -> str:
    """``max_model_calls`` when the child's last run failed for want of model calls."""
    failed = child.agent.log.events(child.id, kinds=("run_failed",))
    last = failed[-1].event if failed else None
    return (
        "max_model_calls"
        if isinstance(last, RunFailed) and last.error_type == "MaxIterations"
        else ""
    )
