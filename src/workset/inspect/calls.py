"""What the inspect page shows, gathered from a session's stored events.

One :class:`CallView` per model call: its manifest and usage, the assistant message it
produced, the tool results that answered it, and the task that started its run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workset.events import InputAppended, ModelCalled, RunFailed, RunStarted, ToolFinished
from workset.log.store import SessionInfo, StoredEvent
from workset.messages import ToolMessage


@dataclass(frozen=True, slots=True)
class CallView:
    number: int  # 1-based, in the order the calls were made across the session
    seq: int  # the sequence number of the model_called event in the log
    task: str  # the user message of the run this call belongs to ("" when resumed)
    event: ModelCalled
    results: tuple[ToolMessage, ...] = ()  # tool results recorded after the call


@dataclass(frozen=True, slots=True)
class SessionView:
    info: SessionInfo
    calls: tuple[CallView, ...]
    failures: tuple[str, ...] = ()  # the errors of failed runs, in order

    @property
    def prompt_tokens(self) -> int:
        return sum(c.event.usage.prompt_tokens for c in self.calls)

    @property
    def cached_tokens(self) -> int:
        return sum(c.event.usage.cached_prompt_tokens or 0 for c in self.calls)

    @property
    def completion_tokens(self) -> int:
        return sum(c.event.usage.completion_tokens for c in self.calls)


def session_view(info: SessionInfo, events: Sequence[StoredEvent]) -> SessionView:
    """Group the events of one session by model call, in log order."""
    calls: list[CallView] = []
    failures: list[str] = []
    task = ""
    for stored in events:
        match stored.event:
            case RunStarted(task=started) if started:
                task = started
            case InputAppended(text=text, origin=origin) if origin != "harness":
                task = text
            case ModelCalled() as event:
                calls.append(CallView(len(calls) + 1, stored.seq, task, event))
            case ToolFinished(result=result) if calls:
                last = calls[-1]
                calls[-1] = CallView(
                    last.number, last.seq, last.task, last.event, (*last.results, result)
                )
            case RunFailed(error=error):
                failures.append(error)
            case _:
                pass
    return SessionView(info, tuple(calls), tuple(failures))
