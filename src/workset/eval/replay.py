"""Replay a recorded transcript under one history policy and count what each call would bill.

Nothing is re-run: at every model call point of the transcript (each assistant message) the
policy sees the recorded history before it, and the request it would have sent (system prompt,
tools, the policy's view, its pinned block) is counted exactly with the model's counter. The
messages themselves are the transcript's, byte for byte, under every policy.

Sums per run: billed input tokens over all call points; the cached part (tokens equal to the
previous request's prefix, what a prefix-caching server reuses); the final context (the last
call point's request); the policy's own model calls (``HistoryView.cost``), billed apart.
The view of the whole transcript at the end is kept: probes are asked on top of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from workset.history.base import HistoryPolicy, PolicyContext
from workset.messages import AssistantMessage, Message, ToolSpec, UserMessage
from workset.models.base import ModelRequest, Usage
from workset.tokens.base import RequestCount
from workset.tokens.counter import PartCounter, common_prefix_tokens

from .formats import Transcript
from .request import Prompt, apply_view, count, to_request


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
    counter: PartCounter,
    context: PolicyContext,
    *,
    model_window: int | None = None,
    reserve: int = 0,
    stored: Callable[[int], CallCount | None] | None = None,
    on_call: Callable[[int, CallCount], None] | None = None,
) -> ReplayResult:
    """Count every call point of ``transcript`` as ``policy`` would have sent it.

    ``model_window`` and ``reserve`` (the output tokens kept free) flag call points that would
    not have fitted. ``stored(n)`` returns call point ``n``'s count from an earlier, interrupted
    run (its view is still computed, so the policy's state is rebuilt; only counting is
    skipped); ``on_call(n, count)`` is told of each call point as it is done.
    """
    points = call_points(transcript)
    calls: list[CallCount] = []
    cost = Usage(0, 0)
    previous: RequestCount | None = None
    previous_request: ModelRequest | None = None
    for n, index in enumerate(points, start=1):
        history = transcript.messages[:index]
        view = await policy.view(history, _with_query(context, history))
        cost = add_usage(cost, view.cost)
        request = to_request(apply_view(transcript.system, view), tools, max_tokens=reserve)
        done = stored(n) if stored is not None else None
        if done is not None:
            calls.append(done)
            previous, previous_request = None, request
            continue
        if previous is None and previous_request is not None:
            previous = count(counter, previous_request)  # resumed: the last stored call point
        counted = count(counter, request)
        cached = 0 if previous is None else common_prefix_tokens(previous, counted, counter)
        previous, previous_request = counted, request
        over = model_window is not None and counted.total + reserve > model_window
        call = CallCount(
            index, transcript.turns[index], counted.total, cached, len(view.messages), over
        )
        calls.append(call)
        if on_call is not None:
            on_call(n, call)
    final = await policy.view(transcript.messages, _with_query(context, transcript.messages))
    cost = add_usage(cost, final.cost)
    return ReplayResult(policy.name, tuple(calls), cost, apply_view(transcript.system, final))


def last_user_text(history: Sequence[Message]) -> str:
    return next((m.content for m in reversed(history) if isinstance(m, UserMessage)), "")


def _with_query(context: PolicyContext, history: Sequence[Message]) -> PolicyContext:
    return replace(context, query=last_user_text(history))
