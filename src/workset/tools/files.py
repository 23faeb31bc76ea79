"""File-system work behind the perception tools: windows of files, walks, pagination, grep.

Pure helpers over a :class:`Workspace`; the tools and their contracts are in ``perception``.
"""

from __future__ import annotations

import difflib
import fnmatch
import json
import math
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workset.errors import ToolError
from workset.tools.workspace import Workspace

MAX_FILE_BYTES = 5_000_000
MAX_LIMIT = 2_000
MAX_LINE_CHARS = 2_000
MAX_OUTPUT_CHARS = 40_000
LIST_PAGE = 200
FIND_PAGE = 100
GREP_PAGE = 50
GREP_TEXT_CHARS = 300
MAX_SCANNED = 100_000
SKIP_DIRS = frozenset({".git", "__pycache__", ".venv", "node_modules"})


# --- read_file ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Window:
    lines: tuple[str, ...]
    total: int | None  # None: not counted (large file, window ended before the end)
    cut_by_output: bool
    invalid_utf8: bool


def read_window(file: Path, offset: int, limit: int, *, count_all: bool) -> Window:
    """Stream lines ``offset``..``offset+limit-1``; count the rest only when ``count_all``."""
    lines: list[str] = []
    chars, number, invalid = 0, 0, False
    with file.open("rb") as handle:
        for raw in handle:
            number += 1
            if number < offset:
                continue
            text, bad = decode(raw)
            if len(text) > MAX_LINE_CHARS:
                cut = len(text) - MAX_LINE_CHARS
                text = f"{text[:MAX_LINE_CHARS]} … [line cut: {cut:,} more characters]"
            if len(lines) == limit or (lines and chars + len(text) > MAX_OUTPUT_CHARS):
                total = number + sum(1 for _ in handle) if count_all else None
                return Window(tuple(lines), total, len(lines) < limit, invalid)
            invalid = invalid or bad
            chars += len(text) + 8
            lines.append(text)
    return Window(tuple(lines), number, False, invalid)


def decode(raw: bytes) -> tuple[str, bool]:
    line = raw.rstrip(b"\n").rstrip(b"\r")
    try:
        return line.decode("utf-8"), False
    except UnicodeDecodeError:
        return line.decode("utf-8", errors="replace"), True


def render_window(window: Window, offset: int, limit: int, size: int) -> str:
    last = offset + len(window.lines) - 1
    width = max(5, len(str(last)))
    out = [f"{offset + i:>{width}}| {text}" for i, text in enumerate(window.lines)]
    notes: list[str] = []
    whole = offset == 1 and window.total == last
    if not whole:
        if window.total is None:
            status = (
                f"Showing lines {offset}-{last} of a {human_size(size)} file (over 5 MB, so its "
                "lines were not counted)."
            )
        else:
            status = f"Showing lines {offset}-{last} of {window.total:,} total."
        if window.total is not None and last >= window.total:
            status += " (end of file)"
        else:
            status += f" To continue, call read_file with offset={last + 1}."
        notes.append(status)
    if window.cut_by_output:
        notes.append(f"Output stopped at {MAX_OUTPUT_CHARS:,} characters; use a smaller limit.")
    if limit > MAX_LIMIT and not whole and len(window.lines) == MAX_LIMIT:
        notes.append(f"limit={limit} was reduced to the maximum of {MAX_LIMIT:,} lines.")
    if window.invalid_utf8:
        notes.append("Note: some bytes are not valid UTF-8 and are shown as \ufffd.")
    return "\n".join(out + notes)


def is_binary(file: Path) -> bool:
    with file.open("rb") as handle:
        return b"\x00" in handle.read(8192)


def existing_file(ws: Workspace, path: str) -> Path:
    file = ws.resolve(path)
    if not file.exists():
        raise not_found(ws, path, file, "file")
    if file.is_dir():
        rel = ws.relative(file)
        raise ToolError(
            f"{rel} is a directory, not a file",
            hint=f"use list_dir with path='{rel}' to see what it contains",
        )
    return file


def existing_dir(ws: Workspace, path: str) -> Path:
    directory = ws.resolve(path)
    if not directory.exists():
        raise not_found(ws, path, directory, "directory")
    if not directory.is_dir():
        rel = ws.relative(directory)
        raise ToolError(
            f"{rel} is a file, not a directory",
            hint="give the folder that contains it, or '.' for the whole workspace",
        )
    return directory


def not_found(ws: Workspace, given: str, resolved: Path, kind: str) -> ToolError:
    parent = resolved.parent
    close: list[str] = []
    if parent.is_dir():
        names = sorted(child.name for child in parent.iterdir())
        close = difflib.get_close_matches(resolved.name, names, n=3, cutoff=0.6)
    if close:
        options = ", ".join(f"'{ws.relative(parent / name)}'" for name in close)
        hint = f"did you mean {options}? Use find_files to search by name."
    else:
        hint = "use find_files with a name pattern (e.g. '*.py') or list_dir to see what exists"
    return ToolError(f"no such {kind}: '{given}'", hint=hint)


