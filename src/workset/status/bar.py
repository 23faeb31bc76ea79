"""The status bar as the loop uses it: one tracker, one TODO list, one strategy.

:class:`StatusBar` subscribes its tracker to the loop's events, renders the block for each
round (time, working directory, OS, exact call counts, limits, TODO list, pending events,
loaded skills and tools), annotates tool results ("3rd call to read_file") and reports the
seed's cost model of its update strategy for the manifest.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from workset.context.items import ContextItem
from workset.messages import ToolCall, ToolMessage
from workset.status.annotate import annotate_with
from workset.status.render import PendingEvent, render_status, status_item
from workset.status.strategy import StatusCost, StatusStrategy, cost_model
from workset.status.todo import TodoList
from workset.status.tracker import StatusTracker


def _nothing() -> Sequence[str]:
    return ()


def _no_events() -> Sequence[PendingEvent]:
    return ()


@dataclass
class StatusBar:
    """What the agent needs to keep an ``<agent_status>`` block at the end of each request.

    ``skills``, ``tool_names`` and ``pending`` are read each round (the loaded skills and
    discovered tools grow during a run). ``alpha`` is the cached/uncached input price ratio
    used by the cost model.
    """

    tracker: StatusTracker = field(default_factory=StatusTracker)
    todo: TodoList | None = None
    strategy: StatusStrategy = "replace"
    cwd: str = field(default_factory=os.getcwd)
    os_name: str = field(default_factory=lambda: f"{platform.system()} {platform.release()}")
    skills: Callable[[], Sequence[str]] = _nothing
    tool_names: Callable[[], Sequence[str]] = _nothing
    pending: Callable[[], Sequence[PendingEvent]] = _no_events
    annotate: bool = True
    alpha: float = 0.1

    def render(self, now: float) -> str:
        return render_status(
            self.tracker.state(),
            now=now,
            cwd=self.cwd,
            os_name=self.os_name,
            pending_events=self.pending(),
            skills=self.skills(),
            tool_names=self.tool_names(),
            todo=self.todo.items if self.todo is not None else (),
        )

    def item(self, now: float) -> ContextItem:
        return status_item(self.render(now), now=now)

    def annotated(self, call: ToolCall, result: ToolMessage, now: float) -> ToolMessage:
        """``result`` with its nth-call line (and error details) when annotation is on."""
        return annotate_with(self.tracker, call, result, now) if self.annotate else result

    def cost(self, state_tokens: int, updates: int, suffix_tokens: int) -> StatusCost:
        return cost_model(self.alpha, state_tokens, max(updates, 1), suffix_tokens)
