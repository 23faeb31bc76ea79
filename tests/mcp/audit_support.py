"""Helpers for the audit tests: a definition built from a description and its parameters."""

from __future__ import annotations

from typing import Any

from workset.mcp import RemoteTool, audit_tool


def rules(description: str, name: str = "lookup", **params: Any) -> set[str]:
    """The rules that flag a definition; a parameter is a description string or a schema."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            k: v if isinstance(v, dict) else {"type": "string", "description": v}
            for k, v in params.items()
        },
    }
    return {f.rule for f in audit_tool(RemoteTool("srv", name, description, schema))}
