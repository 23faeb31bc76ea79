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
    """A finding when ``cmd`` serves files or runs code for other machines."""
    yield from _runs_for_anyone(cmd)
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
    yield Finding(
        "network",
        "ask",
        f"{what} serves files to other machines (it listens on every interface); a human must "
        "confirm, or bind it to 127.0.0.1",
    )


# Sockets of services that run what they are asked as root: the container engines, libvirt.
_ROOT_SOCKET = re.compile(r"(docker|containerd|podman|libvirt[\w-]*|crio)\.sock", re.IGNORECASE)
_LISTENS = re.compile(r"^(tcp[46]?-listen|openssl-listen|sctp-listen)[:,]", re.IGNORECASE)
_OPEN_HOST = re.compile(r"^(tcp://|fd://)?(0\.0\.0\.0|\[?::\]?|\*)?(:\d+)?$")


def _runs_for_anyone(cmd: Cmd) -> Iterator[Finding]:
    """A service that runs code or commands for whoever connects, opened beyond this machine:
    the container engine's API on a TCP port (``dockerd -H tcp://0.0.0.0:2375``, ``socat
    TCP-LISTEN:2375 UNIX-CONNECT:/var/run/docker.sock``), a notebook server on every interface
    with its token switched off."""
    args = cmd.args()
    what = ""
    if cmd.name in ("dockerd", "containerd", "podman") and any(
        _remote_bind(a) for a in _values(args, ("-H", "--host"))
    ):
        what = f"{cmd.name} -H tcp://…"
    elif (
        cmd.name in ("socat", "ncat")
        and any(_LISTENS.match(a) for a in args)
        and any(_ROOT_SOCKET.search(a) for a in args)
    ):
        what = f"{cmd.name} from a TCP port to the engine's socket"
    elif (
        cmd.name == "jupyter"
        and _tokenless(args)
        and any(
            _OPEN_HOST.match(v)
            for v in _values(args, ("--ip", "--ServerApp.ip", "--NotebookApp.ip"))
        )
    ):
        what = "a notebook server on every interface with no token"
    if what:
        yield Finding(
            "serves-root-access",
            "deny",
            f"{what} lets anyone who reaches this machine run commands on it (containers "
            "mounting /, code in a notebook) without logging in; keep it on 127.0.0.1 with "
            "its login on",
        )
    elif cmd.name == "jupyter" and any(
        not _LOOPBACK.match(v)
        for v in _values(args, ("--ip", "--ServerApp.ip", "--NotebookApp.ip"))
    ):
        yield Finding(
            "network",
            "ask",
            "jupyter serves notebooks that run code to other machines (it listens beyond "
            "127.0.0.1); a human must confirm, or leave --ip at its default",
        )


def _values(args: tuple[str, ...], options: tuple[str, ...]) -> list[str]:
    """Every value given to one of ``options`` (``-H a -H b``, ``--ip=x``)."""
    out = [args[i + 1] for i, a in enumerate(args[:-1]) if a in options]
    return out + [a.split("=", 1)[1] for a in args if a.split("=", 1)[0] in options and "=" in a]


def _remote_bind(address: str) -> bool:
    host = re.sub(r"^tcp://", "", address) if address.startswith("tcp://") else ""
    return bool(host) and not _LOOPBACK.match(host.rsplit(":", 1)[0] if ":" in host else host)


def _tokenless(args: tuple[str, ...]) -> bool:
    return any(
        re.fullmatch(r"--(NotebookApp|ServerApp|IdentityProvider)\.(token|password)=(''|\"\")?", a)
        or a.endswith(".disable_check_xsrf=True")
        for a in args
    )


def _served(cmd: Cmd) -> tuple[str, str | None] | None:
    """(what serves, the host it binds to or None for every interface), or None."""
    args = cmd.args()
    name = cmd.name
    if _PYTHON.match(name) and "-m" in args:
        module = args[args.index("-m") + 1] if args.index("-m") + 1 < len(args) else ""
        if module == "pydoc" and any(a in ("-p", "-b") for a in args):
            return "pydoc -p", option_value(args, ("-n",)) or "localhost"
        if module == "aiosmtpd":  # -l HOST:PORT, --listen HOST:PORT (default localhost:8025)
            listen = option_value(args, ("-l", "--listen")) or "localhost"
            return f"{name} -m aiosmtpd", listen.rsplit(":", 1)[0] or None
        if module in _PYTHON_SERVERS:
            return f"{name} -m {module}", option_value(args, ("-b", "--bind"))
    if name == "php" and "-S" in args:
        address = option_value(args, ("-S",)) or ""
        return "php -S", address.rsplit(":", 1)[0] if ":" in address else address
    if name == "ruby" and "-run" in args and "httpd" in args:
        return "ruby -run -e httpd", option_value(args, ("--bind-address", "-b"))
    if name == "httpd":  # busybox httpd, or a web server's own binary
        return "httpd", None
    node = _node_server(cmd)
    if node is not None:
        listen = option_value(node, ("-a", "--address", "--host", "-l", "--listen")) or ""
        host = re.sub(r"^tcp://|:\d+$", "", listen) if not listen.isdigit() else None
        return f"{cmd.name} {node[0]}" if node[0] != cmd.name else cmd.name, host or None
    return None


_NODE_SERVERS = frozenset({"http-server", "serve", "live-server", "httpserver"})
_RUNNERS = frozenset({"npx", "pnpx", "bunx", "pnpm", "yarn"})


def _node_server(cmd: Cmd) -> tuple[str, ...] | None:
    """``npx http-server DIR -a HOST``, ``serve DIR``: the server's words, its name first."""
    words = (cmd.name, *cmd.args())
    if cmd.name in _RUNNERS:
        words = tuple(a for a in cmd.args() if a not in ("dlx", "exec", "-y", "--yes"))
    return words if words and words[0].split("@")[0] in _NODE_SERVERS else None


def _root(cmd: Cmd, ctx: Context) -> str | None:
    """The folder served, resolved: the one named (``--directory /``, ``php -t ~``, busybox
    ``-h /``), else where the line ``cd``'ed to; None when neither is known."""
    named = option_value(cmd.args(), ("-d", "--directory", "-t", "-h"))
    node = _node_server(cmd)
    if node is not None:  # npx http-server DIR: the first word that is not an option's
        valued = ("-p", "--port", "-a", "--address", "--host", "-l", "--listen", "-c")
        operands = [w for i, w in enumerate(node[1:]) if not w.startswith("-")
                    and (i == 0 or node[i] not in valued)]  # fmt: skip
        named = operands[0] if operands else "."
    if named is None:
        return None if _names_directory(cmd) else ctx.cwd
    index = cmd.argv.index(named) if named in cmd.argv else None
    return None if index is not None and cmd.is_dynamic(index) else ctx.resolve(named)


def _names_directory(cmd: Cmd) -> bool:
    args = cmd.args()
    return any(a in ("-d", "--directory", "-t", "-h") or a.startswith("--directory=") for a in args)
