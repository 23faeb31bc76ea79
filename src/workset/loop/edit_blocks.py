"""Whole definitions offered as ``old`` in a guided edit (a change spread over a function).

One chosen line cannot make a change that spans a function: a new parameter used in the
body, a guard inserted before a statement, two branches changed together. Besides the lines
of :func:`~workset.loop.edit_schema.offered_lines`, a guided edit may take as ``old`` the
whole of a function the task names, when the run has seen every line of it (numbered, as
read_file and the workspace excerpts show them, blank lines included) and where it ends;
``new`` is then the function as it must read. edit_file refuses a ``new`` that drops the
definition it replaces (:func:`~workset.tools.write_guards.keep_replaced_definitions`).

A task that names no function ("``Query().f1 <= 42`` does not match 42; fix the query") still
points at one: the workspace evidence of the first request is found by the task's words and
meaning, and an excerpt headed by a function (``--- tinydb/queries.py, lines 290-301 (class
Query > def __le__)``) that shows all of it is that function whole. :func:`candidate_blocks`
adds those, in the evidence's order, after the functions the task names (localisation by
retrieval, the change by the model: the 0.5B reads a function well and a repository badly).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from workset.loop.edit_schema import is_test_file, names_file, task_names

MAX_BLOCK_LINES = 40  # a longer function is edited line by line
MAX_BLOCKS = 3  # definitions offered across all files
_NUMBERED = re.compile(r"^\s*(\d+)\| ?(.*)$", re.M)
_DEF = re.compile(r"^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)")
_END_OF_FILE = "(end of file)"
_RETURN = re.compile(r"\s*return\b")
# What follows an evidence excerpt's "--- path, lines A-B" when the excerpt is one function.
_EXCERPT_DEF = re.compile(r"\A \((?:[^()\n]*> )?(?:async )?def ([A-Za-z_]\w*)\)[ \t]*\n")
_NOT_SHOWN = re.compile(r"^\[lines \d+-\d+ not shown", re.M)


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
                out.setdefault(path, []).append(_numbered_block(lines, number, end))
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


def _numbered_block(lines: dict[int, str], first: int, last: int) -> str:
    """Lines ``first``..``last`` as numbered text (``"56| def increment(...):"``), the form
    edit_file takes with its prefixes."""
    return "\n".join(f"{n}| {lines[n]}".rstrip() for n in range(first, last + 1))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def evidence_blocks(seen: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """File -> the functions that workspace evidence excerpts show whole, in the order seen:
    an excerpt headed by a ``def`` (as :func:`~workset.loop.definitions.seen_texts` gives it,
    the text after ``--- path, lines A-B``) with every line from the ``def`` on shown, at most
    :data:`MAX_BLOCK_LINES` lines; numbered text as :func:`named_blocks` gives it."""
    out: dict[str, list[str]] = {}
    for path, text in seen:
        heading = _EXCERPT_DEF.match(text)
        if heading is None or _NOT_SHOWN.search(text):
            continue
        found = {int(m.group(1)): m.group(2).rstrip("\r") for m in _NUMBERED.finditer(text)}
        if not found:
            continue
        first, last = min(found), max(found)
        while last > first and not found[last].strip():
            last -= 1
        shown = all(n in found for n in range(first, last + 1))
        defined = _DEF.match(found[first])
        if not shown or defined is None or defined.group(2) != heading.group(1):
            continue
        if last - first + 1 > MAX_BLOCK_LINES:
            continue
        block = _numbered_block(found, first, last)
        if block not in out.get(path, []):
            out.setdefault(path, []).append(block)
    return out


def candidate_blocks(task: str, seen: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    """The whole functions a guided edit may choose for ``task``: those it names
    (:func:`named_blocks`), then those the workspace evidence shows whole
    (:func:`evidence_blocks`; only in the files the task names when it names any, a test
    file's only when it is named), at most
    :data:`MAX_BLOCKS` in all, the same function once."""
    out = {path: list(found) for path, found in named_blocks(task, seen).items()}
    count = sum(len(found) for found in out.values())
    taken = {_heading(path, block) for path, found in out.items() for block in found}
    shown = evidence_blocks(seen)
    named = [path for path in shown if names_file(path, task)]
    for path, found in shown.items():
        if (named and path not in named) or (is_test_file(path) and path not in named):
            continue  # the files the task names, when it names any; tests only if named
        for block in found:
            if count >= MAX_BLOCKS or _heading(path, block) in taken:
                continue
            out.setdefault(path, []).append(block)
            taken.add(_heading(path, block))
            count += 1
    return out


def _heading(path: str, block: str) -> tuple[str, str]:
    """A block's file and first line (its ``def``, numbered): the same function twice."""
    return path, block.split("\n", 1)[0]
