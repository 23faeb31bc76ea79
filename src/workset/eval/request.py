"""The one place the harness turns a policy's view into a model request, counted or sent.

Replay counts each call point's request and the probes send theirs; both go through
:func:`to_request`, so what is billed is what is asked. (The agent loop builds its requests
with the assembler; when the harness measures through that assembler, this module is what
gets replaced.)

Layout, as the agent lays it out: the system prompt, then the view's messages, then the
view's pinned block as one user message at the end; a probe's question comes last, after the
pinned block. A pinned block at ``"system"`` is appended to the system prompt instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from workset.history.base import HistoryView, pinned_block
from workset.messages import Message, SystemMessage, ToolSpec, UserMessage, from_wire, to_wire
from workset.models.base import ModelRequest
from workset.tokens.base import RequestCount
from workset.tokens.counter import PartCounter


@dataclass(frozen=True, slots=True)
class Prompt:
    """A request without its tools: the system prompt and the messages after it."""

    system: str | None
    messages: tuple[Message, ...]

    def to_json(self) -> dict[str, Any]:
        return {"system": self.system, "messages": [to_wire(m) for m in self.messages]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Prompt:
        return cls(data["system"], tuple(from_wire(m) for m in data["messages"]))


def apply_view(system: str | None, view: HistoryView) -> Prompt:
    """The prompt a view makes: its pinned block goes in the system prompt or last."""
    if not view.pinned:
        return Prompt(system, view.messages)
    block = pinned_block(view.pinned)
    if view.pinned_at == "system":
        return Prompt(f"{system}\n\n{block}" if system else block, view.messages)
    return Prompt(system, (*view.messages, UserMessage(block)))


def to_request(
    prompt: Prompt,
    tools: Sequence[ToolSpec],
    question: str | None = None,
    *,
    max_tokens: int,
) -> ModelRequest:
    """The request for ``prompt`` (plus ``question`` as the last user message), greedy."""
    head: tuple[Message, ...] = () if prompt.system is None else (SystemMessage(prompt.system),)
    tail: tuple[Message, ...] = () if question is None else (UserMessage(question),)
    return ModelRequest(
        (*head, *prompt.messages, *tail), tuple(tools), max_tokens=max_tokens, temperature=0.0
    )


def count(counter: PartCounter, request: ModelRequest) -> RequestCount:
    """Exact tokens of ``request`` by the model's own template and tokenizer."""
    messages = request.messages
    system = None
    if messages and isinstance(messages[0], SystemMessage):
        system, messages = messages[0].content, messages[1:]
    return counter.count_request(system, request.tools, messages)
