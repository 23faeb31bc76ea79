"""The clipboard: what is copied into it, and what is read out of it.

Copying text into the clipboard (``git diff | xclip -selection clipboard``, ``xsel -ib``,
``wl-copy``, ``pbcopy``) only hands the user something to paste; it runs, as ``pbcopy``
does. Reading it (``xclip -o``, ``xsel -o``, ``wl-paste``, ``pbpaste``) takes whatever the user
last copied — often a password or a token — into the agent's context, so it asks as a read of
a secret does; and because it counts as one, the clipboard sent to the network in the same
line (``pbpaste | curl -d @- …``, ``echo "$(xclip -o)" | nc …``) is denied as exfiltration.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result, unknown_program
from workset.safety.rules.confinement import inside

_READERS = frozenset({"pbpaste", "wl-paste"})
_WRITERS = frozenset({"xclip", "xsel", "wl-copy", "pbcopy"})
_XCLIP_VALUED = frozenset({"-selection", "-sel", "-target", "-t", "-display", "-d", "-l",
                           "-loops"})  # fmt: skip


def reads(cmd: Cmd) -> bool:
    """``cmd`` prints the clipboard."""
    args = cmd.args()
    if cmd.name in _READERS:
        return True
    if cmd.name == "xclip":
        return any(a in ("-o", "-out") for a in args)
    if cmd.name == "xsel":
        letters = {c for a in args if re.fullmatch(r"-[a-zA-Z]+", a) for c in a[1:]}
        writes = bool(letters & set("iac")) or {"--input", "--append", "--clear"} & set(args)
        return bool("o" in letters or "--output" in args) or not (writes or cmd.piped)
    return False


def _read(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if reads(cmd):
        yield Finding(
            "secret-read",
            "ask",
            "reads the clipboard, which holds whatever the user last copied (often a password "
            "or a token); a human must confirm, and secrets never belong in the agent's context",
        )


def copied(cmd: Cmd, ctx: Context) -> Finding | None:
    """Vouches for copying into the clipboard (files named must be in the workspace)."""
    if any(cmd.dynamic):
        return unknown_program(cmd.name)
    if reads(cmd):
        return None  # the read asks on its own
    args = cmd.args()
    files = [a for i, a in enumerate(args) if not a.startswith("-")
             and not (i and args[i - 1] in _XCLIP_VALUED)]  # fmt: skip
    files = [] if cmd.name == "xsel" else files
    outside = next((f for f in files if not inside(f, ctx)), None)
    return unknown_program(cmd.name, f" (it copies {outside!r})") if outside else None


HANDLERS: dict[str, Handler] = {n: _read for n in _READERS | _WRITERS}
VOUCHERS = {n: copied for n in _READERS | _WRITERS}
