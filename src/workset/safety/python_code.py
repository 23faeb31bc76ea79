"""What Python code would do, read from its syntax tree without running it.

:func:`effects` lists, in order, the findings about ``code``, the shell and Python code it
would run (``os.system``, ``subprocess`` strings, ``exec``) as
:class:`~workset.safety.rules.Nested`, and its file operations (``shutil.rmtree``,
``open(…, 'w')``, ``os.kill``) as the shell command they amount to, for the walker to judge
like ``rm -r`` or a redirection.
"""

from __future__ import annotations

import ast
import re
import shlex
from collections.abc import Iterator
from typing import TypeAlias

from workset.safety.python_archives import extraction
from workset.safety.python_decode import decoded
from workset.safety.python_loops import expanded, literal_names
from workset.safety.rules import Cmd, Finding, Nested, fork_bomb
from workset.safety.rules.secrets import is_secret, plain_secret, secret_read, secret_variables

Effect: TypeAlias = Finding | Nested | Cmd


def effects(code: str) -> Iterator[Effect]:
    """Findings, nested code and file operations of ``code``, in the order they appear."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        yield Finding(
            "unparseable",
            "ask",
            "unparseable code: it is not valid Python, so it cannot be checked; fix the syntax",
        )
        return
    modules = _imports(tree)
    network = {m for m in modules & _NETWORK_MODULES if not _local_only(tree, m)}
    if network and modules & {"subprocess", "pty", "os"} and _dup_or_spawn(tree):
        yield Finding(
            "reverse-shell",
            "deny",
            "Python code that connects a socket to a shell gives a remote machine a shell here "
            "(a reverse shell); never run it",
        )
        return
    if network and _evaluates_computed_code(tree):
        yield Finding(
            "download-exec",
            "deny",
            "the code fetches text from the network and runs it with exec/eval: code fetched "
            "from the network runs unseen; download the file into the workspace, read it, "
            "then run it as a separate, reviewed step",
        )
        return
    sent = _sent_credential(tree) if network else None
    if sent is not None:
        yield Finding(
            "exfiltration",
            "deny",
            f"the code puts {sent} into the address or body of a request to another host, "
            "which hands the credential to it; never send credentials anywhere — ask the user "
            "if it is truly needed",
        )
    uploaded = _uploaded_file(tree) if network else None
    if uploaded is not None:
        yield Finding(
            "exfiltration",
            "deny",
            f"the code sends the file {uploaded} in a request that logs in nowhere (no auth= or "
            "Authorization header), so anyone may be the receiver; send data only to a service "
            "the user named and logs in to, and ask the user first",
        )
    if network:
        yield Finding(
            "network",
            "ask",
            f"the code uses {sorted(network)[0]}, which reaches the network; confirm the host, "
            "or fetch into the workspace with a reviewed step",
        )
    secrets = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and is_secret(n.value)
    ]
    opened = [  # open(os.path.join(os.path.expanduser('~'), '.npmrc')): the path it names
        _literal_path(n.args[0])
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and n.args and _dotted(n.func).rsplit(".", 1)[-1] in _READS
    ]
    opened += [  # (Path.home() / '.aws' / 'credentials').read_text()
        _literal_path(n.func.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
        and n.func.attr in ("read_text", "read_bytes", "open")
    ]  # fmt: skip
    secrets = [*(p for p in opened if p is not None and is_secret(p)), *secrets]
    if secrets:
        reads = any(
            isinstance(n, ast.Call) and _dotted(n.func).rsplit(".", 1)[-1] in _READS
            for n in ast.walk(tree)
        )
        yield secret_read(secrets, reveals=reads and any(plain_secret(v) for v in secrets))
    for name in sorted(modules & _RAW_MODULES):
        yield Finding(
            "dynamic-code",
            "ask",
            f"the code uses {name}, whose effects cannot be checked statically; confirm it",
        )
    if any(isinstance(n, ast.Call) and _dotted(n.func).rsplit(".", 1)[-1] in _SHOWS and any(
        _dotted(a).endswith("environ") or any(map(_whole_environment, ast.walk(a))) for a in n.args
    ) for n in ast.walk(tree)):  # fmt: skip  # print(os.environ), f.write(str(dict(os.environ)))
        yield secret_read(["the environment"], reveals=False)
    names = literal_names(tree, _literal_path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _computed_attribute(node):
            yield _built_at_run_time("the attribute getattr() reads is")
        if isinstance(node, ast.Call):
            for call in expanded(node, names):  # for d in ("build", "dist"): rmtree(d)
                yield from _call(call)
        elif isinstance(node, ast.While | ast.For):
            loop_calls = (n for n in ast.walk(node) if isinstance(n, ast.Call))
            if any(_dotted(c.func).endswith("fork") for c in loop_calls):
                yield fork_bomb("os.fork in a loop")


_SHOWS = frozenset({"print", "pprint", "write", "writelines", "write_text", "dump", "info",
                    "debug", "warning", "error", "log"})  # fmt: skip  # shown, logged or kept


def _evaluates_computed_code(tree: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call)
        and _dotted(n.func) in ("exec", "eval", "compile")
        and bool(n.args)
        and not isinstance(n.args[0], ast.Constant)
        for n in ast.walk(tree)
    )


def _call(node: ast.Call) -> Iterator[Effect]:
    """What one call does: code it runs, or a file operation as its shell command."""
    name = _dotted(node.func)
    last = name.rsplit(".", 1)[-1]
    first = node.args[0] if node.args else None
    shell = any(
        k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in node.keywords
    )
    as_shell = last in ("system", "popen", "getoutput", "getstatusoutput") or (
        shell and last in _SUBPROCESS
    )
    if name in ("exec", "eval", "compile") and first is not None:
        code = _constant_text(first)
        code = code if code is not None else decoded(first)
        if code is not None:
            yield Nested(code, "python")
        else:
            yield _built_at_run_time(f"{name}() runs Python code")
        return
    os_exec = name.startswith("os.") and last.startswith(("exec", "spawn"))
    if os_exec and len(node.args) > 1:
        first = node.args[1] if last.endswith(("v", "ve", "vp", "vpe")) else first
    if first is not None and (as_shell or last in _SUBPROCESS or os_exec):
        text = _literal_command(first)
        if text is None and as_shell:
            yield Finding(
                "dynamic-code",
                "ask",
                f"{name}() runs a shell command built at run time, so it cannot be "
                "checked; pass a literal command",
            )
        elif text is not None:
            yield Nested(text)
        else:
            yield _built_at_run_time(f"{name}() runs a command")
        return
    path = _literal_path(first) if first is not None else None
    receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
    if isinstance(receiver, ast.Call | ast.BinOp) and last in _PATH_METHODS:
        yield from _path_method(last, _literal_path(receiver))  # Path('/x').unlink()
        return
    if (
        last == "write"
        and isinstance(receiver, ast.Call)
        and _dotted(receiver.func) in ("open", "io.open")
    ):
        yield from _written(receiver, first)  # open('~/.bashrc', 'a').write('curl …|sh')
        return
    unpacked = extraction(node, name, _literal_path)  # tarfile.open(f).extractall('/')
    if unpacked is not None:
        yield unpacked
        return
    argv: tuple[str, ...] | None = None
    redirects: tuple[tuple[str, str], ...] = ()
    if last in ("chmod", "lchmod", "chown", "lchown") and name.startswith(("os.", "shutil.")):
        second = node.args[1] if len(node.args) > 1 else None
        mode = second.value if isinstance(second, ast.Constant) else None
        if last.endswith("chmod"):
            argv = ("chmod", format(mode, "o") if isinstance(mode, int) else "777")
        else:
            argv = ("chown", "root" if mode in (0, "root") else "someone")
        argv = (*argv, path if path is not None else _COMPUTED)
    elif last == "rmtree":
        argv = ("rm", "-r", path if path is not None else _COMPUTED)
    elif last in ("remove", "unlink", "rmdir") and path is not None:
        argv = ("rm", path)
    elif last in ("open", "write_text", "write_bytes") and path is not None:
        if last != "open" or _opens_for_writing(node):
            argv, redirects = ("python",), ((">", path),)
    elif last == "kill" and name.startswith("os") and path is not None:
        argv = ("kill", path)
    if argv is not None:
        dynamic = tuple(w == _COMPUTED for w in argv)
        yield Cmd(argv=argv, redirects=redirects, dynamic=dynamic)
    elif first is not None and path is None and _changes_a_file(node, name, last):
        yield Finding(
            "dynamic-path",
            "ask",
            f"{name}() changes a file whose path is only known at run time; a human must "
            "confirm, or write the path literally",
        )


def _written(opened: ast.Call, text: ast.expr | None) -> Iterator[Effect]:
    """``open(PATH, MODE).write(TEXT)`` with literals: the ``printf`` into PATH it amounts to,
    so that code left in a startup file or a hook is analysed."""
    path = _literal_path(opened.args[0]) if opened.args else None
    mode = opened.args[1] if len(opened.args) > 1 else None
    appends = isinstance(mode, ast.Constant) and "a" in str(mode.value)
    if path is None or not isinstance(text, ast.Constant) or not isinstance(text.value, str):
        return
    yield Cmd(
        argv=("printf", "%s", text.value),
        redirects=((">>" if appends else ">", path),),
        dynamic=(False, False, False),
    )


# Calls that put a file's content in the output or in a new file.
_READS = frozenset({"open", "read_text", "read_bytes", "copy", "copy2", "copyfile", "copytree",
                    "make_archive", "load", "loads", "read"})  # fmt: skip
_PATH_METHODS = frozenset({"unlink", "rmdir", "write_text", "write_bytes", "touch", "rename",
                           "replace", "chmod", "symlink_to", "hardlink_to", "mkdir"})  # fmt: skip


def _path_method(method: str, path: str | None) -> Iterator[Effect]:
    """A pathlib method that changes the file it is called on."""
    if path is None:
        yield Finding(
            "dynamic-path",
            "ask",
            f"Path.{method}() changes a file whose path is only known at run time; a human "
            "must confirm, or write the path literally",
        )
    elif method in ("unlink", "rmdir"):
        yield Cmd(argv=("rm", path), dynamic=(False, False))
    elif method == "chmod":
        yield Cmd(argv=("chmod", "644", path), dynamic=(False, False, False))
    elif method == "mkdir":
        yield Cmd(argv=("mkdir", path), dynamic=(False, False))
    else:
        yield Cmd(argv=("python",), redirects=((">", path),), dynamic=(False,))


def _changes_a_file(node: ast.Call, name: str, last: str) -> bool:
    if last in ("remove", "unlink", "rmdir", "removedirs") and name.startswith(("os", "Path")):
        return True
    return last == "open" and name in ("open", "io.open") and _opens_for_writing(node)


def _built_at_run_time(what: str) -> Finding:
    return Finding(
        "dynamic-code",
        "ask",
        f"{what} built at run time, so it cannot be checked; write it literally",
    )


_COMPUTED = "$PATH_COMPUTED_AT_RUN_TIME"
_SUBPROCESS = frozenset({"run", "call", "check_call", "check_output", "Popen", "spawn"})
_NETWORK_MODULES = frozenset(
    {"socket", "urllib", "urllib3", "requests", "httpx", "http", "aiohttp", "ftplib",
     "smtplib", "telnetlib", "paramiko", "websocket", "websockets", "xmlrpc", "poplib",
     "imaplib", "asyncssh", "pycurl"}
)  # fmt: skip
_RAW_MODULES = frozenset({"ctypes", "cffi", "mmap"})
# Names of network modules that reach no other host: the machine's own name, constants, enums.
_LOCAL_NAMES = {
    "socket": frozenset({"gethostname", "AF_INET", "AF_INET6", "AF_UNIX", "SOCK_STREAM",
                         "SOCK_DGRAM", "inet_aton", "inet_ntoa", "inet_pton", "inet_ntop",
                         "htons", "ntohs", "htonl", "ntohl", "has_ipv6"}),
    "http": frozenset({"HTTPStatus", "HTTPMethod"}),
}  # fmt: skip


def _local_only(tree: ast.AST, module: str) -> bool:
    """Every use of ``module`` in ``tree`` is one of its local names (``socket.gethostname()``,
    ``from http import HTTPStatus``): importing it reaches no host."""
    local = _LOCAL_NAMES.get(module)
    if local is None:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == module:
            if node.module != module or any(a.name not in local for a in node.names):
                return False
        elif isinstance(node, ast.Import) and any(
            a.name.split(".")[0] == module and (a.name != module or a.asname) for a in node.names
        ):
            return False  # import http.client, import socket as s: used under another name
        elif isinstance(node, ast.Name) and node.id == module:
            continue
        elif (
            isinstance(node, ast.Attribute)
            and _dotted(node.value) == module
            and node.attr not in local
        ):
            return False
    used = sum(isinstance(n, ast.Attribute) and _dotted(n.value) == module for n in ast.walk(tree))
    bare = sum(isinstance(n, ast.Name) and n.id == module for n in ast.walk(tree))
    return used == bare  # socket passed around whole (f(socket)) is not known to stay local


def _imports(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and _dotted(node.func) == "__import__" and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.add(arg.value.split(".")[0])
    return found


def _dup_or_spawn(tree: ast.AST) -> bool:
    names = {_dotted(n.func).rsplit(".", 1)[-1] for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return bool(names & {"dup2", "spawn", "Popen", "call", "run", "system", "execv", "execve"})


_REQUESTS = frozenset({"urlopen", "Request", "urlretrieve", "get", "post", "put", "patch",
                       "delete", "head", "request", "send", "sendall", "sendto", "gethostbyname",
                       "getaddrinfo", "create_connection"})  # fmt: skip
_SENT_KEYWORDS = frozenset({"url", "data", "params", "json", "body", "content", "files"})


def _sent_credential(tree: ast.AST) -> str | None:
    """A credential variable (``os.environ['GITHUB_TOKEN']``) in the address or body of a
    request; one in ``headers=``/``auth=`` is how the credential is used, and not counted."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or _dotted(node.func).rsplit(".", 1)[-1] not in _REQUESTS:
            continue
        sent = [*node.args, *(k.value for k in node.keywords if k.arg in _SENT_KEYWORDS)]
        for part in sent:
            for inner in ast.walk(part):
                name = _environment_read(inner)
                if name is not None and secret_variables("$" + name):
                    return name
                if _whole_environment(inner):
                    return "os.environ"  # every variable, the credentials among them
    return None


