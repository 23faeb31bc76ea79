"""Execution tools: the edit tools (:mod:`workset.tools.edits`), shell commands and Python
snippets.

These tools change the world, so none is read-only and the two that run code are high risk.
They do not decide what is allowed — the permission policy and the sidecar classifier judge a
call before it runs. They only validate their own inputs (workspace confinement, sane values)
and fail fast with a :class:`ToolError` that says how to fix the call.

Long command output is clipped to its head and tail, with the full
text saved under ``.workset/artifacts/`` (see :mod:`workset.tools.output`). With a
:class:`~workset.tools.sandbox.Sandbox`, ``shell`` and ``run_python`` run inside it.
"""

from __future__ import annotations

import signal
import sys
import tempfile
import threading
import uuid
from pathlib import Path
from typing import IO

from workset.errors import ToolError
from workset.tools.base import Tool
from workset.tools.edits import edit_tools
from workset.tools.files import encode_utf8
from workset.tools.output import ArtifactStore, clip_output
from workset.tools.sandbox import Finished, Limits, Sandbox, run_confined
from workset.tools.workspace import Workspace

MAX_SHELL_TIMEOUT_S = 600
MAX_PYTHON_TIMEOUT_S = 300
PYTHON_MEMORY_BYTES = 1024**3
PYTHON_FILE_BYTES = 256 * 1024**2
PYTHON_PROCESSES = 256


def execution_tools(
    workspace: Workspace,
    *,
    artifacts: ArtifactStore | None = None,
    sandbox: Sandbox | None = None,
    keep_syntax: bool = True,
) -> list[Tool]:
    """``write_file``, ``edit_file``, ``undo_edit``, ``shell`` and ``run_python`` confined to
    ``workspace``.

    ``keep_syntax``: an ``edit_file`` or ``write_file`` call that would turn an existing
    Python, JSON or TOML file whose syntax is valid into one whose syntax is not is refused
    and nothing is written (a small model "fixed" ``doc[field] += 2`` by appending code to
    the ``def`` line, and replaced a whole module with the one line it meant to change);
    A ``write_file`` that would drop most top-level functions and classes of a Python module
    is refused too (asked to add one function, a small model wrote that function alone as the
    whole file). False writes both and reports the issue, for edits made in steps that pass
    through invalid syntax."""
    ws = workspace
    store = artifacts or ArtifactStore(workspace)
    shell_state = _ShellState(ws.root)

    def shell(command: str, timeout_s: int = 60) -> str:
        """Run a bash command in the workspace; returns the exit code and the output.

        Use when: you need to run programs — tests, builds, git, package tools, scripts.
        Do not use when: a dedicated tool fits: read_file, list_dir, find_files and grep to
        look at files; write_file and edit_file to change them; run_python for Python code.
        The working directory starts at the workspace root and persists between calls: after
        "cd src" the next command runs in src. It may not leave the workspace; if a command
        ends outside it, the next one starts at the root again (the result says so). No
        input can be typed: stdin is empty. Background jobs ("cmd &") are stopped when the
        call returns. At timeout_s (at most 600) the command and all its children are killed.
        Output: "exit code 0 (cwd: src)" (cwd: where the next command starts), then stdout
        and stderr merged in order. Over 200 lines or 10,000 characters, only the first and
        last 50 lines are shown; the full output is saved to a file under
        .workset/artifacts/ and the result says how to read it with read_file.
        Examples: {"command": "pytest -q tests/test_app.py"}; {"command": "cd src && ls"};
        {"command": "make build", "timeout_s": 300}.

        Args:
            command: The bash command line, e.g. "pytest -q" or "git status".
            timeout_s: Seconds before the command is killed (1-600).
        """
        if not command.strip():
            raise ToolError("command is empty", hint='give a bash command, e.g. "ls -la"')
        _check_timeout(timeout_s, MAX_SHELL_TIMEOUT_S)
        _check_no_nul(command, "command")
        with shell_state.lock:
            notes, cwd = shell_state.start()
            marker = f"__workset_cwd_{uuid.uuid4().hex}__"
            trap = f'trap \'printf "\\n%s%s\\n" {marker} "$PWD"\' EXIT; '
            argv = ["bash", "-c", trap + command]
            done = _run(argv, cwd=cwd, timeout_s=timeout_s, sandbox=sandbox)
            output, final = _split_marker(done.output, marker)
            if final is not None:
                notes += shell_state.finish(final)
            header = _header(done, timeout_s) + f" (cwd: {ws.relative(shell_state.cwd)})"
            body = clip_output(output, artifacts=store, name="shell") if output else "(no output)"
            return "\n".join([header, body, *notes, *_notes(done)])

    def run_python(code: str, timeout_s: int = 30) -> str:
        """Run a Python snippet in a fresh interpreter in the workspace root.

        Use when: you want to compute, check or try something in Python — parse a file,
        test a function, transform data — and see what it prints.
        Do not use when: you run a project's scripts or test suite (use shell, e.g.
        "pytest -q") or only read files (use read_file).
        Each call is a new process (no state is kept between calls), with the workspace root
        as the working directory and first on sys.path. Limits: 1 GiB of memory (bigger
        allocations raise MemoryError), timeout_s seconds of CPU and of wall time (at most
        300), 256 MiB per written file. Print what you want to see.
        Output: "exit code 0" then stdout and stderr merged in order; tracebacks name the
        snippet "<stdin>". Long output is clipped like shell's (first and last 50 lines, the
        full text saved under .workset/artifacts/).
        Examples: {"code": "import sys\\nprint(sys.version)"};
        {"code": "import json\\nprint(len(json.load(open('data.json'))))", "timeout_s": 60}.

        Args:
            code: Python source to run as a script.
            timeout_s: Seconds of wall and CPU time before the process is killed (1-300).
        """
        if not code.strip():
            raise ToolError("code is empty", hint='give Python source, e.g. "print(1 + 1)"')
        _check_timeout(timeout_s, MAX_PYTHON_TIMEOUT_S)
        source = encode_utf8(code, "code")
        with tempfile.TemporaryFile(prefix="workset-snippet-", suffix=".py") as script:
            script.write(source)
            script.seek(0)
            argv = [sys.executable, "-u", "-"]
            limits = Limits(
                memory_bytes=PYTHON_MEMORY_BYTES,
                cpu_s=timeout_s,
                file_bytes=PYTHON_FILE_BYTES,
                processes=PYTHON_PROCESSES,
            )
            done = _run(
                argv, cwd=ws.root, timeout_s=timeout_s, sandbox=sandbox, stdin=script, limits=limits
            )
        header = _header(done, timeout_s)
        body = (
            clip_output(done.output, artifacts=store, name="python")
            if done.output
            else "(no output)"
        )
        return "\n".join([header, body, *_notes(done)])

    return [
        *edit_tools(ws, keep_syntax=keep_syntax),
        Tool.from_function(
            shell,
            risk="high",
            cost_hint="as costly as the command; up to timeout_s seconds",
            examples=(
                {"command": "pytest -q tests/test_app.py"},
                {"command": "cd src && ls"},
                {"command": "make build", "timeout_s": 300},
            ),
        ),
        Tool.from_function(
            run_python,
            risk="high",
            cost_hint="a new Python process; up to timeout_s seconds",
            examples=(
                {"code": "import sys\nprint(sys.version)"},
                {"code": "import json\nprint(len(json.load(open('data.json'))))", "timeout_s": 60},
            ),
        ),
    ]


