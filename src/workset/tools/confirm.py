"""Two-phase calls for tools whose effect cannot be undone: precheck, then confirm.

A tool with a ``precheck`` never runs on the first call. The registry runs the precheck (which
must not change anything) and answers with what the call would do and a confirm token bound
to these exact arguments; only a second call with the same arguments and that token runs the
tool. Tokens come from a per-registry secret, so a token from before a restart is refused and
the precheck simply runs again: the conservative side.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

from workset.messages import ToolSpec

TOKEN_FIELD = "confirm_token"


def spec_with_token(spec: ToolSpec) -> ToolSpec:
    """The spec the model sees: the tool's own plus an optional ``confirm_token``."""
    parameters = dict(spec.parameters)
    properties = dict(parameters.get("properties", {}))
    properties[TOKEN_FIELD] = {
        "type": "string",
        "description": "Leave out at first: the first call returns a precheck and this token; "
        "call again with the same arguments and the token to really run it.",
    }
    parameters["properties"] = properties
    return ToolSpec(spec.name, spec.description, parameters)


def token(secret: bytes, tool: str, arguments: Mapping[str, Any]) -> str:
    body = json.dumps([tool, arguments], sort_keys=True, ensure_ascii=False).encode()
    return hmac.new(secret, body, hashlib.sha256).hexdigest()[:16]


def pending_text(tool: str, precheck: str, issued: str) -> str:
    return (
        f"Not done yet: `{tool}` changes something that cannot be undone, so it runs in two "
        f"steps.\nPrecheck: {precheck}\nTo proceed, call `{tool}` again with exactly the same "
        f'arguments plus "{TOKEN_FIELD}": "{issued}". To stop, do nothing.'
    )
