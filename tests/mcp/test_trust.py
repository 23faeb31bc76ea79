"""Trust controls at connect, against real servers: poisoning, shadowing, pins, credentials."""

from __future__ import annotations

import pytest
from mcp_support import npm_server, python_server

from workset.mcp import MCPHub, MCPServerConfig, mcp_tools
from workset.messages import ToolCall
from workset.tools.registry import ToolRegistry

pytestmark = pytest.mark.anyio


async def test_a_poisoned_tool_is_flagged_at_connect_and_only_that_tool_is_not_loaded() -> None:
    async with MCPHub(
        [python_server("demo", "demo.py"), python_server("evil", "poisoned.py")]
    ) as hub:
        tools = await mcp_tools(hub)
        report = await hub.review()
    names = {tool.name for tool in tools}
    assert "demo__add" in names and "evil__multiply" in names
    assert "evil__add_numbers" not in names
    rules = {f.rule for f in report.findings if f.server == "evil"}
    assert {"directive-tag", "sensitive-path", "conceal-from-user"} <= rules
    assert all(f.tool == "add_numbers" and f.field == "description" for f in report.findings)
    assert [b.tool.name for b in report.blocked] == ["add_numbers"]
    assert "allow_flagged" in report.blocked[0].reason


async def test_block_server_on_finding_keeps_every_tool_of_a_flagged_server_out() -> None:
    config = python_server("evil", "poisoned.py", block_server_on_finding=True)
    async with MCPHub([config]) as hub:
        tools = await mcp_tools(hub)
        report = await hub.review()
    assert tools == []
    assert sorted(b.tool.name for b in report.blocked) == ["add_numbers", "multiply"]
    assert "blocks the whole server" in report.blocked[1].reason


async def test_allow_flagged_loads_a_flagged_server_and_still_reports_the_findings() -> None:
    config = python_server("evil", "poisoned.py", allow_flagged=True)
    async with MCPHub([config]) as hub:
        tools = await mcp_tools(hub)
        report = hub.trust.review(await hub.list_all_tools())
    assert sorted(tool.name for tool in tools) == ["evil__add_numbers", "evil__multiply"]
    assert report.findings and not report.blocked


async def test_a_same_named_and_a_near_identical_tool_across_servers_are_reported() -> None:
    async with MCPHub(
        [python_server("demo", "demo.py"), python_server("shadow", "shadow.py")]
    ) as hub:
        report = await hub.review()
    pairs = {(p.tool, p.other_tool, p.reason) for p in report.shadowing}
    assert ("add", "add", "same-name") in pairs
    assert ("echo", "echos", "near-identical-name") in pairs
    assert all(p.shadow is None for p in report.shadowing)  # neither server is trusted


async def test_a_tool_imitating_a_trusted_servers_tool_is_named_the_shadow_and_blocked() -> None:
    trusted = python_server("demo", "demo.py", trust="trusted")
    async with MCPHub([trusted, python_server("shadow", "shadow.py")]) as hub:
        names = {tool.name for tool in await mcp_tools(hub)}
        report = await hub.review()
    assert {p.shadow for p in report.shadowing} == {"shadow"}
    assert "demo__add" in names and "shadow__add" not in names and "shadow__echos" not in names
    assert any("imitates demo/add" in b.reason for b in report.blocked)


async def test_a_definition_that_changed_since_it_was_pinned_is_not_loaded_until_accepted() -> None:
    async with MCPHub([python_server("demo", "demo.py")]) as hub:
        first = await hub.review()
        pins = hub.trust.pins()["demo"]
    assert {p.state for p in first.pins} == {"unpinned"}

    pinned = {**pins, "add": "0" * 64}  # as if `add` had been pinned with another definition
    async with MCPHub([python_server("demo", "demo.py", pinned=pinned)]) as hub:
        names = {tool.name for tool in await mcp_tools(hub)}
        changed = [p for p in hub.pin_report() if p.state != "same"]
        assert "demo__add" not in names and "demo__echo" in names
        assert [(p.tool, p.state) for p in changed] == [("add", "changed")]
        assert "rug pull" in (await hub.review()).blocked[0].reason

        hub.accept(["demo/add"])
        names = {tool.name for tool in await mcp_tools(hub)}
        assert "demo__add" in names
        assert hub.trust.pins()["demo"]["add"] == changed[0].current_hash


async def test_a_credential_the_server_echoes_back_is_redacted_from_the_result() -> None:
    secret = "tok-4f9a1c77e2"
    config = python_server("demo", "demo.py", env={"DEMO_TOKEN": secret})
    async with MCPHub([config]) as hub:
        registry = ToolRegistry(await mcp_tools(hub))
        result = await registry.execute(ToolCall("c1", "demo__whoami", "{}"))
    assert secret not in result.content
    assert "acting with token [redacted DEMO_TOKEN]" in result.content
    assert '<external_content source="mcp:demo/whoami" trust="untrusted">' in result.content


async def test_a_server_sees_its_own_credential_redacted_and_none_of_the_parent_secrets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PARENT_ONLY_SECRET", "parent-secret-5521")
    secret = "sk-everything-93c1"
    command = [npm_server("mcp-server-everything"), "stdio"]
    config = MCPServerConfig("everything", command=command, env={"API_KEY": secret})
    async with MCPHub([config]) as hub:
        registry = ToolRegistry(await mcp_tools(hub))
        result = await registry.execute(ToolCall("c1", "everything__get-env", "{}"))
    assert not result.is_error
    assert secret not in result.content and "[redacted API_KEY]" in result.content
    assert "parent-secret-5521" not in result.content  # only safe variables are inherited
