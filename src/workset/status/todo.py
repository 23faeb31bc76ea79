"""A TODO list the model keeps through two tools, shown back to it in the status block.

``rewrite_todo_list(items)`` replaces the whole plan; ``update_todo_status(id, status)`` moves
one item. Each item has an id, its content, a status (``pending``, ``in_progress``,
``completed``, ``cancelled``) and the time it last changed. The list is written only by those
two tools, so :meth:`TodoList.from_log` rebuilds it from a session log by replaying their
successful calls (timestamps then are the times the calls finished).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeAlias, get_args

from workset.errors import ToolError
from workset.events import LoopEvent, ToolFinished
from workset.log.store import SessionLog
from workset.messages import ToolSpec
from workset.status.text import plural, shorten
from workset.tools.base import Tool

TodoStatus: TypeAlias = Literal["pending", "in_progress", "completed", "cancelled"]

STATUSES: tuple[TodoStatus, ...] = get_args(TodoStatus)
REWRITE = "rewrite_todo_list"
UPDATE = "update_todo_status"
MAX_ITEMS = 50
MAX_CONTENT_CHARS = 300


@dataclass(frozen=True, slots=True)
class TodoItem:
    id: str
    content: str
    status: TodoStatus = "pending"
    updated_at: float = 0.0  # unix seconds of the last change


class TodoList:
    """The current plan. Thread-safe: the tools may run in worker threads."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._items: tuple[TodoItem, ...] = ()

    @property
    def items(self) -> tuple[TodoItem, ...]:
        return self._items

    @classmethod
    def from_log(cls, log: SessionLog, session_id: str) -> TodoList:
        """The list as the session's successful TODO tool calls left it."""
        todo = cls()
        todo.replay(s.event for s in log.events(session_id, kinds=("tool_finished",)))
        return todo

    def replay(self, events: Iterable[LoopEvent | None]) -> None:
        """Apply the successful TODO tool calls among ``events``, stamped with their times."""
        for event in events:
            if not isinstance(event, ToolFinished) or event.result.is_error:
                continue
            if event.call.name not in (REWRITE, UPDATE):
                continue
            try:
                arguments = json.loads(event.call.arguments or "{}")
                if event.call.name == REWRITE:
                    self.rewrite(arguments["items"], at=event.at)
                else:
                    self.update(arguments["id"], arguments["status"], at=event.at)
            except (ValueError, KeyError, TypeError, ToolError):
                continue  # a recorded success always parses; anything else changed nothing

    def rewrite(self, items: Sequence[Mapping[str, Any]], *, at: float | None = None) -> str:
        """Replace the list; items keep their timestamp when nothing about them changed."""
        now = self.clock() if at is None else at
        new = _parse_items(items)
        with self._lock:
            old = {item.id: item for item in self._items}
            kept = []
            for item in new:
                before = old.get(item.id)
                same = before and (before.content, before.status) == (item.content, item.status)
                kept.append(before if same and before else replace(item, updated_at=now))
            self._items = tuple(kept)
            return "TODO list rewritten.\n" + render_todo(self._items)

    def update(self, id: str, status: str, *, at: float | None = None) -> str:
        """Set the status of item ``id``."""
        now = self.clock() if at is None else at
        checked = _status(status, f"update_todo_status(id={id!r})")
        with self._lock:
            ids = [item.id for item in self._items]
            if id not in ids:
                known = ", ".join(repr(i) for i in ids) if ids else "none: the list is empty"
                raise ToolError(
                    f"no TODO item with id {id!r}; known ids: {known}",
                    hint=f"use one of the known ids, or call {REWRITE} to add the item first",
                )
            self._items = tuple(
                replace(item, status=checked, updated_at=now) if item.id == id else item
                for item in self._items
            )
            return f"Item {id!r} is now {checked}.\n" + render_todo(self._items)

    def tools(self) -> list[Tool]:
        """``rewrite_todo_list`` and ``update_todo_status`` working on this list."""

        def rewrite_todo_list(items: list[dict[str, Any]]) -> str:
            return self.rewrite(items)

        def update_todo_status(id: str, status: str) -> str:
            return self.update(id, status)

        return [
            Tool(
                ToolSpec(REWRITE, _REWRITE_DOC, _REWRITE_SCHEMA),
                rewrite_todo_list,
                idempotent=True,
                examples=(
                    {
                        "items": [
                            {"id": "1", "content": "Find the failing test", "status": "completed"},
                            {"id": "2", "content": "Fix the parser", "status": "in_progress"},
                            {"id": "3", "content": "Run the whole suite"},
                        ]
                    },
                ),
            ),
            Tool(
                ToolSpec(UPDATE, _UPDATE_DOC, _UPDATE_SCHEMA),
                update_todo_status,
                idempotent=True,
                examples=({"id": "2", "status": "completed"},),
            ),
        ]


