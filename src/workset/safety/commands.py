"""Shell command analysis: parse the command, then judge what it would really run.

Substring matching is easy to fool (``r''m -rf /``, ``X=/; rm -rf $X``, ``$(echo rm) -rf /``),
so :func:`analyze_command` parses the shell with ``bashlex`` (the ``[safety]`` extra), falling
back to a conservative ``shlex`` splitter when bashlex cannot parse, and walks pipelines,
lists, subshells, functions, loops and substitutions. Words are normalised before the rules
see them: quotes and backslashes removed, ``$'…'`` decoded, variables assigned earlier in the
same line substituted, ``$(echo …)`` / ``$(printf …)`` / ``… | base64 -d`` evaluated when
static, ``$HOME`` written as ``~``, and paths collapsed (``///``, ``/./``, ``/..``). Code given
to ``bash -c``, ``sh -c``, ``eval``, ``su -c``, ``xargs sh -c``, ``find -exec`` and a shell
fed by a static pipe is analysed recursively.

Findings are ``deny`` (never run; the explanation says what to do instead) or ``ask`` (a
human should confirm). This module is the public entry point; the walking lives in
:mod:`workset.safety.shell_walker` (with the text helpers in :mod:`workset.safety.shell_text`),
the rules in :mod:`workset.safety.rules`, and paths are sorted in :mod:`workset.safety.paths`.
:func:`analyze_python` does the same for Python code (the ``run_python`` tool, ``python -c``,
read by :mod:`workset.safety.python_code`): ``os.system``/``subprocess`` strings are analysed as
shell, ``shutil.rmtree`` and ``open(…, 'w')`` are judged like ``rm -r`` and a redirection.

Decisions about paths, documented once: recursive deletes of ``/``, ``~``, top-level system
directories and their direct children (``/usr/lib``, ``/var/log``) are denied; ``/tmp`` and
everything under it is scratch space, so a recursive delete there asks, like any other
recursive delete, and is never denied.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from workset.safety import rules
from workset.safety.rules import Finding, Severity
from workset.safety.shell_walker import Parser, Redirect, SimpleCommand, Walker

__all__ = [
    "CommandAnalysis",
    "Finding",
    "Redirect",
    "Severity",
    "SimpleCommand",
    "analyze_command",
    "analyze_python",
]


@dataclass(frozen=True, slots=True)
class CommandAnalysis:
    command: str
    findings: tuple[Finding, ...]
    commands: tuple[SimpleCommand, ...]
    parser: Parser

    @property
    def decision(self) -> Literal["allow", "ask", "deny"]:
        severities = {f.severity for f in self.findings}
        return "deny" if "deny" in severities else "ask" if "ask" in severities else "allow"

    def denied(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "deny")


def analyze_python(code: str, *, workspace: str | None = None) -> CommandAnalysis:
    """Findings about Python ``code``: the shell commands and file operations it would run."""
    walker = Walker(rules.Context(workspace=workspace))
    walker.run_python(code, 0)
    findings = tuple(dict.fromkeys(walker.findings))
    return CommandAnalysis(code, findings, tuple(walker.commands), "python")


def analyze_command(
    command: str, *, workspace: str | None = None, parser: Literal["auto", "shlex"] = "auto"
) -> CommandAnalysis:
    """Parse ``command`` and return every finding about what it would run.

    ``workspace`` is the absolute directory the agent works in; relative paths count as inside
    it. Without it, only relative paths are inside. ``parser="shlex"`` skips bashlex and uses
    the conservative fallback splitter (to measure it, or where bashlex is unwanted).
    """
    walker = Walker(rules.Context(workspace=workspace), use_bashlex=parser == "auto")
    used = walker.run(command, depth=0)
    findings = tuple(dict.fromkeys(walker.findings))  # keep order, drop repeats
    return CommandAnalysis(command, findings, tuple(walker.commands), used)
