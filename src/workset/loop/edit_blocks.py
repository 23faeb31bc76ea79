"""Whole definitions offered as ``old`` in a guided edit (a change spread over a function).

One chosen line cannot make a change that spans a function: a new parameter used in the
body, a guard inserted before a statement, two branches changed together. Besides the lines
of :func:`~workset.loop.edit_schema.offered_lines`, a guided edit may take as ``old`` the
whole of a function the task names, when the run has seen every line of it (numbered, as
read_file and the workspace excerpts show them, blank lines included) and where it ends;
``new`` is then the function as it must read. edit_file refuses a ``new`` that drops the
definition it replaces (:func:`~workset.tools.write_guards.keep_replaced_definitions`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from workset.loop.edit_schema import task_names

MAX_BLOCK_LINES = 40  # a longer function is edited line by line
MAX_BLOCKS = 2  # definitions offered across all files
_NUMBERED = re.compile(r"^\s*(\d+)\| ?(.*)$", re.M)
_DEF = re.compile(r"^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)")
_END_OF_FILE = "(end of file)"
_RETURN = re.compile(r"\s*return\b")


@dataclass
class SeenFile:
    lines: dict[int, str] = field(default_factory=dict)  # number -> line, blank ones too
    end: int | None = None  # the number after the file's last line, when a read reached it


def numbered_lines(seen: Iterable[tuple[str, str]]) -> dict[str, SeenFile]:
    """File -> its numbered lines as seen (blank ones too) and, when a text says it reached
    the end of its file, the number after its last line; from ``seen`` ((file, text) pairs)."""
    out: dict[str, SeenFile] = {}
    for path, text in seen:
        found = {int(m.group(1)): m.group(2).rstrip("\r") for m in _NUMBERED.finditer(text)}
        if not found:
            continue
        file = out.setdefault(path, SeenFile())
        file.lines.update(found)
        if _END_OF_FILE in text:
            file.end = max(found) + 1
    return out


def named_blocks(task: str, seen: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """File -> the whole definitions of the functions ``task`` names whose every line was
    seen (at most :data:`MAX_BLOCKS`, each at most :data:`MAX_BLOCK_LINES` lines), as
    numbered text (``"56| def increment(...):\\n57|     ..."``), which edit_file takes with
    its prefixes."""
    names = task_names(task)
    out: dict[str, list[str]] = {}
    count = 0
    for path, file in numbered_lines(seen).items():
        lines = file.lines
        for number in sorted(lines):
            heading = _DEF.match(lines[number])
            if heading is None or heading.group(2) not in names or count >= MAX_BLOCKS:
                continue
            end = _block_end(file, number, len(heading.group(1)))
            if end is not None:
                body = [f"{n}| {lines[n]}".rstrip() for n in range(number, end + 1)]
                out.setdefault(path, []).append("\n".join(body))
                count += 1
    return out


def _block_end(file: SeenFile, start: int, indent: int) -> int | None:
    """The number of the last non-blank line of the definition at ``start`` (indented
    ``indent``), or None when a line of it, or where it ends, was not seen. Where it ends is
    seen as a line indented no deeper than the ``def``, the end of the file, or a ``return``
    at the body's own indentation followed by lines not seen (an excerpt cut after the
    function: nothing after that ``return`` runs)."""
    last, body = start, None
    for number in range(start + 1, start + MAX_BLOCK_LINES + 1):
        if number == file.end:
            return last if last > start else None
        line = file.lines.get(number)
        if line is None:
            ended = body is not None and _RETURN.match(file.lines[last]) is not None
            return last if ended and _indent(file.lines[last]) == body else None
        if not line.strip() or line.lstrip().startswith((")", "]", "}")):  # a signature's close
            last = number if line.strip() else last
            continue
        if _indent(line) <= indent:
            return last if last > start else None
        if body is None and not file.lines[last].rstrip().endswith((",", "(")):
            body = _indent(line)  # the first statement's indentation (not a parameter's)
        last = number
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())
