"""Pieces of recorded messages: what recall ranks and quotes, cut along the text's structure.

A piece is a run of one message's units (:func:`units_of`): a tool result's lines, or a
user or assistant message's sentences and tool calls. :func:`pieces_of` cuts a tool result
into records by its shape (:func:`~workset.history.structure.records_of`: a JSON or YAML
document's leaf objects with their key paths, a JSON-lines log's lines, a table's rows, a
text's notes under their headings, so none is cut in two) and a message into pairs of
neighbouring sentences.
Quoting a piece never changes the recorded message: the trajectory keeps its units whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from workset.history.structure import records_of
from workset.messages import AssistantMessage, Message, ToolMessage, UserMessage


@dataclass(frozen=True, slots=True)
class Piece:
    """A retrievable piece of one recorded message: all of it, or a run of its units (a tool
    result's lines; a user or assistant message's sentences and tool calls)."""

    seq: int
    turn: int
    who: str  # user, assistant, tool
    text: str
    first_line: int = 1  # the run's first and last unit, from 1
    last_line: int = 1
    total_lines: int = 1
    call_id: str | None = None
    tool: str | None = None
    arguments: str = ""
    head: str = ""  # what a tool result's record is read by (its title or column names)
    path: str = ""  # where a record of a JSON or YAML result sits ("site.receiving.permit")
    columns: str = ""  # a table row's header line, shown with a quoted row

    @property
    def key(self) -> tuple[int, int]:
        return (self.seq, self.first_line)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|\n+")


def units_of(message: Message) -> list[str]:
    """What a quote of ``message`` is cut from: a tool result's lines; the sentences of a
    user or assistant text, then one ``-> tool(arguments)`` line per call."""
    if isinstance(message, ToolMessage):
        return message.content.splitlines() or [message.content]
    if isinstance(message, UserMessage | AssistantMessage):
        said = [s.strip() for s in _SENTENCE_END.split(message.content or "") if s.strip()]
        if isinstance(message, AssistantMessage):
            said += [f"-> {c.name}({c.arguments})" for c in message.tool_calls]
        return said
    return []


def join_units(message: Message, units: Sequence[str]) -> str:
    return "\n".join(units) if isinstance(message, ToolMessage) else " ".join(units)


def pieces_of(
    message: Message, seq: int, turn: int, *, lines: int, calls: dict[str, tuple[str, str]]
) -> list[Piece]:
    """The pieces of ``message``. A user or assistant text: every two sentences that follow
    each other (a sentence that names a value and the next that says what it is stay
    together), the whole of a short one. A tool result: one per record
    (:func:`~workset.history.structure.records_of`), a record longer than ``lines`` lines or
    1,200 characters cut into runs."""
    units = units_of(message)
    if not units:
        return []
    if isinstance(message, UserMessage | AssistantMessage):
        who = "user" if isinstance(message, UserMessage) else "assistant"
        if len(units) <= 2:
            return [Piece(seq, turn, who, join_units(message, units), 1, len(units), len(units))]
        return [
            Piece(seq, turn, who, join_units(message, units[i : i + 2]), i + 1, i + 2, len(units))
            for i in range(len(units) - 1)
        ]
    if not isinstance(message, ToolMessage):
        return []
    tool, arguments = calls.get(message.tool_call_id, (message.name or "tool", "{}"))
    rows = units
    runs: list[Piece] = []
    for record in records_of(rows):
        start, last = record.first, record.last
        while start <= last:
            end, size = start, 0
            while (
                end <= last
                and end - start < lines
                and (size == 0 or size + len(rows[end]) <= 1_200)
            ):
                size += len(rows[end]) + 1
                end += 1
            runs.append(
                Piece(
                    seq,
                    turn,
                    "tool",
                    "\n".join(rows[start:end]),
                    start + 1,
                    end,
                    len(rows),
                    message.tool_call_id,
                    message.name or tool,
                    arguments,
                    record.head if start > 0 else "",
                    record.path,
                    record.columns,
                )
            )
            start = end
    return runs
