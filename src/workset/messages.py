"""Chat messages in the chat-completions shape, and protocol units.

Messages are frozen dataclasses discriminated by ``role``. ``to_wire``/``from_wire`` convert
to and from the OpenAI wire format at the call boundary; nothing else in workset passes dicts.

A :class:`ProtocolUnit` is an assistant message with tool calls plus one result per call. It
is built only through its validating constructor, so selection, truncation and compression
can move or drop it whole but never split it. :func:`group_units` turns a flat message list
into the sequence of plain messages and units the context engine works with.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from workset.errors import UsageError


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One call the model asked for. ``arguments`` is the JSON text exactly as produced."""

    id: str
    name: str
    arguments: str = "{}"

    def to_wire(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


def argument_object(arguments: str) -> dict[str, Any]:
    """A call's ``arguments`` text as a dict; empty when it is not a JSON object."""
    try:
        value = json.loads(arguments or "{}")
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True, slots=True)
class SystemMessage:
    content: str
    role: Literal["system"] = "system"


@dataclass(frozen=True, slots=True)
class UserMessage:
    """A user-role message. ``origin`` says whose words it holds (never sent on the wire):
    ``user`` (the user's own), ``events`` (a batch of events, e.g. a webhook's email),
    ``harness`` (workset's own notice, e.g. an appended status block). History policies and
    context sources take the task from ``user`` messages only."""

    content: str
    role: Literal["user"] = "user"
    origin: Literal["user", "events", "harness"] = field(default="user", compare=False)


@dataclass(frozen=True, slots=True)
class AssistantMessage:
    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    reasoning_content: str | None = None
    role: Literal["assistant"] = "assistant"


@dataclass(frozen=True, slots=True)
class ToolMessage:
    """The result of one tool call, linked by ``tool_call_id``."""

    tool_call_id: str
    content: str
    name: str = ""
    is_error: bool = False
    role: Literal["tool"] = "tool"


Message: TypeAlias = SystemMessage | UserMessage | AssistantMessage | ToolMessage


def to_wire(message: Message, *, keep_reasoning: bool = False) -> dict[str, Any]:
    """The chat-completions dict for ``message``.

    Reasoning content is sent back only when ``keep_reasoning`` is set: some model families
    want their thinking carried forward, most reject or ignore it.
    """
    match message:
        case SystemMessage(content=content) | UserMessage(content=content):
            return {"role": message.role, "content": content}
        case AssistantMessage():
            wire: dict[str, Any] = {"role": "assistant", "content": message.content}
            if message.tool_calls:
                wire["tool_calls"] = [call.to_wire() for call in message.tool_calls]
            if keep_reasoning and message.reasoning_content:
                wire["reasoning_content"] = message.reasoning_content
            return wire
        case ToolMessage():
            wire = {
                "role": "tool",
                "tool_call_id": message.tool_call_id,
                "content": message.content,
            }
            if message.name:
                wire["name"] = message.name
            return wire


def from_wire(data: Mapping[str, Any]) -> Message:
    """Parse one chat-completions message; raises :class:`UsageError` naming what is wrong."""
    role = data.get("role")
    content = data.get("content")
    if role in ("system", "user"):
        text = _text_content(content, role)
        return SystemMessage(text) if role == "system" else UserMessage(text)
    if role == "assistant":
        calls = tuple(_tool_call_from_wire(c) for c in data.get("tool_calls") or ())
        reasoning = data.get("reasoning_content")
        return AssistantMessage(
            content=None if content is None else _text_content(content, role),
            tool_calls=calls,
            reasoning_content=reasoning if isinstance(reasoning, str) else None,
        )
    if role == "tool":
        call_id = data.get("tool_call_id")
        if not isinstance(call_id, str) or not call_id:
            raise UsageError("a tool message needs a non-empty 'tool_call_id'")
        name = data.get("name")
        return ToolMessage(
            tool_call_id=call_id,
            content=_text_content(content, role),
            name=name if isinstance(name, str) else "",
        )
    raise UsageError(f"unknown message role {role!r}; expected system, user, assistant or tool")


def _text_content(content: Any, role: str) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts: keep the text ones, in order
        parts = [
            p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text"
        ]
        return "".join(parts)
    if content is None:
        return ""
    raise UsageError(f"{role} message content must be a string or a list of parts")


def _tool_call_from_wire(data: Any) -> ToolCall:
    if not isinstance(data, Mapping):
        raise UsageError("each entry of 'tool_calls' must be an object")
    function = data.get("function") or {}
    arguments = function.get("arguments", "{}")
    if not isinstance(arguments, str):  # some servers send an object: keep it as JSON text
        arguments = json.dumps(arguments, ensure_ascii=False)
    call_id, name = data.get("id"), function.get("name")
    if not isinstance(call_id, str) or not isinstance(name, str):
        raise UsageError("a tool call needs a string 'id' and 'function.name'")
    return ToolCall(id=call_id, name=name, arguments=arguments)


