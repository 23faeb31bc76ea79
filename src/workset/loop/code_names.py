"""A call under the name of a function or class of the code: its definition read, or where
it is told.

The 0.5B reads ``def increment(field: str)`` in the workspace excerpts and calls
``increment {"field": "int"}`` as if it were a tool; told only that ``increment`` is no tool,
it called it again three times in one edit run. :func:`code_name_notice` says where the name
is defined, quotes its first lines as the excerpts showed them, and gives the whole call that
reads them (a run that may only read): a small model copies a call it sees far better than
it follows a description of one. A run that may edit is told what edit_file takes, with no
call to copy: the 0.5B copied a call with placeholders, placeholders and all.

Told, the 0.5B still called the name again (``diff`` twice on a toolz question, with the
notice in front of it). :func:`definitions_read` does what such a call asks for when the run
has seen where the name is defined: the call runs as the ``read_file`` call that shows the
definition, so the model gets the code and sees, in its own turn, the call that reads it.
The notice is what a run without ``read_file`` gets.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from workset.messages import AssistantMessage, ToolCall

_GUTTER_LINE = re.compile(r"^\s*\d+\|")
QUOTED_LINES = 8  # lines of the definition quoted, its own line first
DEFINITION_LINES = 60  # at most this many lines of a definition read for a call by its name
_NUMBERED = re.compile(r"^\s*(\d+)\|(.*)$")


def definition_lines(name: str, seen: Iterable[tuple[str, str]]) -> tuple[str, list[str]] | None:
    """The file that defines ``name`` (``class name`` or ``def name``) in ``seen`` ((file,
    numbered text) pairs, as the excerpts show them), and its first numbered lines; None
    when ``seen`` shows no such definition."""
    found = _definition(name, seen)
    if found is None:
        return None
    path, lines, index, _ = found
    return path, [x for x in lines[index : index + QUOTED_LINES] if _GUTTER_LINE.match(x)]


def _definition(
    name: str, seen: Iterable[tuple[str, str]]
) -> tuple[str, list[str], int, re.Match[str]] | None:
    """(file, its numbered lines, the index of the line defining ``name``, that line's match:
    its number and indentation) of the first definition of ``name`` in ``seen``."""
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None
    head = re.compile(rf"^\s*(\d+)\|(\s*)(?:async\s+)?(?:class|def)\s+{re.escape(name)}\b")
    for path, text in seen:
        lines = text.split("\n")
        for index, line in enumerate(lines):
            match = head.match(line)
            if match is not None:
                return path, lines, index, match
    return None


def code_name_notice(name: str, path: str, lines: list[str], *, can_edit: bool) -> str:
    """The notice for a call named ``name``, defined in ``path`` at ``lines``."""
    first = lines[0].split("|", 1)[0].strip() if lines else "1"
    kind = "class" if re.match(r"^\s*\d+\|\s*class\b", lines[0] if lines else "") else "function"
    text = (
        f"`{name}` is not a tool: it is a {kind} of the code, defined in {path} "
        f"at line {first}:\n" + "\n".join(lines) + "\n"
    )
    if can_edit:
        # No call with placeholders here: the 0.5B copied one as it was, "<the line to
        # change, as it is>" included.
        return text + (
            f'To change it, call edit_file with path "{path}", old one of the lines above '
            "copied without its number and bar, and new as that line must read after the "
            "change."
        )
    call = {"name": "read_file", "arguments": {"path": path, "offset": int(first)}}
    return text + "To see more of it, call read_file:\n" + json.dumps(call)


def definition_span(name: str, seen: Iterable[tuple[str, str]]) -> tuple[str, int, int] | None:
    """(file, first line, last line) of the definition of ``name`` (``class name`` or ``def
    name``) in ``seen`` ((file, numbered text) pairs). The definition ends before the next
    line indented no deeper than its own (a closing bracket of its signature aside), or
    :data:`DEFINITION_LINES` lines on when the text stops first. None when ``seen`` shows no
    such definition."""
    found = _definition(name, seen)
    if found is None:
        return None
    path, lines, index, match = found
    first, indent = int(match.group(1)), len(match.group(2).expandtabs())
    return path, first, _last_line(lines[index + 1 :], first, indent)


def _last_line(after: Sequence[str], first: int, indent: int) -> int:
    """The last line of a definition at ``first`` (indented ``indent``), from the lines after
    it; :data:`DEFINITION_LINES` lines on when they stop first (an excerpt's range can end
    inside a long function: the chunker splits them)."""
    last = first
    for line in after:
        numbered = _NUMBERED.match(line)
        if numbered is None:
            continue
        body = numbered.group(2)
        code = body.lstrip()
        depth = len(body.expandtabs()) - len(code)
        if code and depth <= indent and not code.startswith((")", "]", "}")):
            return last
        last = int(numbered.group(1))
    return first + DEFINITION_LINES - 1


def definitions_read(
    message: AssistantMessage,
    tool_names: Sequence[str],
    seen: Callable[[], Iterable[tuple[str, str]]],
) -> tuple[AssistantMessage, dict[str, str]]:
    """The message with each call under the name of a function or class that ``seen()``
    defines (and that is no tool) made into the ``read_file`` call that shows its
    definition; and call id -> the name the model wrote. Unchanged when ``read_file`` is not
    a tool of the run; ``seen`` is only called when a call names no tool."""
    if "read_file" not in tool_names or all(c.name in tool_names for c in message.tool_calls):
        return message, {}
    texts = list(seen())
    mapped: dict[str, str] = {}
    calls = []
    for call in message.tool_calls:
        span = None if call.name in tool_names else definition_span(call.name, texts)
        if span is not None:
            path, first, last = span
            limit = min(last - first + 1, DEFINITION_LINES)
            arguments = {"path": path, "offset": first, "limit": limit}
            mapped[call.id] = call.name
            call = ToolCall(call.id, "read_file", json.dumps(arguments))
        calls.append(call)
    if not mapped:
        return message, {}
    return replace(message, tool_calls=tuple(calls)), mapped
