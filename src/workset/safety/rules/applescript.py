"""Rules for ``osascript``: AppleScript given inline, which reaches the shell by its own verbs.

``do shell script "CMD"`` runs CMD with ``sh -c``, and ``with administrator privileges`` runs
it as root; ``tell application "Terminal" to do script "CMD"`` (and iTerm's ``write text``)
types CMD into a terminal. Each CMD is analysed as the line itself (``sudo CMD`` when it runs
as root), in the directory it really runs in: ``/`` for ``do shell script``, the home for a
new Terminal window, a directory unknown here for iTerm's session. Besides those, only
statements that show something to the user (``display notification``, ``display dialog``,
``display alert``, ``say``, ``beep``, ``delay``) are understood; any other AppleScript, a
script file or JavaScript for Automation asks, since AppleScript can drive every application
(``tell application "Finder" to delete …``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import (
    Cmd,
    Context,
    Handler,
    Nested,
    Result,
    ask_finding,
    deny_finding,
    requote,
)

_STRING = r'"((?:[^"\\]|\\.)*)"'
_SHELL_VERB = re.compile(
    r"\b(?:do\s+shell\s+script|do\s+script|write\s+text)\s+" + _STRING
    + r"(\s+with\s+administrator\s+privileges)?",
    re.IGNORECASE,
)  # fmt: skip
# Statements that only show or say something; the rest of the line is a plain string.
_SHOWS = re.compile(
    r"^\s*(display\s+(notification|dialog|alert)\s+" + _STRING + r"[^\n]*|say\s+"
    + _STRING + r"[^\n]*|beep(\s+\d+)?|delay\s+[\d.]+)\s*$",
    re.IGNORECASE,
)  # fmt: skip
# Text typed into the frontmost window (a terminal, as often as not): judged as a command.
_KEYSTROKE = re.compile(r"\bkeystroke\s+" + _STRING, re.IGNORECASE)
# A dialog that asks for a hidden answer or a password: the system's look, the user's secret.
_PHISH = re.compile(r"display\s+dialog\b.*(hidden\s+answer|default\s+answer.*passw|"
                    r"passw.*default\s+answer)", re.IGNORECASE)  # fmt: skip
# Developer apps asked for what they show, or opened and quit: nothing of the user's.
_DEV_APPS = r"(Xcode|Xcode-beta|Simulator|Instruments|Docker|Visual Studio Code|Android Studio)"
_DEV_TELL = re.compile(
    r'^\s*tell\s+application\s+"' + _DEV_APPS + r'"\s+to\s+(activate|quit|launch|'
    r'(get|count)\s+[^"]*)\s*$',
    re.IGNORECASE,
)
# What may stand around a shell verb: a tell block aimed at a terminal or at nothing.
_TELL = re.compile(
    r'^\s*(tell\s+application\s+"(Terminal|iTerm2?|System Events)"(\s+to)?|end\s+tell|'
    r"tell\s+(current\s+session\s+of\s+)?(front|current)\s+window(\s+to)?)?\s*$",
    re.IGNORECASE,
)


def _osascript(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    codes = [args[i + 1] for i, word in enumerate(args[:-1]) if word == "-e"]
    language = next((args[i + 1] for i, w in enumerate(args[:-1]) if w == "-l"), "AppleScript")
    if not codes or language != "AppleScript" or any(cmd.dynamic):
        yield ask_finding(
            "applescript",
            "osascript runs a script file, JavaScript or text built at run time, which cannot "
            "be checked",
            "a human must confirm, or give plain AppleScript with -e",
        )
        return
    understood = True
    for line in "\n".join(codes).splitlines():
        rest = line
        for found in _SHELL_VERB.finditer(line):
            command = found.group(1).replace('\\"', '"').replace("\\\\", "\\")
            if found.group(2):
                command = requote(["sudo", "sh", "-c", command])
            verb = found.group(0).split()[1].lower()
            where = {"shell": "/", "script": "~"}.get(verb, '"$ITERM_SESSION_DIR"')
            yield Nested(f"(cd {where} && {command})")
            rest = rest.replace(found.group(0), " ")
        for typed in _KEYSTROKE.finditer(line):
            yield Nested(typed.group(1).replace('\\"', '"').replace("\\\\", "\\"))
        if _PHISH.search(line):
            yield deny_finding(
                "password-phishing",
                "the AppleScript shows a dialog that asks for a password or a hidden answer, "
                "which the agent would read",
                "never ask the user for a password; let the program that needs it ask",
            )
        shown = _SHOWS.match(rest) or _TELL.match(rest) or _DEV_TELL.match(rest)
        understood = understood and bool(shown)
    if not understood:
        yield ask_finding(
            "applescript",
            "the AppleScript does more than show a message or run a shell command, and "
            "AppleScript can drive any application, so it cannot be checked",
        )


HANDLERS: dict[str, Handler] = {"osascript": _osascript}
