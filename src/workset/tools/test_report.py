"""What a pytest run says, and the code its failures point to.

A failing test names the code it checks in three places: the frames of its traceback
(``tinydb/storages.py:117: in __init__``), the calls on the failing line
(``assert keyfilter(iseven, d) == {2: 3}``) and its own name (``test_keyfilter``).
:func:`read_report` reads a ``pytest -q --tb=short`` output; :func:`implicated` finds the
workspace functions those point to (frames first, outermost first: the function a test
calls is the one whose behaviour a task describes; test files never), and
:func:`function_excerpt` shows one whole, numbered, under the heading workspace evidence uses
(``--- toolz/dicttoolz.py, lines 141-158 (def keyfilter)``), so a guided edit can choose it
(:mod:`workset.loop.edit_blocks`) even when retrieval did not show it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

MAX_FUNCTIONS = 3  # functions shown under a report
MAX_LINES = 60  # lines of a function shown; a longer one is cut, with where to read on
MAX_FILES = 2000  # Python files scanned for definitions

_FRAME = re.compile(r"^([^\s:][^:\n]*\.py):(\d+): in (\S+)", re.M)
_FAILED = re.compile(r"^(FAILED|ERROR) (\S+?)(?: - (.*))?$", re.M)
_SUMMARY = re.compile(
    r"^=*\s*((?:\d+ (?:failed|passed|errors?|skipped|xfailed|xpassed|deselected|warnings?)"
    r"(?:, )?)+)(?: in [\d.]+s)?.*$",
    re.M,
)
_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_ATTRIBUTE = re.compile(r"\.([A-Za-z_]\w*)\b")
_OPERATORS = {
    "<=": "__le__",
    ">=": "__ge__",
    "==": "__eq__",
    "!=": "__ne__",
    "<": "__lt__",
    ">": "__gt__",
}
_TEST_PATH = re.compile(r"(?:^|/)(?:tests?/|test_[^/]*\.py$|[^/]*_test\.py$|conftest\.py$)")


@dataclass(frozen=True, slots=True)
class Failure:
    test: str  # the node id: "toolz/tests/test_dicttoolz.py::test_keyfilter"
    message: str  # the summary line's reason, "" when pytest gave none


@dataclass(frozen=True, slots=True)
class PytestReport:
    summary: str  # "1 failed, 150 passed", "" when the output has no summary line
    failures: tuple[Failure, ...] = ()
    frames: tuple[tuple[str, int, str], ...] = ()  # (file, line, function) as shown, in order
    failing_lines: tuple[str, ...] = ()  # the code lines the traceback marks (">" or plain)

    @property
    def collected_nothing(self) -> bool:
        return not self.summary or self.summary.startswith("no tests")


def read_report(output: str) -> PytestReport:
    """The summary, failures, traceback frames and failing lines of a pytest output."""
    summaries = _SUMMARY.findall(output)
    summary = summaries[-1].strip().rstrip(",") if summaries else ""
    if not summary and "no tests ran" in output:
        summary = "no tests ran"
    failures = tuple(
        Failure(m.group(2), (m.group(3) or "").strip()) for m in _FAILED.finditer(output)
    )
    frames = tuple((m.group(1), int(m.group(2)), m.group(3)) for m in _FRAME.finditer(output))
    marked = []
    lines = output.split("\n")
    for n, line in enumerate(lines):
        if _FRAME.match(line) and n + 1 < len(lines):
            marked.append(lines[n + 1].strip())
        elif line.startswith(">"):
            marked.append(line[1:].strip())
    return PytestReport(summary, failures, frames, tuple(m for m in marked if m))


@dataclass(frozen=True, slots=True)
class Definition:
    path: str  # relative to the workspace, with "/"
    name: str
    first: int  # the def line (decorators not included)
    last: int
    heading: tuple[str, ...]  # ("class Query", "def __le__")


@dataclass
class Definitions:
    """The functions defined in a workspace's Python files (test files aside), read once."""

    root: Path
    by_name: dict[str, list[Definition]] = field(default_factory=dict)
    by_file: dict[str, list[Definition]] = field(default_factory=dict)

    @classmethod
    def scan(cls, root: Path, files: Iterable[Path] | None = None) -> Definitions:
        found = cls(root)
        paths = files if files is not None else _python_files(root)
        for path in paths:
            rel = path.relative_to(root).as_posix()
            if is_test_path(rel):
                continue
            for definition in _definitions(rel, path):
                found.by_name.setdefault(definition.name, []).append(definition)
                found.by_file.setdefault(rel, []).append(definition)
        return found

    def at(self, path: str, line: int) -> Definition | None:
        """The innermost function of ``path`` that holds ``line``."""
        holding = [d for d in self.by_file.get(path, []) if d.first <= line <= d.last]
        return min(holding, key=lambda d: d.last - d.first, default=None)


