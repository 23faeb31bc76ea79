"""Requests to this machine: what may be sent to a server listening on loopback.

A request to ``localhost``, ``127.x`` or ``[::1]`` never leaves the machine, so sending it
data is not exfiltration: posting a test fixture to the dev server the agent just started
(``curl -X POST --data @tests/fixtures/order.json http://localhost:8000/api/orders``) is
allowed like a GET of it. What is sent must be shown harmless: literal text, or files named
by a plain relative path inside the workspace; a file elsewhere (a key handed to whatever
listens), data computed at run time, a ``DELETE`` (a local store emptied) or a request
through a unix socket (``--unix-socket /var/run/docker.sock`` drives the docker daemon) stay
judged as network requests.

``socat`` relaying between two loopback ends (a listener bound to ``127.0.0.1`` and a local
port: ``socat TCP-LISTEN:8080,bind=127.0.0.1,fork TCP:localhost:3000``) never reaches another
machine either; a listener on every interface, a program, a file or a socket at either end
is judged by the network rules.
"""

from __future__ import annotations

import itertools
import re

from workset.safety.rules.base import Cmd
from workset.safety.rules.static import static_output

LOCAL_HOST = re.compile(
    r"^(https?://)?(localhost|127\.\d+\.\d+\.\d+|\[::1\]|::1$|0\.0\.0\.0)(:\d+)?(/|$)",
    re.IGNORECASE,
)
_LOOPBACK_NAME = r"(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?)"
# Any scheme's address of this machine (grpc://localhost:9092, unix:/run/x.sock).
LOCAL_URL = re.compile(rf"^(\w+://)?{_LOOPBACK_NAME}(:\d+)?(/|$)|^unix:", re.IGNORECASE)
_HTTPIE_LOCAL = re.compile(r"^:(\d+)?(/|$)")  # http :8000/api is localhost:8000
# Options of curl and wget that take a value (so the value is not a URL).
_VALUED = frozenset({"-H", "--header", "-X", "--request", "-d", "--data", "--data-binary",
                     "--data-raw", "--data-urlencode", "--data-ascii", "-F", "--form",
                     "--form-string", "-o", "--output", "-w", "--write-out", "-u", "--user",
                     "-A", "--user-agent", "-e", "--referer", "-b", "--cookie", "-c",
                     "--cookie-jar", "-T", "--upload-file", "-m", "--max-time",
                     "--connect-timeout", "--retry", "--json", "-O", "--output-document",
                     "--post-data", "--post-file", "--body-data", "--body-file", "--method",
                     "-U", "--tries", "-t", "--timeout", "-K", "--config",
                     "--unix-socket", "--abstract-unix-socket", "-x", "--proxy",
                     "--resolve", "--connect-to",
                     # certificates and keys read for the TLS handshake, never sent
                     "--cacert", "--capath", "--cert", "-E", "--key", "--cert-type",
                     "--key-type", "--crlfile", "--pinnedpubkey", "--ca-certificate",
                     "--ca-directory", "--certificate", "--private-key"})  # fmt: skip
_DATA = frozenset({"-d", "--data", "--data-binary", "--data-raw", "--data-urlencode",
                   "--data-ascii", "-F", "--form", "--json", "-T", "--upload-file",
                   "--post-data", "--post-file", "--body-data", "--body-file"})  # fmt: skip
_FILE_OPTIONS = frozenset({"-T", "--upload-file", "--post-file", "--body-file"})
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_METHOD_OPTIONS = frozenset({"-X", "--request", "--method"})
_METHOD_PREFIXES = ("--request=", "--method=")


def urls(cmd: Cmd) -> list[str]:
    """The addresses a curl/wget/httpie call names (option values left out)."""
    args = cmd.args()
    found: list[str] = []
    skip = False
    for word in args:
        if skip:
            skip = False
        elif word in _VALUED:
            skip = True
        elif not word.startswith("-") and ("://" in word or "." in word or ":" in word
                                           or LOCAL_HOST.match(word)):  # fmt: skip
            if cmd.name in ("http", "https", "xh") and found:
                break  # httpie: the rest are request items (name=value, Header:value)
            found.append(word)
        elif cmd.name in ("http", "https", "xh") and word in _METHODS:
            continue
    return found


