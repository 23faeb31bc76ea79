"""Which MCP servers to connect to, and what each may be trusted with.

A server is configured under ``[mcp.servers.<name>]`` in a TOML file::

    [mcp.servers.files]
    command = ["npx", "@modelcontextprotocol/server-filesystem", "/srv/docs"]
    env = { DOCS_TOKEN = "…" }          # credentials: given to this server's process only
    timeout_s = 30
    pinned = { read_file = "3f2a…" }    # definition hashes accepted earlier
    trust = "trusted"                   # a tool elsewhere imitating one of these is blocked

    [mcp.servers.search]
    transport = "http"
    url = "http://127.0.0.1:8931/mcp"
    headers = { Authorization = "Bearer …" }

The learned layer of the description audit (:mod:`workset.mcp.poison_learned`, a sentence
classifier beside the wording rules) is set once for all servers, in the ``[mcp]`` table::

    [mcp]
    learned = "report"    # "off" (default), "report" (findings shown, tools still load),
                          # or "block" (its findings block a tool like a rule's)

It is off by default: on definitions nobody here wrote it catches poisoned ones the rules
miss and also flags benign ones (docs/results/safety.md, "MCP tool definitions").

Credentials live in ``env`` (stdio: the server's environment) or ``headers`` (http: sent with
every request). They never enter tool descriptions, results or the context: the bridge redacts
any credential value that a server echoes back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, TypeAlias

from workset.errors import UsageError

Transport: TypeAlias = Literal["stdio", "http"]

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,31}")
_FIELDS = frozenset(
    {
        "transport",
        "command",
        "env",
        "url",
        "headers",
        "timeout_s",
        "connect_timeout_s",
        "allow_flagged",
        "block_server_on_finding",
        "pinned",
        "trust",
    }
)
Trust: TypeAlias = Literal["trusted", "untrusted"]
LearnedMode: TypeAlias = Literal["off", "report", "block"]
LEARNED_MODES: tuple[LearnedMode, ...] = ("off", "report", "block")
_MCP_KEYS = frozenset({"servers", "learned"})


def _empty() -> Mapping[str, str]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class MCPServerConfig:
    """One MCP server: how to reach it, its credentials, and the trust decisions about it.

    ``name`` prefixes its tools (``<name>__<tool>``), so it is 1-32 letters, digits or ``-``.
    ``timeout_s`` bounds each call; ``connect_timeout_s`` bounds start-up and handshake.
    ``allow_flagged`` loads the server's tools even when the description audit flagged some
    (the findings are still reported); ``block_server_on_finding`` blocks all of them when any
    is flagged (by default only the flagged tool is blocked). ``pinned`` maps tool names to
    definition hashes accepted earlier (see :mod:`workset.mcp.audit`). ``trust`` is
    ``"trusted"`` for servers you vouch for; when another server's tool imitates the name of
    one of theirs, the shadowing report names that other server as the shadow and blocks it.
    """

    name: str
    transport: Transport = "stdio"
    command: Sequence[str] = ()
    env: Mapping[str, str] = field(default_factory=_empty, repr=False)
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=_empty, repr=False)
    timeout_s: float = 30.0
    connect_timeout_s: float = 30.0
    allow_flagged: bool = False
    pinned: Mapping[str, str] = field(default_factory=_empty)
    trust: Trust = "untrusted"
    block_server_on_finding: bool = False

    def __post_init__(self) -> None:
        where = f"MCP server {self.name!r}"
        if not _NAME.fullmatch(self.name):
            raise UsageError(
                f"{where}: the name must be 1-32 letters, digits or '-' (it prefixes tool names)"
            )
        if self.transport not in ("stdio", "http"):
            raise UsageError(
                f"{where}: transport must be 'stdio' or 'http', not {self.transport!r}"
            )
        if self.transport == "stdio":
            if not self.command or not all(isinstance(c, str) and c for c in self.command):
                raise UsageError(
                    f"{where}: a stdio server needs command = [program, args…], "
                    'e.g. ["python", "server.py"]'
                )
            if self.url or self.headers:
                raise UsageError(f"{where}: url and headers are for transport = 'http'")
        else:
            if not self.url.startswith(("http://", "https://")):
                raise UsageError(
                    f"{where}: an http server needs url = 'http(s)://host:port/mcp', "
                    f"got {self.url!r}"
                )
            if self.command or self.env:
                raise UsageError(
                    f"{where}: command and env are for stdio servers; give an http server its "
                    "credentials in headers"
                )
        if self.trust not in ("trusted", "untrusted"):
            raise UsageError(f"{where}: trust must be 'trusted' or 'untrusted', not {self.trust!r}")
        for label, value in (
            ("timeout_s", self.timeout_s),
            ("connect_timeout_s", self.connect_timeout_s),
        ):
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise UsageError(f"{where}: {label} must be a positive number of seconds")
        object.__setattr__(self, "command", tuple(self.command))
        for label in ("env", "headers", "pinned"):
            value = getattr(self, label)
            _check_strings(where, label, value)
            object.__setattr__(self, label, MappingProxyType(dict(value)))

    def secrets(self) -> dict[str, str]:
        """Credential values by their variable or header name, for redaction."""
        return {**dict(self.env), **dict(self.headers)}


def load_servers(mapping: Mapping[str, Any]) -> tuple[MCPServerConfig, ...]:
    """The servers under ``mapping["mcp"]["servers"]`` (a parsed TOML file), sorted by name.

    A mapping without an ``mcp`` table yields no servers. Unknown or mistyped fields raise
    :class:`UsageError` naming the server and the field.
    """
    section = mapping.get("mcp", {})
    if not isinstance(section, Mapping):
        raise UsageError("[mcp] must be a table, e.g. [mcp.servers.NAME]")
    servers = section.get("servers", {})
    if not isinstance(servers, Mapping):
        raise UsageError("[mcp.servers] must be a table with one [mcp.servers.NAME] per server")
    return tuple(_one(name, servers[name]) for name in sorted(servers))


def load_learned(mapping: Mapping[str, Any]) -> LearnedMode:
    """``mapping["mcp"]["learned"]``: what the audit's learned layer does (default ``"off"``).

    Unknown keys in ``[mcp]`` and other values raise :class:`UsageError` naming the fix.
    """
    section = mapping.get("mcp", {})
    if not isinstance(section, Mapping):
        raise UsageError("[mcp] must be a table, e.g. [mcp.servers.NAME]")
    unknown = sorted(set(section) - _MCP_KEYS)
    if unknown:
        raise UsageError(
            f"[mcp]: unknown key {', '.join(map(repr, unknown))}; known keys: "
            f"{', '.join(sorted(_MCP_KEYS))} (each server under [mcp.servers.NAME])"
        )
    mode = section.get("learned", "off")
    for known in LEARNED_MODES:
        if mode == known:
            return known
    raise UsageError(
        f'[mcp] learned must be "off", "report" or "block", not {mode!r}: "report" shows the '
        'learned layer\'s findings and still loads the tools, "block" blocks them'
    )


def _one(name: str, raw: Any) -> MCPServerConfig:
    where = f"[mcp.servers.{name}]"
    if not isinstance(raw, Mapping):
        raise UsageError(f"{where} must be a table with command = [...] or url = '...'")
    unknown = sorted(set(raw) - _FIELDS)
    if unknown:
        raise UsageError(
            f"{where}: unknown field {', '.join(map(repr, unknown))}; "
            f"known fields: {', '.join(sorted(_FIELDS))}"
        )
    transport = raw.get("transport", "http" if "url" in raw else "stdio")
    command = raw.get("command", [])
    if isinstance(command, str) or not isinstance(command, list | tuple):
        raise UsageError(f'{where}: command must be a list, e.g. ["python", "server.py"]')
    allow = raw.get("allow_flagged", False)
    block_server = raw.get("block_server_on_finding", False)
    for label, flag in (("allow_flagged", allow), ("block_server_on_finding", block_server)):
        if not isinstance(flag, bool):
            raise UsageError(f"{where}: {label} must be true or false")
    for label in ("env", "headers", "pinned"):
        if not isinstance(raw.get(label, {}), Mapping):
            raise UsageError(f"{where}: {label} must be a table of strings")
    url = raw.get("url", "")
    if not isinstance(url, str):
        raise UsageError(f"{where}: url must be a string")
    return MCPServerConfig(
        name=name,
        transport=transport,
        command=tuple(command),
        env=raw.get("env", {}),
        url=url,
        headers=raw.get("headers", {}),
        timeout_s=raw.get("timeout_s", 30.0),
        connect_timeout_s=raw.get("connect_timeout_s", 30.0),
        allow_flagged=allow,
        pinned=raw.get("pinned", {}),
        trust=raw.get("trust", "untrusted"),
        block_server_on_finding=block_server,
    )


def _check_strings(where: str, label: str, value: Any) -> None:
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise UsageError(f"{where}: {label} must map names to strings")
