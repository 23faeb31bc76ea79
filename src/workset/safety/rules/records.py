"""Rules for the record of what ran: shell history, the system journal, logs.

Wiping history or pointing it at ``/dev/null``, vacuuming the journal or clearing the kernel
ring buffer is only ever done to hide what ran, so it is denied; other changes to the journal
ask.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result

# Shell and REPL history, whichever shell keeps it: bash/zsh/python dot files, fish, nushell,
# atuin, PowerShell, the ``.zsh_sessions`` of macOS.
HISTORY_FILE = re.compile(
    r"(^|/)\.([a-z_]*_history|histfile|lesshst|zhistory|viminfo)$|(^|/)fish/fish_history$|"
    r"(^|/)nushell/history\.(txt|sqlite3)$|(^|/)atuin/history\.db$|"
    r"(^|/)ConsoleHost_history\.txt$|(^|/)\.(bash|zsh)_sessions(/|$)"
)
_SYSTEM_RECORD = re.compile(
    r"^/var/log/.|^/(var/)?run/utmp$|"
    r"^~/\.(local/state|local/share|config|cache)/[^/]+/(audit|logs?)(/|$)"
)
# (the last: an agent's or tool's own audit log kept in the home, ~/.local/state/agent/audit)


def erases_record(path: str, ctx: Context) -> bool:
    """Emptying or deleting ``path`` erases a record of what ran: shell history or logs.

    A file named like history inside the workspace (``./tmp/.bash_history``, a fixture) is
    the project's own file, not the user's history.
    """
    if _SYSTEM_RECORD.match(path):
        return True
    return bool(HISTORY_FILE.search(path)) and not paths.in_workspace(path, ctx.workspace)


def wipe(what: str) -> Finding:
    return Finding(
        "history-wipe",
        "deny",
        f"{what} erases the record of what ran, which only ever hides it; leave shell history "
        "and logs alone",
    )


def _history(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if any(a.startswith("-") and set(a[1:]) & set("cdw") for a in args):
        yield wipe(f"history {' '.join(args)}")


def _unset(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if "HISTFILE" in cmd.args():
        yield wipe("unset HISTFILE")


def _set(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if "+o" in args and "history" in args:
        yield wipe("set +o history")


_JOURNAL_WIPES = ("--vacuum-size", "--vacuum-time", "--vacuum-files", "--rotate", "--flush",
                  "--relinquish-var", "--smart-relinquish-var", "--setup-keys")  # fmt: skip


def _journal(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """journalctl --vacuum-*/--rotate and dmesg --clear change the system's logs."""
    args = cmd.args()
    if cmd.name == "journalctl":
        changes = [a for a in args if a.split("=", 1)[0] in _JOURNAL_WIPES]
        if any(a.startswith("--vacuum") for a in changes):
            yield wipe(f"journalctl {' '.join(changes)}")
        elif changes:
            yield Finding(
                "log-change",
                "ask",
                f"journalctl {changes[0]} changes the system journal; a human must confirm, "
                "or only read it (journalctl -n 100)",
            )
    elif any(a in ("-c", "-C", "--clear", "--read-clear") or re.fullmatch(r"-[a-zA-Z]*[cC]", a)
             for a in args):  # fmt: skip
        yield wipe(f"dmesg {' '.join(args)}")


HANDLERS: dict[str, Handler] = {
    "history": _history,
    "unset": _unset,
    "set": _set,
    "journalctl": _journal,
    "dmesg": _journal,
}
