"""Every exception workset raises, in one place.

The tree::

    WorksetError                      base of everything below
    ├── UsageError                    the caller asked for something invalid (bad config, empty)
    ├── ContextBudgetError            required parts of a request do not fit the window
    ├── ModelError                    a model backend failed
    │   ├── ModelUnavailableError     endpoint unreachable, weights missing or corrupt
    │   └── ModelResponseError        the backend answered with something unusable
    ├── SessionLogError               the session log cannot be opened, read or appended to
    │   ├── SessionNotFoundError      no session with that id
    │   └── EventConsumedError        an inbox event was already consumed (another worker?)
    └── ToolSignal                    steers the loop; never a failure of workset itself
        └── ToolError                 a tool call failed in a way the model should see and fix

Signals (``ToolSignal``) become tool-role messages the model can act on; failures stop a run
with an explicit error event; ``UsageError`` means the caller must change what they asked.
Every message says what happened and what to do next.
"""

from __future__ import annotations


class WorksetError(Exception):
    """Base class of every error raised by workset."""


class UsageError(WorksetError):
    """The caller asked for something invalid; the message says what to change."""


class ContextBudgetError(WorksetError):
    """Required context (system prompt, tools, the current task) does not fit the budget."""


class ModelError(WorksetError):
    """A model backend failed."""


class ModelUnavailableError(ModelError):
    """The model cannot be reached or loaded (endpoint down, weights missing or corrupt)."""


class ModelResponseError(ModelError):
    """The backend answered, but not with a usable completion."""


class SessionLogError(WorksetError):
    """The session log cannot be opened, read or appended to."""


class SessionNotFoundError(SessionLogError):
    """No session with the given id exists in the log."""


class EventConsumedError(SessionLogError):
    """An inbox event was consumed already; nothing was recorded."""


class ToolSignal(WorksetError):
    """Raised inside tools to steer the loop; turned into a tool message, never a crash."""


class ToolError(ToolSignal):
    """A tool call failed; the message is shown to the model, so it must say how to fix it."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint

    def for_model(self) -> str:
        """The text the model sees as the tool result."""
        text = f"Error: {self}"
        return f"{text}\nHint: {self.hint}" if self.hint else text
