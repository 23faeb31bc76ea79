"""One protocol unit's tool calls, run for a session: rules 2 and 3 of seed 004.

The calls of one assistant message run in the session's task group: consecutive read-only
calls together, any other alone and in order. Each passes the same checks in the same order
(a known and loaded name, valid arguments, the read-only rule of a side session, the safety
gate) and ends with a recorded result, the moment it is done. An urgent event cancels the
wait: every unfinished call then gets a placeholder result at once (cancelled, or going on in
the background as a task when the event does not ask to stop), so no unit is ever left
without results.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import anyio

from workset.context.trust import neutralize, wrap_untrusted
from workset.events.records import StepInterrupted, ToolFinished, ToolsLoaded, ToolStarted
from workset.loop.calls import Interpreted
from workset.messages import AssistantMessage, ToolCall, ToolMessage
from workset.session.router import asks_to_stop
from workset.tools.context import CallContext, serving
from workset.tools.registry import error_message

if TYPE_CHECKING:
    from workset.session.engine import Session


@dataclass
class _Job:
    """One tool call running in the session's task group."""

    call: ToolCall
    scope: anyio.CancelScope
    done: anyio.Event
    started: bool = False  # past the gate: its side effects may have begun
    detached_as: str = ""  # the task id it goes on as, after an interrupt
    named: str = ""  # why the call runs under another name than the model wrote


