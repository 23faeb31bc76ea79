"""edit_file's matching: where ``old`` occurs, what the model meant when it does not.

A small model copies ``old`` from read_file output with the line-number gutter
(``"   12| x = 1"``), or from memory with a wrong detail. :func:`without_gutter` takes the
gutter off; :func:`no_match` is the error that shows the closest passages and, when one is
clearly meant, the whole call to make again with ``old`` copied from the file: a 0.5B model
copies a complete call it sees far better than it follows a description of one.
"""

from __future__ import annotations

import difflib
import json
import re

from workset.errors import ToolError
from workset.tools.output import split_lines

_CANDIDATES = 3
_SIMILAR = 0.4
# A candidate this similar to ``old`` is offered as a ready call (what the model meant).
_MEANT = 0.6
_MAX_COMPARED_CHARS = 20_000_000
_GUTTER = re.compile(r"^ *\d+\| ?")
_OVERLAP_SLACK = 2  # lines between old and the first file line new repeats
# A template's slot copied as if it were text: "<that line as it must read>".
# Lower-case words only (no "=" or quotes), so an HTML tag is not one.
PLACEHOLDER = re.compile(r"<(?:[a-z]+[ ,/-]+){2,}[a-z]+>")


def find_all(data: bytes, needle: bytes) -> list[int]:
    """Start offsets of the non-overlapping occurrences, as ``bytes.replace`` sees them."""
    starts: list[int] = []
    at = data.find(needle)
    while at >= 0:
        starts.append(at)
        at = data.find(needle, at + len(needle))
    return starts


def without_gutter(text: str) -> str:
    """``text`` without read_file's line-number gutter when every line of it has one
    (``"   12| x = 1"`` -> ``"x = 1"``); otherwise ``text`` unchanged."""
    lines = text.split("\n")
    marked = [line for line in lines if line.strip()]
    if not marked or not all(_GUTTER.match(line) for line in marked):
        return text
    return "\n".join(_GUTTER.sub("", line, count=1) for line in lines)


_STRAY_COLUMN = re.compile(r"(\s*)\d{1,4}\s{2,}(\S.*)")


def without_stray_column(new: str, old: str) -> str:
    """One line of ``new`` without a number column the model added after the gutter it
    copied (``"41|      4  doc[field] -= n"``, its gutter already taken off, is
    ``"     4  doc[field] -= n"``: the 1.5B wrote that three times), when ``old``'s line does not
    itself begin with a number; otherwise ``new`` unchanged."""
    match = _STRAY_COLUMN.fullmatch(new)
    if "\n" in new.strip("\n") or match is None or old.lstrip()[:1].isdigit():
        return new
    return match.group(1) + match.group(2)


def first_line_as_old(new: str, old: str) -> str:
    """``new`` with its first line written exactly as ``old``'s when it is that line copied
    with other indentation and more lines follow: the 0.5B copied ``"102|           x"``
    (two spaces short) above lines copied right, and the edit broke the indentation."""
    first, sep, rest = new.partition("\n")
    line = old.split("\n", 1)[0]
    if not sep or first == line or first.strip() != line.strip() or not line.strip():
        return new
    return line + sep + rest


def gutter_number(text: str) -> int | None:
    """The line number of ``text``'s first gutter (``"   41| x"`` -> 41), or None."""
    match = _GUTTER.match(text.lstrip("\n"))
    return int(match.group().split("|")[0]) if match else None


def replaced_at(data: bytes, starts: list[int], size: int, new: bytes) -> bytes:
    """``data`` with the ``size`` bytes at each of ``starts`` (ascending, not overlapping)
    replaced by ``new``."""
    parts, at = [], 0
    for start in starts:
        parts += [data[at:start], new]
        at = start + size
    return b"".join([*parts, data[at:]])


def overlap_end(data: bytes, start: int, old: str, new: str) -> int | None:
    """The byte offset where ``old`` (found at ``start`` in ``data``) must end because ``new``
    rewrites the lines after it too, or None when it does not.

    Asked to change one line of a function, a model picks the ``def`` line as ``old`` and
    writes the whole rewritten function as ``new``: replaced as given, the file keeps the
    old body under the new one (``doc[field] += 2`` still there). When ``new`` begins with
    ``old``'s lines and goes on with lines that are, for the most part, the lines that
    follow ``old`` in the file (compared stripped, in order, starting within
    :data:`_OVERLAP_SLACK` lines), ``old`` is widened to the last of those file lines, or,
    when ``new``'s lines follow the file's line for line, to as many lines as ``new`` has (a
    copy of the next lines with one of them changed). An insertion after ``old`` (new lines
    unlike the ones that follow) is left alone."""
    old_lines, new_lines = old.rstrip("\n").split("\n"), new.rstrip("\n").split("\n")
    if len(new_lines) <= len(old_lines) or not old.strip():
        return None
    if [x.strip() for x in new_lines[: len(old_lines)]] != [x.strip() for x in old_lines]:
        return None
    extra = [x.strip() for x in new_lines[len(old_lines) :]]
    end = start + len(old.encode("utf-8"))
    line_end = data.find(b"\n", end - 1) if not old.endswith("\n") else end - 1
    if line_end < 0:
        return None
    after = data[line_end + 1 :].decode("utf-8", "replace").split("\n")
    window = [x.rstrip("\r").strip() for x in after[: len(extra) + _OVERLAP_SLACK]]
    matcher = difflib.SequenceMatcher(None, window, extra, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size]
    same = sum(1 for b in blocks for x in window[b.a : b.a + b.size] if x)
    written = sum(1 for x in extra if x)
    if not blocks or blocks[0].a > _OVERLAP_SLACK or same < 2 or 2 * same < written:
        return None
    covered = max(b.a + b.size for b in blocks)  # file lines after old that new rewrites
    if all(b.a == b.b for b in blocks) and len(extra) <= len(window):
        covered = len(extra)  # line for line: the lines that differ are those it changed
    offset = line_end + sum(len(x.encode("utf-8")) + 1 for x in after[:covered])
    return min(offset + (1 if old.endswith("\n") else 0), len(data))


