"""``run_tests``: the project's tests, run with the command the project configured, read.

A shell call that runs pytest returns pytest's text; a small model reads a failure there as
noise or answers from it. ``run_tests`` runs the configured command (:func:`detect_test_command`
finds a pytest project's when none is configured), optionally on some test files, and
returns the exit code, pytest's summary and failing tests, the failure text clipped, and the
workspace functions the failures point to, whole and numbered
(:mod:`workset.tools.test_report`). It is the check after an edit (an edit is verified when
a test run after it passes, :mod:`workset.loop.outcome`) and, before one, where the fault is.
"""

from __future__ import annotations

import configparser
import re
import shlex
import sys
import tomllib
from dataclasses import replace
from pathlib import Path

from workset.errors import ToolError
from workset.tools.base import Tool
from workset.tools.fix_search import fix_search_tool
from workset.tools.output import ArtifactStore, clip_output
from workset.tools.sandbox import Sandbox, run_confined
from workset.tools.test_report import (
    Definitions,
    function_excerpt,
    implicated,
    is_test_path,
    read_report,
)
from workset.tools.workspace import Workspace

PYTEST = "python -m pytest -q --tb=short -p no:cacheprovider"
MAX_TEST_TIMEOUT_S = 1800
_FAILURE_LINES = 40  # lines of pytest's failure text kept in the result
_SECTIONS = re.compile(r"^=+ (FAILURES|ERRORS) =+$", re.M)
_SHORT_SUMMARY = re.compile(r"^=+ short test summary info =+$", re.M)


def detect_test_command(root: Path) -> str | None:
    """The command that runs the tests of the project at ``root``: pytest when the project
    configures it (``pytest.ini``, ``conftest.py``, ``[tool.pytest.ini_options]``,
    ``[tool:pytest]``) or has test files (``test_*.py``, ``*_test.py``); None otherwise."""
    if (root / "pytest.ini").is_file() or (root / "conftest.py").is_file():
        return PYTEST
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        try:
            tool = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {})
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            tool = {}
        if "pytest" in tool:
            return PYTEST
    for name, section in (("setup.cfg", "tool:pytest"), ("tox.ini", "pytest")):
        parser = configparser.ConfigParser()
        try:
            parser.read(root / name, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError):
            continue
        if parser.has_section(section):
            return PYTEST
    for pattern in ("test_*.py", "*_test.py"):
        for path in root.rglob(pattern):
            rel = path.relative_to(root).parts
            if not any(p.startswith(".") or p in ("node_modules", "venv") for p in rel):
                return PYTEST
    return None


def tools_for_tests(
    workspace: Workspace,
    command: str,
    *,
    sandbox: Sandbox | None = None,
    artifacts: ArtifactStore | None = None,
    timeout_s: int = 600,
    fix_search: bool = True,
) -> list[Tool]:
    """``run_tests``, running ``command`` (a ``python`` at its start is this interpreter) in
    ``workspace``, inside ``sandbox`` when given, killed at ``timeout_s``; with
    ``fix_search`` and a pytest command, ``search_fix`` too (:mod:`workset.tools.fix_search`)."""
    if not command.strip():
        raise ToolError("the test command is empty", hint=f'configure one, e.g. "{PYTEST}"')
    if not 1 <= timeout_s <= MAX_TEST_TIMEOUT_S:
        raise ToolError(
            f"test timeout {timeout_s} s is out of range",
            hint=f"use a whole number of seconds from 1 to {MAX_TEST_TIMEOUT_S}",
        )
    ws = workspace
    store = artifacts or ArtifactStore(workspace)
    base = re.sub(r"^python3?(?=\s|$)", shlex.quote(sys.executable), command.strip())

    def run_tests(tests: str = "") -> str:
        """Run the project's tests; returns the exit code, the failing tests and the code
        they point to.

        Use when: you changed code and must check it, or a task reports a bug and you need
        to see which test fails and where.
        Do not use when: you run something that is not the test suite (use shell).
        Output: "exit code 1 · 1 failed, 41 passed", then one line per failing test, the
        failure text, and the functions of the workspace the failures point to, whole, with
        line numbers (edit_file takes them as they are shown).
        Examples: {}; {"tests": "tests/test_app.py"}; {"tests": "tests/test_app.py::test_add"}.

        Args:
            tests: Test files or test ids to run, separated by spaces; empty runs them all.
        """
        selected = _selected(ws, tests)
        line = " ".join([base, *map(shlex.quote, selected)])
        argv = ["bash", "-c", f"PYTHONDONTWRITEBYTECODE=1 {line}"]
        try:
            done = run_confined(argv, cwd=ws.root, timeout_s=timeout_s, sandbox=sandbox)
        except OSError as exc:
            raise ToolError(f"cannot start the test command: {exc.strerror or exc}") from exc
        if done.exit_code is None:
            return f"timed out after {timeout_s} s: the test run was killed ({line})"
        report = read_report(done.output)
        head = f"exit code {done.exit_code} · {report.summary or 'no pytest summary'}"
        out = [f"{head} ({command.strip()}{' ' + ' '.join(selected) if selected else ''})"]
        if done.exit_code == 5 or report.collected_nothing:
            out.append("No tests ran: check the test files or ids given.")
        out += [
            f"FAILED {f.test}" + (f" - {f.message}" if f.message else "") for f in report.failures
        ]
        # pytest's failure sections; the whole output when a failing run printed none
        unexplained = done.exit_code not in (0, 5) and not report.failures
        details = _failure_text(done.output) or (done.output if unexplained else "")
        if details:
            clipped = clip_output(
                details, artifacts=store, name="tests", max_lines=_FAILURE_LINES, head=25, tail=10
            )
            out.append(clipped)
        if report.failures or report.frames:
            found = implicated(report, Definitions.scan(ws.root))
            if found:
                out.append("The code these failures point to:")
                out += [function_excerpt(ws.root, d) for d in found]
        return "\n".join(out)

    tool = Tool.from_function(
        run_tests,
        risk="high",
        cost_hint="as long as the test suite takes",
        examples=({}, {"tests": "tests/test_app.py"}),
    )
    tools = [replace(tool, timeout_s=timeout_s + 30)]  # the run's own limit ends it first
    if fix_search and "pytest" in base:
        tools.append(
            fix_search_tool(
                ws,
                base,
                select=lambda tests: _selected(ws, tests),
                sandbox=sandbox,
                timeout_s=timeout_s,
            )
        )
    return tools


def _selected(ws: Workspace, tests: str) -> list[str]:
    """The test files or ids of ``tests``, each checked to be a file of the workspace."""
    out = []
    for item in tests.split():
        path = item.split("::", 1)[0]
        target = ws.resolve(path)
        if not target.exists():
            raise ToolError(
                f"no such test file: {path!r}",
                hint="give test files relative to the workspace root, or {} to run them all",
            )
        if target.is_file() and not is_test_path(ws.relative(target)):
            raise ToolError(
                f"{path!r} is not a test file",
                hint="give test files (test_*.py, *_test.py, under tests/), or {} to run them all",
            )
        out.append(ws.relative(target) + (item[len(path) :] if "::" in item else ""))
    return out


def _failure_text(output: str) -> str:
    """pytest's FAILURES/ERRORS sections (up to its short summary), or ""."""
    start = _SECTIONS.search(output)
    if start is None:
        return ""
    end = _SHORT_SUMMARY.search(output, start.end())
    return output[start.end() : end.start() if end else len(output)].strip("\n")
