"""MCP: connect to Model Context Protocol servers and serve workset's own tools as one.

This package owns everything MCP, through the official SDK (``pip install 'workset[mcp]'``):
server configs and their credentials (:mod:`~workset.mcp.config`), lazy connections over stdio
or Streamable HTTP (:mod:`~workset.mcp.client`), the trust checks applied before any server's
tool reaches the model — description poisoning, pinned definition hashes, shadowing
(:mod:`~workset.mcp.audit`) — the bridge that turns MCP tools into workset tools whose output
is marked as untrusted data (:mod:`~workset.mcp.bridge`), and ``workset mcp serve``
(:mod:`~workset.mcp.server`).
"""

from __future__ import annotations

import importlib.util

from workset.errors import UsageError

if importlib.util.find_spec("mcp") is None:  # pragma: no cover - depends on the install
    raise UsageError("MCP support needs the MCP SDK: pip install 'workset[mcp]'")

from workset.mcp.audit import (
    Finding,
    PinStatus,
    ShadowPair,
    TrustGate,
    TrustReport,
    audit_definition,
    audit_tool,
    definition_hash,
    find_shadowing,
)
from workset.mcp.bridge import mcp_tools, read_resource, redact, tool_name, untrusted
from workset.mcp.client import MCPConnection, MCPHub
from workset.mcp.config import MCPServerConfig, load_servers
from workset.mcp.remote import (
    CallResult,
    PromptArgument,
    PromptMessage,
    RemotePrompt,
    RemoteResource,
    RemoteTool,
)

__all__ = [
    "CallResult",
    "Finding",
    "MCPConnection",
    "MCPHub",
    "MCPServerConfig",
    "PinStatus",
    "PromptArgument",
    "PromptMessage",
    "RemotePrompt",
    "RemoteResource",
    "RemoteTool",
    "ShadowPair",
    "TrustGate",
    "TrustReport",
    "audit_definition",
    "audit_tool",
    "definition_hash",
    "find_shadowing",
    "load_servers",
    "mcp_tools",
    "read_resource",
    "redact",
    "tool_name",
    "untrusted",
]
