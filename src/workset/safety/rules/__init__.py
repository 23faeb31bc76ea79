"""The command rules: one resolved simple command in, findings (or code to analyse) out.

:mod:`workset.safety.commands` parses and normalises; these modules only judge. The shared
shapes live in :mod:`~workset.safety.rules.base`, :func:`check` in
:mod:`~workset.safety.rules.dispatch`, and each family of commands in its own module
(:mod:`~workset.safety.rules.delete`, :mod:`~workset.safety.rules.writes`,
:mod:`~workset.safety.rules.network` (with :mod:`~workset.safety.rules.loopback` for requests
to this machine), :mod:`~workset.safety.rules.interpreters` (with
:mod:`~workset.safety.rules.applescript` for ``osascript``), :mod:`~workset.safety.rules.mounts`,
:mod:`~workset.safety.rules.system`, :mod:`~workset.safety.rules.infra` and its kinds, with
:mod:`~workset.safety.rules.wrappers` for ``sudo``/``env``/``strace``…,
:mod:`~workset.safety.rules.finders` for ``find``/``xargs``,
:mod:`~workset.safety.rules.option_commands` for commands given in options and to project
runners, and :mod:`~workset.safety.rules.static` for static evaluation); what is shown
read-only or confined is :mod:`~workset.safety.rules.known`. Every deny
explanation says why the command is refused and what to do instead, because it becomes the
tool error the model reads.
"""

from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Nested,
    Result,
    Severity,
    deferred,
    fork_bomb,
    no_parser,
    too_deep,
    too_many,
    too_many_words,
    unknown_program,
    unparsed,
)
from workset.safety.rules.dispatch import check, program_behind
from workset.safety.rules.environment import assignment
from workset.safety.rules.finders import loop_values
from workset.safety.rules.key_names import through_filter
from workset.safety.rules.network import beacon
from workset.safety.rules.secrets import sent_away
from workset.safety.rules.static import inert_output, static_output

__all__ = [
    "Cmd",
    "Context",
    "Finding",
    "Nested",
    "Result",
    "Severity",
    "assignment",
    "beacon",
    "check",
    "deferred",
    "fork_bomb",
    "inert_output",
    "loop_values",
    "no_parser",
    "program_behind",
    "sent_away",
    "static_output",
    "through_filter",
    "too_deep",
    "too_many",
    "too_many_words",
    "unknown_program",
    "unparsed",
]
