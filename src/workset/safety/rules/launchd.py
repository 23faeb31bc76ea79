"""What a launchd property list runs: its ``ProgramArguments`` (or ``Program``), and its label.

A plist written into ``LaunchAgents``/``LaunchDaemons`` runs that program at login or boot, so
:mod:`~workset.safety.rules.persistence` judges the command it names as code left to run later.
A label of Apple's own (``com.apple.…``) on a plist the line writes into a user's or the
machine's launch folders only disguises it: Apple's agents are not installed that way.
"""

from __future__ import annotations

import html
import re

from workset.safety.rules.base import Finding, requote

_ARGUMENTS = re.compile(
    r"<key>\s*ProgramArguments\s*</key>\s*<array>(.*?)</array>", re.DOTALL | re.IGNORECASE
)
_PROGRAM = re.compile(r"<key>\s*Program\s*</key>\s*<string>(.*?)</string>", re.DOTALL)
_STRING = re.compile(r"<string>(.*?)</string>", re.DOTALL)
_LABEL = re.compile(r"<key>\s*Label\s*</key>\s*<string>\s*(.*?)\s*</string>", re.DOTALL)


def is_plist(path: str) -> bool:
    return path.endswith(".plist") or "/Launch" in path


def command_of(text: str) -> str:
    """The command line a plist runs, written back for bash to read ("" when none)."""
    arguments = _ARGUMENTS.search(text)
    if arguments is not None:
        words = [html.unescape(w) for w in _STRING.findall(arguments.group(1))]
        return requote(words) if words else ""
    program = _PROGRAM.search(text)
    return requote([html.unescape(program.group(1))]) if program else ""


def disguised_label(text: str) -> Finding | None:
    label = _LABEL.search(text)
    if label is None or not label.group(1).lower().startswith("com.apple."):
        return None
    return Finding(
        "disguised-process",
        "deny",
        f"the launch agent is labelled {label.group(1)!r}, as if it were Apple's own, which "
        "only hides what it runs; an agent never installs launch agents — leave the plist in "
        "the workspace and ask the user",
    )