def is_local(url: str) -> bool:
    return bool(LOCAL_HOST.match(url) or _HTTPIE_LOCAL.match(url))


_MAPPED = re.compile(rf"^([\w.-]+):\d*:{_LOOPBACK_NAME}(:\d*)?$", re.IGNORECASE)
_HOST = re.compile(r"^(?:https?://)?([\w.-]+)(?::\d+)?(?:/|$)", re.IGNORECASE)


def _mappings(cmd: Cmd) -> list[str]:
    args = cmd.args()
    values = [b for a, b in itertools.pairwise(args) if a in ("--resolve", "--connect-to")]
    return values + [a.split("=", 1)[1] for a in args
                     if a.startswith(("--resolve=", "--connect-to="))]  # fmt: skip


def mapped_to_loopback(cmd: Cmd, url: str) -> bool:
    """curl's ``--resolve api.local.test:8443:127.0.0.1`` (or ``--connect-to``) sends the
    request for that name to this machine: ``https://api.local.test:8443/health`` is local."""
    host = _HOST.match(url)
    if cmd.name != "curl" or host is None:
        return False
    return any((m := _MAPPED.match(v)) and m.group(1).lower() == host.group(1).lower()
               for v in _mappings(cmd))  # fmt: skip


def mapped_away(cmd: Cmd) -> bool:
    """``--resolve localhost:443:203.0.113.9``: a name sent to another machine, whatever it
    says (``https://localhost/…`` is then not this machine)."""
    return cmd.name == "curl" and any(_MAPPED.match(v) is None for v in _mappings(cmd))


def harmless_payload(cmd: Cmd, *, sends: bool) -> bool:
    """What the request sends to this machine is literal text or workspace files, it does
    not delete, and through a unix socket it only reads (``sends``: it has a body)."""
    args = cmd.args()
    methods = {b.upper() for a, b in itertools.pairwise(args) if a in _METHOD_OPTIONS}
    methods |= {a.split("=", 1)[1].upper() for a in args if a.startswith(_METHOD_PREFIXES)}
    methods |= {a for a in args if a in _METHODS}  # httpie: http DELETE :8000/x
    if "DELETE" in methods:
        return False
    if any(a.startswith(("--unix-socket", "--abstract-unix-socket")) for a in args) and (
        sends or methods - {"GET", "HEAD"}
    ):
        return False
    for index, word in enumerate(args, start=1):
        option = args[index - 2] if index > 1 else ""
        name, equals, inline = word.partition("=")
        value = word if option in _DATA else inline if equals and name in _DATA else None
        if cmd.name in ("http", "https", "xh") and index > 1 and not word.startswith("-"):
            value = _httpie_file(word)
        if value is None:
            continue
        if cmd.is_dynamic(index):
            return False
        file = _file_of(value, file_option=option in _FILE_OPTIONS or name in _FILE_OPTIONS)
        if file is not None and not _plain_relative(file):
            return False
    return True


def _httpie_file(item: str) -> str | None:
    """The file an httpie item sends (``name@file``, ``name=@file``, ``name:=@file``)."""
    match = re.match(r"^[\w.-]*(?:@|=@|:=@)(.+)$", item)
    return "@" + match.group(1) if match else None


def _file_of(value: str, *, file_option: bool) -> str | None:
    """The file a data option reads: ``@FILE`` or ``<FILE`` (``-F name=@FILE``), or the
    value itself for ``-T``/``--post-file``."""
    if file_option:
        return value
    match = re.search(r"(?:^|=)[@<]([^;]+)", value)
    return match.group(1) if match else None


def _plain_relative(path: str) -> bool:
    return not path.startswith(("/", "~", "$", "-")) and ".." not in path.split("/")


