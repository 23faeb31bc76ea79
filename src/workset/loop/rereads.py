"""A read repeated after it showed only part of a file: the part not yet seen is read instead.

The 0.5B reads ``tinydb/queries.py`` ("Showing lines 1-80 of 528 total. To continue, call
read_file with offset=81."), then makes the same call again: in the first fresh tune run of
session 32, 3 of 4 runs did. Answered with the same 80 lines and a note to answer from them
or make another call, it answered "You could not find it." — the line that answers was at
line 240. A repeated partial read asks for more of the file, so :func:`reread` runs it as
the ``read_file`` call of the part the run has not seen that shares the most words with the
task (scored as :func:`~workset.loop.focus.scored_lines` scores the lines of a read), from
the start of its function when that is near; when no unseen line shares words with the task,
or the file cannot be read ahead, the next unseen page. The model's turn is recorded with
the call that ran, and the step's decision says why.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Iterable
from typing import Any

from workset.loop.answer_shape import asked, shows_exception
from workset.loop.definitions import path_argument
from workset.loop.edit_blocks import numbered_lines
from workset.loop.focus import scored_lines
from workset.messages import ToolCall, argument_object

WINDOW_LINES = 40  # lines read around the best unseen line
LEAD_LINES = 8  # lines before it, when no enclosing def or class starts near
HEAD_REACH = 15  # how far back an enclosing def or class may start
# An "exception" question's line weighs this much more when it raises or names an exception:
# for "What exception do you get when … has no field path?" a comment about "the current
# path of fields … the object" shared more words than "raise ValueError('Query has no path')".
ANSWER_TYPE_BONUS = 2.0
WHOLE_FILE_LINES = 2_000  # what the reader asks read_file for (its own cap)
_CONTINUE = re.compile(r"To continue, call read_file with offset=(\d+)\.")
_TOTAL = re.compile(r"Showing lines (\d+)-(\d+) of ([\d,]+) total\.")
_HEAD = re.compile(r"(?:async\s+def|def|class)\s")

Reader = Callable[[str], "str | None"]


def reread(
    call: ToolCall,
    earlier: str,
    task: str,
    seen: Iterable[tuple[str, str]],
    reader: Reader | None = None,
) -> tuple[ToolCall, str] | None:
    """The call that runs instead of ``call``, a ``read_file`` call identical to one whose
    result ``earlier`` showed only part of the file, and why; None when ``earlier`` showed
    the whole file or the run has seen every line of it. ``seen`` are (file, numbered text)
    of what the run saw (reads, excerpts); ``reader`` gives a file's numbered text by path."""
    more = _CONTINUE.search(earlier)
    path = path_argument(call.arguments)
    if more is None or not path:
        return None
    shown = _shown(path, seen)
    span = _TOTAL.search(earlier)
    total = int(span.group(3).replace(",", "")) if span else None
    told = f"lines {span.group(1)}-{span.group(2)} of {path}" if span else path
    text = reader(path) if reader is not None else None
    best = _best_unseen(task, text, shown) if text else None
    if best is not None:
        start = _start(text or "", best)
        arguments: dict[str, Any] = {"path": path, "offset": start, "limit": WINDOW_LINES}
        last = start + WINDOW_LINES - 1 if total is None else min(total, start + WINDOW_LINES - 1)
        why = (
            f"the model asked for {told} again: lines {start}-{last}, which it has not seen "
            "and which share the most words with the task, are read instead"
        )
        return ToolCall(call.id, "read_file", json.dumps(arguments)), why
    offset = int(more.group(1))
    while offset in shown:
        offset += 1
    if total is not None and offset > total:
        return None
    arguments = {"path": path, "offset": offset}
    limit = argument_object(call.arguments).get("limit")
    if limit is not None:
        arguments["limit"] = limit
    why = f"the model asked for {told} again: the next lines it has not seen are read instead"
    return ToolCall(call.id, "read_file", json.dumps(arguments)), why


def file_reader(tool: Any) -> Reader | None:
    """A reader of whole files through ``tool``, the run's ``read_file`` tool (its handler
    takes ``path``, ``offset`` and ``limit`` and confines paths to its workspace), or None
    when it is missing, may change things or must be awaited. A read that fails gives None."""
    if tool is None or not getattr(tool, "read_only", False) or getattr(tool, "is_async", True):
        return None

    def read(path: str) -> str | None:
        try:
            text = tool.handler(path=path, offset=1, limit=WHOLE_FILE_LINES)
        except Exception:  # a file it cannot read is one it does not choose in
            return None
        return text if isinstance(text, str) else None

    return read


def _shown(path: str, seen: Iterable[tuple[str, str]]) -> set[int]:
    """The line numbers of ``path`` that ``seen`` shows."""
    files = numbered_lines((_norm(file), text) for file, text in seen)
    return set(files[_norm(path)].lines) if _norm(path) in files else set()


def _norm(path: str) -> str:
    return posixpath.normpath(path.strip().replace("\\", "/"))


def _best_unseen(task: str, text: str, shown: set[int]) -> int | None:
    """The number of the unseen line of ``text`` that shares the most words with ``task``
    (a line of the kind of thing the task asks for weighs more)."""
    exception = asked(task) == "exception"
    scored = [
        (w * ANSWER_TYPE_BONUS if exception and shows_exception(line) else w, n)
        for w, n, line in scored_lines(task, text)
        if n not in shown
    ]
    if not scored:
        return None
    return max(scored, key=lambda s: (s[0], -s[1]))[1]


def _start(text: str, line: int) -> int:
    """Where to start reading for ``line``: the def or class that encloses it when it starts
    at most :data:`HEAD_REACH` lines before, else :data:`LEAD_LINES` lines before it."""
    lines = numbered_lines([("", text)])[""].lines
    indent = _indent(lines.get(line, ""))
    for number in range(line, max(0, line - HEAD_REACH) - 1, -1):
        body = lines.get(number, "")
        if _HEAD.match(body.lstrip()) and (_indent(body) < indent or number == line):
            return number
    return max(1, line - LEAD_LINES)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())
