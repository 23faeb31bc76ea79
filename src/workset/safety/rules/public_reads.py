"""Reads of public web pages: a GET whose whole request is written literally in the line.

``curl -sSf https://api.github.com/repos/psf/requests/releases/latest | jq .tag_name`` changes
nothing here and sends nothing the line does not show: the request is the literal address.
Such a read runs without asking when every part of it is shown harmless:

- every word is literal (no variable, substitution or glob: nothing of this machine is
  spliced into the request);
- the method is GET or HEAD and nothing is sent: no body, form, upload, cookie, login,
  config file (``-K``), proxy or unix socket; a header is literal text that looks like no
  data and logs in nowhere (``Accept: application/json``; not ``Cookie``, ``Authorization``
  or a header named for a key or token, and never a variable);
- each address is ``http(s)://`` and names a host, not a raw IP address (listeners of
  implants are usually bare addresses), with no login in it (``user:pass@``);
- no part of the address looks like data: a run of 20 or more letters and digits mixing
  both (a key, a hash, base64) asks, and so does a query string longer than 60 characters.

What this leaves open, on purpose: the literal text of the address reaches the host, so an
agent told to could still spell out something it has read in a short, plain-looking address.
Where the response goes is judged by the other rules (``| sh`` and saving over a startup file
are denied, ``-o FILE`` is a write like any other). ``dig``/``host``/``nslookup`` of a literal
name and ``ping -c N`` of one are reads too, under the same rule for the name.
"""

from __future__ import annotations

import re

from workset.safety.rules.base import Cmd

_HTTP = frozenset({"curl", "wget", "http", "https", "xh"})
_DNS = frozenset({"dig", "host", "nslookup", "ping", "ping6", "traceroute", "tracepath", "mtr",
                  "whois"})  # fmt: skip
# Options of the route tracers and whois that take a number, and those that take none.
_TRACE_VALUED = frozenset({"-m", "-q", "-w", "-c", "-N", "-p"})
_TRACE_FLAGS = frozenset({"-n", "-4", "-6", "-r", "--report", "-b", "-w", "--report-wide",
                          "-I", "-T", "-H", "--json", "-j"})  # fmt: skip
# Per client: options that only shape how the response is fetched or shown, single letters
# that may be clustered (``-fsSL``), and options whose value is not sent (an output place, a
# timeout, a format). Anything else (a header, a cookie, a login, a body) is not a plain read.
_FLAGS = {
    "curl": frozenset({"--silent", "--show-error", "--fail", "--fail-with-body", "--location",
                       "--head", "--include", "--verbose", "--insecure", "--compressed",
                       "--progress-bar", "--no-progress-meter", "--http1.1", "--http2",
                       "--globoff", "--remote-header-name", "--remote-name", "--remote-time",
                       "--create-dirs", "--ipv4", "--ipv6", "--no-buffer"}),
    "wget": frozenset({"--quiet", "--no-verbose", "--continue", "--show-progress",
                       "--server-response", "--spider", "--no-clobber", "--timestamping",
                       "--inet4-only", "--inet6-only", "--recursive", "--no-parent",
                       "--convert-links", "--page-requisites", "--mirror", "-np", "-nH",
                       "-nd", "--no-host-directories", "--no-directories", "-nc"}),
    "http": frozenset({"--body", "--headers", "--check-status", "--follow", "--verbose",
                       "--quiet", "--pretty=all", "--pretty=none", "--pretty=format",
                       "--pretty=colors", "--print=b", "--print=h", "--print=hb"}),
}  # fmt: skip
_LETTERS = {"curl": "sSfLIivkgJOR#46N", "wget": "qNcS46rkpmE", "http": "bhFvq"}
_VALUED = {
    "curl": frozenset({"-o", "--output", "-w", "--write-out", "-m", "--max-time",
                       "--connect-timeout", "--retry", "--retry-delay", "--retry-max-time",
                       "--max-redirs", "-r", "--range", "--limit-rate", "-z", "--time-cond",
                       "--output-dir"}),
    "wget": frozenset({"-O", "--output-document", "-P", "--directory-prefix", "-t", "--tries",
                       "-T", "--timeout", "--max-redirect", "-l", "--level", "--cut-dirs",
                       "-w", "--wait"}),
    "http": frozenset({"-o", "--output", "--timeout", "-p", "--print"}),
}  # fmt: skip
_VALUE_LETTER = {"curl": "o", "wget": "O", "http": ""}
_DIG_WORD = re.compile(
    r"^(\+[a-z]+(=\d+)?|-4|-6|[A-Z]{1,6}|@[\w.:-]+|-(type|query|q)=[A-Za-z]{1,6})$"
)
_DIG_TYPED = frozenset({"-t", "-c"})  # dig -t MX, host -t TXT: the record type or class
_ADDRESS = re.compile(r"^https?://([^/?#@\s]+)(/[^?#\s]*)?(\?[^#\s]*)?(#\S*)?$", re.IGNORECASE)
_IP = re.compile(r"^\[?[0-9a-f:.]+\]?(:\d+)?$", re.IGNORECASE)
_HOST = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:\d+)?$",
                   re.IGNORECASE)  # fmt: skip
