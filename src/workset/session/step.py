"""One step of a session's run over its log: one model call and the tools it asked for.

:meth:`StepRunner.step` queues what the call interpreter decided this request gets, flushes
the inbox and notices at the safe point (:meth:`~workset.session.inbox.Inbox.flush`), makes
the request with the one ``assemble`` (:class:`~workset.session.context.RequestMaker`) and
calls the model; an urgent event arriving now cancels the call and its partial output is
discarded, never recorded (rule 4). The assistant message is recorded at once (rule 1), then
its calls run as one protocol unit (:mod:`.units`; rules 2 and 3). The runner knows where the
step is (:attr:`StepRunner.phase`), so an interrupt cancels the right thing
(:meth:`StepRunner.cancel`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

import anyio

from workset.context.manifest import Manifest
from workset.errors import ContextBudgetError, ModelError
from workset.events.records import ModelCalled, StepInterrupted
from workset.history.draft import add_usage
from workset.loop.calls import CallInterpreter
from workset.loop.confidence import same_text, scoring_request
from workset.loop.steering import NextTurn
from workset.messages import AssistantMessage, ToolMessage, ToolSpec, UserMessage
from workset.models.base import Model, ModelRequest, ModelResponse, TokenLogprob, Usage
from workset.models.constrained import answer_schema
from workset.session.statusbar import status_notes

if TYPE_CHECKING:
    from workset.session.engine import Session

Phase = Literal["idle", "prepare", "model", "tools"]


@dataclass(frozen=True, slots=True)
class StepOutcome:
    kind: Literal["answered", "continued", "interrupted", "failed"]
    usage: Usage | None = None
    answer: str = ""
    turn: NextTurn = field(default_factory=NextTurn)  # what the next request gets
    error_type: str = ""
    error: str = ""


class StepRunner:
    """Takes the steps of a session's runs, one at a time."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.phase: Phase = "idle"
        self._scope: anyio.CancelScope | None = None  # the request and model call now made
        # The last final answer's tokens, scored (workset.loop.confidence); () otherwise.
        self.answer_tokens: tuple[TokenLogprob, ...] = ()

    async def _scored(
        self, model: Model, request: ModelRequest, response: ModelResponse
    ) -> tuple[tuple[TokenLogprob, ...], Usage]:
        """A final answer's tokens with their log-probabilities (the same request once more,
        :func:`~workset.loop.confidence.scoring_request`), and the usage of both calls; no
        tokens when answers are not scored, the backend does not report log-probabilities,
        the call fails, or greedy decoding wrote another text."""
        answer = response.message.content or ""
        config = self.session.config
        wanted = config.answer_confidence is not None and model.info.reports_logprobs
        if not wanted or not answer.strip():
            return (), response.usage
        try:
            with anyio.fail_after(config.model_timeout_s):
                again = await model.complete(scoring_request(request, response))
        except (TimeoutError, ModelError):
            return (), response.usage
        usage = add_usage(response.usage, again.usage)
        return (again.tokens if same_text(answer, again.tokens) else ()), usage

    def cancel(self) -> None:
        """An urgent event: cancel what the step is doing now (the request and model call,
        or the wait for its tools: those get placeholder results)."""
        if self.phase in ("prepare", "model") and self._scope is not None:
            self._scope.cancel()
        elif self.phase == "tools":
            self.session.units.cancel()

    async def step(
        self, run_id: str, iteration: int, interpreter: CallInterpreter, turn: NextTurn
    ) -> StepOutcome:
        """One model call and the tools it asked for. ``turn`` is what the call interpreter
        decided the harness adds to this request (a different strategy, "answer now")."""
        session = self.session
        agent, config = session.agent, session.config
        specs = agent.offer.specs()
        offered: tuple[ToolSpec, ...] = specs if turn.offer_tools else ()
        self.phase = "prepare"
        response = None
        try:
            with anyio.CancelScope() as scope:
                self._scope = scope
                now = session.now()
                kind = "answer_now" if (turn.answer_only or not turn.offer_tools) else "strategy"
                for text in turn.notices:
                    session.queue.push(kind, "call_interpreter", "suffix", now, text=text)
                suffix = session.inbox.flush(run_id, now)
                interpreter.note_task(session.state.task_text)
                made = await session.maker.make(
                    request_id=f"{session.id}-c{_model_calls(session) + 1}",
                    messages=() if turn.alone else session.state.messages,
                    seqs=() if turn.alone else session.state.seqs,
                    tools=offered,
                    notices=suffix,
                    withheld=() if turn.offer_tools else specs,
                    withheld_reason=turn.reason,
                    iteration=iteration,
                    now=now,
                    query=session.state.task_text,
                    notes=status_notes(session, iteration),
                    json_schema=answer_schema() if turn.answer_only else None,
                    schema_for=interpreter.request_schema,
                    sampling=turn.sampling,
                )
                interpreter.observe_items(made.items)
                self.phase = "model"
                model = agent.coder if turn.alone else agent.model
                with anyio.fail_after(config.model_timeout_s):
                    response = await model.complete(made.assembled.request)
        except TimeoutError:
            return StepOutcome(
                "failed",
                error_type="ModelTimeout",
                error=f"the model did not answer within {config.model_timeout_s:g} s; raise "
                "the model timeout or shorten the task",
            )
        except (ModelError, ContextBudgetError) as error:
            return StepOutcome("failed", error_type=type(error).__name__, error=str(error))
        finally:
            self._scope = None
        if response is None:  # cancelled by an urgent event: nothing of it is recorded
            if self.phase == "model" and session.interrupts:
                session.record(
                    StepInterrupted(
                        session.id, run_id, session.interrupts[-1].id, "model", session.now()
                    )
                )
            self.phase = "prepare"
            return StepOutcome("interrupted", turn=turn)
        decided = interpreter.interpret(
            response.message,
            iteration,
            tools_offered=bool(offered),
            specs=offered,
            truncated=response.finish_reason == "length",
        )
        message = decided.message
        usage = response.usage
        self.answer_tokens = ()
        if not message.tool_calls:
            self.answer_tokens, usage = await self._scored(model, made.assembled.request, response)
        manifest = _with_server_cache(made.assembled.manifest, response.usage)
        session.record(
            ModelCalled(
                run_id, session.id, iteration, manifest, message, response.usage,
                session.now(), response.finish_reason, request=made.ref,
                notices=tuple(n.record() for n in suffix), answer_tokens=self.answer_tokens,
            ),
            blobs=made.blobs,
        )  # fmt: skip
        if not message.tool_calls:
            answer = message.content or ""
            written = (
                [n.text for n in suffix]
                + [  # what the harness wrote this turn
                    m.content
                    for m in session.state.messages[-6:]
                    if isinstance(m, UserMessage)
                    and (m.origin != "user" or m.content.startswith("[Unprocessed event"))
                ]
            )
            again = interpreter.not_an_answer(answer, written)
            if again is not None:  # kept as said; a trajectory notice asks for the answer
                session.queue.push(
                    "echo", "call_interpreter", "trajectory", session.now(), text=again
                )
                return StepOutcome("continued", usage)
            look = second_look(session, interpreter)
            if look is not None:  # asked again over the lines that bear on the question
                return StepOutcome("continued", usage, turn=look)
            return StepOutcome("answered", usage, answer=interpreter.run_answer(answer))
        self.phase = "tools"
        interrupted = await session.units.run(run_id, message, decided)
        self.phase = "prepare"
        if interrupted:  # the next request is about the interrupt, not these calls
            return StepOutcome("continued", usage)
        ids = {c.id for c in message.tool_calls}
        results = [
            m
            for m in session.state.messages
            if isinstance(m, ToolMessage) and m.tool_call_id in ids
        ]
        after = interpreter.next_turn(results)
        if after.stop:
            return StepOutcome("failed", usage, error_type="GaveUp", error=after.stop)
        return StepOutcome("continued", usage, turn=after)


def second_look(
    session: Session, interpreter: CallInterpreter, failure: str | None = None
) -> NextTurn | None:
    """The turn of a second look (:meth:`CallInterpreter.second_look`: the run's answer is
    unsupported, or ``failure`` is about to end it without one; or, with ``check_answers``,
    it is checked), with its note queued for the trajectory so the reply is judged as such
    (unverified at best, or the check of the answer before it); None when there is none."""
    look = interpreter.second_look(session.state.messages, failure)
    if look is not None:
        session.queue.push(
            "second_look", "call_interpreter", "trajectory", session.now(),
            text=interpreter.look_note,
        )  # fmt: skip
    return look


def _model_calls(session: Session) -> int:
    return sum(1 for m in session.state.messages if isinstance(m, AssistantMessage))


def _with_server_cache(manifest: Manifest, usage: Usage) -> Manifest:
    """The manifest with what the server reported taking from its KV cache for this call
    (its usage details, else a serving engine's prefix-cache counters), beside the reuse the
    layout predicted."""
    cached = usage.cached_prompt_tokens
    if cached is None:
        cached = usage.engine_prefix_hits
    if cached is None:
        return manifest
    return replace(manifest, prefix=replace(manifest.prefix, server_cached_tokens=cached))
