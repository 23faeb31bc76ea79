"""Rules for reading another process's memory: core dumps and debuggers attached by PID.

``gcore PID``, ``gdb -p PID``, ``lldb -p PID`` and ``strace -p PID`` see everything the
process holds. When that process keeps keys or passwords (``ssh-agent``, ``gpg-agent``, the
desktop keyring, ``sshd``, password managers, browsers), named in the PID's own word
(``$(pgrep -n ssh-agent)``) or looked up earlier in the line (``pid=$(pidof gpg-agent); gcore
$pid``), the dump is a theft of those secrets and is denied. A ``gcore`` of any other process
asks: it may hold the user's data, and the analysis cannot tell whose it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result, option_value

# Processes that hold keys, passwords or session secrets in memory.
_HOLDERS = re.compile(
    r"\b(ssh-agent|gpg-agent|gnome-keyring(-daemon)?|kwalletd\d*|keepassxc?|1password|"
    r"bitwarden|secret-service|sshd|polkitd?|sudo|login|vault|gnome-shell|lsass|"
    r"chrom(e|ium)|firefox)\b",
    re.IGNORECASE,
)
_FINDERS = frozenset({"pgrep", "pidof", "pkill"})


def _finder(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``pgrep ssh-agent``: remember that the line looked up a holder of secrets."""
    if cmd.name != "pkill":
        for word in cmd.args():
            found = _HOLDERS.search(word)
            if found and not word.startswith("-"):
                ctx.secret_holder = found.group(1)
    yield from ()


def _pid_of(cmd: Cmd) -> tuple[int, str] | None:
    """The argument naming the process to dump or attach to, with its index in ``argv``."""
    args = cmd.args()
    if cmd.name == "gcore":
        operands = [(i, a) for i, a in enumerate(args, 1) if not a.startswith("-")]
        operands = [(i, a) for i, a in operands if args[i - 2] != "-o"]
        return operands[-1] if operands else None
    value = option_value(args, ("-p", "--pid", "--attach-pid"))
    if value is None:
        return None
    return cmd.argv.index(value), value


def _dump(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    pid = _pid_of(cmd)
    if pid is None:
        return
    index, word = pid
    holder = _HOLDERS.search(word)
    name = holder.group(1) if holder else (ctx.secret_holder if cmd.is_dynamic(index) else "")
    if name:
        yield Finding(
            "process-memory",
            "deny",
            f"{cmd.name} reads the memory of {name}, which holds keys, passwords or login "
            "sessions in the clear: dumping it steals them; never read another process's "
            "memory — ask the user",
        )
    elif cmd.name == "gcore":
        yield Finding(
            "process-memory",
            "ask",
            "gcore dumps the whole memory of a running process, with whatever secrets and "
            "user data it holds, to a file; a human must confirm, or debug a program you start",
        )


HANDLERS: dict[str, Handler] = {
    **dict.fromkeys(_FINDERS, _finder),
    **dict.fromkeys(("gcore", "gdb", "lldb", "strace", "ltrace"), _dump),
}