class UnitRunner:
    """Runs the tool calls of a session's assistant messages, one unit at a time."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.scope: anyio.CancelScope | None = None  # the wait of the unit now running

    def cancel(self) -> None:
        """An urgent event: stop waiting for the running unit (its calls get placeholders)."""
        if self.scope is not None:
            self.scope.cancel()

    async def run(self, run_id: str, message: AssistantMessage, decided: Interpreted) -> bool:
        """Run the calls of one assistant message; every call ends with a recorded result.
        True when an urgent event interrupted them."""
        calls = message.tool_calls
        for call in calls:
            if call.id in decided.rejected:
                self.finish(run_id, call, error_message(call, decided.rejected[call.id]), 0.0)
            elif call.id in decided.replayed:
                again = ToolMessage(call.id, decided.replayed[call.id], name=call.name)
                self.finish(run_id, call, again, 0.0, "not run: a repeat, answered from the log")
        answered = {**decided.rejected, **decided.replayed}
        to_run = [c for c in calls if c.id not in answered]
        jobs = {
            c.id: _Job(c, anyio.CancelScope(), anyio.Event(), named=decided.mapped.get(c.id, ""))
            for c in to_run
        }
        with anyio.CancelScope() as waiting:
            self.scope = waiting
            for batch in _batches(to_run, self.session.agent.tools.is_read_only):
                for call in batch:
                    self.session.spawn(self._job, run_id, jobs[call.id])
                for call in batch:
                    await jobs[call.id].done.wait()
        self.scope = None
        if waiting.cancelled_caught:
            self._interrupt(run_id, to_run, jobs)
        self._note_loaded()
        return waiting.cancelled_caught

    def _interrupt(self, run_id: str, calls: Sequence[ToolCall], jobs: dict[str, _Job]) -> None:
        """Rule 3: every unfinished call gets a placeholder result, now."""
        event = self.session.interrupts[-1]
        stop = asks_to_stop(event)
        cancelled: list[str] = []
        detached: list[str] = []
        for call in calls:
            job = jobs[call.id]
            if job.done.is_set():
                continue
            if job.started and not stop:
                task = self.session.tasks.adopt(call.name, call.id, _call_title(call))
                job.detached_as = task.task_id
                detached.append(call.id)
                text = (
                    f"still running: a new message arrived before this call finished, so it "
                    f"goes on in the background as task {task.task_id}. Its result will "
                    "arrive as a separate event. Handle the new message now and do not assume "
                    "what this call returned."
                )
            else:
                job.scope.cancel()
                cancelled.append(call.id)
                text = (
                    "cancelled: the user interrupted while this call was running, so it did "
                    "not finish and its effects may be partial. Call it again only if it is "
                    "still needed."
                    if job.started
                    else "not run: the user interrupted before this call started. Call it "
                    "again only if it is still needed."
                )
            self.finish(
                run_id, call, error_message(call, text), 0.0, "interrupted", interrupted=True
            )
        self.session.record(
            StepInterrupted(
                self.session.id, run_id, event.id, "tools", self.session.now(),
                cancelled=tuple(cancelled), detached=tuple(detached),
            )
        )  # fmt: skip

    async def _job(self, run_id: str, job: _Job) -> None:
        with job.scope:
            try:
                await self._run_call(run_id, job)
            finally:
                job.done.set()

    async def _run_call(self, run_id: str, job: _Job) -> None:
        call, agent = job.call, self.session.agent
        context = CallContext(self.session.id, call.id, call.name, host=self.session)
        with serving(context):  # an approver may ask this session's people
            refusal, arguments, decision = await self._permit(call)
        if job.named:
            decision += f" ({job.named})"
        if refusal is not None or arguments is None:
            assert refusal is not None
            self.finish(run_id, call, refusal, 0.0, decision)
            return
        self.session.record(ToolStarted(run_id, self.session.id, call, self.session.now()))
        job.started = True
        begun = time.perf_counter()
        result: ToolMessage | None = None
        timeout = agent.tools.get(call.name).timeout_s or self.session.config.tool_timeout_s
        with anyio.move_on_after(timeout):
            result = await agent.tools.run(call, arguments, context)
        if result is None:
            result = error_message(
                call,
                f"timed out after {timeout:g} s and was cancelled; narrow "
                "the request (smaller range, more specific pattern) and try again",
            )
        result = self._guard(result)
        if agent.status is not None:
            result = agent.status.annotated(call, result, self.session.now())
        if job.detached_as:
            self.session.tasks.finish(
                job.detached_as, "failed" if result.is_error else "completed", result.content
            )
            return
        self.finish(run_id, call, result, time.perf_counter() - begun, decision)

    async def _permit(
        self, call: ToolCall
    ) -> tuple[ToolMessage | None, dict[str, Any] | None, str]:
        """Unknown and unloaded names first, then the arguments, then the safety gate."""
        tools, offer, gate = (
            self.session.agent.tools,
            self.session.agent.offer,
            self.session.agent.gate,
        )
        if call.name not in tools:
            if offer.can_search:
                found = await offer.search_for(call)
                return error_message(call, found), None, "refused: unknown tool (searched)"
            unknown = tools.validate(call)
            assert isinstance(unknown, ToolMessage)
            return unknown, None, "refused: unknown tool"
        if not offer.can_call(call.name):
            admitted = error_message(call, offer.admit(call.name))
            return admitted, None, "refused: not loaded (now loaded)"
        arguments = tools.validate(call)
        if isinstance(arguments, ToolMessage):
            return arguments, None, "refused: invalid arguments"
        if self.session.read_only and not tools.is_read_only(call.name):
            text = (
                f"not run: {call.name} changes things, and this side question may only use "
                "read-only tools. Answer the question from what you know or can read."
            )
            return error_message(call, text), None, "refused: side session is read-only"
        if gate is None:
            return None, arguments, "allowed"
        decided = await gate.check(call, tools.get(call.name))
        gate.record(call, decided.allowed)
        if not decided.allowed:
            rule = decided.verdict.rule or decided.verdict.decision
            return error_message(call, decided.message), None, f"denied: {rule}"
        if decided.approval is not None:
            return None, arguments, f"approved by {decided.approval.by}"
        return None, arguments, "allowed"

    def _guard(self, result: ToolMessage) -> ToolMessage:
        """A tool result as it may enter the context: secrets redacted, data marked as data.

        Errors written by workset and the output of tools marked ``wrap_output=False``
        (bookkeeping tools, and the MCP bridge, which wraps its own) are only neutralised.
        """
        agent = self.session.agent
        content = agent.secrets.redact(result.content)
        tool = agent.tools.get(result.name) if result.name in agent.tools else None
        wrap = tool is None or tool.wrap_output
        if content.startswith("<external_content") and not wrap:
            pass  # wrapped by the tool itself
        elif self.session.config.wrap_tool_results and wrap and not result.is_error:
            content = wrap_untrusted(content, source=f"tool:{result.name}")
        else:
            content = neutralize(content)
        return replace(result, content=content) if content != result.content else result

    def finish(
        self,
        run_id: str,
        call: ToolCall,
        result: ToolMessage,
        duration: float,
        decision: str = "allowed",
        *,
        interrupted: bool = False,
    ) -> None:
        self.session.record(
            ToolFinished(
                run_id, self.session.id, call, result, duration, self.session.now(),
                decision=decision, interrupted=interrupted,
            )
        )  # fmt: skip

    def _note_loaded(self) -> None:
        new = sorted(self.session.agent.offer.loaded - self.session.state.loaded_tools)
        if new:
            self.session.record(ToolsLoaded(self.session.id, tuple(new), self.session.now()))


def _batches(calls: Sequence[ToolCall], read_only: Callable[[str], bool]) -> list[list[ToolCall]]:
    """Consecutive read-only calls run together; any other call runs alone, in order."""
    batches: list[list[ToolCall]] = []
    for call in calls:
        if read_only(call.name) and batches and all(read_only(c.name) for c in batches[-1]):
            batches[-1].append(call)
        else:
            batches.append([call])
    return batches


def _call_title(call: ToolCall) -> str:
    return f"{call.name} {call.arguments[:80]}"
