import json
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import pytest

from workset.errors import ToolError, UsageError
from workset.messages import ToolCall, ToolMessage
from workset.tools.base import Tool
from workset.tools.registry import ToolRegistry, closest_names, error_message


def _read_file(path: str, limit: int = 200) -> str:
    """Read a file.

    Args:
        path: File path.
        limit: Lines to show.
    """
    return f"read {path} ({limit})"


def _search_logs(query: str) -> str:
    """Search the logs."""
    return f"logs for {query}"


def _list_dir(path: str = ".") -> str:
    """List a directory."""
    return f"listing {path}"


def _registry(*extra: Tool) -> ToolRegistry:
    tools = [
        Tool.from_function(_read_file, name="read_file", read_only=True, examples=({"path": "a"},)),
        Tool.from_function(_search_logs, name="search_logs", read_only=True),
        Tool.from_function(_list_dir, name="list_dir", read_only=True),
    ]
    return ToolRegistry([*tools, *extra])


def _run(registry: ToolRegistry, name: str, arguments: str) -> ToolMessage:
    return anyio.run(registry.execute, ToolCall("call_1", name, arguments))


def test_a_valid_call_runs_the_handler_and_names_the_result() -> None:
    result = _run(_registry(), "read_file", '{"path": "src/app.py", "limit": 5}')
    assert result == ToolMessage("call_1", "read src/app.py (5)", name="read_file")


def test_specs_are_sorted_by_name() -> None:
    assert [s.name for s in _registry().specs()] == ["list_dir", "read_file", "search_logs"]
    assert _registry().names() == ("list_dir", "read_file", "search_logs")


def test_duplicate_names_are_rejected() -> None:
    one = Tool.from_function(_list_dir, name="list_dir")
    with pytest.raises(UsageError, match="two tools are named 'list_dir'"):
        ToolRegistry([one, one])


def test_get_and_is_read_only() -> None:
    registry = _registry(Tool.from_function(_search_logs, name="write_note"))
    assert registry.get("read_file").name == "read_file"
    assert registry.is_read_only("read_file")
    assert not registry.is_read_only("write_note")
    assert not registry.is_read_only("nope")
    with pytest.raises(UsageError, match="Did you mean `read_file`"):
        registry.get("read_files")


def test_unknown_tool_suggests_the_closest_name() -> None:
    result = _run(_registry(), "read_log", "{}")
    assert result.is_error
    assert result.name == "read_log"
    assert "unknown tool `read_log`" in result.content
    assert "Did you mean `search_logs`?" in result.content


def test_unknown_tool_with_nothing_close_lists_the_available_tools() -> None:
    result = _run(_registry(), "deploy_to_production", "{}")
    assert result.is_error
    assert "Did you mean" not in result.content
    assert "Available tools: `list_dir`, `read_file`, `search_logs`." in result.content


def test_closest_names_weighs_the_object_word_over_the_verb() -> None:
    names = ["read_file", "search_logs", "list_dir"]
    assert closest_names("read_log", names)[0] == "search_logs"
    assert closest_names("list_directory", names) == ["list_dir"]
    assert closest_names("xyz", names) == []


def test_invalid_json_arguments_say_what_is_wrong_and_show_the_signature() -> None:
    result = _run(_registry(), "read_file", '{"path": "a.py",}')
    assert result.is_error
    assert "not valid JSON" in result.content
    assert "read_file(path: string, limit?: integer = 200)" in result.content
    assert 'Example arguments: {"path": "a"}' in result.content


def test_arguments_that_are_not_an_object_are_an_error() -> None:
    result = _run(_registry(), "read_file", '["a.py"]')
    assert result.is_error
    assert "must be a JSON object, but got an array" in result.content


def test_a_missing_required_argument_is_named() -> None:
    result = _run(_registry(), "read_file", "{}")
    assert result.is_error
    assert "missing required argument `path`" in result.content


def test_a_string_for_an_integer_is_not_coerced() -> None:
    calls: list[object] = []

    def count(n: int) -> str:
        """Count."""
        calls.append(n)
        return str(n)

    registry = ToolRegistry([Tool.from_function(count)])
    result = _run(registry, "count", '{"n": "3"}')
    assert result.is_error
    assert '`n` must be an integer, but got "3" (a string). Write it without quotes: 3.' in (
        result.content
    )
    assert calls == []


def test_a_boolean_is_not_an_integer() -> None:
    result = _run(_registry(), "read_file", '{"path": "a", "limit": true}')
    assert "`limit` must be an integer, but got true (a boolean)" in result.content


def test_an_unexpected_argument_suggests_the_accepted_one() -> None:
    result = _run(_registry(), "read_file", '{"path": "a", "limt": 3}')
    assert result.is_error
    assert "unexpected argument `limt`. Did you mean `limit`?" in result.content


