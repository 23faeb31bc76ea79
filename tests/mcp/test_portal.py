"""MCP servers kept open across event loops (workset.mcp.portal), with a real server."""

from __future__ import annotations

import threading

import anyio
from mcp_support import python_server

from workset.mcp.portal import MCPPortal
from workset.messages import ToolCall
from workset.tools.registry import ToolRegistry


def test_a_server_serves_every_run_from_one_process_and_stops_on_close() -> None:
    """The CLI runs each turn in its own event loop: the server must not restart between
    them (its state and its start-up are kept)."""
    before = threading.active_count()
    with MCPPortal([python_server("counter", "counter.py")]) as portal:
        report = portal.review()
        assert report.unreachable == {} and len(report.loaded) == 3
        registry = ToolRegistry(portal.tools())

        async def bump() -> str:
            return (await registry.execute(ToolCall("1", "counter__bump", "{}"))).content

        first, second = anyio.run(bump), anyio.run(bump)
        assert "count 1 in process" in first and "count 2 in process" in second
        assert first.split("process ")[1] == second.split("process ")[1]
        assert second.startswith('<external_content source="mcp:counter/bump"')
    assert threading.active_count() == before  # the portal's thread is gone
    portal.close()  # a second close does nothing


def test_a_call_cancelled_by_the_caller_returns_at_once_and_the_server_stays_usable() -> None:
    with MCPPortal([python_server("demo", "demo.py")]) as portal:
        registry = ToolRegistry(portal.tools())

        async def slow_then_quick() -> tuple[bool, str]:
            with anyio.move_on_after(1) as scope:
                await registry.execute(ToolCall("1", "demo__sleep", '{"seconds": 5}'))
            quick = await registry.execute(ToolCall("2", "demo__add", '{"a": 2, "b": 3}'))
            return scope.cancelled_caught, quick.content

        cancelled, added = anyio.run(slow_then_quick)
    assert cancelled and "\n5\n" in added


def test_an_unreachable_server_is_reported_and_its_tools_left_out() -> None:
    missing = python_server("gone", "no_such_server.py", timeout_s=10)
    with MCPPortal([missing, python_server("counter", "counter.py")]) as portal:
        names = {tool.name for tool in portal.tools()}
        assert "gone" in (portal.report.unreachable if portal.report else {})
    assert names == {"counter__bump", "counter__weather_forecast", "counter__convert_currency"}


def test_the_audit_applies_before_any_tool_is_bridged() -> None:
    """A poisoned definition is blocked by the review the portal makes, as in the hub."""
    with MCPPortal([python_server("poisoned", "poisoned.py")]) as portal:
        report = portal.review()
        bridged = {tool.name for tool in portal.tools()}
    assert report.blocked
    assert not bridged & {f"poisoned__{b.tool.name}" for b in report.blocked}
