"""Edit tools: write, edit and undo files inside the workspace.

Every write is verified at once (write–verify–feedback): the result carries the linter's
findings for the file, and a write that would break a valid file is refused (:mod:`.write_guards`).
Each successful write is remembered with the content it replaced, so ``undo_edit`` can put it
back (the tests around a guided edit undo an edit they reject, :mod:`workset.loop.verify`).
:func:`~workset.tools.execution.execution_tools` offers them with ``shell`` and ``run_python``.
"""

from __future__ import annotations

import threading
from pathlib import Path

from workset.errors import ToolError
from workset.tools.base import Tool
from workset.tools.edit_match import (
    PLACEHOLDER,
    find_all,
    first_line_as_old,
    gutter_number,
    indented_like,
    no_match,
    overlap_end,
    replaced_at,
    without_gutter,
    without_stray_column,
)
from workset.tools.files import encode_utf8, existing_file
from workset.tools.lint import format_issues, format_new_issues, lint_file, new_issues
from workset.tools.output import split_lines
from workset.tools.workspace import Workspace
from workset.tools.write_guards import (
    keep_change,
    keep_definitions,
    keep_replaced_definitions,
    keep_single_definitions,
    keep_valid,
    undefined_names,
)

_MAX_LISTED = 20


def edit_tools(workspace: Workspace, *, keep_syntax: bool = True) -> list[Tool]:
    """``write_file``, ``edit_file`` and ``undo_edit`` confined to ``workspace``
    (``keep_syntax``: see :func:`~workset.tools.execution.execution_tools`)."""
    ws = workspace
    edits = _EditHistory()

    def write_file(path: str, content: str) -> str:
        """Create a file or replace its whole content, inside the workspace; then lint it.

        Use when: you create a new file, or rewrite a file completely (small files).
        Do not use when: you change part of an existing file — use edit_file, which replaces
        an exact snippet and leaves the rest untouched.
        Missing parent folders are created. The content is written exactly as given, as UTF-8
        (no newline translation: "\\r\\n" stays "\\r\\n"), except that a line-number
        prefix copied from read_file on every line ("   12| ") is taken off. Replacing a
        valid .py/.json/.toml file with content whose syntax is broken, or a Python module
        with content that drops most of its functions and classes, is refused.
        Output: "created" or "replaced", the path and the bytes written, then the lint result
        for .py/.json/.toml files: "lint: clean" or "lint: 2 issues" with one line per issue,
        e.g. "line 3, column 7: F821 Undefined name `x`". Fix reported issues right away.
        Examples: {"path": "src/app.py", "content": "print('hi')\\n"};
        {"path": "config/settings.json", "content": "{\\"debug\\": true}\\n"}.

        Args:
            path: File path relative to the workspace root, as list_dir and find_files show it.
            content: The complete new content of the file.
        """
        target = ws.resolve(path)
        rel = ws.relative(target)
        if target.is_dir():
            raise ToolError(
                f"{rel} is a directory; write_file writes files",
                hint=f"give a file path inside it, e.g. '{rel}/new_file.py'",
            )
        bare = without_gutter(content)
        note = " (the line-number prefixes copied from read_file were left out)" * (bare != content)
        data = encode_utf8(bare, "content")
        before = target.stat().st_size if target.exists() else None
        if keep_syntax and before is not None:
            keep_valid(target, rel, data)
            keep_definitions(target, rel, data)
        previous = target.read_bytes() if before is not None else None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError as exc:
            raise ToolError(
                f"cannot write {rel}: {exc.strerror or exc}",
                hint="a parent that is a file, or a read-only folder, prevents writing; use "
                "list_dir to look",
            ) from exc
        edits.done(target, previous)
        what = "created" if before is None else "replaced"
        was = "" if before is None else f" (was {before:,} bytes)"
        lint = format_issues(lint_file(target))
        return f"{what} {rel}: wrote {len(data):,} bytes{was}{note}\n{lint}"

    def edit_file(path: str, old: str, new: str, replace_all: bool = False) -> str:
        """Replace an exact snippet of an existing file, byte for byte; then lint it.

        Use when: you change part of a file — a line, a function, a setting. Copy `old`
        exactly from read_file output (without the "   12| " prefix; one copied on every line
        is taken off), with enough surrounding lines to be unique.
        Do not use when: you create a file or replace all of it (use write_file).
        Matching is exact: whitespace, tabs, quotes (’ vs ') and line endings (\\r\\n) must
        be identical; everything else in the file is kept byte for byte. No match: the error
        shows the closest passages with line numbers. Several matches: the error lists their
        lines; add context to `old`, keep its line-number prefix ("  41| x += n": the number
        picks the place), or set replace_all=true to replace every one.
        Output: how many replacements, the changed line range in the new file, and the lint
        result ("lint: clean" or the issues, one per line).
        Examples: {"path": "src/app.py", "old": "DEBUG = True", "new": "DEBUG = False"};
        {"path": "src/app.py", "old": "print(", "new": "log(", "replace_all": true}.

        Args:
            path: File path relative to the workspace root.
            old: The exact text to find; must occur once unless replace_all is true.
            new: The text to put in its place (may be empty, to delete).
            replace_all: Replace every occurrence instead of requiring exactly one.
        """
        if not old:
            raise ToolError(
                "old is empty: edit_file needs the exact text to replace",
                hint="to write a whole file, use write_file",
            )
        if PLACEHOLDER.fullmatch(new.strip()):
            raise ToolError(
                f"new is a placeholder ({new.strip()}), not text for the file",
                hint="write new as the changed text itself, e.g. the line as it must read",
            )
        if old == new:
            raise ToolError(
                "old and new are identical; the edit would change nothing",
                hint="keep old as it is in the file and write new as the text should read "
                "after the change the task asks for",
            )
        target = existing_file(ws, path)
        rel = ws.relative(target)
        data = target.read_bytes()
        old_b, new_b = encode_utf8(old, "old"), encode_utf8(new, "new")
        starts = find_all(data, old_b)
        bare, note = without_gutter(old), ""
        if not starts and bare != old:  # copied from read_file output with its gutter
            numbered = gutter_number(old)
            old, new = bare, without_gutter(new)
            note = " (the line-number prefixes copied from read_file were left out of old)"
            if (plain := without_stray_column(new, old)) != new:
                new, note = plain, note + " (a number column before new's text was left out)"
            old_b, new_b = encode_utf8(old, "old"), encode_utf8(new, "new")
            starts = find_all(data, old_b)
            at = [x for x in starts if data.count(b"\n", 0, x) + 1 == numbered]
            if len(starts) > 1 and at and not replace_all:  # the number says which one
                starts = at
                note += f" (of the {len(find_all(data, old_b))} places it occurs, line {numbered})"
        if not starts:
            raise no_match(rel, data, old, new)
        if (copied := first_line_as_old(new, old)) != new:
            new, note = copied, note + " (new's first line, old copied, was indented as old is)"
            new_b = encode_utf8(new, "new")
        if len(starts) == 1 and (stop := overlap_end(data, starts[0], old, new)) is not None:
            widened = data[starts[0] : stop].decode("utf-8", "replace")
            more = widened.count("\n") - old.count("\n")
            note += (
                f" (new also rewrote the {more} line{'s' if more > 1 else ''} after old: "
                "they were replaced, not kept below it)"
            )
            old, old_b = widened, data[starts[0] : stop]
        if (indented := indented_like(new, old)) != new:
            new, note = indented, note + " (new was indented as old is)"
            new_b = encode_utf8(new, "new")
        if len(starts) > 1 and not replace_all:
            numbers = [str(data.count(b"\n", 0, s) + 1) for s in starts[:_MAX_LISTED]]
            more = len(starts) - len(numbers)
            lines = ", ".join(numbers) + (f" and {more} more" if more else "")
            raise ToolError(
                f"old occurs {len(starts)} times in {rel}, at lines {lines}",
                hint="add surrounding lines to old so that it matches once, or set "
                "replace_all=true to replace every occurrence",
            )
        result = replaced_at(data, starts, len(old_b), new_b)
        keep_change(rel, data, result)
        if keep_syntax:
            if new.strip():
                keep_replaced_definitions(target, rel, data, result)
            keep_single_definitions(target, rel, data, result)
            keep_valid(
                target,
                rel,
                result,
                what="edit",
                hint="write new as the complete text that replaces old, valid where it "
                "stands (for one line: that whole line as it must read, indented as old)",
            )
        before = lint_file(target)
        target.write_bytes(result)
        shift = len(new_b) - len(old_b)
        first = starts[0]
        last_start = starts[-1] + shift * (len(starts) - 1)
        last_byte = max(last_start, last_start + len(new_b) - 1)
        line_from = result.count(b"\n", 0, first) + 1
        line_to = result.count(b"\n", 0, last_byte) + 1
        span = f"line {line_from}" if line_from == line_to else f"lines {line_from}-{line_to}"
        count = f"{len(starts)} replacement" + ("s" if len(starts) > 1 else "")
        total = len(split_lines(result.decode("utf-8", "replace")))
        summary = f"edited {rel}: {count}; changed {span} (the file now has {total:,} lines)"
        summary += note
        after = lint_file(target)
        undefined = [i for i in new_issues(before, after) if i.code == "F821"]
        if keep_syntax and undefined:
            target.write_bytes(data)
            raise undefined_names(rel, undefined)
        edits.done(target, data)
        return f"{summary}\n{format_new_issues(before, after)}"

    def undo_edit(path: str = "") -> str:
        """Undo the last successful write_file or edit_file call (of ``path``, if given):
        the file gets back the content it had before that call.

        Use when: an edit made things worse (more tests fail) or changed the wrong place.
        Do not use when: you want a different change: make it with edit_file.
        Each call undoes one more edit, newest first. A file that an undone write_file
        created is deleted.
        Output: "undone: src/app.py has its content from before the edit again (42 lines)".
        Examples: {}; {"path": "src/app.py"}.

        Args:
            path: The file whose last edit to undo; empty: the last edit of any file.
        """
        target = ws.resolve(path) if path else None
        undone = edits.undo(target)
        if undone is None:
            where = f" of {ws.relative(target)}" if target is not None else ""
            raise ToolError(
                f"no edit{where} to undo in this session",
                hint="undo_edit undoes write_file and edit_file calls made through these tools",
            )
        rel = ws.relative(undone)
        if not undone.exists():
            return f"undone: {rel} was created by the edit and is deleted again"
        total = len(split_lines(undone.read_text(encoding="utf-8", errors="replace")))
        return f"undone: {rel} has its content from before the edit again ({total:,} lines)"

    return [
        Tool.from_function(
            write_file,
            idempotent=True,
            risk="medium",
            cost_hint="cheap: local disk, plus a lint run for code files",
            examples=(
                {"path": "src/app.py", "content": "print('hi')\n"},
                {"path": "config/settings.json", "content": '{"debug": true}\n'},
            ),
        ),
        Tool.from_function(
            edit_file,
            risk="medium",
            cost_hint="cheap: local disk, plus a lint run for code files",
            examples=(
                {"path": "src/app.py", "old": "DEBUG = True", "new": "DEBUG = False"},
                {"path": "src/app.py", "old": "print(", "new": "log(", "replace_all": True},
            ),
        ),
        Tool.from_function(
            undo_edit,
            risk="medium",
            cost_hint="cheap: local disk",
            examples=({}, {"path": "src/app.py"}),
        ),
    ]


# --- edit history ----------------------------------------------------------------------------


class _EditHistory:
    """The content each file had before the successful writes of these tools, newest last."""

    def __init__(self) -> None:
        self._done: list[tuple[Path, bytes | None]] = []  # (file, content before; None: new)
        self.lock = threading.Lock()

    def done(self, target: Path, before: bytes | None) -> None:
        with self.lock:
            self._done.append((target, before))

    def undo(self, target: Path | None) -> Path | None:
        """Put back the content before the newest edit (of ``target``); the file, or None."""
        with self.lock:
            for index in range(len(self._done) - 1, -1, -1):
                path, before = self._done[index]
                if target is None or path == target:
                    del self._done[index]
                    if before is None:
                        path.unlink(missing_ok=True)
                    else:
                        path.write_bytes(before)
                    return path
        return None
