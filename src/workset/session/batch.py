"""Pending events as the one user-role message a safe point appends (seed 004, rule 5).

One event from the user alone enters as the user's words, unchanged. Anything else — several
events, or any event that is not the user's own line — enters as one batch with a marker per
event (``[Unprocessed event 2/4] User message: …``) and a closing line that counts them by
kind, because a model reading a batch tends to answer only its last entry. Content from
anyone but the user and workset itself (an email, a webhook, another agent) is wrapped as
untrusted data: it can describe a request, never issue one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from workset.context.trust import neutralize, wrap_untrusted
from workset.events.inputs import Event

Origin = Literal["user", "events", "harness"]


@dataclass(frozen=True, slots=True)
class Batch:
    text: str
    origin: Origin
    event_ids: tuple[str, ...]


def label(event: Event) -> str:
    """What kind of event this is, in words the model reads ("User message", "Timer")."""
    kind = event.type
    if kind in ("user.input", "user.interrupt"):
        return "User message" if kind == "user.input" else "User interrupt"
    if kind == "supervisor.instruction":
        return "Supervisor instruction"
    if kind.startswith("agent."):
        return f"Message from agent {event.sender}".rstrip()
    if kind == "tool.result":
        return "Tool result"
    if kind.startswith("task."):
        return "Background task update"
    if kind == "timer.trigger":
        return "Timer"
    if kind == "parallel.answered":
        return "Answered in parallel with the main task"
    if kind.startswith("webhook."):
        sender = f" from {event.sender}" if event.sender else ""
        return f"{kind.removeprefix('webhook.').capitalize()} event{sender}"
    if kind.startswith("system."):
        return "System notice"
    return f"Event {kind}"


def _kind_word(event: Event) -> str:
    if event.type in ("user.input", "user.interrupt"):
        return "user message"
    if event.type in ("tool.result",) or event.type.startswith("task."):
        return "tool result"
    if event.type == "timer.trigger" or event.type.startswith("system."):
        return "system reminder"
    if event.type == "parallel.answered":
        return "parallel answer"
    if event.type.startswith("agent."):
        return "agent message"
    return "external event"


def body(event: Event) -> str:
    """The event's content as the model may read it (untrusted content wrapped as data)."""
    if event.trusted:
        return neutralize(event.text)
    return wrap_untrusted(event.text, source=f"{event.channel}:{event.sender}".rstrip(":"))


def render_batch(events: Sequence[Event]) -> Batch:
    """The message for ``events`` (at least one), in arrival order."""
    if not events:
        raise ValueError("render_batch needs at least one event")
    ids = tuple(e.id for e in events)
    only = events[0]
    if len(events) == 1 and only.type == "user.input" and only.trusted:
        return Batch(neutralize(only.text), "user", ids)
    n = len(events)
    lines = [f"[Unprocessed event {i}/{n}] {label(e)}: {body(e)}" for i, e in enumerate(events, 1)]
    counts = Counter(_kind_word(e) for e in events)
    listed = ", ".join(
        f"{c} {kind}{'s' if c > 1 else ''}" for kind, c in sorted(counts.items(), key=_order)
    )
    lines.append(
        f"There {'is' if n == 1 else 'are'} {n} unprocessed event{'s' if n > 1 else ''} above "
        f"({listed}). Make sure your response covers all of them."
    )
    from_user = all(e.type in ("user.input", "user.interrupt") and e.trusted for e in events)
    return Batch("\n".join(lines), "user" if from_user else "events", ids)


_KIND_ORDER = ("tool result", "user message", "system reminder", "parallel answer")


def _order(item: tuple[str, int]) -> tuple[int, str]:
    kind = item[0]
    return (_KIND_ORDER.index(kind) if kind in _KIND_ORDER else len(_KIND_ORDER), kind)