_SOCAT_FLAGS = frozenset({"-v", "-x", "-d", "-dd", "-ddd", "-u", "-U", "-h"})
_STDIO = frozenset({"-", "STDIO", "STDIN", "STDOUT", "stdio", "stdin", "stdout"})
_SOCAT_LISTEN = re.compile(r"^TCP[46]?-LISTEN:\d+(,[\w-]+(=[\w.:\[\]-]+)?)*$", re.IGNORECASE)
_SOCAT_CONNECT = re.compile(rf"^TCP[46]?:{_LOOPBACK_NAME}:\d+(,[\w-]+(=\w+)?)*$", re.IGNORECASE)


def socat_relay(cmd: Cmd) -> bool:
    """``socat`` joins a loopback listener to a loopback port, and nothing else."""
    if cmd.name != "socat" or any(cmd.dynamic):
        return False
    ends = [a for a in cmd.args() if a not in _SOCAT_FLAGS]
    if len(ends) != 2 or any(e.startswith("-") and e != "-" for e in ends):
        return False
    listen, connect = ends
    if listen in _STDIO:  # printf 'GET /metrics …' | socat - TCP:localhost:9090
        return _SOCAT_CONNECT.match(connect) is not None and _reads_only(cmd)
    if cmd.redirects:
        return False
    return _loopback_listener(listen) and _SOCAT_CONNECT.match(connect) is not None


_HTTP_READ = re.compile(r"^(GET|HEAD) \S+ HTTP/\d(\.\d)?\r?\n")


def _reads_only(cmd: Cmd) -> bool:
    """What reaches the local port is nothing (no input), or one literal HTTP GET or HEAD: a
    raw stream to a local service could speak any protocol (redis' ``CONFIG SET``, say)."""
    if not cmd.piped and not any(op.startswith("<") for op, _ in cmd.redirects):
        return True
    sent = static_output(cmd.upstream) if cmd.piped and cmd.upstream else None
    return sent is not None and _HTTP_READ.match(sent) is not None


_NC_OPTIONS = re.compile(r"^-(q\d*|w\d*|v+|N|C|4|6|-no-shutdown|-crlf)$")
_GRPC_READS = frozenset({"list", "describe"})


def local_read(cmd: Cmd) -> bool:
    """``printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc localhost 8080``, ``grpcurl -plaintext
    localhost:50051 list``: a read of a service on this machine, nothing else sent."""
    args = [a for a in cmd.args() if a not in ("-q", "-w")]  # their values are numbers
    if any(cmd.dynamic):
        return False
    if cmd.name == "grpcurl":
        words = [a for a in args if not a.startswith("-")]
        return (all(a in ("-plaintext", "-insecure") for a in args if a.startswith("-"))
                and len(words) >= 2 and is_local(words[0]) and words[1] in _GRPC_READS
                and not cmd.piped)  # fmt: skip
    options = [a for a in args if a.startswith("-")]
    operands = [a for a in args if (not a.startswith("-") and not a.isdigit()) or a == args[-1]]
    return (
        all(_NC_OPTIONS.match(o) for o in options)
        and len(operands) == 2
        and LOCAL_HOST.match(operands[0]) is not None
        and operands[1].isdigit()
        and _reads_only(cmd)
    )


def open_relay(cmd: Cmd) -> str | None:
    """``socat TCP-LISTEN:3306,fork TCP:db.internal:3306``: a listener on every interface
    joined to another host, so whoever reaches this machine reaches that one (the other
    host named), or None."""
    ends = [a for a in cmd.args() if not a.startswith("-")]
    if cmd.name != "socat" or len(ends) != 2 or any(cmd.dynamic):
        return None
    listen, connect = ends
    remote = re.match(r"^(TCP[46]?|UDP[46]?|OPENSSL):([^:,]+):\d+", connect, re.IGNORECASE)
    if _SOCAT_LISTEN.match(listen) is None or _loopback_listener(listen) or remote is None:
        return None
    return None if re.fullmatch(_LOOPBACK_NAME, remote.group(2)) else remote.group(2)


def _loopback_listener(address: str) -> bool:
    if _SOCAT_LISTEN.match(address) is None:
        return False
    options = dict(o.partition("=")[::2] for o in address.split(",")[1:])
    return re.fullmatch(_LOOPBACK_NAME, options.get("bind", "")) is not None