def _whole_environment(node: ast.AST) -> bool:
    """``os.environ`` itself used as a value (``str(dict(os.environ))``, ``os.environ.copy()``),
    not one of its keys read."""
    name = _dotted(node.func) if isinstance(node, ast.Call) else ""
    if name.endswith(("environ.copy", "environ.items")):
        return True
    return any(
        isinstance(node, ast.Call) and _dotted(node.func) in ("dict", "str", "repr", "json.dumps")
        and _dotted(a).endswith("environ") for a in getattr(node, "args", [])
    )  # fmt: skip


def _uploaded_file(tree: ast.AST) -> str | None:
    """A file opened in the body of a request to another host that does not log in
    (``requests.post(url, files={'f': open('dist.zip', 'rb')})``)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or _dotted(node.func).rsplit(".", 1)[-1] not in (
            "post", "put", "patch", "request", "urlopen", "Request"):  # fmt: skip
            continue
        keywords = {k.arg: k.value for k in node.keywords}
        headers = keywords.get("headers")
        logged_in = "auth" in keywords or "cert" in keywords or (
            headers is not None and any(
                isinstance(k, ast.Constant) and str(k.value).lower() in (
                    "authorization", "x-api-key", "private-token", "cookie")
                for k in getattr(headers, "keys", [])))  # fmt: skip
        url = node.args[0] if node.args else keywords.get("url")
        local = isinstance(url, ast.Constant) and re.match(
            r"^https?://(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(/|$)", str(url.value)
        )
        if logged_in or local:
            continue
        sent = [*node.args[1:], *(keywords[k] for k in ("data", "files", "json", "content")
                                  if k in keywords)]  # fmt: skip
        for part in sent:
            for inner in ast.walk(part):
                if isinstance(inner, ast.Call) and _dotted(inner.func) in ("open", "io.open"):
                    path = _literal_path(inner.args[0]) if inner.args else None
                    return repr(path) if path is not None else "opened at run time"
                if isinstance(inner, ast.Call) and _dotted(inner.func).endswith(
                    ("read_bytes", "read_text")
                ):
                    return "read from disk"
    return None


def _environment_read(node: ast.AST) -> str | None:
    """``NAME`` of ``os.environ['NAME']``, ``os.environ.get('NAME')``, ``os.getenv('NAME')``."""
    key: ast.expr | None
    if isinstance(node, ast.Subscript) and _dotted(node.value).endswith("environ"):
        key = node.slice
    elif isinstance(node, ast.Call) and _dotted(node.func).endswith(("environ.get", "getenv")):
        key = node.args[0] if node.args else None
    else:
        return None
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None


def _dotted(node: ast.expr) -> str:
    """``os.path.join`` for an attribute chain, ``rmtree`` for a bare name, else ``""``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call) and _dotted(node.func) == "getattr" and len(node.args) > 1:
        attribute = _constant_text(node.args[1])  # getattr(os, "sys" + "tem"): os.system
        return f"{_dotted(node.args[0])}.{attribute}" if attribute else ""
    if isinstance(node, ast.Call):  # __import__("os").system
        return _dotted(node.func)
    return ""


