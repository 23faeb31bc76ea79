"""The agent loop: assemble, call the model, run the tools it asked for, until an answer.

The agent keeps its own message list and converts it to a model request only at the call
boundary (through the :class:`Assembler`). Everything it does is announced on the event bus;
the session log, the CLI and evaluation harnesses subscribe there. Rules kept here:

- the assistant message is emitted as soon as it arrives; a tool result only when it is done;
- consecutive read-only calls run concurrently, results kept in call order by id;
- a malformed or unknown call becomes a tool error the model can fix, never a crash;
- bounded iterations and timeouts end a run with an explicit error, never a hang.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace

import anyio

from workset.context.assemble import Assembler, BudgetConfig
from workset.context.items import ContextItem, Scope
from workset.context.sources import ContextRequest, ItemSource
from workset.context.trust import Secrets, neutralize, wrap_untrusted
from workset.errors import ContextBudgetError, ModelError, UsageError
from workset.history.base import HistoryPolicy, HistoryView, PolicyContext, pinned_block
from workset.log.store import SessionLog
from workset.loop.bus import EventBus, Subscriber
from workset.loop.calls import CallInterpreter, NextTurn
from workset.loop.events import (
    ModelCalled,
    RunFailed,
    RunFinished,
    RunStarted,
    ToolFinished,
    ToolStarted,
)
from workset.loop.offer import ToolOffer
from workset.loop.outcome import classify
from workset.loop.settings import (
    ANSWER_NOW,
    DEFAULT_SYSTEM_PROMPT,
    AgentConfig,
    RunResult,
    RunUsage,
)
from workset.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolMessage,
    UserMessage,
    canonical_order,
)
from workset.models.base import Model
from workset.models.constrained import answer_schema, decision_schema
from workset.safety.gate import SafetyGate
from workset.status.bar import StatusBar
from workset.tools.context import CallContext
from workset.tools.registry import ToolRegistry, error_message

__all__ = ["ANSWER_NOW", "DEFAULT_SYSTEM_PROMPT", "Agent", "AgentConfig", "RunResult", "RunUsage"]


class Agent:
    """Runs tasks with one model and one tool registry, recording into a session log."""

    def __init__(
        self,
        model: Model,
        tools: ToolRegistry,
        log: SessionLog,
        config: AgentConfig | None = None,
        *,
        subscribers: Sequence[Subscriber] = (),
        clock: Callable[[], float] = time.time,
        offer: ToolOffer | None = None,
        gate: SafetyGate | None = None,
        sources: Sequence[ItemSource] = (),
        scope: Scope | None = None,
        history_policy: Callable[[], HistoryPolicy] | None = None,
        summarizer: Model | None = None,
        secrets: Secrets | None = None,
        status: StatusBar | None = None,
    ) -> None:
        """``sources`` give context items (memory, evidence, status...) before each call;
        ``scope`` is the tenant and subject the run serves (items of any other never enter);
        ``history_policy`` makes one policy per session (default: the whole history, cut
        to the budget); ``summarizer`` is the model policies use for summaries (default: this
        model); ``secrets`` are redacted from tasks, tool results and errors before anything
        is recorded or sent. ``status`` keeps an ``<agent_status>`` block at the end of every
        request (or appended each round, by its strategy) and annotates tool results.
        """
        self.model = model
        self.sources = tuple(sources)
        self.scope = scope or Scope()
        self._policy_factory = history_policy
        self._policies: dict[str, HistoryPolicy] = {}
        self.summarizer = summarizer or model
        self.secrets = secrets or Secrets()
        self.status = status
        self.tools = tools
        self.offer = offer or ToolOffer(tools)
        self.gate = gate
        self.log = log
        self.config = config or AgentConfig()
        extra = (status.tracker,) if status is not None else ()
        self.bus = EventBus(log.subscriber(), *extra, *subscribers)
        self.clock = clock
        self._counter = model.token_counter()
        self._assemblers: dict[str, Assembler] = {}

    async def run(
        self, task: str, *, session_id: str | None = None, workspace: str = ""
    ) -> RunResult:
        """Run ``task`` in a new session, or as the next turn of ``session_id``."""
        if not task.strip():
            raise UsageError(
                'the task is empty; say what the agent should do, e.g. workset run "…"'
            )
        task = self.secrets.redact(task)
        if session_id is None:
            session_id = self.log.create_session(
                title=task.strip()[:80],
                workspace=workspace,
                model=self.model.info.name,
                config={
                    "system_prompt": self.config.system_prompt,
                    "tools": list(self.tools.names()),
                },
            )
            history: list[Message] = []
        else:
            state = self.log.resume_state(session_id)
            if state.open_unit is not None:
                raise UsageError(
                    f"session {session_id} has tool calls without results; "
                    f"resume it first with `workset resume {session_id}`"
                )
            history = canonical_order(state.messages)
        run_id = uuid.uuid4().hex[:12]
        self.bus.emit(RunStarted(run_id, session_id, task, self.model.info.name, self.clock()))
        history.append(UserMessage(task))
        return await self._loop(run_id, session_id, history)

    async def resume(self, session_id: str) -> RunResult:
        """Continue a session after a crash or interrupt without re-running finished tools.

        Calls that were started but never finished are re-run only when the tool is read-only
        or idempotent (it gets the same idempotency key as the first attempt); any other gets an
        error result saying it was interrupted, so nothing with side effects runs twice.
        """
        state = self.log.resume_state(session_id)
        run_id = uuid.uuid4().hex[:12]
        history = canonical_order(state.messages)
        last = history[-1] if history else None
        finished = isinstance(last, AssistantMessage) and not last.tool_calls
        if state.open_unit is None and (last is None or finished):
            return RunResult(
                session_id,
                run_id,
                "nothing_to_do",
                answer=(last.content or "") if finished and last else "",
            )
        self.bus.emit(
            RunStarted(run_id, session_id, "", self.model.info.name, self.clock(), resumed=True)
        )
        if state.open_unit is not None:
            unfinished = {c.id for c in state.started_unfinished}
            to_run: list[ToolCall] = []
            for call in state.open_unit.pending:
                if call.id in unfinished and not self.tools.is_idempotent(call.name):
                    result = error_message(
                        call,
                        "interrupted: the process stopped while this tool was running. It was "
                        "not run again because it may have side effects; check its effects "
                        "before calling it again.",
                    )
                    self._emit_finished(
                        run_id, session_id, call, result, 0.0, "refused: interrupted, not re-run"
                    )
                    history.append(result)
                else:
                    to_run.append(call)
            history.extend(await self._execute(run_id, session_id, to_run))
            history = canonical_order(history)
        return await self._loop(run_id, session_id, history)

    async def _loop(self, run_id: str, session_id: str, history: list[Message]) -> RunResult:
        usage = RunUsage()
        assembler = self._assemblers.setdefault(
            session_id,
            Assembler(
                self._counter,
                BudgetConfig(
                    self.model.info.context_window,
                    self.config.output_reserve,
                    self.config.margin,
                    self.config.items_share,
                ),
            ),
        )
        specs = self.offer.specs()
        calls = CallInterpreter(
            self.tools.names(),
            history=history,
            constrained=self.config.constrained_decisions,
            max_calls=self.config.max_calls_per_message,
            answer_on_repeat=self.config.answer_on_repeat,
            answer_with_grammar=self.config.answer_with_grammar,
        )
        turn = NextTurn()  # what the harness adds to the next request (calls.next_turn)
        for iteration in range(1, self.config.max_iterations + 1):
            offered = specs if turn.offer_tools else ()
            try:
                view = await self._view(session_id, history)
                usage = usage.add_compression(view.cost)
                system = self.config.system_prompt
                items = self._items(session_id, history, iteration)
                calls.observe_items(items)
                notes: dict[str, str] = {}
                if view.notices:
                    notes["history"] = " ".join(view.notices)
                if self.status is not None:
                    view = self._place_status(self.status, view, history, items, notes, iteration)
                if view.pinned and view.pinned_at == "system":
                    system = f"{system}\n\n{pinned_block(view.pinned)}"
                elif view.pinned:
                    items.append(_pinned_item(view.pinned))
                assembled = assembler.assemble(
                    session_id=session_id,
                    system=system,
                    tools=offered,
                    history=view.messages,
                    seqs=view.seqs,
                    through_seq=len(history),
                    max_tokens=self.config.max_tokens,
                    temperature=self.config.temperature,
                    suffix=[UserMessage(n) for n in turn.notices],
                    withheld_tools=() if turn.offer_tools else specs,
                    withheld_reason=turn.reason,
                    items=items,
                    scope=self.scope,
                    now=self.clock(),
                    policy=self._policy_name(session_id),
                    policy_omitted=view.omitted,
                    kept_because=view.kept_because,
                    notes=notes,
                )
                request = assembled.request
                if self.config.constrained_decisions and offered:
                    request = replace(request, json_schema=decision_schema(offered))
                if turn.answer_only:
                    request = replace(request, json_schema=answer_schema())
                request = replace(request, timeout_s=self.config.model_stall_s)
                with anyio.fail_after(self.config.model_timeout_s):
                    response = await self.model.complete(request)
            except TimeoutError:
                return self._fail(
                    run_id,
                    session_id,
                    iteration,
                    usage,
                    "ModelTimeout",
                    f"the model did not answer within {self.config.model_timeout_s:g} s; raise "
                    "the model timeout or shorten the task",
                )
            except (ModelError, ContextBudgetError) as error:
                return self._fail(
                    run_id, session_id, iteration, usage, type(error).__name__, str(error)
                )
            usage = usage.add(response.usage)
            decided = calls.interpret(response.message, iteration, tools_offered=bool(offered))
            message = decided.message
            manifest = assembled.manifest
            manifest = replace(
                manifest,
                prefix=replace(
                    manifest.prefix, server_cached_tokens=response.usage.cached_prompt_tokens
                ),
            )
            self.bus.emit(
                ModelCalled(
                    run_id,
                    session_id,
                    iteration,
                    manifest,
                    message,
                    response.usage,
                    self.clock(),
                    response.finish_reason,
                )
            )
            history.append(message)
            if not message.tool_calls:
                answer = message.content or ""
                self.bus.emit(RunFinished(run_id, session_id, answer, iteration, self.clock()))
                verdict = classify(history, evidence=calls.evidence)
                return RunResult(
                    session_id, run_id, "finished", answer=answer, iterations=iteration,
                    usage=usage, outcome=verdict.outcome, outcome_reason=verdict.reason,
                )  # fmt: skip
            results: dict[str, ToolMessage] = {}
            for call in message.tool_calls:
                if call.id in decided.rejected:
                    results[call.id] = error_message(call, decided.rejected[call.id])
                    self._emit_finished(run_id, session_id, call, results[call.id], 0.0)
            to_run = [c for c in message.tool_calls if c.id not in decided.rejected]
            results.update(
                (r.tool_call_id, r) for r in await self._execute(run_id, session_id, to_run)
            )
            history.extend(results[c.id] for c in message.tool_calls)
            done = [results[c.id] for c in message.tool_calls]
            turn = calls.next_turn(done)
            if turn.stop:
                return self._fail(run_id, session_id, iteration, usage, "GaveUp", turn.stop)
        return self._fail(
            run_id,
            session_id,
            self.config.max_iterations,
            usage,
            "MaxIterations",
            f"no final answer after {self.config.max_iterations} model calls; raise "
            "--max-iterations or make the task more specific",
        )

    async def _view(self, session_id: str, history: list[Message]) -> HistoryView:
        """What the model sees of ``history`` this call, by the session's policy."""
        if self._policy_factory is None:
            return HistoryView(tuple(history), tuple(range(len(history))))
        policy = self._policies.get(session_id)
        if policy is None:
            policy = self._policies[session_id] = self._policy_factory()
        head = self._counter.count_request(self.config.system_prompt, self.offer.specs(), ())
        room = (
            self.model.info.context_window
            - self.config.output_reserve
            - self.config.margin
            - head.total
        )
        context = PolicyContext(room, self.summarizer, _last_user(history), self._counter)
        return await policy.view(history, context)

    def _place_status(
        self,
        bar: StatusBar,
        view: HistoryView,
        history: list[Message],
        items: list[ContextItem],
        notes: dict[str, str],
        iteration: int,
    ) -> HistoryView:
        """Add this round's status block: as an item (replace) or to the history (append)."""
        block = bar.item(self.clock())
        state_tokens = self._counter.count_text(block.text)
        # R: what a round appends after the block (an assistant call and its results).
        suffix = sum(self._counter.count_text(m.content or "") for m in history[-2:])
        cost = bar.cost(state_tokens, iteration, suffix)
        notes["status_strategy"] = bar.strategy
        notes["status_cost"] = cost.explain()
        if bar.strategy == "replace":
            items.append(block)
            return view
        message = UserMessage(block.text)
        history.append(message)  # stays in the trajectory for the rest of the run
        return replace(
            view, messages=(*view.messages, message), seqs=(*view.seqs, len(history) - 1)
        )

    def _policy_name(self, session_id: str) -> str:
        policy = self._policies.get(session_id)
        return policy.name if policy is not None else ""

    def _items(self, session_id: str, history: list[Message], iteration: int) -> list[ContextItem]:
        request = ContextRequest(session_id, self.scope, history, self.clock(), iteration)
        return [item for source in self.sources for item in source(request)]

    def _guard(self, result: ToolMessage) -> ToolMessage:
        """A tool result as it may enter the context: secrets redacted, data marked as data.

        Errors written by workset and the output of tools marked ``wrap_output=False``
        (bookkeeping tools, and the MCP bridge, which wraps its own) are only neutralised.
        """
        content = self.secrets.redact(result.content)
        tool = self.tools.get(result.name) if result.name in self.tools else None
        wrap = tool is None or tool.wrap_output
        if content.startswith("<external_content") and not wrap:
            pass  # wrapped by the tool itself
        elif self.config.wrap_tool_results and wrap and not result.is_error:
            content = wrap_untrusted(content, source=f"tool:{result.name}")
        else:
            content = neutralize(content)
        return replace(result, content=content) if content != result.content else result

    async def _execute(
        self, run_id: str, session_id: str, calls: Sequence[ToolCall]
    ) -> list[ToolMessage]:
        """Run calls in order; consecutive read-only calls run together."""
        results: dict[str, ToolMessage] = {}
        batch: list[ToolCall] = []

        async def flush() -> None:
            async with anyio.create_task_group() as group:
                for call in batch:
                    group.start_soon(self._run_one, run_id, session_id, call, results)
            batch.clear()

        for call in calls:
            if self.tools.is_read_only(call.name):
                batch.append(call)
                continue
            await flush()
            await self._run_one(run_id, session_id, call, results)
        await flush()
        return [results[c.id] for c in calls]

    async def _permit(self, call: ToolCall) -> tuple[str | None, str]:
        """Why ``call`` may not run (None when it may), and the decision for the audit."""
        if call.name not in self.tools:
            if self.offer.can_search:
                return await self.offer.search_for(call), "refused: unknown tool (searched)"
            return None, "allowed"  # the registry answers unknown names with a suggestion
        if not self.offer.can_call(call.name):
            return self.offer.admit(call.name), "refused: not loaded (now loaded)"
        if self.gate is None:
            return None, "allowed"
        decided = await self.gate.check(call, self.tools.get(call.name))
        self.gate.record(call, decided.allowed)
        if not decided.allowed:
            return decided.message, f"denied: {decided.verdict.rule or decided.verdict.decision}"
        if decided.approval is not None:
            return None, f"approved by {decided.approval.by}"
        return None, "allowed"

    async def _run_one(
        self, run_id: str, session_id: str, call: ToolCall, results: dict[str, ToolMessage]
    ) -> None:
        refusal, decision = await self._permit(call)
        if refusal is not None:
            results[call.id] = error_message(call, refusal)
            self._emit_finished(run_id, session_id, call, results[call.id], 0.0, decision)
            return
        self.bus.emit(ToolStarted(run_id, session_id, call, self.clock()))
        started = time.perf_counter()
        result: ToolMessage | None = None
        with anyio.move_on_after(self.config.tool_timeout_s):
            result = await self.tools.execute(call, CallContext(session_id, call.id, call.name))
        if result is None:
            result = error_message(
                call,
                f"timed out after {self.config.tool_timeout_s:g} s and was cancelled; narrow "
                "the request (smaller range, more specific pattern) and try again",
            )
        result = self._guard(result)
        if self.status is not None:
            result = self.status.annotated(call, result, self.clock())
        results[call.id] = result
        duration = time.perf_counter() - started
        self._emit_finished(run_id, session_id, call, result, duration, decision)

    def _emit_finished(
        self,
        run_id: str,
        session_id: str,
        call: ToolCall,
        result: ToolMessage,
        duration: float,
        decision: str = "allowed",
    ) -> None:
        event = ToolFinished(
            run_id, session_id, call, result, duration, self.clock(), decision=decision
        )
        self.bus.emit(event)

    def _fail(
        self, run_id: str, session_id: str, iteration: int, usage: RunUsage, kind: str, text: str
    ) -> RunResult:
        text = self.secrets.redact(text)
        self.bus.emit(RunFailed(run_id, session_id, text, kind, self.clock()))
        verdict = classify((), failure=kind)
        return RunResult(
            session_id, run_id, "failed", error=text, iterations=iteration, usage=usage,
            outcome=verdict.outcome, outcome_reason=verdict.reason,
        )  # fmt: skip


def _last_user(history: Sequence[Message]) -> str:
    return next((m.content for m in reversed(history) if isinstance(m, UserMessage)), "")


def _pinned_item(pinned: Sequence[str]) -> ContextItem:
    """A history policy's pinned block, placed at the end (``pinned_at="end"``)."""
    text = pinned_block(pinned)
    return ContextItem(
        "pinned-notes",
        "task_state",
        text,
        "history_policy",
        required=True,
        why="pinned by the history policy so it survives any cut",
    )
