"""Try small changes against the failing tests, in a scratch copy of the workspace.

:func:`search` copies the workspace (its ``.workset`` folder, version control and caches
aside) under ``.workset/fix-search/``, runs the tests there to see which fail, lists the
changes :mod:`.mutants` proposes within the functions the failures point to (and the files and
names the task mentions), and tries them best first: a change is kept when the failing tests
pass with it and then the whole selection passes. The workspace itself is never written; the
change found is returned as the ``edit_file`` arguments that make it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from workset.errors import ToolError
from workset.repair.mutants import Mutant, Span, mutants
from workset.tools.sandbox import Finished, Sandbox, run_confined
from workset.tools.test_report import (
    Definition,
    Definitions,
    PytestReport,
    implicated,
    is_test_path,
    read_report,
)

MAX_TRIES = 80  # changes tried at most
BUDGET_S = 120.0  # seconds of trying, after the first run
MAX_SAME_NAME = 3  # functions of one name the task names, when it names no file of theirs
MAX_METHODS = 20  # methods of a class the task names
NAMED_BONUS = 1.0  # a change in a function the task names, or in a file it names
MAX_COPY_BYTES = 200_000_000  # a larger workspace is not copied
SCRATCH = ".workset/fix-search"
_SKIP = frozenset(
    {".git", ".hg", ".svn", ".workset", "__pycache__", ".venv", "venv", "node_modules", ".tox",
     ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis"}
)  # fmt: skip
_PATH_WORD = re.compile(r"[\w./-]+\.py\b")
_NAME_WORD = re.compile(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\b")

Runner = Callable[[list[str], Path, float], Finished]


@dataclass(frozen=True, slots=True)
class Outcome:
    found: Mutant | None
    failing: tuple[str, ...]  # the tests that failed before any change
    tried: int = 0
    candidates: int = 0
    after: str = ""  # the summary of the whole run with the change
    seconds: float = 0.0
    note: str = ""  # why nothing was tried or found
    where: tuple[str, ...] = field(default_factory=tuple)  # "tinydb/table.py: def count"


def search(
    root: Path,
    base: str,
    *,
    tests: Sequence[str] = (),
    task: str = "",
    sandbox: Sandbox | None = None,
    timeout_s: float = 300.0,
    budget_s: float = BUDGET_S,
    max_tries: int = MAX_TRIES,
    runner: Runner | None = None,
) -> Outcome:
    """Look for one small change of the workspace at ``root`` that makes its failing tests
    pass (``base`` is the pytest command line, ``tests`` the selection it runs)."""
    run = runner or _confined(sandbox)
    started = time.monotonic()
    scratch = _copy(root)
    try:
        return _search(scratch, base, tests, task, run, timeout_s, budget_s, max_tries, started)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        for folder in (scratch.parent, scratch.parent.parent):  # made for this search
            with contextlib.suppress(OSError):
                folder.rmdir()  # only when empty


def _search(
    scratch: Path,
    base: str,
    tests: Sequence[str],
    task: str,
    run: Runner,
    timeout_s: float,
    budget_s: float,
    max_tries: int,
    started: float,
) -> Outcome:
    first = run(_argv(base, tests), scratch, timeout_s)
    if first.exit_code is None:
        raise ToolError(
            f"the tests did not finish in {timeout_s:.0f} s in the scratch copy",
            hint="run_tests on fewer test files, then search_fix with those",
        )
    report = read_report(first.output)
    failing = tuple(f.test for f in report.failures)
    if first.exit_code == 0:
        return Outcome(None, (), note="the tests pass: there is no failure to fix")
    if not failing:
        return Outcome(
            None, (), note=f"the tests fail without a failing test to aim at ({report.summary})"
        )
    spans, hot, where = _targets(scratch, report, task)
    ranked = _ranked(scratch, spans, hot, task)
    if not ranked:
        return Outcome(None, failing, note="no small change to try in the code they point to")
    each = min(timeout_s, 60.0)
    tried = 0
    budget_from = time.monotonic()
    for mutant in ranked[:max_tries]:
        if time.monotonic() - budget_from > budget_s:
            break
        tried += 1
        target = scratch / mutant.path
        original = target.read_text(encoding="utf-8")
        target.write_text(mutant.source, encoding="utf-8")
        try:
            aimed = run(_argv(base, failing, stop_first=True), scratch, each)
            if aimed.exit_code != 0:
                continue
            whole = run(_argv(base, tests), scratch, timeout_s)
            if whole.exit_code == 0:
                return Outcome(
                    mutant,
                    failing,
                    tried,
                    len(ranked),
                    read_report(whole.output).summary,
                    time.monotonic() - started,
                    where=where,
                )
        finally:
            target.write_text(original, encoding="utf-8")
    return Outcome(
        None,
        failing,
        tried,
        len(ranked),
        seconds=time.monotonic() - started,
        note="no change tried made the failing tests pass"
        + ("" if tried >= min(len(ranked), max_tries) else f" (stopped after {budget_s:.0f} s)"),
        where=where,
    )


def _targets(
    scratch: Path, report: PytestReport, task: str
) -> tuple[list[Span], dict[str, set[int]], tuple[str, ...]]:
    """The spans to change: the functions the failures point to, the functions the task
    names, and (literals only) the files the task names; the traceback's lines per file."""
    definitions = Definitions.scan(scratch)
    named_files = [p for p in dict.fromkeys(_PATH_WORD.findall(task)) if (scratch / p).is_file()]
    found = implicated(report, definitions, prefer=named_files)
    named = {d for d in found if d.path in named_files}
    for word in dict.fromkeys(_NAME_WORD.findall(task)):
        name = word.rsplit(".", 1)[-1]
        options = definitions.by_name.get(name, [])
        in_named = [d for d in options if d.path in named_files]
        pick = in_named or options[:MAX_SAME_NAME]  # `search`: Table.search and Query.search
        pick += _methods(definitions, name, named_files)  # a class the task names
        found += [d for d in pick if d not in found]
        named.update(pick)
    spans = [Span(d.path, d.first, d.last, named=d in named) for d in found]
    for path in named_files:
        if not is_test_path(path):
            spans.append(Span(path, 1, 10**6, literals_only=True, named=True))
    hot: dict[str, set[int]] = {}
    for path, line, _ in report.frames:
        hot.setdefault(path, set()).add(line)
    where = tuple(f"{d.path}: {' > '.join(d.heading)}" for d in found)
    return spans, hot, where


