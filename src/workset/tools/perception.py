"""Perception tools: read, list, find and grep inside a workspace.

All four are read-only and idempotent, so the loop may cache them and run several at once.
Every result says explicitly when it is partial (truncated, paginated, skipped files) and how
to get the rest; silent truncation would let the model believe it has seen everything.
"""

from __future__ import annotations

import difflib
import fnmatch
import json
import math
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workset.errors import ToolError
from workset.tools.base import Tool
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

_COST = "cheap: local disk only"


def perception_tools(workspace: Workspace) -> list[Tool]:
    """``read_file``, ``list_dir``, ``find_files`` and ``grep`` confined to ``workspace``."""
    ws = workspace

    def read_file(path: str, offset: int = 1, limit: int = 200) -> str:
        """Read a text file from the workspace, with numbered lines ("   12| text").

        Use when: you know which file you need (from list_dir, find_files or grep) and want its
        text. Read big files in windows: offset is the first line to show, limit how many.
        Do not use when: you are looking for a file (use find_files) or for where some text
        occurs (use grep, then read around the line it reports). Directories and binary files
        are refused.
        Output: lines as "   12| text". A partial result always ends with a line like
        "Showing lines 1-200 of 5,000 total. To continue, call read_file with offset=201."
        Lines longer than 2,000 characters are cut and marked; limit is capped at 2,000
        lines and the output at 40,000 characters. For files over 5 MB the total line count
        is not computed, but any window can still be read with offset/limit. Bytes that are
        not valid UTF-8 are shown as "\ufffd" and a note says so.
        Examples: {"path": "src/app.py"}; {"path": "logs/server.log", "offset": 4801,
        "limit": 100}.

        Args:
            path: File path relative to the workspace root, e.g. "src/app.py".
            offset: First line to show, counting from 1.
            limit: How many lines to show (at most 2,000).
        """
        if offset < 1:
            raise ToolError(
                f"offset={offset} is invalid: lines are numbered from 1",
                hint="use offset=1 to read from the start",
            )
        if limit < 1:
            raise ToolError(
                f"limit={limit} is invalid: it must be at least 1",
                hint="use limit=200 for a window of 200 lines",
            )
        file = _existing_file(ws, path)
        rel = ws.relative(file)
        size = file.stat().st_size
        if size == 0:
            return "(empty file)"
        if _is_binary(file):
            raise ToolError(
                f"{rel} is a binary file ({_size(size)}); read_file shows text files only",
                hint="use find_files or list_dir to find the text files you need",
            )
        window = _read_window(file, offset, min(limit, MAX_LIMIT), count_all=size <= MAX_FILE_BYTES)
        if not window.lines:
            raise ToolError(
                f"offset={offset} is past the end of {rel}, which has {window.total:,} lines",
                hint=f"use an offset between 1 and {window.total}",
            )
        return _render_window(window, offset, limit, size)

    def list_dir(path: str = ".", page: int = 1) -> str:
        """List one directory of the workspace: names sorted, directories marked with "/",
        sizes for files.

        Use when: you want to see what a folder contains, one level deep, e.g. to get your
        bearings at the start of a task.
        Do not use when: you look for files by name anywhere below a folder (use find_files
        with a pattern such as "*.py") or for text inside files (use grep).
        Output: a header with the counts, then one entry per line ("src/", "app.py  2.1 KB",
        "link@ -> target"). At most 200 entries per page; a partial listing ends with
        "Showing entries 1-200 of 1,532. To see more, call list_dir with path='.', page=2."
        Examples: {}; {"path": "src"}; {"path": "src", "page": 2}.

        Args:
            path: Directory relative to the workspace root; "." is the root.
            page: Page of 200 entries, starting at 1.
        """
        directory = ws.resolve(path)
        rel = ws.relative(directory)
        if not directory.exists():
            raise _not_found(ws, path, directory, "directory")
        if not directory.is_dir():
            raise ToolError(
                f"{rel} is a file, not a directory",
                hint=f"use read_file with path='{rel}' to read it",
            )
        try:
            entries = sorted(os.scandir(directory), key=lambda e: (e.name.lower(), e.name))
        except OSError as exc:
            raise ToolError(f"cannot list {rel}: {exc.strerror}") from exc
        dirs = sum(1 for e in entries if e.is_dir(follow_symlinks=False))
        others = len(entries) - dirs
        header = (
            f"{rel}/ — {_plural(len(entries), 'entry', 'entries')} "
            f"({_plural(dirs, 'directory', 'directories')}, {others:,} other)"
        )
        if not entries:
            return f"{rel}/ — (empty directory)"
        start, end, pages = _page_bounds(page, len(entries), LIST_PAGE, "entries")
        lines = [header, *(_describe_entry(e) for e in entries[start:end])]
        if pages > 1:
            more = (
                f" To see more, call list_dir with path='{rel}', page={page + 1}."
                if page < pages
                else " (last page)"
            )
            lines.append(f"Showing entries {start + 1}-{end} of {len(entries):,}.{more}")
        return "\n".join(lines)

    def find_files(pattern: str, path: str = ".", page: int = 1) -> str:
        """Find files and directories whose NAMES match a glob pattern, anywhere below a folder.

        Use when: you know (part of) a file name, e.g. "*.py", "test_*", "README*",
        "config.yaml", or a path pattern with "/" such as "src/*/models.py".
        Do not use when: you look for text INSIDE files — find_files never reads contents;
        use grep for that. To see one folder's contents, use list_dir.
        Matching is case-insensitive; a pattern without "/" is matched against the name
        only, a pattern with "/" against the path below `path` ("*" also crosses "/").
        Skips .git, __pycache__, .venv and node_modules.
        Output: workspace-relative paths (directories end with "/"), sorted, 100 per page,
        with the total and how to get the next page.
        Examples: {"pattern": "*.py"}; {"pattern": "test_*.py", "path": "tests"};
        {"pattern": "*.md", "page": 2}.

        Args:
            pattern: Glob over names, e.g. "*.py" or "settings*".
            path: Folder to search below, relative to the workspace root.
            page: Page of 100 results, starting at 1.
        """
        base = _existing_dir(ws, path)
        walk = _Walk(ws, base)
        found = [
            ws.relative(p) + ("/" if is_dir else "")
            for p, is_dir in walk.entries()
            if _name_matches(pattern, p.relative_to(base).as_posix(), p.name)
        ]
        matches = sorted(found, key=lambda rel: rel.split("/"))
        where = ws.relative(base)
        if not matches:
            hint = "" if any(c in pattern for c in "*?[") else f" Try pattern='*{pattern}*'."
            return (
                f"No file or directory names under '{where}' match '{pattern}'.{hint} "
                "find_files matches names only; to search inside files use grep." + walk.note()
            )
        start, end, pages = _page_bounds(page, len(matches), FIND_PAGE, "matches")
        lines = [f"{len(matches):,} names under '{where}' match '{pattern}':", *matches[start:end]]
        if pages > 1:
            more = (
                f" Next: call find_files with pattern='{pattern}', path='{where}', page={page + 1}."
                if page < pages
                else " (last page)"
            )
            lines.append(
                f"Showing {start + 1}-{end} of {len(matches):,} (page {page} of {pages}).{more}"
            )
        return "\n".join(lines) + walk.note()

    def grep(
        pattern: str,
        path: str = ".",
        glob: str | None = None,
        ignore_case: bool = False,
        page: int = 1,
    ) -> str:
        """Search file CONTENTS with a Python regular expression; returns matching lines.

        Use when: you look for where something is defined or used, an error message, a
        setting, e.g. pattern "def load_config", "TODO|FIXME", "timeout\\s*=".
        Do not use when: you look for files by name (use find_files) or already know the
        file and want to read it (use read_file with an offset near the line).
        Regex syntax is Python's `re`; escape special characters to match them literally
        ("\\(" for "("). Binary files and files over 5 MB are skipped and counted.
        Output: JSON {"total_matches", "files_with_matches", "page", "pages", "hits": [{"path",
        "line", "text"}], "next"}; one hit per matching line, 50 hits per page, long lines cut
        to 300 characters around the match; "next" says how to get the next page (null on
        the last). Skips .git, __pycache__, .venv and node_modules.
        Examples: {"pattern": "def main"}; {"pattern": "import requests", "glob": "*.py"};
        {"pattern": "error", "path": "logs", "ignore_case": true, "page": 2}.

        Args:
            pattern: Python regular expression searched in each line.
            path: File or folder to search, relative to the workspace root.
            glob: Only search files whose names match this glob, e.g. "*.py".
            ignore_case: Match letters regardless of case.
            page: Page of 50 hits, starting at 1.
        """
        try:
            regex = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
        except re.error as exc:
            raise ToolError(
                f"invalid regular expression {pattern!r}: {exc}",
                hint="escape special characters with a backslash to match them literally, "
                "e.g. 'foo\\(' for 'foo(' or 'a\\.b' for 'a.b'",
            ) from exc
        if page < 1:
            raise ToolError(f"page={page} is invalid", hint="pages start at 1")
        return _grep(ws, regex, path, glob, page)

    def perceive(fn: Callable[..., str], *examples: dict[str, Any]) -> Tool:
        return Tool.from_function(
            fn, read_only=True, idempotent=True, risk="low", cost_hint=_COST, examples=examples
        )

    return [
        perceive(
            read_file,
            {"path": "src/app.py"},
            {"path": "logs/server.log", "offset": 4801, "limit": 100},
        ),
        perceive(list_dir, {}, {"path": "src"}),
        perceive(find_files, {"pattern": "*.py"}, {"pattern": "test_*.py", "path": "tests"}),
        perceive(grep, {"pattern": "def main"}, {"pattern": "import requests", "glob": "*.py"}),
    ]


