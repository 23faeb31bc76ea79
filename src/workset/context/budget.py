"""Budget arithmetic and trajectory selection.

``window − output_reserve − margin − fixed = available`` for the trajectory, where ``fixed`` is
the stable prefix, the suffix and the template's own tokens. The current task (the last user
message) and everything after it are required; older segments are kept newest first as one
contiguous run while they fit, protocol units whole. Required parts that do not fit raise
:class:`ContextBudgetError` with the numbers and what to change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workset.errors import ContextBudgetError
from workset.messages import Message, ProtocolUnit, UserMessage, group_units


@dataclass(frozen=True, slots=True)
class BudgetConfig:
    window: int
    output_reserve: int = 1024
    margin: int = 64
    # The most of the room left after required parts that optional context items (memory,
    # evidence, notes) may take; the trajectory gets the rest.
    items_share: float = 0.5

    def available(self, fixed: int) -> int:
        return self.window - self.output_reserve - self.margin - fixed


def last_task_index(history: Sequence[Message]) -> int:
    """Where the current task starts: the last user-role message that is not a harness
    notice (an appended status block is never the task); 0 when there is none."""
    return max(
        (i for i, m in enumerate(history) if isinstance(m, UserMessage) and m.origin != "harness"),
        default=0,
    )


@dataclass(frozen=True, slots=True)
class Selection:
    """Which messages (by index into the history) are kept, and which dropped."""

    first_kept: int  # messages[first_kept:] are kept (plus ``protected`` ones before)
    used: int  # tokens of the kept messages
    protected: tuple[int, ...] = ()  # kept indices before ``first_kept``, ascending


def select_recent(
    history: Sequence[Message],
    tokens: Sequence[int],
    room: int,
    budget: BudgetConfig,
    fixed: int,
    protected: frozenset[int] = frozenset(),
) -> Selection:
    """Keep the required tail plus the longest run of older whole segments that fits.

    Segments that start at an index in ``protected`` (messages a history policy kept on
    purpose, such as the user's own words) are kept before any other older segment, newest
    first, while they fit; the recent run then fills what is left.
    """
    grouped, open_unit = group_units(history)
    sizes: list[int] = []
    starts: list[int] = []
    index = 0
    for segment in grouped:
        n = len(segment.messages) if isinstance(segment, ProtocolUnit) else 1
        starts.append(index)
        sizes.append(sum(tokens[index : index + n]))
        index += n
    if open_unit is not None:
        starts.append(index)
        sizes.append(sum(tokens[index:]))
    last_user = last_task_index(history)
    required_from = next((k for k in range(len(starts) - 1, -1, -1) if starts[k] <= last_user), 0)
    required = sum(sizes[required_from:])
    if required > room:
        raise ContextBudgetError(
            f"the required context does not fit: the current task and its trajectory need "
            f"{required} tokens and the system prompt, tools and suffix {fixed}, but the window "
            f"{budget.window} minus output reserve {budget.output_reserve} minus margin "
            f"{budget.margin} leaves {budget.window - budget.output_reserve - budget.margin}. "
            "Raise the context window, lower the output reserve, shorten the system prompt or "
            "tools, or start a new session."
        )
    used, first = required, required_from
    guarded: list[int] = []
    for k in range(required_from - 1, -1, -1):
        if starts[k] in protected and used + sizes[k] <= room:
            used += sizes[k]
            guarded.append(k)
    for k in range(required_from - 1, -1, -1):
        if k in guarded:
            first = k
            continue
        if used + sizes[k] > room:
            break
        used += sizes[k]
        first = k
    kept_guarded = tuple(
        i
        for k in sorted(guarded)
        if k < first
        for i in range(starts[k], starts[k] + _length(k, starts, history))
    )
    return Selection(starts[first] if starts else 0, used, kept_guarded)


def _length(k: int, starts: Sequence[int], history: Sequence[Message]) -> int:
    """How many messages segment ``k`` has."""
    end = starts[k + 1] if k + 1 < len(starts) else len(history)
    return end - starts[k]
