"""Server configs from a TOML-like mapping, with errors that say what to fix."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from workset.errors import UsageError
from workset.mcp import MCPServerConfig, load_servers

CONFIG = """
[mcp.servers.files]
command = ["npx", "@modelcontextprotocol/server-filesystem", "/srv"]
env = { FILES_TOKEN = "abc123" }
timeout_s = 10
pinned = { read_file = "00ff" }
trust = "trusted"

[mcp.servers.search]
url = "http://127.0.0.1:8931/mcp"
headers = { Authorization = "Bearer xyz" }
allow_flagged = true
"""


def test_servers_load_from_toml_with_defaults_filled_in() -> None:
    files, search = load_servers(tomllib.loads(CONFIG))
    assert files.name == "files" and files.transport == "stdio"
    assert files.command == ("npx", "@modelcontextprotocol/server-filesystem", "/srv")
    assert files.timeout_s == 10 and files.connect_timeout_s == 30
    assert dict(files.pinned) == {"read_file": "00ff"} and not files.allow_flagged
    assert files.trust == "trusted" and search.trust == "untrusted"
    assert search.transport == "http" and search.allow_flagged
    assert search.secrets() == {"Authorization": "Bearer xyz"}


def test_credentials_do_not_appear_in_the_config_repr() -> None:
    files, search = load_servers(tomllib.loads(CONFIG))
    assert "abc123" not in repr(files) and "xyz" not in repr(search)


def test_a_file_without_an_mcp_table_configures_no_servers() -> None:
    assert load_servers({"model": {"name": "x"}}) == ()


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"command": ["x"], "timeout": 3}, "unknown field 'timeout'; known fields:"),
        ({"command": "python server.py"}, "command must be a list"),
        ({}, "a stdio server needs command"),
        ({"url": "127.0.0.1:80/mcp"}, "an http server needs url"),
        (
            {"url": "http://h/mcp", "env": {"K": "v"}},
            "give an http server its credentials in headers",
        ),
        ({"command": ["x"], "timeout_s": 0}, "timeout_s must be a positive number"),
        ({"command": ["x"], "env": {"K": 1}}, "env must map names to strings"),
        ({"command": ["x"], "allow_flagged": "yes"}, "allow_flagged must be true or false"),
        ({"command": ["x"], "transport": "sse"}, "transport must be 'stdio' or 'http'"),
        ({"command": ["x"], "trust": "yes"}, "trust must be 'trusted' or 'untrusted'"),
        ({"command": ["x"], "block_server_on_finding": 1}, "must be true or false"),
    ],
)
def test_bad_fields_raise_usage_errors_naming_the_server(
    table: dict[str, object], message: str
) -> None:
    with pytest.raises(UsageError, match="files") as error:
        load_servers({"mcp": {"servers": {"files": table}}})
    assert message in str(error.value)


def test_a_server_name_with_underscores_is_refused_because_it_prefixes_tool_names() -> None:
    with pytest.raises(UsageError, match="1-32 letters, digits or '-'"):
        MCPServerConfig("my_files", command=["x"])


def test_the_learned_layer_is_off_unless_the_mcp_table_turns_it_on() -> None:
    from workset.mcp.config import load_learned

    assert load_learned(tomllib.loads(CONFIG)) == "off"
    assert load_learned(tomllib.loads('[mcp]\nlearned = "report"\n' + CONFIG)) == "report"
    with pytest.raises(UsageError, match='learned must be "off", "report" or "block"'):
        load_learned({"mcp": {"learned": "yes"}})
    with pytest.raises(UsageError, match="unknown key 'learn'"):
        load_learned({"mcp": {"learn": "report"}})


def test_the_agent_config_carries_the_learned_mode_to_the_gate(tmp_path: Path) -> None:
    from workset.config import load_config
    from workset.mcp.audit import TrustGate

    path = tmp_path / "workset.toml"
    path.write_text('[mcp]\nlearned = "block"\n' + CONFIG, encoding="utf-8")
    section = load_config(path).mcp
    assert section.learned == "block" and [s.name for s in section.servers] == ["files", "search"]
    report = TrustGate(section.servers, learned=section.learned).review({"files": []})
    assert report.learned == "block"
