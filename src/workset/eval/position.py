"""Accuracy by position: the same fact at nine depths of a fixed-length record list.

Seed 003's test: ``DEPTHS`` from the first line to the last; at each depth, ``trials`` lists
with a different gold record each, so a rate is over distinct facts, not one fact asked again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from workset.models.base import Model

from .checkpoint import Checkpoint
from .records import AxisReport, RecordTask, run_axis

DEPTHS: tuple[float, ...] = (0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1)


def slot_at(depth: float, n: int) -> int:
    """The gold record's index in a list of ``n`` at ``depth`` (0 = first line, 1 = last)."""
    if not 0 <= depth <= 1:
        raise ValueError(f"depth must be between 0 and 1, got {depth}")
    return round(depth * (n - 1))


async def evaluate_position(
    model: Model,
    task: RecordTask,
    *,
    n: int = 25,
    depths: Sequence[float] = DEPTHS,
    trials: int = 32,
    checkpoint: Checkpoint,
    progress: Callable[[str], None] | None = None,
) -> AxisReport:
    cells = [(d, n, slot_at(d, n)) for d in depths]
    return await run_axis(
        model, task, "position", cells, trials=trials, checkpoint=checkpoint, progress=progress
    )
