"""Replay a recorded transcript under one history policy and count what each call would bill.

Nothing is re-run: at every model call point of the transcript (each assistant message) the
policy sees the recorded history before it, and the request the agent would have sent is
built by the agent's own assembly (:mod:`workset.eval.request`) and counted exactly with the
model's counter. The messages themselves are the transcript's, byte for byte, under every
policy.

Sums per run: billed input tokens over all call points; the cached part (tokens equal to the
previous request's prefix, what a prefix-caching server reuses); the final context (the last
call point's request); the policy's own model calls (``HistoryView.cost``), billed apart.
The view of the whole transcript at the end is kept: probes are asked on top of it. The
cached part is the assembler's own prefix measurement against the previous call point.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from workset.context.assemble import Assembler, PreviousRequest
from workset.history.base import HistoryPolicy
from workset.messages import AssistantMessage, ToolSpec
from workset.models.base import Usage
from workset.session.context import RequestSettings, last_user_words, policy_context

from .formats import Transcript
from .request import Prompt, apply_view, build


@dataclass(frozen=True, slots=True)
class CallCount:
    """One call point: the index of the recorded assistant message, its turn, its counts.

    ``over_window`` is set when the request plus the output reserve would not have fitted
    the model's window: the agent could not have sent it.
    """

    index: int
    turn: int
    total: int
    cached: int
    kept: int  # how many messages the view sent
    over_window: bool = False


@dataclass(frozen=True, slots=True)
class ReplayResult:
    policy: str
    calls: tuple[CallCount, ...]
    cost: Usage  # the policy's own model calls (summaries, notes), summed over the run
    end: Prompt  # what the model sees of the whole transcript, for the probes

    @property
    def billed(self) -> int:
        return sum(c.total for c in self.calls)

    @property
    def cached(self) -> int:
        return sum(c.cached for c in self.calls)

    @property
    def final_context(self) -> int:
        return self.calls[-1].total if self.calls else 0

    @property
    def over_window(self) -> int:
        """How many call points would not have fitted the model's window."""
        return sum(c.over_window for c in self.calls)


def call_points(transcript: Transcript) -> list[int]:
    """Indexes of the recorded assistant messages: where the model was called."""
    return [i for i, m in enumerate(transcript.messages) if isinstance(m, AssistantMessage)]


def add_usage(a: Usage, b: Usage) -> Usage:
    return Usage(a.prompt_tokens + b.prompt_tokens, a.completion_tokens + b.completion_tokens)


async def replay(
    transcript: Transcript,
    tools: Sequence[ToolSpec],
    policy: HistoryPolicy,
    settings: RequestSettings,
    *,
    on_call: Callable[[int, CallCount], None] | None = None,
) -> ReplayResult:
    """Count every call point of ``transcript`` as the agent would have sent it under
    ``policy``, with ``settings`` (:func:`~workset.eval.request.eval_settings`).

    Each call point is what the agent's session would do: the policy's view of the history
    before it (told its room and query by :func:`~workset.session.context.policy_context`),
    assembled by :func:`~workset.eval.request.build`; a call point the assembler would have
    had to cut is counted whole and flagged ``over_window``. ``on_call(n, count)`` is told of
    each call point as it is done.
    """
    assembler = Assembler(settings.counter)
    calls: list[CallCount] = []
    cost = Usage(0, 0)
    previous: PreviousRequest | None = None
    for n, index in enumerate(call_points(transcript), start=1):
        history = transcript.messages[:index]
        view = await policy.view(history, policy_context(settings, tools, last_user_words(history)))
        cost = add_usage(cost, view.cost)
        built, fits = build(assembler, settings, view, tools, request_id=f"c{n}", previous=previous)
        previous = built.previous
        call = CallCount(
            index,
            transcript.turns[index],
            built.count.total,
            built.manifest.prefix.reused_tokens,
            len(view.messages),
            not fits,
        )
        calls.append(call)
        if on_call is not None:
            on_call(n, call)
    whole = transcript.messages
    final = await policy.view(whole, policy_context(settings, tools, last_user_words(whole)))
    cost = add_usage(cost, final.cost)
    return ReplayResult(policy.name, tuple(calls), cost, apply_view(transcript.system, final))
