"""A data platform harmed through its admin tools rather than its query language.

Denied: a database server's own files deleted (``rm -rf /var/lib/postgresql/15/main/pg_wal``)
and backups outside the workspace deleted in bulk (``find /var/backups/postgresql -delete``,
``rm -r``: the copies a restore would need); a login or its rights created on another
machine's search cluster (``curl -X PUT …/_plugins/_security/api/internalusers/NAME``);
etcd's authentication turned off, or a key written on a store named for production; a
migration tool's drop-everything or rollback (``liquibase dropAll``, ``rollback-count``,
``flyway clean``) run against another machine's database; a database service stopped or
disabled over ``ssh`` on a host named for production. On this machine each of these asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Handler, Result, option_values
from workset.safety.rules.base import ask_finding as _ask
from workset.safety.rules.base import deny_finding as _deny
from workset.safety.rules.env_names import PRODUCTION
from workset.safety.rules.loopback import LOCAL_URL

_DATA_DIR = re.compile(
    r"^/var/lib/(postgresql|pgsql|mysql|mariadb|mongodb|mongo|redis|etcd|cassandra|clickhouse|"
    r"kafka|zookeeper|elasticsearch|opensearch|influxdb|couchdb|neo4j|qdrant|chroma|chromadb|"
    r"milvus|weaviate)(/|$)|/pg_wal(/|$)|^/(srv|opt|data)/(qdrant|chroma|chromadb|milvus|"
    r"weaviate)(/|$)"
)
_BACKUPS = re.compile(r"(^|/)[\w.-]*backups?(/|$)", re.IGNORECASE)


def _harmed(word: str, ctx: Context, bulk: bool) -> str | None:
    path = ctx.resolve(word)
    if paths.in_workspace(path, ctx.workspace) or paths.is_scratch(path):
        return None
    if _DATA_DIR.search(path):
        return f"deletes {word!r}, the files of a database server (its data, or its log)"
    if _BACKUPS.search(path) and (bulk or "*" in word):  # one named old backup only asks
        return f"deletes the backups in {word!r}, the copies a restore would need"
    return None


def _delete(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if cmd.name == "find":
        if "-delete" not in args and not ("-exec" in args and "rm" in args):
            return
        targets = []
        for word in args:
            if word.startswith(("-", "(", "!")):
                break
            targets.append(word)
    else:
        targets = [a for a in args if not a.startswith("-")]
    flags = "".join(a for a in args if a.startswith("-") and not a.startswith("--"))
    bulk = cmd.name == "find" or "--recursive" in args or bool(set(flags) & {"r", "R"})
    for word in targets:
        said = _harmed(word, ctx, bulk)
        if said is not None:
            yield _deny("db-files-delete", f"{cmd.name} {said}", "never delete a database's "
                        "files or backups from an agent; show the command to a human")  # fmt: skip
            return


_SECURITY_API = re.compile(
    r"/_(plugins|opendistro)/_security/api/(internalusers|rolesmapping|roles|actiongroups|"
    r"securityconfig|tenants)|/_security/(user|role_mapping|role|api_key|service)\b",
    re.IGNORECASE,
)


def _search_logins(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``curl -X PUT https://search.example.com:9200/_plugins/_security/api/internalusers/x``."""
    args = cmd.args()
    methods = option_values(args, ("-X", "--request")) + [
        a[2:] for a in args if a.startswith("-X") and len(a) > 2
    ]
    data = any(a.startswith(("-d", "--data", "--json")) for a in args)
    method = (methods[-1] if methods else "POST" if data else "GET").upper()
    if method in ("GET", "HEAD"):
        return
    for url in (a for a in args if re.match(r"^https?://", a)):
        if _SECURITY_API.search(urlsplit(url).path) and not LOCAL_URL.match(url):
            yield _deny("search-logins", f"{cmd.name} -X {method} changes the logins or rights "
                        f"of the search cluster at {urlsplit(url).hostname}",
                        "never create accounts or grant roles from an agent; ask the "
                        "cluster's owner")  # fmt: skip
            return


_ETCD_WRITES = frozenset({"put", "del", "delete", "txn", "lease", "member", "user", "role", "auth",
                          "move-leader", "defrag", "compaction", "elect", "lock"})  # fmt: skip


