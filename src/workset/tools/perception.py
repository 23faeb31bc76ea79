"""Perception tools: read, list, find and grep inside a workspace.

All four are read-only and idempotent, so the loop may cache them and run several at once.
Every result says explicitly when it is partial (truncated, paginated, skipped files) and how
to get the rest; silent truncation would let the model believe it has seen everything.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from workset.errors import ToolError
from workset.tools.base import Tool
from workset.tools.files import (
    FIND_PAGE,
    LIST_PAGE,
    MAX_FILE_BYTES,
    MAX_LIMIT,
    Walk,
    describe_entry,
    existing_dir,
    existing_file,
    grep_files,
    human_size,
    is_binary,
    name_matches,
    not_found,
    page_bounds,
    plural,
    read_window,
    render_window,
)
from workset.tools.workspace import Workspace

_COST = "cheap: local disk only"
READ_LINES = 200  # read_file's window when the call gives no limit
# The window for models of small context: a 200-line read of a TinyDB module is about 2,700
# tokens, a third of an 8,192 window and 35-150 s of prefill for the 0.5B on 2 cores; the 0.5B
# then paged on through the file 200 lines at a time.
SMALL_READ_LINES = 80


def perception_tools(workspace: Workspace, *, read_lines: int = READ_LINES) -> list[Tool]:
    """``read_file``, ``list_dir``, ``find_files`` and ``grep`` confined to ``workspace``;
    ``read_lines``: how many lines a ``read_file`` call without ``limit`` shows."""
    if read_lines < 1:
        raise ValueError(f"read_lines={read_lines}: a read shows at least one line")
    ws = workspace

    def read_file(path: str, offset: int = 1, limit: int = read_lines) -> str:
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
            path: File path relative to the workspace root, as list_dir and find_files show it.
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
                hint=f"use limit={read_lines} for a window of {read_lines} lines",
            )
        file = existing_file(ws, path)
        rel = ws.relative(file)
        size = file.stat().st_size
        if size == 0:
            return "(empty file)"
        if is_binary(file):
            raise ToolError(
                f"{rel} is a binary file ({human_size(size)}); read_file shows text files only",
                hint="use find_files or list_dir to find the text files you need",
            )
        window = read_window(file, offset, min(limit, MAX_LIMIT), count_all=size <= MAX_FILE_BYTES)
        if not window.lines:
            raise ToolError(
                f"offset={offset} is past the end of {rel}, which has {window.total:,} lines",
                hint=f"use an offset between 1 and {window.total}",
            )
        return render_window(window, offset, limit, size)

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
            raise not_found(ws, path, directory, "directory")
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
            f"{rel}/ — {plural(len(entries), 'entry', 'entries')} "
            f"({plural(dirs, 'directory', 'directories')}, {others:,} other)"
        )
        if not entries:
            return f"{rel}/ — (empty directory)"
        start, end, pages = page_bounds(page, len(entries), LIST_PAGE, "entries")
        lines = [header, *(describe_entry(e) for e in entries[start:end])]
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
        base = existing_dir(ws, path)
        walk = Walk(ws, base)
        found = [
            ws.relative(p) + ("/" if is_dir else "")
            for p, is_dir in walk.entries()
            if name_matches(pattern, p.relative_to(base).as_posix(), p.name)
        ]
        matches = sorted(found, key=lambda rel: rel.split("/"))
        where = ws.relative(base)
        if not matches:
            hint = "" if any(c in pattern for c in "*?[") else f" Try pattern='*{pattern}*'."
            return (
                f"No file or directory names under '{where}' match '{pattern}'.{hint} "
                "find_files matches names only; to search inside files use grep." + walk.note()
            )
        start, end, pages = page_bounds(page, len(matches), FIND_PAGE, "matches")
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
        return grep_files(ws, regex, path, glob, page)

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