_SERVICE_LABEL = re.compile(r"^_|(?<=\.)_(?=[a-z0-9])", re.IGNORECASE)  # _dmarc., _sip._tcp.
_DATA_RUN = re.compile(r"[A-Za-z0-9+=_%]{20,}")


def public_read(cmd: Cmd) -> bool:
    """``cmd`` only reads a public page (or name) whose whole request is literal."""
    if any(cmd.dynamic) or any(cmd.process) or cmd.stdin_inner or cmd.stdin_dynamic:
        return False
    if any(cmd.inner):  # a word made by a command ($(uname -m), $(date)): it says something
        return False  # of this machine, even when its shape is known
    if cmd.name == "openssl":
        return _handshake(cmd)
    if any(op.startswith("<") for op, _ in cmd.redirects):
        return False
    if cmd.name in _HTTP:
        return _http_read(cmd)
    if cmd.name in _DNS:
        return _name_lookup(cmd)
    return False


def _http_read(cmd: Cmd) -> bool:
    client = "http" if cmd.name in ("http", "https", "xh") else cmd.name
    flags, letters, valued = _FLAGS[client], _LETTERS[client], _VALUED[client]
    args = cmd.args()
    addresses: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        value_letter = f"[{_VALUE_LETTER[client]}]?" if _VALUE_LETTER[client] else ""
        cluster = re.fullmatch(f"-[{re.escape(letters)}]*({value_letter})(.*)", word)
        if word in flags or (word.startswith("--") and word.split("=", 1)[0] in valued):
            index += 0 if "=" in word or word in flags else 1
        elif word in valued:
            index += 1
        elif cluster and len(word) > 1 and (cluster.group(1) or not cluster.group(2)):
            index += 1 if cluster.group(1) and not cluster.group(2) else 0  # -fLo FILE, -qO-
        elif word.startswith("--header=") and client == "wget":
            if not _plain_header(word.split("=", 1)[1]):
                return False
        elif _header_option(client, word) and index + 1 < len(args):
            if not _plain_header(args[index + 1]):
                return False
            index += 1
        elif word in ("-X", "--request") and index + 1 < len(args):
            if args[index + 1].upper() not in ("GET", "HEAD"):
                return False
            index += 1
        elif word.startswith("-"):
            return False  # an option not known to send nothing
        elif client == "http" and not addresses and word.upper() in ("GET", "HEAD"):
            pass
        elif client == "http" and addresses:
            return False  # a request item (name=value, Header:value): something is sent
        else:
            addresses.append(word)
        index += 1
    return bool(addresses) and all(_plain_address(a) for a in addresses)


def _header_option(client: str, word: str) -> bool:
    """``-H``/``--header``, or a cluster of curl's flags that ends with it (``-sH``)."""
    if client == "curl":
        return (
            word == "--header"
            or re.fullmatch(f"-[{re.escape(_LETTERS['curl'])}]*H", word) is not None
        )
    return client == "wget" and word == "--header"


_LOGIN_HEADER = re.compile(r"cookie|auth|token|key|secret|session|pass", re.IGNORECASE)


def _plain_header(value: str) -> bool:
    """A header that sends nothing of this machine and logs in nowhere: literal text with no
    run that looks like data, under a name that is not a cookie, a login or a key."""
    name, colon, text = value.partition(":")
    return (
        bool(colon)
        and re.fullmatch(r"[\w-]+", name) is not None
        and _LOGIN_HEADER.search(name) is None
        and not data_like(text)
    )