def no_match(rel: str, data: bytes, old: str, new: str) -> ToolError:
    """The error for an ``old`` that is not in the file: the closest passages, and the call
    to make again when one passage is clearly what the model meant (``new`` kept)."""
    text = data.decode("utf-8", errors="replace")
    lines = split_lines(text)
    hints = []
    if "\r\n" in text and "\r\n" not in old and old.replace("\n", "\r\n") in text:
        hints.append("the file uses CRLF line endings: write each line break in old as \\r\\n")
    nearest = _nearest(lines, old)
    shown = [_render_candidate(lines, *c) for c in nearest]
    if shown:
        body = "The closest passages:\n" + "\n".join(shown)
    else:
        body = "No similar passage was found."
    best = max(nearest, default=None)
    if best is not None and best[0] >= _MEANT:
        _ratio, start, size = best
        meant = "\n".join(line.rstrip("\r") for line in lines[start : start + size])
        new = _reindented(new, old, meant)
        call = {"name": "edit_file", "arguments": {"path": rel, "old": meant, "new": new}}
        body += (
            "\nIf you meant that passage, call edit_file again with old copied from the file "
            "(check that new is what you want there):\n" + json.dumps(call, ensure_ascii=False)
        )
    hints.append(
        "copy old exactly from read_file output (without the line-number prefix); "
        "whitespace, quotes and line endings must match"
    )
    return ToolError(
        f"old was not found in {rel} (matching is exact, byte for byte). {body}",
        hint="; ".join(hints),
    )


def indented_like(new: str, old: str) -> str:
    """``new`` re-based on ``old``'s indentation when ``old`` is one indented line: a small
    model that picks ``"    x += 2"`` writes ``"x += 1"`` or ``" x += 1"``. ``new``'s own
    first-line indentation is replaced by ``old``'s and its other lines are shifted the same,
    so its structure stays; ``new`` unchanged when a line of it is indented less than its
    first, or ``old`` is not one indented line."""
    indent = _indent(old)
    if "\n" in old.strip("\n") or not indent or not new.strip() or new.startswith("\n"):
        return new
    lines = new.split("\n")
    given = _indent(new)
    if given == indent or not all(line.startswith(given) for line in lines if line.strip()):
        return new
    return "\n".join(indent + line[len(given) :] if line.strip() else line for line in lines)


def _reindented(new: str, old: str, meant: str) -> str:
    """``new`` indented as the passage ``meant`` is, when ``old`` had its indentation wrong
    (a model that writes ``x += 1`` for ``    x += 1`` writes its ``new`` the same way)."""
    indent = _indent(meant)
    given = _indent(old)
    lines = new.split("\n")
    if indent == given or not all(line.startswith(given) for line in lines if line):
        return new
    return "\n".join(indent + line[len(given) :] if line else line for line in lines)


def _indent(text: str) -> str:
    first = text.lstrip("\n").split("\n", 1)[0]
    return first[: len(first) - len(first.lstrip(" \t"))]


def _nearest(lines: list[str], old: str) -> list[tuple[float, int, int]]:
    """Up to three non-overlapping windows of lines most similar to ``old``: (ratio, i, n)."""
    size = max(1, len(split_lines(old)))
    starts = range(max(1, len(lines) - size + 1))
    if len(starts) * max(len(old), 1) > _MAX_COMPARED_CHARS:
        return []
    scored: list[tuple[float, int, int]] = []
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(old)
    for start in starts:
        matcher.set_seq1("\n".join(lines[start : start + size]))
        floor = max(_SIMILAR, scored[-1][0] if len(scored) >= _CANDIDATES * 3 else 0.0)
        if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
            continue
        ratio = matcher.ratio()
        if ratio >= floor:
            scored.append((ratio, start, size))
            scored.sort(key=lambda item: -item[0])
            del scored[_CANDIDATES * 3 :]
    chosen: list[tuple[float, int, int]] = []
    for ratio, start, n in scored:
        if all(abs(start - other) >= n for _r, other, _n in chosen):
            chosen.append((ratio, start, n))
    return sorted(chosen[:_CANDIDATES], key=lambda item: item[1])


def _render_candidate(lines: list[str], ratio: float, start: int, size: int) -> str:
    width = len(str(start + size))
    shown = lines[start : start + size]
    end = start + len(shown)
    title = f"lines {start + 1}-{end}" if len(shown) > 1 else f"line {start + 1}"
    body = [f"  {start + 1 + i:>{width}}| {line.rstrip(chr(13))}" for i, line in enumerate(shown)]
    return "\n".join([f"- {title} ({ratio:.0%} similar):", *body])
