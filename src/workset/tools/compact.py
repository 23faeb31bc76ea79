"""Compact tool definitions for small context windows and small models.

Workset's tools carry long descriptions (when to use, when not to, output, examples): right
for a large model, but for the 0.5B embedded model the eight ``--exec`` tools alone were
about 3,000 tokens of a 3,400-token first request, a five-minute prefill on two busy cores.
:func:`compact_tool` keeps what a small model acts on: the first sentence (what it does), the
"Use when" and "Do not use when" sentences (the boundaries), and each parameter's first
clause; output formats and examples go (the tool's results and errors explain themselves).
The handler, schema types, defaults and required fields stay the same, so a call valid for one
form is valid for the other.

:func:`agent_specs` is the one rule for when the agent sends them (``[agent] compact_tools``,
by default for windows of :data:`COMPACT_WINDOW` or less): the runtime and ``workset eval``
both apply it, so the harness counts the definitions the agent would send.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from workset.messages import ToolSpec
from workset.tools.base import Tool

# Models with a window this small or smaller get compact tool definitions by default.
COMPACT_WINDOW = 16_384
_SENTENCE = re.compile(r"(?<!e\.g\.)(?<!i\.e\.)(?<=[.;])\s+(?=[A-Z(\"])")
_LABELLED = re.compile(r"^(Use when|Do not use when):\s*", re.MULTILINE)


def compact_tool(tool: Tool, *, max_param_chars: int = 70) -> Tool:
    """``tool`` with a compact spec (see the module docstring)."""
    return replace(tool, spec=compact_spec(tool.spec, max_param_chars=max_param_chars))


def compact_tools(tools: Sequence[Tool]) -> list[Tool]:
    return [compact_tool(t) for t in tools]


def compacts(window: int, setting: bool | None = None) -> bool:
    """Whether the agent sends compact definitions to a model with a ``window``-token
    context: ``setting`` (``[agent] compact_tools``) when given, else for small windows."""
    return setting if setting is not None else window <= COMPACT_WINDOW


def agent_specs(
    specs: Sequence[ToolSpec], window: int, setting: bool | None = None
) -> tuple[ToolSpec, ...]:
    """``specs`` as the agent sends them to a model with a ``window``-token context."""
    return tuple(compact_spec(s) for s in specs) if compacts(window, setting) else tuple(specs)


def compact_spec(spec: ToolSpec, *, max_param_chars: int = 70) -> ToolSpec:
    paragraphs = [" ".join(p.split()) for p in spec.description.split("\n\n") if p.strip()]
    if not paragraphs:
        return spec
    kept = [_first_sentence(paragraphs[0])]
    body = "\n".join(spec.description.split("\n\n")[1:])
    for match in _LABELLED.finditer(body):
        rest = " ".join(body[match.end() :].split())
        kept.append(f"{match.group(1)}: {_first_sentence(rest)}")
    parameters = dict(spec.parameters)
    properties: Mapping[str, Any] = parameters.get("properties", {})
    parameters["properties"] = {
        name: _short_param(schema, max_param_chars) for name, schema in properties.items()
    }
    return ToolSpec(spec.name, " ".join(kept), parameters)


def _first_sentence(text: str) -> str:
    first = _SENTENCE.split(text.strip(), maxsplit=1)[0]
    labelled = re.split(r"\s(?=(?:Use when|Do not use when|Output|Examples?):)", first)[0]
    return labelled.strip()


def _short_param(schema: Mapping[str, Any], limit: int) -> dict[str, Any]:
    out = dict(schema)
    text = out.get("description")
    if isinstance(text, str):
        short = _first_sentence(text)
        out["description"] = short if len(short) <= limit else short[: limit - 1] + "…"
    return out
