"""Write–verify–feedback: check a file right after a tool wrote it.

:func:`lint_file` picks the check by file type and returns structured issues; the write tools
put :func:`format_issues` of them in their result, so the model sees "line 3, column 7: F821
Undefined name `x`" in the same turn and can fix it at once.

- Python: a syntax check with ``compile()`` (syntax warnings included) plus
  ``ruff check --output-format=json`` in a subprocess, honouring the project's ruff config.
  When ruff is missing or fails, one ``lint-skipped`` issue says so; linting never crashes.
- JSON: ``json.loads``; TOML: ``tomllib`` (line and column of the first error).
- Any other file type: no issues.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SKIPPED = "lint-skipped"
_MAX_SHOWN = 20
_RUFF_TIMEOUT_S = 30
_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")


@dataclass(frozen=True, slots=True)
class LintIssue:
    """One problem found in a file; ``line`` and ``column`` count from 1 (0: not known)."""

    line: int
    column: int
    code: str
    message: str


def lint_file(path: Path) -> list[LintIssue]:
    """The issues in ``path`` by its type (``.py``, ``.pyi``, ``.json``, ``.toml``)."""
    suffix = path.suffix.lower()
    if suffix in (".py", ".pyi"):
        return _python(path)
    if suffix == ".json":
        return _json(path)
    if suffix == ".toml":
        return _toml(path)
    return []


def syntax_error(path: Path, data: bytes) -> LintIssue | None:
    """The syntax error ``data`` has as the content of ``path`` by its type (``.py``,
    ``.pyi``: ``compile()``; ``.json``; ``.toml``), or None; nothing is written or run."""
    suffix = path.suffix.lower()
    if suffix in (".py", ".pyi"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                compile(data, str(path), "exec", dont_inherit=True)
            except SyntaxError as exc:
                return LintIssue(exc.lineno or 0, exc.offset or 0, "syntax", exc.msg)
            except ValueError as exc:  # NUL bytes in the source
                return LintIssue(0, 0, "syntax", str(exc))
        return None
    if suffix not in (".json", ".toml"):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None  # not a syntax question; lint_file reports the encoding
    issues = _json_text(text) if suffix == ".json" else _toml_text(text)
    return issues[0] if issues else None


def format_new_issues(before: list[LintIssue], after: list[LintIssue]) -> str:
    """:func:`format_issues` of the issues in ``after`` that ``before`` did not have (by code
    and message; lines move), and how many it leaves out: after an edit the model is told
    what its edit caused, not the file's old style issues (the 0.5B read "lint: 2 issues"
    about untouched lines as a reason to edit again)."""
    new = new_issues(before, after)
    kept = sum(1 for i in after if i.code != SKIPPED) - sum(1 for i in new if i.code != SKIPPED)
    text = format_issues(new)
    if kept:
        text += f" ({kept} issue{'s' if kept > 1 else ''} the file had before this edit not shown)"
    return text


def new_issues(before: list[LintIssue], after: list[LintIssue]) -> list[LintIssue]:
    """The issues of ``after`` that ``before`` did not have (by code and message: lines
    move), in ``after``'s order."""
    old = Counter((i.code, i.message) for i in before if i.code != SKIPPED)
    new: list[LintIssue] = []
    for issue in after:
        key = (issue.code, issue.message)
        if issue.code != SKIPPED and old[key] > 0:
            old[key] -= 1
        else:
            new.append(issue)
    return new


def format_issues(issues: list[LintIssue]) -> str:
    """``"lint: clean"`` or a count and one line per issue (the first 20), for tool results."""
    skipped = [i for i in issues if i.code == SKIPPED]
    found = [i for i in issues if i.code != SKIPPED]
    lines = [f"lint skipped: {i.message}" for i in skipped]
    if not found:
        return "\n".join([*lines, "lint: clean" if not skipped else "other checks: clean"])
    noun = "issue" if len(found) == 1 else "issues"
    lines.append(f"lint: {len(found)} {noun}")
    for issue in found[:_MAX_SHOWN]:
        where = f"line {issue.line}" + (f", column {issue.column}" if issue.column else "")
        lines.append(f"  {where}: {issue.code} {issue.message}")
    if len(found) > _MAX_SHOWN:
        lines.append(f"  … and {len(found) - _MAX_SHOWN} more")
    return "\n".join(lines)