def test_nested_fields_are_named_with_their_path() -> None:
    def tag(names: list[str]) -> str:
        """Tag."""
        return ",".join(names)

    result = _run(ToolRegistry([Tool.from_function(tag)]), "tag", '{"names": ["a", 2]}')
    assert "`names[1]` must be a string, but got 2 (an integer)" in result.content


def test_an_empty_arguments_string_means_no_arguments() -> None:
    result = _run(_registry(), "list_dir", "")
    assert result == ToolMessage("call_1", "listing .", name="list_dir")


def test_a_tool_error_becomes_its_message_and_hint() -> None:
    def fail(path: str) -> str:
        """Fail."""
        raise ToolError(f"no such file: {path}", hint="use find_files to locate it")

    result = _run(ToolRegistry([Tool.from_function(fail)]), "fail", '{"path": "x"}')
    assert result.is_error
    assert result.content == "Error: no such file: x\nHint: use find_files to locate it"


def test_a_handler_crash_becomes_an_error_that_blames_the_tool() -> None:
    def divide(a: int, b: int) -> str:
        """Divide."""
        return str(a // b)

    result = _run(ToolRegistry([Tool.from_function(divide)]), "divide", '{"a": 1, "b": 0}')
    assert result.is_error
    assert "ZeroDivisionError: integer division or modulo by zero" in result.content
    assert "bug in the tool or its environment" in result.content


def test_a_handler_that_returns_no_text_is_reported() -> None:
    def number() -> str:
        """Number."""
        return 3  # type: ignore[return-value]

    result = _run(ToolRegistry([Tool.from_function(number)]), "number", "{}")
    assert result.is_error
    assert "returned int instead of str" in result.content


def test_async_handlers_are_awaited() -> None:
    async def echo(text: str) -> str:
        """Echo."""
        await anyio.lowlevel.checkpoint()
        return text.upper()

    result = _run(ToolRegistry([Tool.from_function(echo)]), "echo", '{"text": "hi"}')
    assert result.content == "HI"


def test_sync_handlers_run_in_a_worker_thread() -> None:
    seen: list[int] = []

    def where() -> str:
        """Where."""
        seen.append(threading.get_ident())
        return "ok"

    _run(ToolRegistry([Tool.from_function(where)]), "where", "{}")
    assert seen and seen[0] != threading.get_ident()


def _rendezvous_registry() -> ToolRegistry:
    first, second = anyio.Event(), anyio.Event()

    def make(name: str, mine: anyio.Event, other: anyio.Event) -> Callable[[], Awaitable[str]]:
        async def handler() -> str:
            mine.set()
            await other.wait()  # only returns if the other call runs at the same time
            return name

        handler.__doc__ = "Meet the other call."
        return handler

    # Created inside the running event loop by the test below.
    return ToolRegistry(
        [
            Tool.from_function(make("left", first, second), name="left", read_only=True),
            Tool.from_function(make("right", second, first), name="right", read_only=True),
        ]
    )


def test_read_only_calls_can_run_concurrently() -> None:
    async def main() -> list[str]:
        registry = _rendezvous_registry()
        results: list[str] = []

        async def run(name: str) -> None:
            results.append((await registry.execute(ToolCall(name, name))).content)

        with anyio.fail_after(10):
            async with anyio.create_task_group() as group:
                group.start_soon(run, "left")
                group.start_soon(run, "right")
        return sorted(results)

    assert anyio.run(main) == ["left", "right"]


def test_sync_read_only_calls_run_concurrently_in_threads() -> None:
    barrier = threading.Barrier(2, timeout=10)

    def meet(side: str) -> str:
        """Wait for the other call."""
        barrier.wait()  # raises BrokenBarrierError if the calls ran one after the other
        return side

    registry = ToolRegistry([Tool.from_function(meet, read_only=True)])

    async def main() -> list[str]:
        results: list[str] = []

        async def run(side: str) -> None:
            call = ToolCall(side, "meet", json.dumps({"side": side}))
            results.append((await registry.execute(call)).content)

        async with anyio.create_task_group() as group:
            group.start_soon(run, "a")
            group.start_soon(run, "b")
        return sorted(results)

    assert anyio.run(main) == ["a", "b"]


def test_error_message_answers_a_call_without_running_it() -> None:
    call = ToolCall("call_9", "delete_all", "{}")
    assert error_message(call, "Denied by policy.") == ToolMessage(
        "call_9", "Denied by policy.", name="delete_all", is_error=True
    )


def test_an_unknown_name_with_another_tools_arguments_is_pointed_to_that_tool(
    tmp_path: Path,
) -> None:
    from workset.tools.perception import perception_tools
    from workset.tools.workspace import Workspace

    registry = ToolRegistry(perception_tools(Workspace(tmp_path)))
    call = ToolCall("c", "JSONStorage", '{"path": "tinydb/storages.py", "offset": 94}')
    result = anyio.run(registry.execute, call)
    assert result.is_error and "unknown tool `JSONStorage`" in result.content
    assert "these arguments are those of `read_file`: to do that, call read_file" in result.content
