"""The subagent tools the model calls: spawn, message, cancel, status, and who is there.

Seed 004, "Mecanismos de colaboración entre Agentes": start and cancel
(``spawn_subagent``, ``cancel_subagent``), messages (``send_message_to_subagent``, taken by
the subagent at its next safe point), discovery (``list_agents``: the definitions with their
responsibilities, and this session's subagents with their state), and the result of one
(``get_subagent_status``). They reach the running session through the call's context.
"""

from __future__ import annotations

import time
from typing import Literal

import anyio

from workset.collab.definitions import find_definition
from workset.collab.result import SubagentResult, render_for_parent, result_from_json
from workset.collab.subagents import AgentNode, Collaboration
from workset.errors import ToolError
from workset.events import AgentUpdated
from workset.session.engine import Session
from workset.tools.base import Tool
from workset.tools.context import TaskControl, current_call

SUBAGENT_TOOLS = (
    "spawn_subagent",
    "send_message_to_subagent",
    "cancel_subagent",
    "get_subagent_status",
    "list_agents",
)
SPAWN_TIMEOUT_S = 24 * 3600.0  # the subagent's own wall-time limit ends it first
CANCEL_WAIT_S = 30.0


def session_host() -> Session:
    """The session serving the current call (these tools need the session engine)."""
    host = current_call().host
    if not isinstance(host, Session):
        raise ToolError(
            "this tool needs a running session of the session engine",
            hint="run the agent with agent.run, agent.session() or workset run",
        )
    return host


def subagent_tools(collab: Collaboration) -> list[Tool]:
    """``spawn_subagent``, ``send_message_to_subagent``, ``cancel_subagent``,
    ``get_subagent_status`` and ``list_agents`` over ``collab``."""

    async def spawn_subagent(
        task: str,
        agent: str = "general",
        context: str = "",
        mode: Literal["sync", "async"] = "sync",
        handoff: Literal["", "minimal", "extracted", "inherit"] = "",
        timeout_s: int = 0,
    ) -> str:
        """Delegate a self-contained subtask to a subagent with its own clean context.

        Use when: a subtask would fill your context with material you do not need to keep
        (searching a code base, reading many files, a long investigation), or needs a
        specialist from list_agents, or several independent subtasks can run at once.
        Do not use when: one or two tool calls of your own would do it.
        The subagent cannot see this conversation: write the task so that it stands alone
        (what to find or do, where, what to return). It answers with one JSON result:
        status, summary, findings with sources, artifacts, open_questions. mode "sync" waits
        for it (up to timeout_s, default its wall-time limit); mode "async" returns an agent
        id at once and the result arrives later as an event. Examples: {"task": "Find the
        function that handles payment callbacks in src/ and give its file and line"};
        {"agent": "code-searcher", "task": "List every caller of parse_config",
        "mode": "async"}.

        Args:
            task: What the subagent must do and return, self-contained.
            agent: Which agent definition to use (list_agents shows them), default general.
            context: Facts from your work it needs (paths, values, constraints), one per line.
            mode: "sync" waits for the result; "async" returns at once.
            handoff: "minimal" (task and context only), "extracted" (a summary of this
                conversation is distilled for it), "inherit" (it sees all of this
                conversation); empty for the agent's default.
            timeout_s: Sync mode: stop it after this many seconds (0: its own limit).
        """
        host = session_host()
        definition = find_definition(agent, collab.definitions)
        if timeout_s < 0:
            raise ToolError("timeout_s must be 0 or more", hint="e.g. 120")
        node = await collab.spawn(
            host,
            definition,
            task,
            context=context,
            handoff=handoff or None,
            mode=mode,
            call_id=current_call().call_id,
            timeout_s=float(timeout_s),
        )
        if mode == "sync":
            return render_for_parent(await collab.run(node))

        async def work(control: TaskControl) -> str:
            result = await collab.run(node)
            if result.status != "completed":
                raise ToolError(render_for_parent(result))
            return render_for_parent(result)

        view = host.start_task("spawn_subagent", node.call_id, f"{agent}: {task[:80]}", work)
        node.task_id = view.task_id
        return (
            f"started {node.agent_id} ({definition.name}) in the background as "
            f"{view.task_id}; its result will arrive as an event when it ends. Follow it with "
            "get_subagent_status, send it more with send_message_to_subagent, stop it with "
            "cancel_subagent."
        )

    async def send_message_to_subagent(agent_id: str, message: str) -> str:
        """Send more instructions or an answer to a running subagent.

        Use when: the user changed the request, you learned something the subagent needs, or
        it asked a question. Do not use when: the subagent has ended (start a new one).
        It reads the message at its next safe point (after its current step), not at once.
        Example: {"agent_id": "agent-3f2a1c", "message": "Only look under src/payments."}.

        Args:
            agent_id: The id spawn_subagent returned.
            message: What to tell it.
        """
        if not message.strip():
            raise ToolError("message is empty", hint="write what the subagent should know")
        host = session_host()
        node = collab.node(host, agent_id)
        strategy = await collab.message(node, message)
        return (
            f"delivered to {agent_id} ({node.status}); it takes the message at its next safe "
            f"point ({strategy})."
        )

    async def cancel_subagent(agent_id: str, reason: str = "") -> str:
        """Stop a subagent now, and every subagent it started.

        Use when: its work is no longer needed (the user changed their mind, another
        subagent found the answer) or it runs too long. Do not use when: it already ended.
        Output: who was cancelled. Example: {"agent_id": "agent-3f2a1c", "reason": "found"}.

        Args:
            agent_id: The id spawn_subagent returned.
            reason: Why, for the record.
        """
        host = session_host()
        node = collab.node(host, agent_id)
        if node.final:
            return f"{agent_id} had already ended ({node.status}); nothing to cancel."
        stopped = collab.cancel(node, reason.strip() or "cancel_subagent was called")
        with anyio.move_on_after(CANCEL_WAIT_S):
            for each in stopped:
                await each.done.wait()
        others = [n.agent_id for n in stopped if n is not node]
        tail = f" and {len(others)} of its subagents ({', '.join(others)})" if others else ""
        return f"cancelled {agent_id}{tail}."

    def get_subagent_status(agent_id: str) -> str:
        """The state of a subagent, and its result once it ended.

        Use when: you want to know how far an async subagent has got, or see its result
        again. Do not use when: you wait for an async subagent (its result comes as an
        event). Output: status (pending, running, waiting_for_human, completed, failed,
        cancelled), seconds, tokens, model calls, its last tool and, when ended, its JSON
        result. Example: {"agent_id": "agent-3f2a1c"}.

        Args:
            agent_id: The id spawn_subagent returned.
        """
        host = session_host()
        node = collab.nodes.get(agent_id)
        if node is None:
            recorded = _recorded(host, agent_id)
            if recorded is None:
                collab.node(host, agent_id)  # raises, listing the known ones
                raise AssertionError
            return _recorded_status(recorded)
        collab.node(host, agent_id)
        return status_line(node, host.now())

    def list_agents() -> str:
        """The agents you can delegate to, and this session's subagents with their state.

        Use when: you want to find a specialist for a subtask, or see what is running.
        Output: one line per agent definition (name, what it does, its tools) and one per
        subagent started here (id, agent, status, tokens, task). Example: {}.
        """
        host = session_host()
        lines = ["Agents you can spawn (spawn_subagent agent=NAME):"]
        for d in collab.definitions:
            tools = ", ".join(d.tools) if d.tools else "all subagent tools"
            lines.append(f"- {d.name}: {d.description} (tools: {tools}; handoff: {d.handoff})")
        mine = collab.children(host.id)
        depth = collab.depth_of(host.id)
        lines.append(
            f"Subagents of this session (depth {depth} of at most {collab.max_depth}, "
            f"at most {collab.max_concurrent} at once):"
        )
        lines += [f"- {status_line(n, host.now(), short=True)}" for n in mine] or ["- none"]
        return "\n".join(lines)

    tools = [
        Tool.from_function(
            spawn_subagent,
            risk="medium",
            timeout_s=SPAWN_TIMEOUT_S,
            examples=({"task": "Find the function that handles payment callbacks in src/"},),
        ),
        Tool.from_function(
            send_message_to_subagent,
            wrap_output=False,
            examples=({"agent_id": "agent-3f2a1c", "message": "Only look under src/"},),
        ),
        Tool.from_function(
            cancel_subagent,
            idempotent=True,
            wrap_output=False,
            examples=({"agent_id": "agent-3f2a1c"},),
        ),
        Tool.from_function(
            get_subagent_status,
            read_only=True,
            examples=({"agent_id": "agent-3f2a1c"},),
        ),
        Tool.from_function(list_agents, read_only=True, wrap_output=False, examples=({},)),
    ]
    collab.register_tools(tools)
    return tools


