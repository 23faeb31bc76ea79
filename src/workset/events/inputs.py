"""Structured input events: who sent it, over what, what it says, and how it relates.

Seed 004 ("Modelado estructurado de eventos"): every input a session can receive — a user's
line, an email arriving over a webhook, a timer firing, a background task finishing, a
message from another agent — is one :class:`Event` with a source (who), a channel (the
medium), content (what, with a rich payload) and context (priority, relations to earlier
events or tasks). Its ``id`` makes consumption idempotent: the inbox records an id once and a
session consumes it at most once, so a retried delivery is harmless.

``type`` names what happened, dotted: ``user.input``, ``user.interrupt``,
``supervisor.instruction``, ``agent.input``, ``agent.interrupt``, ``tool.result``,
``task.progress``, ``task.finished``, ``timer.trigger``, ``webhook.<channel>``,
``system.alert``, ``parallel.answered``. The router picks a strategy from it (see
:mod:`workset.session.router`).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias, get_args

from workset.errors import UsageError

EventSource: TypeAlias = Literal["user", "contact", "system", "tool", "timer", "agent"]
Priority: TypeAlias = Literal["urgent", "high", "normal", "low"]
Mode: TypeAlias = Literal["", "cancel", "queue", "parallel"]

SOURCES: tuple[str, ...] = get_args(EventSource)
PRIORITIES: tuple[str, ...] = get_args(Priority)
MODES: tuple[str, ...] = get_args(Mode)
MAX_EVENT_BYTES = 256 * 1024  # a larger payload belongs in a file the event points to


@dataclass(frozen=True, slots=True)
class EventContext:
    """How an event relates to the session: its priority, what it refers to, a wish.

    ``mode`` is the sender's explicit choice of strategy (``workset send --urgent`` asks for
    ``cancel``, a chat line starting with ``?`` for ``parallel``); empty lets the router
    decide. ``stop`` says the event asks to stop everything, background tasks included
    (a user's "cancel"); an interrupt without it lets running tools finish in the background.
    """

    priority: Priority = "normal"
    relates_to: tuple[str, ...] = ()  # ids of earlier events, task ids, call ids
    mode: Mode = ""
    stop: bool = False


@dataclass(frozen=True, slots=True)
class Event:
    """One input to a session."""

    id: str
    type: str
    source: EventSource
    channel: str
    content: Mapping[str, Any]  # {"text": ...} and any payload (subject, body, ids...)
    context: EventContext = field(default_factory=EventContext)
    sender: str = ""  # who within the source: an email address, an agent's name
    at: float = 0.0  # when it arrived (unix seconds), set by the inbox
    trusted: bool = False  # the user's own words and workset's own events; never contacts

    @property
    def text(self) -> str:
        """The content as one text: its ``text`` field, else the payload as JSON."""
        text = self.content.get("text")
        if isinstance(text, str) and len(self.content) == 1:
            return text
        rest = {k: v for k, v in self.content.items() if k != "text"}
        payload = json.dumps(rest, ensure_ascii=False, sort_keys=True) if rest else ""
        if isinstance(text, str) and text:
            return f"{text}\n{payload}" if payload else text
        return payload

    @property
    def urgent(self) -> bool:
        return self.context.priority == "urgent"


def new_event(
    type: str,
    text: str = "",
    *,
    source: EventSource = "user",
    channel: str = "api",
    content: Mapping[str, Any] | None = None,
    context: EventContext | None = None,
    sender: str = "",
    trusted: bool | None = None,
    id: str | None = None,
) -> Event:
    """An event with a fresh id; ``text`` fills ``content["text"]`` when given.

    Events from the user, workset's own timers, tools and system are trusted by default;
    anything from a contact or another agent is data, never instructions.
    """
    body: dict[str, Any] = dict(content or {})
    if text:
        body.setdefault("text", text)
    if not body:
        raise UsageError(f"a {type} event needs content: give text or a payload")
    return Event(
        id=id or new_event_id(),
        type=_checked_type(type),
        source=source,
        channel=channel,
        content=body,
        context=context or EventContext(),
        sender=sender,
        at=time.time(),
        trusted=source in ("user", "system", "timer", "tool") if trusted is None else trusted,
    )


def new_event_id() -> str:
    return f"ev-{secrets.token_hex(8)}"


def event_from_json(data: Any, *, channel: str = "api", trusted: bool = False) -> Event:
    """An :class:`Event` from a decoded JSON object, as the HTTP API and ``workset send`` take it.

    Required: ``type`` (dotted, e.g. ``user.input``) and ``content`` (an object, or a string
    taken as ``{"text": ...}``). Optional: ``id`` (for idempotent delivery; one is made when
    absent), ``source`` (default ``user``), ``sender``, ``context`` with ``priority``,
    ``relates_to``, ``mode``, ``stop``. Raises :class:`UsageError` naming what is wrong.
    """
    if not isinstance(data, Mapping):
        raise UsageError(
            f"an event must be a JSON object like {_EXAMPLE}, not {type(data).__name__}"
        )
    unknown = set(data) - {"id", "type", "source", "channel", "content", "context", "sender"}
    if unknown:
        raise UsageError(f"unknown event fields {sorted(unknown)}; an event looks like {_EXAMPLE}")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise UsageError(f"an event needs a 'type' string such as 'user.input'; e.g. {_EXAMPLE}")
    content = data.get("content")
    if isinstance(content, str):
        content = {"text": content}
    if not isinstance(content, Mapping) or not content:
        raise UsageError("an event needs non-empty 'content': a string or a JSON object")
    size = len(json.dumps(content, ensure_ascii=False).encode())
    if size > MAX_EVENT_BYTES:
        raise UsageError(
            f"the event content is {size} bytes, over the {MAX_EVENT_BYTES} limit; put large "
            "payloads in a file and send its path"
        )
    source = data.get("source", "user")
    if source not in SOURCES:
        raise UsageError(f"event source must be one of {', '.join(SOURCES)}, not {source!r}")
    event_id = data.get("id") or new_event_id()
    if not isinstance(event_id, str) or not 1 <= len(event_id) <= 128:
        raise UsageError("an event 'id' must be a string of 1 to 128 characters")
    sender = data.get("sender", "")
    if not isinstance(sender, str):
        raise UsageError("an event 'sender' must be a string")
    return Event(
        id=event_id,
        type=_checked_type(kind),
        source=source,
        channel=str(data.get("channel") or channel),
        content=dict(content),
        context=_context(data.get("context")),
        sender=sender,
        at=time.time(),
        trusted=trusted and source == "user",
    )


def _context(value: Any) -> EventContext:
    if value is None:
        return EventContext()
    if not isinstance(value, Mapping):
        raise UsageError("an event 'context' must be an object with priority/relates_to/mode")
    unknown = set(value) - {"priority", "relates_to", "mode", "stop"}
    if unknown:
        raise UsageError(
            f"unknown event context fields {sorted(unknown)}; known: priority, relates_to, "
            "mode, stop"
        )
    priority = value.get("priority", "normal")
    if priority not in PRIORITIES:
        raise UsageError(f"event priority must be one of {', '.join(PRIORITIES)}")
    mode = value.get("mode", "")
    if mode not in MODES:
        raise UsageError("event mode must be one of cancel, queue, parallel (or absent)")
    relates = value.get("relates_to", ())
    if isinstance(relates, str):
        relates = (relates,)
    if not isinstance(relates, list | tuple) or not all(isinstance(r, str) for r in relates):
        raise UsageError("event 'relates_to' must be a list of ids")
    stop = value.get("stop", False)
    if not isinstance(stop, bool):
        raise UsageError("event 'stop' must be true or false")
    return EventContext(priority, tuple(relates), mode, stop)


def _checked_type(kind: str) -> str:
    parts = [p.replace("_", "").replace("-", "") for p in kind.split(".")]
    if not kind or len(kind) > 64 or not all(p.isalnum() for p in parts):
        raise UsageError(
            f"event type {kind!r} is not a dotted name like 'user.input' or 'webhook.gmail'"
        )
    return kind


_EXAMPLE = '{"type": "user.input", "content": {"text": "..."}}'