@dataclass(frozen=True, slots=True)
class ProtocolUnit:
    """An assistant message with tool calls plus exactly one result for each call.

    Results are kept in the order of the calls. Construction fails on a missing, extra or
    duplicated result, so a unit in hand is always complete.
    """

    call: AssistantMessage
    results: tuple[ToolMessage, ...] = field(default=())

    def __post_init__(self) -> None:
        ids = [c.id for c in self.call.tool_calls]
        if not ids:
            raise UsageError("a protocol unit needs an assistant message with tool calls")
        if len(set(ids)) != len(ids):
            raise UsageError(f"duplicate tool call ids in one assistant message: {ids}")
        by_id = {r.tool_call_id: r for r in self.results}
        if len(by_id) != len(self.results) or set(by_id) != set(ids):
            raise UsageError(
                f"tool results {sorted(by_id)} do not match tool calls {sorted(ids)}: "
                "every call needs exactly one result"
            )
        object.__setattr__(self, "results", tuple(by_id[i] for i in ids))

    @property
    def messages(self) -> tuple[Message, ...]:
        return (self.call, *self.results)


Segment: TypeAlias = SystemMessage | UserMessage | AssistantMessage | ProtocolUnit


@dataclass(frozen=True, slots=True)
class OpenUnit:
    """A trailing assistant message whose tool calls do not all have results yet."""

    call: AssistantMessage
    results: tuple[ToolMessage, ...]

    @property
    def pending(self) -> tuple[ToolCall, ...]:
        done = {r.tool_call_id for r in self.results}
        return tuple(c for c in self.call.tool_calls if c.id not in done)

    def complete(self, results: Iterable[ToolMessage]) -> ProtocolUnit:
        return ProtocolUnit(self.call, (*self.results, *results))


def group_units(messages: Iterable[Message]) -> tuple[list[Segment], OpenUnit | None]:
    """Group a flat message list into plain messages and complete protocol units.

    Returns the grouped list and, when the last assistant message still waits for some
    results, that open unit. Orphan tool results, results for unknown call ids and units
    interrupted by another message raise :class:`UsageError`.
    """
    grouped: list[Segment] = []
    open_call: AssistantMessage | None = None
    results: list[ToolMessage] = []
    for message in messages:
        if isinstance(message, ToolMessage):
            if open_call is None:
                raise UsageError(f"tool result {message.tool_call_id!r} has no preceding tool call")
            results.append(message)
            if len(results) == len(open_call.tool_calls):
                grouped.append(ProtocolUnit(open_call, tuple(results)))
                open_call, results = None, []
            continue
        if open_call is not None:
            missing = {c.id for c in open_call.tool_calls} - {r.tool_call_id for r in results}
            raise UsageError(f"tool calls {sorted(missing)} have no result before the next message")
        if isinstance(message, AssistantMessage) and message.tool_calls:
            open_call = message
        else:
            grouped.append(message)
    if open_call is None:
        return grouped, None
    known = {c.id for c in open_call.tool_calls}
    stray = [r.tool_call_id for r in results if r.tool_call_id not in known]
    if stray:
        raise UsageError(f"tool results {stray} answer no call of the preceding assistant message")
    return grouped, OpenUnit(open_call, tuple(results))


def flatten(segments: Sequence[Segment | Message]) -> list[Message]:
    """The flat message list of grouped segments, units expanded in order."""
    out: list[Message] = []
    for segment in segments:
        if isinstance(segment, ProtocolUnit):
            out.extend(segment.messages)
        else:
            out.append(segment)
    return out


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool definition as the model sees it: sent in the request's separate ``tools`` field."""

    name: str
    description: str
    parameters: Mapping[str, Any] = field(
        default_factory=lambda: {"type": "object", "properties": {}}
    )

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": dict(self.parameters),
            },
        }

    def __hash__(self) -> int:  # parameters are a mapping: equal specs still hash equal
        return hash((self.name, self.description))


def split_system(messages: Sequence[Message]) -> tuple[str | None, tuple[Message, ...]]:
    """The leading system prompt (None when absent) and the messages after it."""
    if messages and isinstance(messages[0], SystemMessage):
        return messages[0].content, tuple(messages[1:])
    return None, tuple(messages)


def canonical_order(messages: Iterable[Message]) -> list[Message]:
    """The same messages with each unit's results in the order of its calls.

    Parallel tools finish in any order and the log records them as they finish; requests are
    always built from this order, so a replayed or resumed session renders the same bytes.
    """
    grouped, open_unit = group_units(messages)
    out = flatten(grouped)
    if open_unit is not None:
        order = {c.id: i for i, c in enumerate(open_unit.call.tool_calls)}
        results = sorted(open_unit.results, key=lambda r: order[r.tool_call_id])
        out.append(open_unit.call)
        out.extend(results)
    return out