def status_line(node: AgentNode, now: float, *, short: bool = False) -> str:
    """One subagent as the model reads it."""
    seconds = max(0.0, now - node.started_at)
    head = (
        f"{node.agent_id} ({node.definition.name}): {node.status}, {seconds:.0f} s, "
        f"{node.tokens:,} tokens, {node.calls} model calls"
    )
    if short:
        return f"{head}; task: {node.task[:100]}"
    parts = [head, f"task: {node.task[:300]}"]
    if node.last_tool:
        parts.append(f"last tool: {node.last_tool}")
    if node.result is not None:
        parts.append(f"result: {render_for_parent(node.result)}")
    return "\n".join(parts)


def _recorded(host: Session, agent_id: str) -> AgentUpdated | None:
    """The last record of a subagent this process no longer holds (after a restart)."""
    last = None
    for stored in host.agent.log.events(host.id, kinds=("agent_updated",)):
        event = stored.event
        if isinstance(event, AgentUpdated) and event.agent_id == agent_id:
            last = event
    return last


def _recorded_status(event: AgentUpdated) -> str:
    result: SubagentResult | None = result_from_json(event.result) if event.result else None
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(event.at))
    text = f"{event.agent_id} ({event.name}): {event.status} as of {when} UTC ({event.detail})"
    if event.status in ("pending", "running", "waiting_for_human"):
        text += "; the process that ran it stopped, so it is not running any more"
    if result is not None:
        text += f"\nresult: {render_for_parent(result)}"
    return text
