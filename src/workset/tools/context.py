"""What a running tool may know about the call it serves: session, call id, idempotency key.

The registry sets the context around every handler; a handler reads it with
:func:`current_call`. The idempotency key is the same for every attempt at one call (a retry
after a crash included), so a tool that talks to an external system can pass it along and let
that system drop duplicates.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from workset.errors import UsageError


@dataclass(frozen=True, slots=True)
class CallContext:
    session_id: str
    call_id: str
    tool: str

    @property
    def idempotency_key(self) -> str:
        digest = hashlib.sha256(f"{self.session_id}\0{self.call_id}".encode()).hexdigest()
        return f"ws-{digest[:32]}"


_current: ContextVar[CallContext | None] = ContextVar("workset_call", default=None)


def current_call() -> CallContext:
    """The call being served; only inside a tool handler run by the registry."""
    found = _current.get()
    if found is None:
        raise UsageError("current_call() is only available inside a tool run by a ToolRegistry")
    return found


@contextmanager
def serving(context: CallContext) -> Iterator[None]:
    token = _current.set(context)
    try:
        yield
    finally:
        _current.reset(token)
