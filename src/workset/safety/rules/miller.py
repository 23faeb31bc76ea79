"""Miller (``mlr``): records read and reshaped, and the shell its DSL and options can reach.

``mlr --icsv --opprint sort -nr total data/sales.csv`` only reads and prints, and runs. Its DSL
(``put``/``filter``) can run commands (``system("…")``, ``exec("…")``) and write files
(``tee > "f"``, ``emit > "f"``, ``print | "cmd"``), and ``--prepipe CMD`` runs a shell command
on every input: the literal commands are analysed as shell, and anything of that kind, a verb
that writes files (``split``, ``tee``), or a file outside the workspace asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    unknown_program,
)
from workset.safety.rules.confinement import inside

_RUNS = re.compile(r"\b(?:system|exec)\s*\(\s*\"((?:[^\"\\]|\\.)*)\"")
_REACHES = re.compile(r"\b(system|exec|os_type|hostname)\s*\(|[>|]\s*\"|[>|]\s*std|>>")
_PREPIPE = ("--prepipe", "--prepipex", "--prepipe-gunzip")
_WRITING_VERBS = frozenset({"split", "tee", "case"})


def _shell(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    for index, word in enumerate(args):
        if word in ("--prepipe", "--prepipex") and index + 1 < len(args):
            yield Nested(args[index + 1])
        for match in _RUNS.finditer(word):
            yield Nested(match.group(1).replace('\\"', '"'))


def miller(cmd: Cmd, ctx: Context) -> Finding | None:
    """Vouches for ``mlr`` calls that only read workspace files and print."""
    args = cmd.args()
    if any(cmd.dynamic) or any(a.startswith(_PREPIPE) for a in args):
        return unknown_program("mlr", " (it runs a command on its input)")
    if any(_REACHES.search(a) for a in args) or _WRITING_VERBS & set(args):
        return unknown_program("mlr", " (its DSL or verb runs commands or writes files)")
    far = next((a for a in args if a.startswith(("/", "~", "..")) and not inside(a, ctx)), None)
    return unknown_program("mlr", f" (it reads {far!r})") if far else None


HANDLERS: dict[str, Handler] = {"mlr": _shell}
VOUCHERS = {"mlr": miller}