def _constant_text(node: ast.expr) -> str | None:
    """The value of a string built only of literals (``"sys" + "tem"``), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _constant_text(node.left), _constant_text(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))
    return None


def _computed_attribute(node: ast.Call) -> bool:
    """``getattr(os, name)`` with a name only known at run time: any function may be called."""
    return (
        _dotted(node.func) == "getattr"
        and len(node.args) > 1
        and _constant_text(node.args[1]) is None
    )


def _literal_command(node: ast.expr) -> str | None:
    """A command written with literals only (``'r' + 'm -rf ~'``, ``['rm', '-rf', x]`` is not)."""
    words = [_constant_text(e) for e in node.elts] if isinstance(node, ast.List | ast.Tuple) else []
    if words and all(w is not None for w in words):
        return shlex.join(w for w in words if w is not None)
    return _constant_text(node)


def _literal_path(node: ast.expr) -> str | None:
    """The path a literal expression names: ``'/x'``, ``Path('/x')``, ``expanduser('~')``…"""
    if isinstance(node, ast.Constant):
        return str(node.value) if isinstance(node.value, str | int) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _literal_path(node.operand)
        return f"-{inner}" if inner is not None else None
    if isinstance(node, ast.Call):
        name = _dotted(node.func)
        if name.endswith(("home", "gethomedir")) and not node.args:
            return "~"
        if name.endswith(("getenv", "environ.get")) and node.args:
            return "~" if _literal_path(node.args[0]) == "HOME" else None
        if name.endswith(("Path", "expanduser", "abspath", "realpath", "PurePath")) and node.args:
            return _literal_path(node.args[0])
        if name in ("os.path.join", "path.join", "join", "posixpath.join") and node.args:
            parts = [_literal_path(a) for a in node.args]  # os.path.join(home, '.npmrc')
            if all(p is not None for p in parts):
                return "/".join(str(p).rstrip("/") for p in parts)
        if isinstance(node.func, ast.Attribute):
            method, owner = node.func.attr, node.func.value
            if method in ("expanduser", "resolve", "absolute") and not node.args:
                return _literal_path(owner)
            if method == "joinpath" and node.args:
                parts = [_literal_path(owner), *map(_literal_path, node.args)]
                known = [p for p in parts if p is not None]
                return "/".join(known) if len(known) == len(parts) else None
    if isinstance(node, ast.Subscript) and _dotted(node.value).endswith("environ"):
        return "~" if _literal_path(node.slice) == "HOME" else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        left, right = _literal_path(node.left), _literal_path(node.right)
        return f"{left}/{right}" if left is not None and right is not None else None
    return None


def _opens_for_writing(node: ast.Call) -> bool:
    modes = [node.args[1]] if len(node.args) > 1 else []
    modes += [k.value for k in node.keywords if k.arg == "mode"]
    return any(
        isinstance(m, ast.Constant) and isinstance(m.value, str) and set(m.value) & set("wax+")
        for m in modes
    )