# --- read_file ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Window:
    lines: tuple[str, ...]
    total: int | None  # None: not counted (large file, window ended before the end)
    cut_by_output: bool
    invalid_utf8: bool


def _read_window(file: Path, offset: int, limit: int, *, count_all: bool) -> _Window:
    """Stream lines ``offset``..``offset+limit-1``; count the rest only when ``count_all``."""
    lines: list[str] = []
    chars, number, invalid = 0, 0, False
    with file.open("rb") as handle:
        for raw in handle:
            number += 1
            if number < offset:
                continue
            text, bad = _decode(raw)
            if len(text) > MAX_LINE_CHARS:
                cut = len(text) - MAX_LINE_CHARS
                text = f"{text[:MAX_LINE_CHARS]} … [line cut: {cut:,} more characters]"
            if len(lines) == limit or (lines and chars + len(text) > MAX_OUTPUT_CHARS):
                total = number + sum(1 for _ in handle) if count_all else None
                return _Window(tuple(lines), total, len(lines) < limit, invalid)
            invalid = invalid or bad
            chars += len(text) + 8
            lines.append(text)
    return _Window(tuple(lines), number, False, invalid)


def _decode(raw: bytes) -> tuple[str, bool]:
    line = raw.rstrip(b"\n").rstrip(b"\r")
    try:
        return line.decode("utf-8"), False
    except UnicodeDecodeError:
        return line.decode("utf-8", errors="replace"), True