def _methods(definitions: Definitions, name: str, named_files: list[str]) -> list[Definition]:
    """The methods of the class ``name`` (in a file the task names, when it names one), at
    most :data:`MAX_METHODS`."""
    heading = f"class {name}"
    out = [
        d
        for ds in definitions.by_file.values()
        for d in ds
        if heading in d.heading and (not named_files or d.path in named_files)
    ]
    return out[:MAX_METHODS]


def _ranked(scratch: Path, spans: list[Span], hot: dict[str, set[int]], task: str) -> list[Mutant]:
    """Every file's changes, best first (those in code the task names gain
    :data:`NAMED_BONUS`); ties keep the order of the spans (the function the failure points
    to first)."""
    out: list[tuple[float, int, Mutant]] = []
    for order, path in enumerate(dict.fromkeys(s.path for s in spans)):
        try:
            source = (scratch / path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        mine = [s for s in spans if s.path == path]
        named = [s for s in mine if s.named and not s.literals_only]
        for m in mutants(source, path, mine, task, hot=hot.get(path, ())):
            bonus = NAMED_BONUS if any(s.first <= m.line <= s.last for s in named) else 0.0
            out.append((-(m.score + bonus), order, m))
    out.sort(key=lambda t: (t[0], t[1], t[2].line))
    return [m for _, _, m in out]


def _argv(base: str, tests: Sequence[str], *, stop_first: bool = False) -> list[str]:
    line = " ".join([base, *(["-x"] if stop_first else []), *map(shlex.quote, tests)])
    return ["bash", "-c", f"PYTHONDONTWRITEBYTECODE=1 {line}"]


def _confined(sandbox: Sandbox | None) -> Runner:
    def run(argv: list[str], cwd: Path, timeout_s: float) -> Finished:
        try:
            return run_confined(argv, cwd=cwd, timeout_s=timeout_s, sandbox=sandbox)
        except OSError as exc:
            raise ToolError(f"cannot start the test command: {exc.strerror or exc}") from exc

    return run


def _copy(root: Path) -> Path:
    """A copy of the workspace under ``.workset/fix-search/``, without what :data:`_SKIP`
    names; :class:`~workset.errors.ToolError` when it would pass :data:`MAX_COPY_BYTES`."""
    total = 0
    files: list[Path] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _SKIP]  # not walked at all (node_modules…)
        for name in names:
            path = Path(folder) / name
            if name in _SKIP or path.is_symlink() or not path.is_file():
                continue
            total += path.stat().st_size
            if total > MAX_COPY_BYTES:
                raise ToolError(
                    f"the workspace holds more than {MAX_COPY_BYTES // 1_000_000} MB to copy "
                    "into a scratch folder",
                    hint="make the change with edit_file and check it with run_tests",
                )
            files.append(path)
    scratch = root / SCRATCH / uuid.uuid4().hex[:12]
    for path in files:
        target = scratch / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    return scratch
