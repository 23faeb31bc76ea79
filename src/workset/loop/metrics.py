"""Tool metrics from the loop's events: calls, errors and durations per tool.

A plain subscriber: ``metrics = ToolMetrics(); Agent(..., subscribers=[metrics])``, then
``metrics.snapshot()``. The audit trail itself is the session log's ``tool_finished`` events
(time, arguments, result, duration, actor, safety decision).
"""

from __future__ import annotations

from dataclasses import dataclass

from workset.events import LoopEvent, ToolFinished


@dataclass(frozen=True, slots=True)
class ToolStats:
    calls: int
    errors: int
    denied: int
    total_s: float
    max_s: float

    @property
    def mean_s(self) -> float:
        return self.total_s / self.calls if self.calls else 0.0

    @property
    def error_rate(self) -> float:
        return self.errors / self.calls if self.calls else 0.0


class ToolMetrics:
    def __init__(self) -> None:
        self._stats: dict[str, ToolStats] = {}

    def __call__(self, event: LoopEvent) -> None:
        if not isinstance(event, ToolFinished):
            return
        old = self._stats.get(event.call.name, ToolStats(0, 0, 0, 0.0, 0.0))
        self._stats[event.call.name] = ToolStats(
            calls=old.calls + 1,
            errors=old.errors + int(event.result.is_error),
            denied=old.denied + int(event.decision.startswith("denied")),
            total_s=old.total_s + event.duration_s,
            max_s=max(old.max_s, event.duration_s),
        )

    def snapshot(self) -> dict[str, ToolStats]:
        return dict(sorted(self._stats.items()))
