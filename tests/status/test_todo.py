"""The TODO list is kept through its two tools and rebuilt from the session log."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from workset.errors import ToolError
from workset.messages import AssistantMessage, ToolCall, ToolMessage
from workset.session.agent import Agent
from workset.status.todo import TodoItem, TodoList, render_todo
from workset.testing import FakeClock, ScriptedModel, call, current_store
from workset.tools.registry import ToolRegistry

PLAN = [
    {"id": "1", "content": "Find the Xfinity account number"},
    {"id": "2", "content": "Call Xfinity to cancel", "status": "pending"},
    {"id": "3", "content": "Confirm by email"},
]


def run(registry: ToolRegistry, name: str, arguments: object) -> ToolMessage:
    async def go() -> ToolMessage:
        return await registry.execute(ToolCall(f"c_{name}", name, json.dumps(arguments)))

    return anyio.run(go)


def test_rewrite_then_update_changes_one_item_and_stamps_its_time() -> None:
    clock = FakeClock(1_757_846_000.0)
    todo = TodoList(clock)
    registry = ToolRegistry(todo.tools())
    written = run(registry, "rewrite_todo_list", {"items": PLAN})
    assert not written.is_error
    clock.advance(60)
    moved = run(registry, "update_todo_status", {"id": "2", "status": "in_progress"})
    assert not moved.is_error
    assert todo.items == (
        TodoItem("1", "Find the Xfinity account number", "pending", 1_757_846_000.0),
        TodoItem("2", "Call Xfinity to cancel", "in_progress", 1_757_846_060.0),
        TodoItem("3", "Confirm by email", "pending", 1_757_846_000.0),
    )
    assert "[2] Call Xfinity to cancel (in_progress)" in moved.content


def test_rewriting_keeps_the_timestamp_of_items_that_did_not_change() -> None:
    clock = FakeClock(100.0)
    todo = TodoList(clock)
    todo.rewrite(PLAN)
    clock.advance(5)
    todo.rewrite([{**PLAN[0], "status": "completed"}, *PLAN[1:]])
    assert [item.updated_at for item in todo.items] == [105.0, 100.0, 100.0]


def test_items_without_ids_are_numbered_by_position() -> None:
    todo = TodoList()
    todo.rewrite([{"content": "first"}, {"content": "second"}])
    assert [item.id for item in todo.items] == ["1", "2"]


def test_an_unknown_id_is_a_tool_error_listing_the_known_ids() -> None:
    todo = TodoList()
    registry = ToolRegistry(todo.tools())
    run(registry, "rewrite_todo_list", {"items": PLAN})
    answer = run(registry, "update_todo_status", {"id": "9", "status": "completed"})
    assert answer.is_error
    assert "no TODO item with id '9'; known ids: '1', '2', '3'" in answer.content
    assert "rewrite_todo_list" in answer.content  # the hint says how to add it


def test_an_unknown_status_is_refused_by_the_schema_and_by_the_list_itself() -> None:
    todo = TodoList()
    registry = ToolRegistry(todo.tools())
    run(registry, "rewrite_todo_list", {"items": PLAN})
    answer = run(registry, "update_todo_status", {"id": "1", "status": "done"})
    assert (
        answer.is_error and "must be one of" in answer.content and '"completed"' in answer.content
    )
    with pytest.raises(ToolError, match="unknown status 'done'") as raised:
        todo.update("1", "done")
    assert raised.value.hint == "use one of pending, in_progress, completed, cancelled"


def test_duplicate_ids_and_empty_content_are_refused_and_change_nothing() -> None:
    todo = TodoList()
    todo.rewrite(PLAN)
    with pytest.raises(ToolError, match=r"duplicate TODO ids \['1'\]"):
        todo.rewrite([{"id": "1", "content": "a"}, {"id": "1", "content": "b"}])
    with pytest.raises(ToolError, match="item 2 has no content"):
        todo.rewrite([{"content": "a"}, {"content": "  "}])
    assert [item.content for item in todo.items] == [p["content"] for p in PLAN]


def test_the_list_rebuilt_from_the_session_log_matches_the_live_one(tmp_path: Path) -> None:
    todo = TodoList()
    script: list[str | AssistantMessage] = [
        AssistantMessage(None, (call("rewrite_todo_list", json.dumps({"items": PLAN}), "t1"),)),
        AssistantMessage(
            None, (call("update_todo_status", '{"id": "1", "status": "completed"}', "t2"),)
        ),
        AssistantMessage(
            None, (call("update_todo_status", '{"id": "7", "status": "completed"}', "t3"),)
        ),
        AssistantMessage(
            None, (call("update_todo_status", '{"id": "2", "status": "cancelled"}', "t4"),)
        ),
        "Done: the account number is found; calling was cancelled.",
    ]
    agent = Agent(ScriptedModel(script), ToolRegistry(todo.tools()), current_store())
    result = anyio.run(agent.run, "Plan the cancellation")
    assert result.status == "finished", result.error
    with current_store() as reopened:
        rebuilt = TodoList.from_log(reopened, result.session_id)
    agent.log.close()
    assert [(i.id, i.content, i.status) for i in rebuilt.items] == [
        (i.id, i.content, i.status) for i in todo.items
    ]
    assert [i.status for i in todo.items] == ["completed", "cancelled", "pending"]


def test_render_todo_counts_completed_and_cancelled_items_as_done() -> None:
    items = (
        TodoItem("1", "a", "completed"),
        TodoItem("2", "b", "cancelled"),
        TodoItem("3", "c", "in_progress"),
    )
    assert render_todo(items) == (
        "TODO (2 of 3 items done):\n[1] a (completed)\n[2] b (cancelled)\n[3] c (in_progress)"
    )
    assert render_todo(()) == "TODO: (empty)"