# --- shell working directory -----------------------------------------------------------------


class _ShellState:
    """The directory the next shell command starts in; one command at a time."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cwd = root
        self.lock = threading.Lock()

    def start(self) -> tuple[list[str], Path]:
        if self.cwd.is_dir():
            return [], self.cwd
        gone = self.cwd
        self.cwd = self.root
        return [f"note: the working directory {gone} no longer exists; started at the root"], (
            self.root
        )

    def finish(self, final: str) -> list[str]:
        path = Path(final).resolve()
        if path.is_relative_to(self.root):
            self.cwd = path
            return []
        self.cwd = self.root
        return [
            f"note: the command ended in {final}, outside the workspace; the next command "
            "starts at the workspace root"
        ]


def _split_marker(output: str, marker: str) -> tuple[str, str | None]:
    """The command's own output, and the final directory the EXIT trap printed (if it ran)."""
    at = output.rfind(f"\n{marker}")
    if at < 0:
        return output, None
    final = output[at + 1 + len(marker) :].split("\n", 1)[0]
    return output[:at], final


def _run(
    argv: list[str],
    *,
    cwd: Path,
    timeout_s: int,
    sandbox: Sandbox | None,
    stdin: IO[bytes] | None = None,
    limits: Limits | None = None,
) -> Finished:
    try:
        return run_confined(
            argv, cwd=cwd, timeout_s=timeout_s, sandbox=sandbox, stdin=stdin, limits=limits
        )
    except OSError as exc:
        raise ToolError(f"cannot start {argv[0]}: {exc.strerror or exc}") from exc


def _header(done: Finished, timeout_s: int) -> str:
    if done.exit_code is None:
        return (
            f"timed out after {timeout_s} s: the process and all its children were killed; "
            "the output up to that point follows"
        )
    if done.exit_code < 0:
        name = signal.Signals(-done.exit_code).name
        reason = " (CPU time limit)" if name == "SIGXCPU" else ""
        reason = " (file size limit)" if name == "SIGXFSZ" else reason
        return f"killed by signal {name}{reason}"
    return f"exit code {done.exit_code}"


def _notes(done: Finished) -> list[str]:
    if not done.invalid_utf8:
        return []
    return ["note: some output bytes were not valid UTF-8; they are shown as \ufffd"]


# --- validation -------------------------------------------------------------------------------


def _check_timeout(timeout_s: int, most: int) -> None:
    if not 1 <= timeout_s <= most:
        raise ToolError(
            f"timeout_s={timeout_s} is out of range",
            hint=f"use a whole number of seconds from 1 to {most}",
        )


def _check_no_nul(text: str, field: str) -> None:
    if "\x00" in text:
        raise ToolError(f"{field} contains a NUL character", hint="remove it; bash cannot pass it")
