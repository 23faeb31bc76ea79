"""MCPConnection against real servers: npm reference servers and an SDK MCPServer."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mcp_support import SERVERS, npm_server, python_server

from workset.errors import ToolError, UsageError
from workset.mcp import MCPConnection, MCPHub, MCPServerConfig

pytestmark = pytest.mark.anyio


def everything() -> MCPServerConfig:
    return MCPServerConfig("everything", command=[npm_server("mcp-server-everything"), "stdio"])


async def test_the_everything_server_lists_tools_and_answers_echo_and_get_sum() -> None:
    async with MCPConnection(everything()) as connection:
        tools = {tool.name: tool for tool in await connection.list_tools()}
        assert {"echo", "get-sum", "get-env"} <= set(tools)
        assert tools["get-env"].read_only_hint is True
        echoed = await connection.call_tool("echo", {"message": "hi there"})
        total = await connection.call_tool("get-sum", {"a": 2, "b": 40})
    assert "hi there" in echoed.text and not echoed.is_error
    assert "42" in total.text


async def test_the_everything_server_serves_a_resource_and_a_prompt() -> None:
    async with MCPConnection(everything()) as connection:
        resources = await connection.list_resources()
        text = await connection.read_resource(resources[0].uri)
        prompts = {p.name: p for p in await connection.list_prompts()}
        messages = await connection.get_prompt("args-prompt", {"city": "Lima"})
    assert resources[0].uri.startswith("demo://") and text.strip()
    assert [a.name for a in prompts["args-prompt"].arguments] == ["city", "state"]
    assert prompts["args-prompt"].arguments[0].required
    assert messages[0].role == "user" and "Lima" in messages[0].text


async def test_the_filesystem_server_reads_and_lists_a_temporary_folder(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("port = 8471\n")
    (tmp_path / "sub").mkdir()
    command = [npm_server("mcp-server-filesystem"), str(tmp_path)]
    async with MCPConnection(MCPServerConfig("fs", command=command)) as connection:
        names = {tool.name for tool in await connection.list_tools()}
        read = await connection.call_tool("read_file", {"path": str(tmp_path / "notes.txt")})
        listed = await connection.call_tool("list_directory", {"path": str(tmp_path)})
        outside = await connection.call_tool("read_file", {"path": "/etc/hostname"})
    assert {"read_file", "list_directory"} <= names
    assert "port = 8471" in read.text
    assert "[FILE] notes.txt" in listed.text and "[DIR] sub" in listed.text
    assert outside.is_error and "denied" in outside.text.lower()


async def test_a_server_starts_only_when_first_used() -> None:
    async with MCPConnection(python_server("demo", "demo.py")) as connection:
        assert not connection.started
        assert (await connection.call_tool("add", {"a": 2, "b": 3})).text == "5"
        assert connection.started
    assert not connection.started


async def test_a_hub_starts_servers_on_first_use_and_one_aclose_stops_them_all() -> None:
    async with MCPHub([python_server("a", "demo.py"), python_server("b", "demo.py")]) as hub:
        first, second = hub.connection("a"), hub.connection("b")
        assert not first.started and not second.started
        listings = await hub.list_all_tools()
        assert first.started and second.started and set(listings) == {"a", "b"}
        await hub.aclose()
        assert not first.started and not second.started
        assert (await first.call_tool("add", {"a": 1, "b": 2})).text == "3"


async def test_the_sdk_server_answers_over_stdio_and_streamable_http(demo_http_url: str) -> None:
    over_http = MCPServerConfig("web", transport="http", url=demo_http_url)
    async with MCPHub([python_server("local", "demo.py"), over_http]) as hub:
        for name in ("local", "web"):
            connection = hub.connection(name)
            assert {"add", "echo", "crash"} <= {t.name for t in await connection.list_tools()}
            assert (await connection.call_tool("echo", {"text": name})).text == name
            assert "hello from the demo server" in await connection.read_resource("demo://greeting")
            prompt = await connection.get_prompt("review", {"code": "x = 1"})
            assert "x = 1" in prompt[0].text


async def test_the_everything_server_answers_over_streamable_http(everything_http_url: str) -> None:
    config = MCPServerConfig("everything", transport="http", url=everything_http_url)
    async with MCPConnection(config) as connection:
        total = await connection.call_tool("get-sum", {"a": 1, "b": 2})
    assert "3" in total.text


async def test_a_server_that_dies_mid_call_gives_a_clear_error_and_the_next_call_works() -> None:
    async with MCPConnection(python_server("demo", "demo.py")) as connection:
        with pytest.raises(ToolError) as died:
            await connection.call_tool("crash", {})
        assert (await connection.call_tool("add", {"a": 1, "b": 1})).text == "2"
    message = str(died.value)
    assert "server 'demo' stopped during call 'crash' (exit code 3)" in message
    assert "crashing on purpose" in message  # the server's last stderr line
    assert "restarted on the next call" in message


async def test_a_tool_error_from_the_server_is_a_result_marked_as_error() -> None:
    async with MCPConnection(python_server("demo", "demo.py")) as connection:
        result = await connection.call_tool("fail", {"reason": "disk full"})
    assert result.is_error and "cannot do it: disk full" in result.text


async def test_a_server_that_cannot_start_says_what_to_check() -> None:
    config = MCPServerConfig("ghost", command=[sys.executable, str(SERVERS / "missing.py")])
    async with MCPConnection(config) as connection:
        with pytest.raises(ToolError) as failed:
            await connection.list_tools()
    assert "'ghost' could not be started" in str(failed.value)
    assert "exit code 2" in str(failed.value) and "missing.py" in str(failed.value)
    assert failed.value.hint is not None and "check its command" in failed.value.hint


async def test_a_call_that_outlives_its_timeout_is_reported_as_such() -> None:
    config = python_server("slow", "demo.py", timeout_s=0.5)
    async with MCPConnection(config) as connection:
        await connection.list_tools()
        with pytest.raises(ToolError, match=r"did not answer 'sleep' within 0\.5 s"):
            await connection.call_tool("sleep", {"seconds": 30})
        assert (await connection.call_tool("add", {"a": 1, "b": 2})).text == "3"


async def test_a_connection_used_outside_its_context_names_the_fix() -> None:
    with pytest.raises(UsageError, match="async with MCPConnection"):
        await MCPConnection(python_server("demo", "demo.py")).list_tools()
