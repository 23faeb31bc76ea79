"""Decisions constrained by a JSON schema, for models that call tools unreliably.

With a backend that can enforce a schema on its output (llama.cpp turns it into a grammar),
the model must answer with exactly one of: a call ``{"name": <tool>, "arguments": {...}}``
whose arguments follow that tool's own schema, or ``{"answer": "..."}``. Malformed calls and
unknown tool names become impossible rather than errors to recover from.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from workset.messages import ToolSpec


def decision_schema(tools: Sequence[ToolSpec]) -> dict[str, Any]:
    """The schema of one decision: one call to one of ``tools``, or a final answer."""
    options: list[dict[str, Any]] = [
        {
            "type": "object",
            "properties": {"name": {"const": spec.name}, "arguments": dict(spec.parameters)},
            "required": ["name", "arguments"],
            "additionalProperties": False,
        }
        for spec in tools
    ]
    options.append(
        {
            "type": "object",
            "properties": {"answer": {"type": "string"}},
            "required": ["answer"],
            "additionalProperties": False,
        }
    )
    return {"anyOf": options}


def answer_schema() -> dict[str, Any]:
    """The schema of a final answer only: ``{"answer": "..."}``. Sent with the tools still in
    the prompt, it forces an answer without changing the request's prefix (withholding the
    tools would change it, and every cached token after it would be prefilled again)."""
    return {
        "type": "object",
        "properties": {"answer": {"type": "string"}},
        "required": ["answer"],
        "additionalProperties": False,
    }


def final_answer(content: str) -> str | None:
    """The answer text when ``content`` is a ``{"answer": ...}`` decision, else None. A
    decision cut off inside its answer (the output ran out of tokens: the 0.5B repeated one
    sentence until it did) gives the text written up to the cut."""
    try:
        value = json.loads(content)
    except json.JSONDecodeError:
        opened = _CUT_ANSWER.match(content)
        return _cut_string(content[opened.end() :]) if opened else None
    if isinstance(value, dict) and set(value) == {"answer"} and isinstance(value["answer"], str):
        return value["answer"]
    return None


_CUT_ANSWER = re.compile(r'\s*\{\s*"answer"\s*:\s*"(?=(?:[^"\\]|\\.)*\\?\Z)', re.S)


def _cut_string(body: str) -> str:
    """The text of a JSON string cut before its closing quote (a dangling escape dropped)."""
    for end in range(len(body), max(len(body) - 6, -1), -1):
        try:
            return str(json.loads(f'"{body[:end]}"'))
        except json.JSONDecodeError:
            continue
    return body
