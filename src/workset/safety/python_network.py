"""What Python code does with the network, for :mod:`workset.safety.python_code`.

:func:`network_modules` are the modules it imports that reach another host (``socket`` used
only for ``gethostname()`` reaches none); :func:`sent_credential` is a credential variable put
into the address or body of a request, :func:`uploaded_file` a file sent in a request that
logs in nowhere, and :func:`whole_environment` ``os.environ`` used whole as a value.
"""

from __future__ import annotations

import ast
import re

from workset.safety.python_literals import dotted, literal_path
from workset.safety.rules.secrets import secret_variables

_NETWORK_MODULES = frozenset(
    {"socket", "urllib", "urllib3", "requests", "httpx", "http", "aiohttp", "ftplib",
     "smtplib", "telnetlib", "paramiko", "websocket", "websockets", "xmlrpc", "poplib",
     "imaplib", "asyncssh", "pycurl"}
)  # fmt: skip
# Names of network modules that reach no other host: the machine's own name, constants, enums.
_LOCAL_NAMES = {
    "socket": frozenset({"gethostname", "AF_INET", "AF_INET6", "AF_UNIX", "SOCK_STREAM",
                         "SOCK_DGRAM", "inet_aton", "inet_ntoa", "inet_pton", "inet_ntop",
                         "htons", "ntohs", "htonl", "ntohl", "has_ipv6"}),
    "http": frozenset({"HTTPStatus", "HTTPMethod"}),
}  # fmt: skip


def network_modules(tree: ast.AST, modules: set[str]) -> set[str]:
    """The network modules among ``modules`` (those ``tree`` imports) that reach another host:
    not every use of them is one of their local names; and a data frame library given an
    address to read (``pd.read_csv('https://…')``)."""
    found = {m for m in modules & _NETWORK_MODULES if not _local_only(tree, m)}
    return found | ({"pandas"} if _reads_address(tree) else set())


_ADDRESS = re.compile(r"^(https?|ftp)://", re.IGNORECASE)


def _reads_address(tree: ast.AST) -> bool:
    """A ``read_*``/``scan_*`` of pandas, polars or kin is given a web address to fetch."""
    return any(
        isinstance(n, ast.Call)
        and re.match(r"(read|scan)_\w+$", dotted(n.func).rsplit(".", 1)[-1]) is not None
        and bool(n.args)
        and _ADDRESS.match(literal_path(n.args[0]) or "") is not None
        for n in ast.walk(tree)
    )


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
            and dotted(node.value) == module
            and node.attr not in local
        ):
            return False
    used = sum(isinstance(n, ast.Attribute) and dotted(n.value) == module for n in ast.walk(tree))
    bare = sum(isinstance(n, ast.Name) and n.id == module for n in ast.walk(tree))
    return used == bare  # socket passed around whole (f(socket)) is not known to stay local


_REQUESTS = frozenset({"urlopen", "Request", "urlretrieve", "get", "post", "put", "patch",
                       "delete", "head", "request", "send", "sendall", "sendto", "gethostbyname",
                       "getaddrinfo", "create_connection"})  # fmt: skip
_SENT_KEYWORDS = frozenset({"url", "data", "params", "json", "body", "content", "files"})


def sent_credential(tree: ast.AST) -> str | None:
    """A credential variable (``os.environ['GITHUB_TOKEN']``) in the address or body of a
    request; one in ``headers=``/``auth=`` is how the credential is used, and not counted."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or dotted(node.func).rsplit(".", 1)[-1] not in _REQUESTS:
            continue
        sent = [*node.args, *(k.value for k in node.keywords if k.arg in _SENT_KEYWORDS)]
        for part in sent:
            for inner in ast.walk(part):
                name = _environment_read(inner)
                if name is not None and secret_variables("$" + name):
                    return name
                if whole_environment(inner):
                    return "os.environ"  # every variable, the credentials among them
    return None


def whole_environment(node: ast.AST) -> bool:
    """``os.environ`` itself used as a value (``str(dict(os.environ))``, ``os.environ.copy()``),
    not one of its keys read."""
    name = dotted(node.func) if isinstance(node, ast.Call) else ""
    if name.endswith(("environ.copy", "environ.items")):
        return True
    return any(
        isinstance(node, ast.Call) and dotted(node.func) in ("dict", "str", "repr", "json.dumps")
        and dotted(a).endswith("environ") for a in getattr(node, "args", [])
    )  # fmt: skip


def uploaded_file(tree: ast.AST) -> str | None:
    """A file opened in the body of a request to another host that does not log in
    (``requests.post(url, files={'f': open('dist.zip', 'rb')})``)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or dotted(node.func).rsplit(".", 1)[-1] not in (
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
                if isinstance(inner, ast.Call) and dotted(inner.func) in ("open", "io.open"):
                    path = literal_path(inner.args[0]) if inner.args else None
                    return repr(path) if path is not None else "opened at run time"
                if isinstance(inner, ast.Call) and dotted(inner.func).endswith(
                    ("read_bytes", "read_text")
                ):
                    return "read from disk"
    return None


def _environment_read(node: ast.AST) -> str | None:
    """``NAME`` of ``os.environ['NAME']``, ``os.environ.get('NAME')``, ``os.getenv('NAME')``."""
    key: ast.expr | None
    if isinstance(node, ast.Subscript) and dotted(node.value).endswith("environ"):
        key = node.slice
    elif isinstance(node, ast.Call) and dotted(node.func).endswith(("environ.get", "getenv")):
        key = node.args[0] if node.args else None
    else:
        return None
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