def render_todo(items: Sequence[TodoItem]) -> str:
    """``TODO (1 of 3 done):`` then ``[1] content (status)`` lines, in list order."""
    if not items:
        return "TODO: (empty)"
    done = sum(item.status in ("completed", "cancelled") for item in items)
    lines = [f"TODO ({done} of {plural(len(items), 'item')} done):"]
    lines += [
        f"[{shorten(item.id)}] {shorten(item.content, MAX_CONTENT_CHARS)} ({item.status})"
        for item in items
    ]
    return "\n".join(lines)


def _parse_items(items: object) -> list[TodoItem]:
    if not isinstance(items, list | tuple):
        raise ToolError(
            f"items must be a list of objects, not {type(items).__name__}",
            hint='send {"items": [{"id": "1", "content": "…", "status": "pending"}]}',
        )
    if len(items) > MAX_ITEMS:
        raise ToolError(
            f"the list has {len(items)} items; keep at most {MAX_ITEMS}",
            hint="merge small steps into larger ones",
        )
    parsed: list[TodoItem] = []
    for position, raw in enumerate(items, start=1):
        where = f"item {position}"
        if not isinstance(raw, Mapping):
            raise ToolError(
                f"{where} must be an object with id, content and status",
                hint='write it as {"id": "1", "content": "…", "status": "pending"}',
            )
        content = raw.get("content")
        if not isinstance(content, str) or not content.strip():
            raise ToolError(f"{where} has no content", hint="say what the step is, in a sentence")
        if len(content) > MAX_CONTENT_CHARS:
            raise ToolError(
                f"{where} has {len(content)} characters; keep each item under {MAX_CONTENT_CHARS}",
                hint="one sentence per step; split a long step into several items",
            )
        given = raw.get("id")
        item_id = str(position) if given is None or given == "" else str(given)
        status = _status(raw.get("status", "pending"), where)
        parsed.append(TodoItem(item_id, " ".join(content.split()), status))
    ids = [item.id for item in parsed]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ToolError(
            f"duplicate TODO ids {duplicates}; every item needs its own id",
            hint="number the items 1, 2, 3… or leave id out to number them by position",
        )
    return parsed


def _status(value: object, where: str) -> TodoStatus:
    for status in STATUSES:
        if value == status:
            return status
    raise ToolError(
        f"{where}: unknown status {value!r}",
        hint=f"use one of {', '.join(STATUSES)}",
    )


_REWRITE_DOC = """Replace the whole TODO list with a new plan.

Use when: a task needs several steps (write the plan first), or the plan changed (a step turned
out to be unnecessary, a new one is needed). Mark the step you are working on as in_progress.
Do not use when: only one item's status changes (use update_todo_status).
Output: the list as it now stands, one "[id] content (status)" line per item."""

_UPDATE_DOC = """Set the status of one TODO item: pending, in_progress, completed or cancelled.

Use when: you start a step (in_progress), finish it (completed) or give it up (cancelled, then
add the alternative with rewrite_todo_list).
Output: the list as it now stands. An unknown id is an error that lists the known ids."""

_STATUS_SCHEMA: dict[str, Any] = {"type": "string", "enum": list(STATUSES)}
_REWRITE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "items": {
            "description": "The full plan in order; ids are short and unique (1, 2, 3…).",
            "type": "array",
            "maxItems": MAX_ITEMS,
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "description": "Unique id; defaults to position."},
                    "content": {"type": "string", "description": "The step, in a sentence."},
                    "status": {**_STATUS_SCHEMA, "default": "pending"},
                },
                "required": ["content"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["items"],
    "additionalProperties": False,
}
_UPDATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "description": 'The id of the item, e.g. "2".'},
        "status": {**_STATUS_SCHEMA, "description": "The item's new status."},
    },
    "required": ["id", "status"],
    "additionalProperties": False,
}