def _render_window(window: _Window, offset: int, limit: int, size: int) -> str:
    last = offset + len(window.lines) - 1
    width = max(5, len(str(last)))
    out = [f"{offset + i:>{width}}| {text}" for i, text in enumerate(window.lines)]
    notes: list[str] = []
    whole = offset == 1 and window.total == last
    if not whole:
        if window.total is None:
            status = (
                f"Showing lines {offset}-{last} of a {_size(size)} file (over 5 MB, so its "
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


def _is_binary(file: Path) -> bool:
    with file.open("rb") as handle:
        return b"\x00" in handle.read(8192)


def _existing_file(ws: Workspace, path: str) -> Path:
    file = ws.resolve(path)
    if not file.exists():
        raise _not_found(ws, path, file, "file")
    if file.is_dir():
        rel = ws.relative(file)
        raise ToolError(
            f"{rel} is a directory, not a file",
            hint=f"use list_dir with path='{rel}' to see what it contains",
        )
    return file


def _existing_dir(ws: Workspace, path: str) -> Path:
    directory = ws.resolve(path)
    if not directory.exists():
        raise _not_found(ws, path, directory, "directory")
    if not directory.is_dir():
        rel = ws.relative(directory)
        raise ToolError(
            f"{rel} is a file, not a directory",
            hint="give the folder that contains it, or '.' for the whole workspace",
        )
    return directory


def _not_found(ws: Workspace, given: str, resolved: Path, kind: str) -> ToolError:
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


def _plural(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def _size(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


# --- list_dir / find_files --------------------------------------------------------------------


def _describe_entry(entry: os.DirEntry[str]) -> str:
    if entry.is_symlink():
        return f"{entry.name}@ -> {Path(entry.path).readlink()}"
    if entry.is_dir():
        return f"{entry.name}/"
    try:
        return f"{entry.name}  {_size(entry.stat().st_size)}"
    except OSError:
        return entry.name


def _page_bounds(page: int, total: int, size: int, what: str) -> tuple[int, int, int]:
    pages = max(1, math.ceil(total / size))
    if page < 1 or page > pages:
        raise ToolError(
            f"page={page} does not exist: {total:,} {what} fill {_plural(pages, 'page', 'pages')}",
            hint=f"use a page from 1 to {pages}",
        )
    start = (page - 1) * size
    return start, min(start + size, total), pages


def _name_matches(pattern: str, rel: str, name: str) -> bool:
    pat = pattern.lower()
    if "/" not in pat:
        return fnmatch.fnmatchcase(name.lower(), pat)
    rel = rel.lower()
    return fnmatch.fnmatchcase(rel, pat) or (
        pat.startswith("**/") and fnmatch.fnmatchcase(rel, pat[3:])
    )


class _Walk:
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


def _grep(ws: Workspace, regex: re.Pattern[str], path: str, glob: str | None, page: int) -> str:
    target = ws.resolve(path)
    if not target.exists():
        raise _not_found(ws, path, target, "file or directory")
    walk = _Walk(ws, target)
    if target.is_dir():
        files: Iterator[Path] = (
            f
            for f in walk.files()
            if glob is None or _name_matches(glob, f.relative_to(target).as_posix(), f.name)
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
                        "text": _snippet(line.rstrip("\r"), match),
                    }
                )
            total += 1
        with_matches += found
    pages = _page_bounds(page, total, GREP_PAGE, "matches")[2]
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
    return _dump(result)


def _snippet(line: str, match: re.Match[str]) -> str:
    if len(line) <= GREP_TEXT_CHARS:
        return line
    start = max(0, min(match.start() - 100, len(line) - GREP_TEXT_CHARS))
    end = start + GREP_TEXT_CHARS
    return ("…" if start else "") + line[start:end] + ("…" if end < len(line) else "")


def _dump(result: dict[str, Any]) -> str:
    """JSON with one hit per line: valid JSON, easy to read for people and small models."""
    hits = result["hits"]
    head = json.dumps({k: v for k, v in result.items() if k != "hits"}, ensure_ascii=False)
    if not hits:
        body = "[]"
    else:
        body = "[\n" + ",\n".join(json.dumps(h, ensure_ascii=False) for h in hits) + "\n]"
    return head[:-1] + f', "hits": {body}}}' if len(head) > 2 else f'{{"hits": {body}}}'
