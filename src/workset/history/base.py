"""The history-policy seam: recorded history in, the model's view of it out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from workset.context.manifest import OmittedItem
from workset.messages import Message
from workset.models.base import Model, Usage
from workset.tokens.counter import PartCounter

# Where a view's pinned block goes: appended to the system prompt, after the whole trajectory
# (the stable prefix untouched), or just before the current user message (the question read
# last, so a small model answers it instead of continuing the quoted block).
PinnedAt = Literal["system", "end", "task"]


@dataclass(frozen=True, slots=True)
class HistoryView:
    """What one call sees of the history.

    ``seqs[i]`` is the index in the recorded history of ``messages[i]``, or None for a message
    the policy made (a summary, a masked stub keeps its original seq). ``omitted`` lists what
    the policy left out (reason ``policy`` or ``masked``). ``pinned`` is text the policy wants
    kept whatever happens (notes, standing rules), placed by ``pinned_at`` (:data:`PinnedAt`).
    ``cost`` is what the policy's own model calls billed (summaries, notes), counted apart
    from the run.
    """

    messages: tuple[Message, ...]
    seqs: tuple[int | None, ...]
    omitted: tuple[OmittedItem, ...] = ()
    pinned: tuple[str, ...] = ()
    pinned_at: PinnedAt = "end"
    cost: Usage = field(default_factory=lambda: Usage(0, 0))
    summary_id: str | None = None
    # Why a message of the original history was kept, by seq, when the policy kept it for a
    # reason other than recency ("user message kept verbatim"); shown in the manifest.
    kept_because: Mapping[int, str] = field(default_factory=dict)
    # What the policy wants the user (not the model) to know: a breaker that opened, a
    # summary that failed. The loop may turn these into events or log lines.
    notices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PolicyContext:
    """What a policy may use besides the history: a model for summaries, the window size.

    ``window`` is the number of tokens the history may use (the caller has already taken the
    system prompt, tools and output reserve out of the model's window).
    """

    window: int
    summarizer: Model | None = None
    query: str = ""  # the current task, for context-aware compression
    # Counts the view the way the model will see it (triggers, omitted-item sizes, previews);
    # without it sizes are estimated at 4 characters a token.
    counter: PartCounter | None = None


class HistoryPolicy(Protocol):
    """A named, replayable rule for what the model sees of the history.

    Policies may keep state between calls of one session (summaries already written are not
    written again), so use one instance per session. ``view`` must keep protocol units whole
    and must never drop or change the last user message, nor drop anything after it (a
    layer may shape how a new tool result enters, e.g. a frozen preview of a large one, as
    long as it gives the same bytes on every call).
    """

    name: str

    async def view(self, history: Sequence[Message], context: PolicyContext) -> HistoryView: ...


def pinned_block(pinned: Sequence[str]) -> str:
    """A view's pinned entries as one block of text (each entry carries its own header)."""
    return "\n\n".join(entry.strip() for entry in pinned if entry.strip())
