"""The trajectory a session's records add up to: its messages, with the record of each.

One fold, used by the session log (``SessionLog.messages``, resume) and the session engine's
state alike, so the messages the engine sends are exactly the ones a reader rebuilds:

- :class:`InputAppended` adds a user-role message (its ``origin`` kept);
- :class:`ModelCalled` adds the assistant message, recorded as soon as it arrived;
- :class:`ToolFinished` adds a result; a unit's results are kept in the order of its calls
  whatever order they finished in, so a resumed session renders the same bytes;
- in logs written before the session engine, :class:`RunStarted` with a task adds it.

``seqs[i]`` is the log record behind ``messages[i]``; a request refers to trajectory
messages by it (:class:`~workset.events.records.MessageRef`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from workset.errors import SessionLogError
from workset.events.records import (
    InputAppended,
    LoopEvent,
    ModelCalled,
    RunStarted,
    ToolFinished,
)
from workset.messages import AssistantMessage, Message, OpenUnit, ToolMessage, UserMessage


@dataclass
class Trajectory:
    """Messages in trajectory order, each with the seq of the record that holds it."""

    messages: list[Message] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    _open: AssistantMessage | None = None
    _open_seq: int = 0
    _results: dict[str, tuple[int, ToolMessage]] = field(default_factory=dict)

    def add(self, seq: int, event: LoopEvent) -> Message | None:
        """Fold one record in; returns the message it added to the trajectory, if any."""
        match event:
            case InputAppended(text=text, origin=origin):
                self._refuse_inside_unit(seq, "an input")
                return self._append(seq, UserMessage(text, origin=origin))
            case RunStarted(task=task) if task:
                self._refuse_inside_unit(seq, "a task")
                return self._append(seq, UserMessage(task))
            case ModelCalled(message=message):
                self._refuse_inside_unit(seq, "an assistant message")
                if message.tool_calls:
                    self._open, self._open_seq, self._results = message, seq, {}
                    return message
                return self._append(seq, message)
            case ToolFinished(result=result):
                return self._result(seq, result)
        return None

    @property
    def open_unit(self) -> OpenUnit | None:
        """The trailing assistant message whose calls do not all have results yet."""
        if self._open is None:
            return None
        return OpenUnit(self._open, tuple(r for _, r in self._ordered()))

    def all_messages(self) -> tuple[list[Message], list[int]]:
        """Messages and seqs including an open unit (its finished results in call order)."""
        if self._open is None:
            return list(self.messages), list(self.seqs)
        ordered = self._ordered()
        return (
            [*self.messages, self._open, *(r for _, r in ordered)],
            [*self.seqs, self._open_seq, *(s for s, _ in ordered)],
        )

    def _result(self, seq: int, result: ToolMessage) -> Message | None:
        if self._open is None:
            raise SessionLogError(
                f"record {seq} is a tool result ({result.tool_call_id}) with no open tool call"
            )
        known = {c.id for c in self._open.tool_calls}
        if result.tool_call_id not in known:
            raise SessionLogError(
                f"record {seq} answers call {result.tool_call_id!r}, which the open assistant "
                f"message did not make (its calls: {sorted(known)})"
            )
        self._results.setdefault(result.tool_call_id, (seq, result))
        if len(self._results) == len(known):
            self._append(self._open_seq, self._open)
            for s, r in self._ordered():
                self._append(s, r)
            self._open, self._results = None, {}
        return result

    def _ordered(self) -> list[tuple[int, ToolMessage]]:
        assert self._open is not None
        return [self._results[c.id] for c in self._open.tool_calls if c.id in self._results]

    def _append(self, seq: int, message: Message) -> Message:
        self.messages.append(message)
        self.seqs.append(seq)
        return message

    def _refuse_inside_unit(self, seq: int, what: str) -> None:
        if self._open is not None:
            pending = [c.id for c in self._open.tool_calls if c.id not in self._results]
            raise SessionLogError(
                f"record {seq} adds {what} while tool calls {pending} have no result; "
                "a protocol unit must be complete before anything else enters the trajectory"
            )