# --- Python ----------------------------------------------------------------------------------


def _python(path: Path) -> list[LintIssue]:
    syntax = _compile(path)
    issues = list(syntax)
    for issue in _ruff(path):
        is_syntax = issue.code in ("invalid-syntax", "E999", "")
        if not (is_syntax and any(i.code == "syntax" for i in syntax)):
            issues.append(issue)
    return issues


def _compile(path: Path) -> list[LintIssue]:
    source = path.read_bytes()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            compile(source, str(path), "exec", dont_inherit=True)
        except SyntaxError as exc:
            text = f"{exc.msg}"
            return [LintIssue(exc.lineno or 0, exc.offset or 0, "syntax", text)]
        except ValueError as exc:  # NUL bytes in the source
            return [LintIssue(0, 0, "syntax", str(exc))]
    return [  # invalid escapes are DeprecationWarnings up to 3.11, SyntaxWarnings after
        LintIssue(w.lineno, 0, w.category.__name__, str(w.message))
        for w in caught
        if w.filename == str(path) and issubclass(w.category, SyntaxWarning | DeprecationWarning)
    ]


def _ruff_binary() -> str | None:
    try:
        from ruff.__main__ import find_ruff_bin  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return shutil.which("ruff")
    try:
        return str(find_ruff_bin())
    except FileNotFoundError:
        return shutil.which("ruff")


def _ruff(path: Path) -> list[LintIssue]:
    binary = _ruff_binary()
    if binary is None:
        return [_skipped("ruff is not installed (pip install ruff); only the syntax was checked")]
    argv = [binary, "check", "--no-cache", "--output-format=json", "--", str(path)]
    try:
        done = subprocess.run(
            argv,
            cwd=path.parent,
            capture_output=True,
            timeout=_RUFF_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [_skipped(f"ruff could not run ({exc}); only the syntax was checked")]
    if done.returncode not in (0, 1):
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = detail[0] if detail else f"exit code {done.returncode}"
        return [_skipped(f"ruff failed ({reason}); only the syntax was checked")]
    try:
        found: list[dict[str, Any]] = json.loads(done.stdout or b"[]")
    except json.JSONDecodeError:
        return [_skipped("ruff printed something that is not JSON; only the syntax was checked")]
    issues = []
    for item in found:
        location = item.get("location") or {}
        issues.append(
            LintIssue(
                int(location.get("row") or 0),
                int(location.get("column") or 0),
                str(item.get("code") or ""),
                str(item.get("message", "")),
            )
        )
    return issues


def _skipped(reason: str) -> LintIssue:
    return LintIssue(0, 0, SKIPPED, reason)


# --- JSON and TOML ---------------------------------------------------------------------------


def _text(path: Path) -> str | LintIssue:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return LintIssue(line, column, "encoding", f"not valid UTF-8: {exc.reason}")


def _json(path: Path) -> list[LintIssue]:
    text = _text(path)
    if isinstance(text, LintIssue):
        return [text]
    return _json_text(text)


def _json_text(text: str) -> list[LintIssue]:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return [LintIssue(exc.lineno, exc.colno, "json", exc.msg)]
    return []


def _toml(path: Path) -> list[LintIssue]:
    text = _text(path)
    if isinstance(text, LintIssue):
        return [text]
    return _toml_text(text)


def _toml_text(text: str) -> list[LintIssue]:
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        position = _TOML_POSITION.search(message)
        if position:
            line, column = int(position.group(1)), int(position.group(2))
            return [LintIssue(line, column, "toml", message[: position.start()].strip())]
        if "end of document" in message:
            line = len(text.split("\n"))
            return [LintIssue(line, 0, "toml", message.split("(at")[0].strip())]
        return [LintIssue(0, 0, "toml", message)]
    return []
