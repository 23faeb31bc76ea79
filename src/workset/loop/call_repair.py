"""Calls as the model wrote them, made into calls the loop can record and run.

- identical calls in one message are kept once, and copies of the harness's
  ``invalid_tool_call`` pseudo-call that the model wrote itself are dropped beside real calls;
- a call whose name is no tool but whose arguments fit exactly one tool is that tool's call
  (small models put a class or function of the code where the tool name goes:
  ``JSONStorage {"path": ...}``); it is recorded and run under the tool's name; arguments
  named like JSON-schema words that are no parameter (``"additionalProperties": false``,
  copied from the definitions) are dropped;
- ids already used in the session get a fresh suffix (results are recorded once per id).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from workset.loop.call_parsing import INVALID_CALL, INVALID_ID
from workset.messages import AssistantMessage, ToolCall, ToolSpec
from workset.tools.registry import tool_for_arguments

_SCHEMA_WORDS = frozenset({"additionalProperties", "properties", "required", "type", "$schema"})


def distinct(message: AssistantMessage) -> AssistantMessage:
    """The message with each identical call kept once (a degenerate output repeated one
    call twenty times: twenty error results teach the model nothing one would not).

    Calls the model itself named ``invalid_tool_call`` copy the harness's pseudo-call from
    the trajectory (the 0.5B wrote 37 in one message): none is kept beside a real call,
    one at most when there is no other."""
    copies = [c for c in message.tool_calls if _copied(c)]
    calls = [c for c in message.tool_calls if not _copied(c)] or copies[:1]
    seen: set[tuple[str, str]] = set()
    kept: list[ToolCall] = []
    for call in calls:
        key = (call.name, canonical(call.arguments))
        if key in seen and call.name != INVALID_CALL:
            continue
        seen.add(key)
        kept.append(call)
    if len(kept) == len(message.tool_calls):
        return message
    return replace(message, tool_calls=tuple(kept))


def mapped_to_tools(
    message: AssistantMessage, tool_names: Sequence[str], specs: Sequence[ToolSpec]
) -> tuple[AssistantMessage, dict[str, str]]:
    """The message with each call under a name that is no tool, but whose arguments fit
    exactly one tool, renamed to that tool; and call id -> the name the model wrote.
    Arguments named like JSON-schema words that are no parameter of the tool
    (``"additionalProperties": false``, copied from the tool definitions) are dropped."""
    mapped: dict[str, str] = {}
    calls = []
    for call in message.tool_calls:
        fit = None
        if call.name not in tool_names and call.name != INVALID_CALL:
            fit = tool_for_arguments(specs, call.arguments)
        if fit is not None:
            mapped[call.id] = call.name
            call = replace(call, name=fit)
        spec = next((s for s in specs if s.name == call.name), None)
        calls.append(call if spec is None else _without_schema_words(call, spec))
    if tuple(calls) == message.tool_calls:
        return message, mapped
    return replace(message, tool_calls=tuple(calls)), mapped


def unique_ids(message: AssistantMessage, used: set[str]) -> AssistantMessage:
    """Calls whose id is in ``used`` (already used in the session) get a fresh one
    (``id~2``); every id the message ends with is added to ``used``.

    Small models and some servers number calls ``call_0`` every turn; results are
    recorded once per call id, so a repeated id would lose a result.
    """
    if not message.tool_calls:
        return message
    calls = []
    for call in message.tool_calls:
        new_id, n = call.id, 1
        while new_id in used:
            n += 1
            new_id = f"{call.id}~{n}"
        used.add(new_id)
        calls.append(call if new_id == call.id else replace(call, id=new_id))
    return replace(message, tool_calls=tuple(calls))


def canonical(arguments: str) -> str:
    """The arguments' JSON with sorted keys (as written when they are no JSON): two calls
    with the same canonical arguments are the same call."""
    try:
        return json.dumps(json.loads(arguments), sort_keys=True)
    except json.JSONDecodeError:
        return arguments


def _without_schema_words(call: ToolCall, spec: ToolSpec) -> ToolCall:
    """``call`` without arguments that are JSON-schema words and no parameter of ``spec``."""
    try:
        arguments = json.loads(call.arguments or "{}")
    except json.JSONDecodeError:
        return call
    if not isinstance(arguments, dict):
        return call
    known = spec.parameters.get("properties", {})
    copied = [k for k in arguments if k in _SCHEMA_WORDS and k not in known]
    if not copied:
        return call
    kept = {k: v for k, v in arguments.items() if k not in copied}
    return replace(call, arguments=json.dumps(kept, ensure_ascii=False))


def _copied(call: ToolCall) -> bool:
    """A call the model named after the harness's pseudo-call (not one the harness made)."""
    return call.name == INVALID_CALL and not call.id.startswith(INVALID_ID)