def _plain_address(word: str) -> bool:
    match = _ADDRESS.match(word)
    if match is None:
        return False
    host, path, query = match.group(1), match.group(2) or "", match.group(3) or ""
    if _IP.match(host) or not _HOST.match(host):
        return False
    if len(query) > 60:
        return False
    return not data_like(path + query)


def data_like(text: str) -> bool:
    """``text`` holds a run of 20 or more letters and digits mixing both (a key, a hash,
    base64): something of this machine spelled into a request."""
    return any(_data_like(run) for run in _DATA_RUN.findall(text))


def _data_like(run: str) -> bool:
    return bool(re.search(r"[0-9]", run) and re.search(r"[A-Za-z]", run))


_TRACERS = frozenset({"traceroute", "tracepath", "mtr", "whois"})


def _name_lookup(cmd: Cmd) -> bool:
    """``dig +short example.com MX``, ``ping -c 3 example.com``: one literal name, looked up."""
    args = cmd.args()
    names: list[str] = []
    index = 0
    counted = False
    while index < len(args):
        word = args[index]
        if (
            cmd.name.startswith("ping")
            and word in ("-c", "-W", "-w", "-i")
            and index + 1 < len(args)
        ):
            counted = counted or word in ("-c", "-w")
            index += 1
        elif cmd.name.startswith("ping") and re.fullmatch(r"-[cw]\d+", word):
            counted = True
        elif (
            cmd.name in ("dig", "host")
            and word in _DIG_TYPED
            and index + 1 < len(args)
            and re.fullmatch(r"[A-Za-z]{1,6}", args[index + 1])
        ):
            index += 1
        elif (cmd.name.startswith("ping") and word in ("-q", "-n", "-4", "-6")) or (
            cmd.name in ("dig", "host", "nslookup") and _DIG_WORD.match(word)
        ):
            pass
        elif cmd.name in _TRACERS and word in _TRACE_VALUED and index + 1 < len(args):
            counted = counted or word == "-c"
            index += 1
        elif cmd.name in _TRACERS and word in _TRACE_FLAGS:
            counted = counted or word in ("-r", "--report", "-w", "--report-wide")
        elif word.startswith("-"):
            return False
        else:
            names.append(word)
        index += 1
    if (cmd.name.startswith("ping") or cmd.name == "mtr") and not counted:
        return False  # pings without end
    return len(names) == 1 and _plain_name(names[0])


_SILENT = frozenset({"-servername", "-connect", "-showcerts", "-brief", "-verify_return_error",
                     "-status", "-tls1_2", "-tls1_3", "-CAfile", "-verify", "-alpn"})  # fmt: skip


def _handshake(cmd: Cmd) -> bool:
    """``openssl s_client -connect host:443 </dev/null``: a TLS handshake that sends nothing
    (its input is empty, or a bare ``echo``) reads the host's public certificate."""
    args = cmd.args()
    empty = ("<", "/dev/null") in cmd.redirects or (
        bool(cmd.upstream)
        and all(u.argv in (("echo",), ("true",), (":",), ("printf", "")) for u in cmd.upstream)
    )  # echo | openssl s_client …: a newline is all it sends
    if args[:1] != ("s_client",) or not empty:
        return False
    if any(op.startswith("<") and t != "/dev/null" for op, t in cmd.redirects):
        return False
    options = [a for a in args[1:] if a.startswith("-")]
    values = [a for i, a in enumerate(args[1:], 1) if not a.startswith("-")
              and args[i - 1] in ("-connect", "-servername")]  # fmt: skip
    hosts = [v.rsplit(":", 1)[0] for v in values]
    return (
        bool(hosts)
        and all(o in _SILENT or (o.startswith("-") and o[1:].isdigit()) for o in options)
        and all(_plain_name(h) for h in hosts)
        and len(values) == len(args) - 1 - len(options)
    )


def _plain_name(name: str) -> bool:
    """A literal host name with no label that looks like data; service labels (``_dmarc.``,
    ``_acme-challenge.``, ``_sip._tcp.``) are judged as the labels they name."""
    name = _SERVICE_LABEL.sub("", name)
    if _IP.match(name) or not _HOST.match(name):
        return False
    return all(len(label) <= 24 and not (len(label) >= 12 and _data_like(label))
               for label in name.split("."))  # fmt: skip
