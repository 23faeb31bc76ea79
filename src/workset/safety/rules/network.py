"""Rules for the network: tools that contact other hosts, and code fetched from a download.

Downloaders are remembered in the :class:`~workset.safety.rules.base.Context` (what files this
line fetched) so that running them later in the same line is denied like a download piped
into a shell.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result
from workset.safety.rules.wrappers import unwrap

DOWNLOADERS = frozenset({"curl", "wget", "fetch", "aria2c", "http", "https", "lwp-request"})
NETWORK = frozenset(
    {
        "curl",
        "wget",
        "ssh",
        "scp",
        "sftp",
        "nc",
        "ncat",
        "netcat",
        "telnet",
        "ftp",
        "socat",
        "aria2c",
        "fetch",
        "http",
        "https",
    }
)
_HOST_ARG = re.compile(r"^([\w.-]+@)?[\w.-]+:")


def download_exec(what: str) -> Finding:
    return Finding(
        "download-exec",
        "deny",
        f"{what}: code fetched from the network runs unseen; download the file into the "
        "workspace, read it, then run it as a separate, reviewed step",
    )


def downloads(cmds: Sequence[Cmd]) -> bool:
    return any(unwrap(c, []).name in DOWNLOADERS | {"nc", "ncat", "netcat"} for c in cmds)


def download_targets(cmd: Cmd, ctx: Context) -> set[str]:
    """Files a curl/wget call writes (to recognise ``curl -o x.sh …; sh x.sh``)."""
    out: set[str] = set()
    args = cmd.args()
    for index, word in enumerate(args):
        value = args[index + 1] if index + 1 < len(args) else ""
        if word in ("-o", "--output", "-O", "--output-document"):
            if not (cmd.name == "curl" and word == "-O"):
                out.add(value)
        elif word.startswith(("--output=", "--output-document=")):
            out.add(word.split("=", 1)[1])
    if (cmd.name == "wget" and not out) or (cmd.name == "curl" and ("-O" in args or "-LO" in args)):
        urls = [a for a in args if "://" in a]
        out.update(u.rstrip("/").rsplit("/", 1)[-1] for u in urls)
    out.update(t for op, t in cmd.redirects if op in (">", ">>"))
    return {w for w in out if w and w != "-"} | {ctx.resolve(w) for w in out if w}


def _remote_copy(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if any(_HOST_ARG.match(a) for a in cmd.args() if not a.startswith("-")):
        yield Finding(
            "network",
            "ask",
            f"{cmd.name} copies to or from another host; confirm the host and the paths",
        )


HANDLERS: dict[str, Handler] = {"rsync": _remote_copy}
