"""The ``<agent_status>`` block: pure, compact and deterministic.

Same inputs, same text: sections come in a fixed order, tools, skills and limits are sorted,
and empty sections are left out. The block is what the model reads last before answering, so
every number in it is exact and every reached limit says what not to do next.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo

from workset.context.items import ContextItem
from workset.status.text import format_time, plural, shorten
from workset.status.todo import TodoItem, render_todo
from workset.status.tracker import StatusState, ToolCount

OPEN_TAG = "<agent_status>"
CLOSE_TAG = "</agent_status>"
STATUS_ITEM_ID = "agent_status"
MAX_TARGETS_SHOWN = 5
_PENDING_CHARS = 200


@dataclass(frozen=True, slots=True)
class PendingEvent:
    """An event the model has not answered yet, e.g. ("user message", "only Madrid data")."""

    kind: str  # "user message", "tool result", "system reminder"…
    text: str


def render_status(
    state: StatusState,
    *,
    now: float,
    cwd: str,
    os_name: str,
    pending_events: Sequence[PendingEvent] = (),
    skills: Sequence[str] = (),
    tool_names: Sequence[str] = (),
    todo: Sequence[TodoItem] = (),
    tz: tzinfo = UTC,
) -> str:
    """The status block for one round; ``now`` is unix seconds, shown in ``tz``."""
    zone = datetime.fromtimestamp(now, tz).tzname() or ""
    lines = [
        OPEN_TAG,
        "Current status (kept by code; counts are exact):",
        f"- Time: {format_time(now, tz)} {zone}".rstrip(),
        f"- Working directory: {shorten(cwd, _PENDING_CHARS)}",
        f"- OS: {os_name}",
        *_tool_lines(state),
        *_limit_lines(state),
        *_repeat_lines(state),
        *_error_lines(state, tz),
        *_todo_lines(todo),
        *_pending_lines(pending_events),
    ]
    if skills:
        lines.append(f"- Loaded skills: {', '.join(sorted(skills))}")
    if tool_names:
        lines.append(f"- Loaded tools: {', '.join(sorted(tool_names))}")
    lines.append(CLOSE_TAG)
    return "\n".join(lines)


def status_item(block: str, *, now: float | None = None) -> ContextItem:
    """The status block as a required context item, rendered at the very end of a request."""
    return ContextItem(
        item_id=STATUS_ITEM_ID,
        kind="status",
        text=block,
        source="status:code",
        retrieved_at=now,
        required=True,
        why="agent status bar, rebuilt by code every round",
    )


def _tool_lines(state: StatusState) -> list[str]:
    if not state.total_calls:
        return ["- Tool calls: none yet"]
    failed = f", {state.total_errors} failed" if state.total_errors else ""
    lines = [f"- Tool calls: {state.total_calls} in total{failed}"]
    lines += [f"  - {_tool_line(count)}" for count in state.tools]
    return lines


def _tool_line(count: ToolCount) -> str:
    text = f"{count.tool}: {plural(count.calls, 'call')}"
    if count.errors:
        text += f", {count.errors} failed"
    if count.targets:
        shown = [f"{shorten(v)} {n}" for v, n in count.targets[:MAX_TARGETS_SHOWN]]
        more = len(count.targets) - MAX_TARGETS_SHOWN
        if more > 0:
            shown.append(f"{more} more")
        text += f" (per {count.target_arg}: {', '.join(shown)})"
    return text


def _limit_lines(state: StatusState) -> list[str]:
    if not state.limits:
        return []
    return ["- Limits:", *(f"  - {limit.advice()}" for limit in state.limits)]


def _repeat_lines(state: StatusState) -> list[str]:
    if not state.repeats:
        return []
    lines = ["- Repeated identical calls (change the approach instead of repeating):"]
    lines += [f"  - {r.tool} ×{r.count} {shorten(r.arguments)}" for r in state.repeats]
    return lines


def _error_lines(state: StatusState, tz: tzinfo) -> list[str]:
    if not state.errors:
        return []
    lines = ["- Recent errors:"]
    for note in state.errors:
        target = f" ({shorten(note.target)})" if note.target is not None else ""
        lines.append(f"  - {format_time(note.at, tz)} {note.tool}{target}: {note.text}")
    return lines


def _todo_lines(todo: Sequence[TodoItem]) -> list[str]:
    if not todo:
        return []
    header, *items = render_todo(todo).splitlines()
    return [f"- {header}", *(f"  - {line}" for line in items)]


def _pending_lines(events: Sequence[PendingEvent]) -> list[str]:
    if not events:
        return []
    kinds = Counter(shorten(event.kind) for event in events)
    summary = ", ".join(plural(n, kind) for kind, n in sorted(kinds.items()))
    total = len(events)
    lines = [
        f"- Pending events ({total} unprocessed: {summary}; make sure your answer covers all):"
    ]
    for index, event in enumerate(events, start=1):
        text = shorten(event.text, _PENDING_CHARS)
        lines.append(f"  - [unprocessed event {index}/{total}] {shorten(event.kind)}: {text}")
    return lines