def plural(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


# --- list_dir / find_files --------------------------------------------------------------------


def describe_entry(entry: os.DirEntry[str]) -> str:
    if entry.is_symlink():
        return f"{entry.name}@ -> {Path(entry.path).readlink()}"
    if entry.is_dir():
        return f"{entry.name}/"
    try:
        return f"{entry.name}  {human_size(entry.stat().st_size)}"
    except OSError:
        return entry.name


def page_bounds(page: int, total: int, size: int, what: str) -> tuple[int, int, int]:
    pages = max(1, math.ceil(total / size))
    if page < 1 or page > pages:
        raise ToolError(
            f"page={page} does not exist: {total:,} {what} fill {plural(pages, 'page', 'pages')}",
            hint=f"use a page from 1 to {pages}",
        )
    start = (page - 1) * size
    return start, min(start + size, total), pages


def name_matches(pattern: str, rel: str, name: str) -> bool:
    pat = pattern.lower()
    if "/" not in pat:
        return fnmatch.fnmatchcase(name.lower(), pat)
    rel = rel.lower()
    return fnmatch.fnmatchcase(rel, pat) or (
        pat.startswith("**/") and fnmatch.fnmatchcase(rel, pat[3:])
    )


class Walk:
    """A sorted walk below ``base`` that skips noise folders and stops at a scan cap."""

    def __init__(self, ws: Workspace, base: Path) -> None:
        self._ws, self._base, self.truncated = ws, base, False

    def entries(self) -> Iterator[tuple[Path, bool]]:
        scanned = 0
        for root, dirs, files in os.walk(self._base):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            here = Path(root)
            for name in sorted([*dirs, *files]):
                scanned += 1
                if scanned > MAX_SCANNED:
                    self.truncated = True
                    return
                yield here / name, name in dirs

    def files(self) -> Iterator[Path]:
        return (path for path, is_dir in self.entries() if not is_dir)

    def note(self) -> str:
        if not self.truncated:
            return ""
        return (
            f"\nNote: stopped after scanning {MAX_SCANNED:,} entries; results are incomplete. "
            "Search a narrower path."
        )


# --- grep -------------------------------------------------------------------------------------


def grep_files(
    ws: Workspace, regex: re.Pattern[str], path: str, glob: str | None, page: int
) -> str:
    target = ws.resolve(path)
    if not target.exists():
        raise not_found(ws, path, target, "file or directory")
    walk = Walk(ws, target)
    if target.is_dir():
        files: Iterator[Path] = (
            f
            for f in walk.files()
            if glob is None or name_matches(glob, f.relative_to(target).as_posix(), f.name)
        )
    else:
        files = iter([target])
    first, last = (page - 1) * GREP_PAGE, page * GREP_PAGE
    hits: list[dict[str, Any]] = []
    total = with_matches = binary = large = outside = 0
    for file in sorted(files):
        if not file.resolve().is_relative_to(ws.root):
            outside += 1  # a symlink that points outside the workspace: never read it
            continue
        try:
            if file.stat().st_size > MAX_FILE_BYTES:
                large += 1
                continue
            data = file.read_bytes()
        except OSError:
            continue
        if b"\x00" in data[:8192]:
            binary += 1
            continue
        found = False
        text = data.decode("utf-8", errors="replace")
        lines = text[:-1].split("\n") if text.endswith("\n") else text.split("\n")
        for number, line in enumerate(lines if text else [], 1):
            match = regex.search(line)
            if match is None:
                continue
            found = True
            if first <= total < last:
                hits.append(
                    {
                        "path": ws.relative(file),
                        "line": number,
                        "text": snippet(line.rstrip("\r"), match),
                    }
                )
            total += 1
        with_matches += found
    pages = page_bounds(page, total, GREP_PAGE, "matches")[2]
    result: dict[str, Any] = {
        "total_matches": total,
        "files_with_matches": with_matches,
        "page": page,
        "pages": pages,
        "hits": hits,
        "next": f"call grep with the same arguments and page={page + 1}" if page < pages else None,
    }
    if binary or large or outside:
        result["skipped_files"] = {"binary": binary, "over_5MB": large, "outside": outside}
    if walk.truncated:
        result["note"] = f"stopped after scanning {MAX_SCANNED:,} entries; search a narrower path"
    elif total == 0:
        result["note"] = (
            "no line matches; grep searches contents with a Python regex. Try "
            "ignore_case=true, a shorter pattern, or find_files to match names"
        )
    return dump(result)


def snippet(line: str, match: re.Match[str]) -> str:
    if len(line) <= GREP_TEXT_CHARS:
        return line
    start = max(0, min(match.start() - 100, len(line) - GREP_TEXT_CHARS))
    end = start + GREP_TEXT_CHARS
    return ("…" if start else "") + line[start:end] + ("…" if end < len(line) else "")


def dump(result: dict[str, Any]) -> str:
    """JSON with one hit per line: valid JSON, easy to read for people and small models."""
    hits = result["hits"]
    head = json.dumps({k: v for k, v in result.items() if k != "hits"}, ensure_ascii=False)
    if not hits:
        body = "[]"
    else:
        body = "[\n" + ",\n".join(json.dumps(h, ensure_ascii=False) for h in hits) + "\n]"
    return head[:-1] + f', "hits": {body}}}' if len(head) > 2 else f'{{"hits": {body}}}'


def encode_utf8(text: str, field: str) -> bytes:
    """``text`` as UTF-8; a :class:`ToolError` naming ``field`` when it cannot be."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ToolError(
            f"{field} contains a character that is not valid UTF-8 at index {exc.start} "
            f"({text[exc.start : exc.end]!r}, an unpaired surrogate)",
            hint="remove it or write the character itself instead of a \\ud800-style escape",
        ) from exc