def is_test_path(path: str) -> bool:
    return bool(_TEST_PATH.search(path))


def implicated(
    report: PytestReport, definitions: Definitions, *, prefer: Sequence[str] = ()
) -> list[Definition]:
    """The workspace functions (not tests) ``report``'s failures point to, most likely first,
    at most :data:`MAX_FUNCTIONS`: the frames of each traceback in workspace source files,
    outermost first, then functions a failing test's name names, then those called
    on a failing line or compared on it (``<=`` → ``__le__``). A name defined in several
    files counts in one of ``prefer`` (files a task names) or of the module a failing test
    file is named after (``tests/test_operations.py`` → ``operations.py``), else not at all."""
    out: list[Definition] = []

    def add(found: Definition | None) -> None:
        if found is not None and found not in out:
            out.append(found)

    for path, line, _ in report.frames:  # the function a test calls before its helpers
        if not is_test_path(path):
            add(definitions.at(path, line))
    names: list[str] = []
    prefer = [*prefer]
    for failure in report.failures:
        file, _, test = failure.test.partition("::")
        test = test.rsplit("::", 1)[-1].split("[", 1)[0]
        names += _tested_names(test, definitions)
        stem = Path(file).stem.removeprefix("test_").removesuffix("_test")
        prefer += [p for p in definitions.by_file if Path(p).stem == stem and p not in prefer]
    for text in report.failing_lines:
        code = text.removeprefix("assert ").strip()
        names += _CALLED.findall(code) + _ATTRIBUTE.findall(code)
        names += [dunder for op, dunder in _OPERATORS.items() if f" {op} " in f" {code} "]
    for name in dict.fromkeys(names):
        candidates = definitions.by_name.get(name, [])
        ranked = sorted(candidates, key=lambda d: (d.path not in prefer, d.path))
        if ranked and (len(ranked) == 1 or ranked[0].path in prefer):
            add(ranked[0])
    return out[:MAX_FUNCTIONS]


def function_excerpt(root: Path, definition: Definition) -> str:
    """``definition`` whole (up to :data:`MAX_LINES` lines), numbered, under the heading of a
    workspace evidence excerpt."""
    lines = (root / definition.path).read_text(encoding="utf-8", errors="replace").split("\n")
    last = min(definition.last, definition.first + MAX_LINES - 1)
    width = max(4, len(str(definition.last)))
    where = " > ".join(definition.heading)
    out = [f"--- {definition.path}, lines {definition.first}-{definition.last} ({where})"]
    out += [f"{n:>{width}}| {lines[n - 1]}".rstrip() for n in range(definition.first, last + 1)]
    if last < definition.last:
        out.append(
            f"[lines {last + 1}-{definition.last} not shown: read_file "
            f'{{"path": "{definition.path}", "offset": {last + 1}}}]'
        )
    return "\n".join(out)


def _tested_names(test: str, definitions: Definitions) -> list[str]:
    """The functions a test's name names: ``test_lru_cache_get`` → ``lru_cache_get`` if
    defined, else ``lru_cache``, else ``lru``; ``test_le`` → ``__le__`` too."""
    words = test.removeprefix("test_").removeprefix("test").strip("_").split("_")
    for end in range(len(words), 0, -1):
        stem = "_".join(words[:end])
        for name in (stem, f"__{stem}__"):
            if name in definitions.by_name:
                return [name]
    return []


def _python_files(root: Path) -> list[Path]:
    out = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if any(p.startswith(".") or p in ("node_modules", "__pycache__", "venv") for p in parts):
            continue
        out.append(path)
        if len(out) >= MAX_FILES:
            break
    return out


def _definitions(rel: str, path: Path) -> list[Definition]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError):
        return []
    out: list[Definition] = []

    def visit(node: ast.AST, heading: tuple[str, ...]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, (*heading, f"class {child.name}"))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                kind = "async def" if isinstance(child, ast.AsyncFunctionDef) else "def"
                here = (*heading, f"{kind} {child.name}")
                last = child.end_lineno or child.lineno
                out.append(Definition(rel, child.name, child.lineno, last, here))
                visit(child, here)

    visit(tree, ())
    return out
