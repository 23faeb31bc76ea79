"""Debuggers' own commands: what ``gdb -ex`` and ``lldb -o`` run besides debugging.

``gdb -batch -ex 'bt' ./app`` debugs the project's program. gdb and lldb also take commands
that leave the debugger: a shell escape (``!cmd``, ``shell cmd``, lldb's ``platform shell``)
and Python (``python …``, lldb's ``script …``). Those commands, given on the command line
(``-ex``, ``-iex``, ``--eval-command``, lldb's ``-o``/``-O``/``--one-line``) or in the init
files a project ships (:mod:`~workset.safety.rules.build_files`), are analysed as the shell
or Python code they are; a command file from outside the workspace (``-x FILE``) asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Nested, Result

ESCAPE_LINE = re.compile(r"^\s*(?::?\s*!|shell\s+|(?:platform\s+)?shell\s+)(.+)$", re.M)
PYTHON_LINE = re.compile(r"^\s*(?:python|py|script)\s+(.+)$", re.M)
_GIVEN = ("-ex", "--ex", "-iex", "--iex", "-eval-command", "--eval-command", "-init-eval-command",
          "--init-eval-command", "-o", "-O", "--one-line", "--one-line-before-file")  # fmt: skip
_FILES = ("-x", "--x", "-ix", "--ix", "-command", "--command", "-init-command",
          "--init-command", "-s", "-S", "--source", "--source-before-file")  # fmt: skip


def code_of(text: str) -> Iterator[Nested]:
    """The shell commands and Python that debugger command lines run."""
    for match in ESCAPE_LINE.finditer(text):
        yield Nested(match.group(1))
    python = [m.group(1) for m in PYTHON_LINE.finditer(text)]
    if python:
        yield Nested("\n".join(python), "python")


def _debugger(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    given = [args[i + 1] for i, a in enumerate(args[:-1]) if a in _GIVEN]
    given += [a.split("=", 1)[1] for a in args if a.split("=", 1)[0] in _GIVEN and "=" in a]
    yield from code_of("\n".join(given))
    files = _FILES if cmd.name == "lldb" else _FILES[:-4]  # gdb's -s is a symbol file
    for i, word in enumerate(args[:-1]):
        script = args[i + 1]
        if word in files and not paths.in_workspace(ctx.resolve(script), ctx.workspace):
            yield Finding(
                "foreign-code",
                "ask",
                f"{cmd.name} runs the commands of {script!r}, a file outside the workspace, so "
                "what it runs cannot be checked; a human must confirm it",
            )


HANDLERS: dict[str, Handler] = {n: _debugger for n in ("gdb", "lldb", "gdb-multiarch", "cgdb")}
