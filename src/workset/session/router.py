"""Which of the three strategies an arriving event gets (seed 004, "Determinación de la urgencia").

- ``cancel``: make a safe point now — stop the model's output (discarded), stop or detach the
  running tools (placeholder results), drain the inbox, call the model again;
- ``queue``: wait for the next safe point and enter in one batch with everything pending;
- ``parallel``: a light question independent of the task, answered at once in a side session
  that reuses the main session's cached prefix.

Rules by type decide by default: user interrupts, supervisor instructions, agent interrupts
and anything marked urgent cancel; ordinary input, tool results and timers queue. A sender's
explicit ``context.mode`` wins. An optional model classifier (the seed's "LLM clasificador
ligero") may refine ``user.input`` while the session is busy; whatever it answers that is not
one of the three, or when it fails or is slow, the rules decide.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, TypeAlias

import anyio

from workset.errors import ModelError
from workset.events.inputs import Event
from workset.messages import SystemMessage, UserMessage
from workset.models.base import Model, ModelRequest

Strategy: TypeAlias = Literal["cancel", "queue", "parallel"]
STRATEGIES: tuple[Strategy, ...] = ("cancel", "queue", "parallel")
URGENT_TYPES = frozenset({"user.interrupt", "supervisor.instruction", "agent.interrupt"})
# Words that ask to stop everything: a user's "cancel" stops background tasks too.
_STOP = re.compile(
    r"^\W*(stop|cancel|abort|halt|quit|kill it|never ?mind|detente|para|cancela)\b", re.I
)
Classifier: TypeAlias = Callable[[Event], Awaitable[Strategy | None]]


def asks_to_stop(event: Event) -> bool:
    """True when the event asks to stop everything (its context says so, or its words do)."""
    return event.context.stop or bool(_STOP.match(event.text))


def rule_strategy(event: Event) -> Strategy:
    """The strategy the rules give ``event`` (no model involved)."""
    if event.context.mode:
        return event.context.mode
    if event.type in URGENT_TYPES or event.urgent or event.type.endswith(".urgent"):
        return "cancel"
    if event.type == "user.input" and asks_to_stop(event):
        return "cancel"
    return "queue"


@dataclass
class Router:
    """Rules, refined by an optional classifier for busy-time user input."""

    classifier: Classifier | None = None
    timeout_s: float = 10.0

    async def route(self, event: Event, *, busy: bool) -> Strategy:
        strategy = rule_strategy(event)
        if not busy:
            return "queue"  # nothing is running: the next step takes it at once
        if self.classifier is None or event.context.mode or event.type != "user.input":
            return strategy
        if strategy == "cancel":
            return strategy
        with anyio.move_on_after(self.timeout_s):
            try:
                chosen = await self.classifier(event)
            except ModelError:
                return strategy
            if chosen in STRATEGIES:
                return chosen
        return strategy


_PROMPT = (
    "An assistant is busy with a long task. A new message arrived. Decide how to handle it:\n"
    '- "cancel": the user wants to stop or change what is running now;\n'
    '- "parallel": a quick question unrelated to the task (the time, a fact), answer at once;\n'
    '- "queue": anything about the task (extra instructions, corrections), handle it next.\n'
    'Reply with JSON only: {"strategy": "cancel" | "parallel" | "queue"}'
)
_SCHEMA = {
    "type": "object",
    "properties": {"strategy": {"enum": list(STRATEGIES)}},
    "required": ["strategy"],
}


def model_classifier(model: Model) -> Classifier:
    """A classifier that asks ``model`` (constrained to the three answers where it can be)."""

    async def classify(event: Event) -> Strategy | None:
        request = ModelRequest(
            (SystemMessage(_PROMPT), UserMessage(f"New message: {event.text[:500]}")),
            max_tokens=20,
            temperature=0.0,
            json_schema=_SCHEMA,
        )
        response = await model.complete(request)
        match = re.search(r"cancel|parallel|queue", response.message.content or "")
        try:
            value = json.loads(response.message.content or "").get("strategy")
        except (ValueError, AttributeError):
            value = match.group(0) if match else None
        return value if value in STRATEGIES else None

    return classify
