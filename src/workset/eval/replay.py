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
from dataclasses import dataclass

from workset.history.base import HistoryPolicy, HistoryView, PolicyContext, pinned_block
from workset.messages import AssistantMessage, Message, ToolSpec, UserMessage
from workset.models.base import Usage
from workset.tokens.base import RequestCount
from workset.tokens.counter import PartCounter, common_prefix_tokens

from .formats import Transcript


@dataclass(frozen=True, slots=True)
class Prompt:
    """A request without its tools: the system prompt and the messages after it."""

    system: str | None
    messages: tuple[Message, ...]


@dataclass(frozen=True, slots=True)
class CallCount:
    """One call point: the index of the recorded assistant message, its turn, its counts."""

    index: int
    turn: int
    total: int
    cached: int
    kept: int  # how many messages the view sent


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


def apply_view(system: str | None, view: HistoryView) -> Prompt:
    """The prompt a view makes: its pinned block goes in the system prompt or last.

    At ``"end"`` the block is one user message after the view (before any question asked on
    top of it), so moving it between the two places changes nothing else.
    """
    if not view.pinned:
        return Prompt(system, view.messages)
    block = pinned_block(view.pinned)
    if view.pinned_at == "system":
        return Prompt(f"{system}\n\n{block}" if system else block, view.messages)
    return Prompt(system, (*view.messages, UserMessage(block)))


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
    on_call: Callable[[int, int], None] | None = None,
) -> ReplayResult:
    """Count every call point of ``transcript`` as ``policy`` would have sent it."""
    points = call_points(transcript)
    calls: list[CallCount] = []
    cost = Usage(0, 0)
    previous: RequestCount | None = None
    for n, index in enumerate(points, start=1):
        history = transcript.messages[:index]
        view = await policy.view(history, _with_query(context, history))
        cost = add_usage(cost, view.cost)
        prompt = apply_view(transcript.system, view)
        count = counter.count_request(prompt.system, tools, prompt.messages)
        cached = 0 if previous is None else common_prefix_tokens(previous, count, counter)
        previous = count
        calls.append(
            CallCount(index, transcript.turns[index], count.total, cached, len(view.messages))
        )
        if on_call is not None:
            on_call(n, len(points))
    final = await policy.view(transcript.messages, _with_query(context, transcript.messages))
    cost = add_usage(cost, final.cost)
    return ReplayResult(policy.name, tuple(calls), cost, apply_view(transcript.system, final))


def _with_query(context: PolicyContext, history: Sequence[Message]) -> PolicyContext:
    last_user = next((m.content for m in reversed(history) if isinstance(m, UserMessage)), "")
    return PolicyContext(context.window, context.summarizer, last_user)