def etcd_endpoints(args: tuple[str, ...]) -> list[str]:
    """The endpoints an etcdctl call names (none: this machine's default)."""
    return [e for v in option_values(args, ("--endpoints",)) for e in v.split(",") if e]


def _etcd(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    words = [a for a in args if not a.startswith("-")]
    if not words or words[0] not in _ETCD_WRITES:
        return
    hosts = etcd_endpoints(args)
    local = all(LOCAL_URL.match(h) for h in hosts)
    if words[:2] == ["auth", "disable"] and not local:
        yield _deny("etcd-auth", "etcdctl auth disable lets anyone read and write another "
                    "machine's etcd", "never turn a store's authentication off from an agent; "
                    "ask its owner")  # fmt: skip
    elif any(PRODUCTION.search(urlsplit(h).hostname or h) for h in hosts):
        yield _deny("etcd-write", f"etcdctl {words[0]} changes the keys or members of "
                    f"{hosts[0]}, a production store its services read their settings from",
                    "change production configuration through its deploy process")  # fmt: skip


# Migration tools: the commands that drop every object or undo applied changes.
_MIGRATION_DESTROY = {
    "liquibase": re.compile(r"^(drop-?all|rollback[\w-]*)$", re.IGNORECASE),
    "flyway": re.compile(r"^(clean|undo)$", re.IGNORECASE),
}
_JDBC = re.compile(r"^jdbc:\w+:(//)?(?:[^@/]*@)?([^/:;?]+)")


def migration_hosts(cmd: Cmd) -> list[str]:
    """The database hosts a liquibase/flyway call names by its ``--url``/``-url``."""
    urls = option_values(cmd.args(), ("--url", "-url"))
    return [m.group(2) for u in urls if (m := _JDBC.match(u)) is not None]


def _migration(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    pattern = _MIGRATION_DESTROY[cmd.name]
    said = next((a for a in cmd.args() if not a.startswith("-") and pattern.match(a)), None)
    if said is None or said.lower().endswith("-sql"):
        return  # rollback-sql, rollback-count-sql: the SQL printed, nothing run
    hosts = migration_hosts(cmd)
    if hosts and all(LOCAL_URL.match(h) for h in hosts):
        yield _ask("migration-destroy", f"{cmd.name} {said} drops or undoes the schema of a "
                   "database on this machine")  # fmt: skip
    else:
        yield _deny("migration-destroy", f"{cmd.name} {said} drops or undoes the schema of the "
                    f"database at {hosts[0] if hosts else 'a server set in its configuration'}",
                    "never roll back or wipe a shared database from an agent; show the "
                    "command to a human")  # fmt: skip


_SSH_VALUED = frozenset({"-p", "-l", "-i", "-o", "-c", "-m", "-b", "-F", "-J", "-E", "-L", "-R",
                         "-D", "-W"})  # fmt: skip
_SERVICE_DOWN = re.compile(
    r"\bsystemctl\s+(stop|disable|mask|kill)\b[^;&|]*?\b(postgresql|mysql|mysqld|mariadb|mongod|"
    r"redis|redis-server|etcd|cassandra|clickhouse-server|kafka|elasticsearch|opensearch)\b",
    re.IGNORECASE,
)


def _remote_database_down(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``ssh db-prod.example.com 'sudo systemctl stop postgresql'``: a production server's
    database taken down (``disable``/``mask``: kept down past the next boot)."""
    args = cmd.args()
    index = 0
    while index < len(args) and args[index].startswith("-"):
        index += 2 if args[index] in _SSH_VALUED else 1
    if index + 1 >= len(args):
        return
    host = args[index].rsplit("@", 1)[-1]
    down = _SERVICE_DOWN.search(" ".join(args[index + 1 :]))
    if down is not None and PRODUCTION.search(host):
        yield _deny("db-service-down", f"ssh {host} runs 'systemctl {down.group(1)} "
                    f"{down.group(2)}', taking a production database down",
                    "leave outages to the database's owner; show the command to a "
                    "human")  # fmt: skip


HANDLERS: dict[str, Handler] = {
    "ssh": _remote_database_down,
    "rm": _delete,
    "find": _delete,
    "curl": _search_logins,
    "etcdctl": _etcd,
    **{n: _migration for n in _MIGRATION_DESTROY},
}
