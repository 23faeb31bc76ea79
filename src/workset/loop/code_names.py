"""A call under the name of a function or class of the code, answered with where it is.

The 0.5B reads ``def increment(field: str)`` in the workspace excerpts and calls
``increment {"field": "int"}`` as if it were a tool; told only that ``increment`` is no tool,
it called it again three times in one edit run. :func:`code_name_notice` says where the name
is defined, quotes its first lines as the excerpts showed them, and gives the whole call that
reads them (a run that may only read): a small model copies a call it sees far better than
it follows a description of one. A run that may edit is told what edit_file takes, with no
call to copy: the 0.5B copied a call with placeholders, placeholders and all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

_GUTTER_LINE = re.compile(r"^\s*\d+\|")
QUOTED_LINES = 8  # lines of the definition quoted, its own line first


def definition_lines(name: str, seen: Iterable[tuple[str, str]]) -> tuple[str, list[str]] | None:
    """The file that defines ``name`` (``class name`` or ``def name``) in ``seen`` ((file,
    numbered text) pairs, as the excerpts show them), and its first numbered lines; None
    when ``seen`` shows no such definition."""
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None
    head = re.compile(rf"^\s*\d+\|\s*(?:async\s+)?(?:class|def)\s+{re.escape(name)}\b")
    for path, text in seen:
        lines = text.split("\n")
        for index, line in enumerate(lines):
            if head.match(line):
                shown = [x for x in lines[index : index + QUOTED_LINES] if _GUTTER_LINE.match(x)]
                return path, shown
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
