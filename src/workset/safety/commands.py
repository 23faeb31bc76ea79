"""Shell command analysis: parse the command, then judge what it would really run.

Substring matching is easy to fool (``r''m -rf /``, ``X=/; rm -rf $X``, ``$(echo rm) -rf /``),
so :func:`analyze_command` parses the line with tree-sitter's bash grammar and walks every
pipeline, list, subshell, function, loop and substitution
(:mod:`workset.safety.shell_walker`). Words are normalised before the rules see them: quotes
joined, ``$'…'`` decoded, variables, arrays and ``IFS`` tracked within the line, static
``$(echo …)`` / ``$(which rm)`` / ``… | base64 -d`` evaluated, look-alike letters folded
(``ｒｍ``, Cyrillic ``м``), an
unquoted ``~`` (and ``$HOME``) the home while a quoted one is a file named ``~``, and paths
collapsed. Code given to ``bash -c``, ``eval``, ``trap``, here-documents and here-strings fed
to a shell, inline perl/ruby/node/php/lua/tcl/awk code (its calls' literal arguments, joined
as the language joins them), Python code, ``watch`` commands, and what is written where it runs
later by itself (cron lines, hooks, startup files, unit ``ExecStart=``, git aliases) is analysed
in turn.

The analysis fails closed. Findings are ``deny`` (never run; the explanation says what to do
instead) or ``ask`` (a human confirms), and a command with no finding is one shown to be
read-only or confined to the workspace (:mod:`workset.safety.rules.known`): an unknown
program, a dynamic command name, a path only known at run time or text that does not parse
asks with a one-line reason. Bad input gets a decision too: an empty command, NUL bytes or
text that is not valid Unicode are denied, a command over :data:`MAX_CHARS` characters asks.
Reading a secret and reaching the network in the same command is denied as exfiltration.

Decisions about paths, documented once: recursive deletes of ``/``, ``~``, top-level system
directories and their direct children (``/usr/lib``, ``/var/log``) are denied; a recursive
delete inside the workspace (but not of the workspace itself) is allowed; anywhere else, and
that includes ``/tmp``, it asks. Writing outside the workspace asks, except to ``/tmp`` and
``/var/tmp`` (scratch space) and harmless devices such as ``/dev/null``; unpacking an archive
there asks too, since an archive writes whatever names it holds. A path under the workspace's
home is judged as ``~/…`` (``/home/me/proj/../.config`` is ``~/.config``), and ``$PWD`` is the
directory the line is in, unknown after a ``cd`` to a run-time value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from workset.safety import rules
from workset.safety.rules import Finding, Severity
from workset.safety.rules.installers import official_installer
from workset.safety.rules.secrets import sent_away
from workset.safety.shell_walker import Parser, Redirect, SimpleCommand, Walker

MAX_CHARS = 100_000
_SURROGATE = re.compile("[\ud800-\udfff]")

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
    bad = _bad_input(code, "code")
    if bad is not None:
        return CommandAnalysis(code, (bad,), (), "none")
    walker = Walker(rules.Context(workspace=workspace))
    try:
        walker.run_python(code, 0)
    except RecursionError:  # nested a few hundred levels deep
        return CommandAnalysis(code, (rules.too_deep(),), (), "python")
    return CommandAnalysis(code, _settle(walker.findings), tuple(walker.commands), "python")


def analyze_command(command: str, *, workspace: str | None = None) -> CommandAnalysis:
    """Parse ``command`` and return every finding about what it would run.

    ``workspace`` is the absolute directory the agent works in; relative paths count as inside
    it. Without it, only relative paths are inside.
    """
    bad = _bad_input(command, "command")
    if bad is not None:
        return CommandAnalysis(command, (bad,), (), "none")
    walker = Walker(rules.Context(workspace=workspace))
    try:
        used = walker.run(command, depth=0)
    except RecursionError:  # $( $( $( … ) ) ) hundreds deep: Python's stack ends first
        return CommandAnalysis(command, (rules.too_deep(),), (), "tree-sitter")
    except Exception as error:  # a bug in a rule must fail closed, not crash
        found = (*_settle(walker.findings), _analysis_failed(error))
        return CommandAnalysis(command, found, tuple(walker.commands), "tree-sitter")
    settled = tuple(official_installer(command, _settle(walker.findings)))
    return CommandAnalysis(command, settled, tuple(walker.commands), used)


def _analysis_failed(error: Exception) -> Finding:
    """The analysis stopped on an error of its own: what it found so far still counts (a
    deny stays a deny), and the rest cannot be shown safe, so it asks."""
    return Finding(
        "analysis-failed",
        "ask",
        f"the analysis of this command stopped on an internal error ({type(error).__name__}), "
        "so what it does cannot be shown safe; a human must confirm, or write it more simply",
    )


def _settle(found: list[Finding]) -> tuple[Finding, ...]:
    """Findings in order without repeats, with exfiltration added when it is there."""
    findings = list(dict.fromkeys(found))
    sent = sent_away(findings)
    return tuple(findings if sent is None else [sent, *findings])


def _bad_input(text: str, what: str) -> Finding | None:
    if not text.strip():
        return Finding(
            "empty",
            "deny",
            f"the {what} is empty, so there is nothing to run; send the {what} to run",
        )
    if "\x00" in text:
        return Finding(
            "bad-input",
            "deny",
            f"the {what} contains NUL bytes, which bash cannot receive (it would run only the "
            f"part before them); send plain text",
        )
    if _SURROGATE.search(text):
        return Finding(
            "bad-input",
            "deny",
            f"the {what} is not valid Unicode text (it holds lone surrogates, e.g. from bytes "
            "that are not UTF-8); send it as UTF-8 text",
        )
    if len(text) > MAX_CHARS:
        return Finding(
            "too-long",
            "ask",
            f"the {what} is {len(text):,} characters long, more than the {MAX_CHARS:,} that "
            f"are checked; write it to a file in the workspace and run the file instead",
        )
    return None
