"""Where a database client's statements land: this machine's scratch database, or someone's data.

A server on loopback (``-h 127.0.0.1``, ``postgresql://…@localhost/…``; redis-cli's default) holds
the developer's own copy; when its database is also named for tests or development
(``app_test``, ``dev``, ``ci_db``) it is scratch data the project's tests rebuild, so emptying
it is confined work. Redis on loopback is a cache: ``FLUSHDB`` of one numbered database runs.
On loopback with any other name a destroying statement asks instead of being denied (a port
forward can bring production to localhost). Statements that raise an account's rights
(``GRANT ALL``, ``SUPERUSER``, ``SET role='admin'``, turning MFA off) are denied anywhere but
such a scratch database; setting an account's password (``ALTER USER postgres WITH PASSWORD
…``: the account taken over, or a login made for someone) is denied on another machine's
server and asks on this machine's. Over HTTP (Elasticsearch, CouchDB, a REST store), a ``DELETE`` to
another host of every index a wildcard or ``_all`` matches, or of anything on a host or path
named for production, is denied like ``DROP``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Handler, Result, option_value
from workset.safety.rules.base import deny_finding as _deny

_LOOPBACK = re.compile(r"^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\]|0\.0\.0\.0)$", re.I)
# A database named for tests or development.
SCRATCH_NAME = re.compile(
    r"(^|[_\-.])(test|tests|testing|dev|devel|development|local|ci|e2e|tmp|scratch|sandbox|"
    r"fixtures?|demo|sample)(\d*)($|[_\-.])|^\d+$",
    re.I,
)
# A host or database named as a shared copy rather than a scratch one: staging, QA, a preview.
_COPY = re.compile(r"(^|[\W_])(stag(e|ing)|qa|uat|preview|sandbox)\d*([\W_]|$)", re.IGNORECASE)
_HOST_FLAGS = ("-h", "--host", "-H", "--hostname", "-S", "--server")
_NAME_FLAGS = ("-d", "--dbname", "--database", "-D", "-n", "--db")
_URL = re.compile(r"^(postgres(ql)?|mysql|mariadb|mongodb(\+srv)?|rediss?)://", re.I)
ESCALATE = re.compile(
    r"\bGRANT\s+(ALL|SUPERUSER|\w+\s+TO\s+PUBLIC)|\bSUPERUSER\b|\bALTER\s+(USER|ROLE)\b[^;]*"
    r"\b(ADMIN|SUPERUSER|BYPASSRLS|CREATEROLE)|\bSET\b[^;]*\b(role|is_admin|is_superuser|"
    r"is_staff|admin)\s*=\s*'?(admin|owner|root|superuser|true|1)\b|\bSET\b[^;]*\b\w*(mfa|"
    r"2fa|otp|two_factor)\w*\s*=\s*'?(false|0|off|disabled)\b",
    re.IGNORECASE,
)

PASSWORD_SET = re.compile(
    r"\bALTER\s+(USER|ROLE)\b[^;]*\bPASSWORD\b|\b(CREATE|ALTER)\s+(USER|ROLE)\b[^;]*"
    r"\b(PASSWORD|IDENTIFIED\s+BY)\b|\bSET\s+PASSWORD\b",
    re.IGNORECASE,
)


def target(cmd: Cmd) -> tuple[bool, str]:
    """(the server is on this machine, the database's name or number; "" if not given)."""
    args = cmd.args()
    host = option_value(args, _HOST_FLAGS)
    name = option_value(args, _NAME_FLAGS) or ""
    for word in args:
        if _URL.match(word):
            parts = urlsplit(word)
            host = parts.hostname or host
            name = parts.path.strip("/") or name
    if cmd.name in ("psql", "mysql", "mariadb", "dropdb", "createdb") and not name:
        port = ("-P",) if cmd.name in ("mysql", "mariadb") else ("-p", "--port")
        valued = (*_HOST_FLAGS, *_NAME_FLAGS, *port, "-U", "-u", "-c", "-e", "-f", "--file")
        positional = [a for i, a in enumerate(args) if not a.startswith("-")
                      and (i == 0 or args[i - 1] not in valued)]  # fmt: skip
        name = positional[0] if positional and not _URL.match(positional[0]) else ""
    if cmd.name == "redis-cli" and not name:
        name = "0"
    if host is None and cmd.name == "redis-cli" and option_value(args, ("-u",)) is None:
        host = "127.0.0.1"  # its default; the others read PGHOST and kin, which may point away
    local = host is not None and bool(_LOOPBACK.match(host.strip("[]")))
    return local, name


def named_copy(*names: str) -> bool:
    """One of ``names`` (a host, a database) is named as a copy: for tests or development
    (:data:`SCRATCH_NAME`), or staging, QA, a preview."""
    return any(SCRATCH_NAME.search(n) or _COPY.search(n) for n in names if n)


_NAMED = re.compile(r"\b(?:DATABASE|SCHEMA)\s+(?:IF\s+(?:NOT\s+)?EXISTS\s+)?[`\"]?(\w+)", re.I)


def scratch(cmd: Cmd, code: str) -> bool:
    """The statements land in a local database named for tests or development (the name
    given to the client, or else every database the statements name)."""
    local, name = target(cmd)
    if cmd.name == "redis-cli" or not local:
        return local
    names = [name] if name else _NAMED.findall(code)
    return bool(names) and all(SCRATCH_NAME.search(n) for n in names)


def project_script(cmd: Cmd, ctx: Context) -> bool:
    """``psql -h localhost -d app_test -f db/seed.sql``, ``mysql -h 127.0.0.1 app_dev <
    schema.sql``: a SQL file of the workspace (not one this line fetched) run against a local
    database named for tests or development, as ``make`` runs the project's recipes."""
    files = [t for op, t in cmd.redirects if op == "<"]
    given = option_value(cmd.args(), ("-f", "--file"))
    files += [given] if given is not None and cmd.name == "psql" else []
    if not files or any(cmd.dynamic) or not scratch(cmd, ""):
        return False
    return all(
        paths.in_workspace(ctx.resolve(f), ctx.workspace) and ctx.resolve(f) not in ctx.downloaded
        for f in files
    )


_WIDE = re.compile(r"[*]|(^|/|,)_all\b|expand_wildcards=all")
_LIVE = re.compile(r"prod|live", re.I)


def _http_wipe(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    method = option_value(args, ("-X", "--request")) or next(
        (a[2:] for a in args if a.startswith("-X") and len(a) > 2), ""
    )
    if cmd.name in ("http", "https", "xh"):
        method = next((a for a in args if not a.startswith("-")), "")
    if method.upper() != "DELETE":
        return
    for url in (a for a in args if re.match(r"^https?://", a)):
        parts = urlsplit(url)
        if _LOOPBACK.match((parts.hostname or "").strip("[]")):
            continue
        if _WIDE.search(parts.path + "?" + parts.query) or _LIVE.search(url):
            yield _deny("sql-destroy", f"{cmd.name} -X DELETE {url[:60]} deletes data on a "
                        "shared server", "delete the one item you created")  # fmt: skip
            return


HANDLERS: dict[str, Handler] = {n: _http_wipe for n in ("curl", "http", "https", "xh")}
