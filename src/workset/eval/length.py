"""Accuracy by list length: the fact kept in the middle while the list grows.

Seed 003's second axis: one record, three, eight... up to the hundreds; the gold record sits at
the middle slot, so only the number of look-alike neighbours changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from workset.models.base import Model

from .checkpoint import Checkpoint
from .records import AxisReport, RecordTask, run_axis

LENGTHS: tuple[int, ...] = (1, 3, 8, 16, 32, 75, 140)


async def evaluate_length(
    model: Model,
    task: RecordTask,
    *,
    lengths: Sequence[int] = LENGTHS,
    trials: int = 20,
    checkpoint: Checkpoint,
    progress: Callable[[str], None] | None = None,
) -> AxisReport:
    cells = [(float(n), n, (n - 1) // 2) for n in lengths]
    return await run_axis(
        model, task, "length", cells, trials=trials, checkpoint=checkpoint, progress=progress
    )
