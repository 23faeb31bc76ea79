"""Rules for commands that serve files to other machines: one-line web servers and kin.

``python3 -m http.server``, ``php -S``, ``ruby -run -e httpd`` and ``busybox httpd`` hand every
file under a directory to whoever connects, and they listen on every interface unless told
otherwise. That is network access in the other direction, so it asks (rule ``network``, which
makes a server over a tree of secrets such as ``~`` exfiltration, denied). Bound to the
loopback address (``--bind 127.0.0.1``, ``php -S localhost:8000``) the server stays on this
machine and runs without asking.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Finding, Result, option_value
from workset.safety.rules.secrets import is_secret, secret_read

_PYTHON = re.compile(r"^(python|pypy)[0-9.]*$")
_PYTHON_SERVERS = frozenset({"http.server", "SimpleHTTPServer", "xmlrpc.server", "smtpd",
                             "aiosmtpd", "pyftpdlib", "wsgiref.simple_server"})  # fmt: skip
_LOOPBACK = re.compile(r"^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])(:\d+)?$", re.IGNORECASE)


def serving(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """A finding when ``cmd`` serves files to other machines."""
    served = _served(cmd)
    if served is None or any(a in ("-h", "--help") for a in cmd.args()[-1:]):
        return
    what, host = served
    if ctx.cwd is not None and not _names_directory(cmd):
        place = ctx.cwd  # served from where the line cd'ed to: that tree is read
        if is_secret(place) or place in ("~", "/root") or place.startswith(("~/.", "/etc")):
            yield secret_read([place])
    if host is not None and _LOOPBACK.match(host):
        return
    root = _root(cmd, ctx)
    if root is not None and paths.is_protected(root) and not paths.is_scratch(root):
        yield Finding(
            "serves-system",
            "deny",
            f"{what} hands every file under {root} (the whole system, the home, or one of its "
            "trees: keys, settings, other projects) to anyone who can reach this machine; serve "
            "only a folder of the workspace, bound to 127.0.0.1",
        )
        return
    yield Finding(
        "network",
        "ask",
        f"{what} serves files to other machines (it listens on every interface); a human must "
        "confirm, or bind it to 127.0.0.1",
    )


def _served(cmd: Cmd) -> tuple[str, str | None] | None:
    """(what serves, the host it binds to or None for every interface), or None."""
    args = cmd.args()
    name = cmd.name
    if _PYTHON.match(name) and "-m" in args:
        module = args[args.index("-m") + 1] if args.index("-m") + 1 < len(args) else ""
        if module == "pydoc" and any(a in ("-p", "-b") for a in args):
            return "pydoc -p", option_value(args, ("-n",)) or "localhost"
        if module in _PYTHON_SERVERS:
            return f"{name} -m {module}", option_value(args, ("-b", "--bind"))
    if name == "php" and "-S" in args:
        address = option_value(args, ("-S",)) or ""
        return "php -S", address.rsplit(":", 1)[0] if ":" in address else address
    if name == "ruby" and "-run" in args and "httpd" in args:
        return "ruby -run -e httpd", option_value(args, ("--bind-address", "-b"))
    if name == "httpd":  # busybox httpd, or a web server's own binary
        return "httpd", None
    return None


def _root(cmd: Cmd, ctx: Context) -> str | None:
    """The folder served, resolved: the one named (``--directory /``, ``php -t ~``, busybox
    ``-h /``), else where the line ``cd``'ed to; None when neither is known."""
    named = option_value(cmd.args(), ("-d", "--directory", "-t", "-h"))
    if named is None:
        return None if _names_directory(cmd) else ctx.cwd
    index = cmd.argv.index(named) if named in cmd.argv else None
    return None if index is not None and cmd.is_dynamic(index) else ctx.resolve(named)


def _names_directory(cmd: Cmd) -> bool:
    args = cmd.args()
    return any(a in ("-d", "--directory", "-t", "-h") or a.startswith("--directory=") for a in args)
