"""Rules for the record of what ran: shell history, the system journal, logs.

Wiping history or pointing it at ``/dev/null``, vacuuming the journal or clearing the kernel
ring buffer is only ever done to hide what ran, so it is denied; other changes to the journal
ask. So is backdating a file outside the workspace (``touch -r /usr/bin/gpg-agent
~/.local/bin/helper``, ``touch -d 2020-01-01 ~/.ssh/authorized_keys``): a file's times are the
record of when it changed, and setting them by hand makes a planted file look old; inside the
workspace the same options keep a build's stamps in order. Evidence collected for an
investigation (an ``evidence/`` or numbered case folder, a disk or memory image) is a record
too: deleting it is denied wherever it lies.
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
    r"^~/\.(local/state|local/share|config|cache)/[^/]+/(audit|logs?)(/|$|\.(jsonl?|log|db)$)"
)
# (the last: an agent's or tool's own audit log kept in the home, ~/.local/state/agent/audit,
# ~/.local/state/workset/audit.jsonl)


# A coding agent's own audit log, in the project too (.workset/audit.log, .claude/audit.jsonl).
_AGENT_AUDIT = re.compile(
    r"(^|/)\.(workset|claude|codex|cursor|aider|continue|gemini|windsurf|agent)/(.*/)?audit[\w.-]*$"
)


def erases_record(path: str, ctx: Context) -> bool:
    """Emptying or deleting ``path`` erases a record of what ran: shell history or logs.

    A file named like history inside the workspace (``./tmp/.bash_history``, a fixture) is
    the project's own file, not the user's history.
    """
    if _SYSTEM_RECORD.match(path) or _AGENT_AUDIT.search(path):
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
    elif (
        cmd.name == "shopt"
        and "history" in args
        and any(a.startswith("-") and "u" in a for a in args)
    ):
        yield wipe("shopt -u -o history")  # the same switch, by shopt


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


_TOUCH_TIMES = ("-r", "--reference", "-d", "--date", "-t")


def _touch(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    valued = {i + 1 for i, a in enumerate(args) if a in _TOUCH_TIMES}
    if not valued and not any(a.startswith(("--reference=", "--date=")) for a in args):
        return
    targets = [a for i, a in enumerate(args) if i not in valued and not a.startswith("-")]
    outside = [t for t in targets if not paths.in_workspace(ctx.resolve(t), ctx.workspace)
               and not ctx.resolve(t).startswith("/tmp/")]  # fmt: skip
    if outside:
        yield Finding(
            "timestomp",
            "deny",
            f"touch sets the times of {outside[0]}, outside the workspace, by hand: that makes a "
            "changed or planted file look as old as the system's own, which only ever hides "
            "it; leave the times of files outside the workspace alone",
        )


# An investigation's evidence: a folder named for it (evidence/, a case or incident numbered),
# or a disk or memory image in a forensic format.
_EVIDENCE = re.compile(
    r"(^|/)(evidence|(case|incident)[-_]\d[\w.-]*)(/|$)|"
    r"\.(e01|ex01|l01|aff4?|lime|vmem|vmss|mem)$",
    re.IGNORECASE,
)


def _evidence(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``rm -rf evidence/case-12/``, ``shred -u memory.lime``: evidence destroyed."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    hit = next((w for w in words if _EVIDENCE.search(paths.normalize(w))), None)
    if hit is not None:
        yield Finding(
            "evidence-destroyed",
            "deny",
            f"{cmd.name} deletes {hit}, evidence of an investigation whose chain of custody "
            "must stay intact; work on a copy, and leave deleting evidence to its custodian",
        )


HANDLERS: dict[str, Handler] = {
    **{n: _evidence for n in ("rm", "shred", "srm", "unlink", "rmdir", "wipe")},
    "touch": _touch,
    "history": _history,
    "unset": _unset,
    "set": _set,
    "shopt": _set,
    "journalctl": _journal,
    "dmesg": _journal,
}
