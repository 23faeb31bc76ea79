"""Item sources: where memory, evidence, notes and the status bar come from on each call.

An :class:`ItemSource` is any callable that, given what the next call is about
(:class:`ContextRequest`), returns candidate :class:`~workset.context.items.ContextItem`\\ s.
The agent asks every configured source before each model call and hands all candidates to the
packer; a source never decides what fits, the packer does, and the manifest says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from workset.context.items import ContextItem, Scope
from workset.messages import Message, UserMessage


@dataclass(frozen=True, slots=True)
class ContextRequest:
    session_id: str
    scope: Scope
    history: Sequence[Message]  # the whole recorded history, not a policy's view
    now: float  # unix seconds
    iteration: int  # 1 for the first model call of a run

    @property
    def query(self) -> str:
        """The current task: the last user-role message that is not a harness notice (an
        appended status block is never the task)."""
        for message in reversed(self.history):
            if isinstance(message, UserMessage) and message.origin != "harness":
                return message.content
        return ""


class ItemSource(Protocol):
    def __call__(self, request: ContextRequest) -> Sequence[ContextItem]: ...
