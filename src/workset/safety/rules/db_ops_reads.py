"""Vouching for a data platform's admin tools when they only read, or change this machine's
scratch copy.

``nodetool -h 127.0.0.1 status``, ``etcdctl endpoint health``, ``etcdutl snapshot status
backups/x.db``, ``flyway … info`` and ``liquibase … update-sql`` on a local database read;
``etcdctl get`` or ``snapshot save`` into the workspace on a local etcd, a ``--dry-run`` of
an offsets reset on a local broker, ``mongorestore`` of a
workspace dump into a local database named for tests, and ``clickhouse-local`` querying the
workspace's files stay on this machine. Anything else asks, with what it does named.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from workset.safety.rules import known_services
from workset.safety.rules.base import Cmd, Context, Finding, option_value, option_values
from workset.safety.rules.base import unknown_program as _unknown
from workset.safety.rules.confinement import inside
from workset.safety.rules.db_admin_harms import etcd_endpoints, migration_hosts
from workset.safety.rules.db_targets import SCRATCH_NAME
from workset.safety.rules.loopback import LOCAL_URL


def _words(args: tuple[str, ...], valued: frozenset[str]) -> list[str]:
    return [a for i, a in enumerate(args) if not a.startswith("-")
            and (i == 0 or args[i - 1] not in valued)]  # fmt: skip


_NODETOOL_READS = frozenset({"status", "info", "tablestats", "cfstats", "tpstats", "ring",
                             "describecluster", "describering", "compactionstats", "netstats",
                             "version", "gossipinfo", "proxyhistograms", "tablehistograms",
                             "cfhistograms", "statusbinary", "statusgossip", "statushandoff",
                             "getcompactionthroughput", "getstreamthroughput", "listsnapshots",
                             "getendpoints", "gettimeout", "help"})  # fmt: skip
_NODETOOL_VALUED = frozenset({"-h", "--host", "-p", "--port", "-u", "--username", "-pw",
                              "--password", "-pwf", "--password-file"})  # fmt: skip


def _nodetool(cmd: Cmd, ctx: Context) -> Finding | None:
    """``nodetool -h 127.0.0.1 status``: a Cassandra node on this machine described."""
    words = _words(cmd.args(), _NODETOOL_VALUED)
    host = option_value(cmd.args(), ("-h", "--host")) or "localhost"
    if not words or words[0] not in _NODETOOL_READS:
        return _unknown(f"nodetool {words[0] if words else ''}".strip(), " (it changes the node)")
    if not LOCAL_URL.match(host):
        return _unknown("nodetool", f" (it asks {host}, another host)")
    return None


_ETCD_VALUED = frozenset({"-w", "--write-out", "--endpoints", "--user", "--password", "--cacert",
                          "--cert", "--key", "--dial-timeout", "--command-timeout"})  # fmt: skip
# What reads only a member's health and place: no key's value.
_ETCD_HEALTH = (("endpoint", "health"), ("endpoint", "status"), ("endpoint", "hashkv"),
                ("member", "list"), ("alarm", "list"), ("version",))  # fmt: skip


def _safe_word(cmd: Cmd, word: str, ctx: Context) -> bool:
    """A file name inside the workspace whose run-time part is only a date."""
    index = cmd.argv.index(word)
    dated = all(inner.name == "date" for inner in cmd.inner_of(index))
    return (dated or not cmd.is_dynamic(index)) and ".." not in word and inside(word, ctx)


_CLUSTER_STATE = re.compile(r"^/registry(/|$)|secret", re.IGNORECASE)


def _etcdctl(cmd: Cmd, ctx: Context) -> Finding | None:
    """``etcdctl endpoint health``; on this machine also ``get`` (not of a Kubernetes store's
    keys or secrets) and ``snapshot save`` into the workspace. ``put`` asks: the etcd on
    loopback may be a cluster's own."""
    args = cmd.args()
    words = _words(args, _ETCD_VALUED)
    if any(tuple(words[: len(read)]) == read for read in _ETCD_HEALTH):
        return None
    hosts = etcd_endpoints(args)
    if not all(LOCAL_URL.match(h) for h in hosts):
        return _unknown(f"etcdctl {words[0] if words else ''}".strip(), f" (on {hosts[0]})")
    if words[:1] == ["get"] and not any(_CLUSTER_STATE.search(w) for w in words[1:]):
        return None  # a Kubernetes control plane keeps its state (and Secrets) in a local etcd
    if words[:2] == ["snapshot", "status"]:
        return None
    if words[:2] == ["snapshot", "save"] and len(words) == 3 and _safe_word(cmd, words[2], ctx):
        return None
    return _unknown(f"etcdctl {' '.join(words[:2])}".strip())


def _etcdutl(cmd: Cmd, ctx: Context) -> Finding | None:
    """``etcdutl snapshot status backups/etcd/snap.db -w table``: a snapshot file described."""
    words = _words(cmd.args(), _ETCD_VALUED)
    if words[:1] == ["version"] or (
        words[:2] == ["snapshot", "status"] and len(words) == 3 and inside(words[2], ctx)
    ):
        return None
    return _unknown(f"etcdutl {' '.join(words[:2])}".strip())


_MIGRATION_READS = {
    "flyway": frozenset({"info", "validate", "version", "help"}),
    "liquibase": frozenset({"update-sql", "updatesql", "status", "history", "validate",
                            "update-count-sql", "future-rollback-sql", "rollback-sql",
                            "rollback-count-sql", "rollback-to-date-sql", "help",
                            "--version", "--help"}),
}  # fmt: skip


def _migration(cmd: Cmd, ctx: Context) -> Finding | None:
    """``flyway -url=jdbc:postgresql://localhost/app_dev info``: applied migrations listed;
    ``liquibase … update-sql``: the SQL an update would run, printed."""
    words = [a for a in cmd.args() if not a.startswith("-") or a in ("--version", "--help")]
    reads = _MIGRATION_READS[cmd.name]
    if not words or not all(w.lower() in reads for w in words):
        return _unknown(f"{cmd.name} {words[0] if words else ''}".strip(), " (it migrates)")
    hosts = migration_hosts(cmd)
    if not hosts or not all(LOCAL_URL.match(h) for h in hosts):
        return _unknown(cmd.name, " (its database is not shown to be on this machine)")
    outputs = option_values(cmd.args(), ("--output-file", "--outputFile"))
    return next((_unknown(cmd.name, f" (it writes {o})") for o in outputs if not inside(o, ctx)),
                None)  # fmt: skip


_KAFKA_SERVER = ("--bootstrap-server", "--zookeeper", "--broker-list")
_KAFKA_OTHER_CHANGES = frozenset({"--delete", "--alter", "--execute", "--delete-offsets",
                                  "--add-config", "--delete-config"})  # fmt: skip


def _kafka(cmd: Cmd, ctx: Context) -> Finding | None:
    """``kafka-consumer-groups --reset-offsets … --dry-run`` on a local broker: the new
    offsets only printed."""
    args = cmd.args()
    options = {a.split("=", 1)[0] for a in args}
    servers = option_values(args, _KAFKA_SERVER)
    local = bool(servers) and all(LOCAL_URL.match(h) for s in servers for h in s.split(","))
    if local and {"--reset-offsets", "--dry-run"} <= options and not options & _KAFKA_OTHER_CHANGES:
        return None
    return known_services.VOUCHERS[cmd.name](cmd, ctx)


_MONGO_VALUED = frozenset({"--uri", "--host", "-h", "--port", "--nsFrom", "--nsTo",
                           "--nsInclude", "--nsExclude", "-d", "--db", "-c", "--collection",
                           "-u", "--username", "-p", "--password", "--dir",
                           "--authenticationDatabase", "--archive",
                           "--numParallelCollections", "-j"})  # fmt: skip


def _mongorestore(cmd: Cmd, ctx: Context) -> Finding | None:
    """``mongorestore --uri mongodb://localhost --nsTo 'shop_test.*' backups/x``: a
    workspace dump loaded into a local database named for tests."""
    args = cmd.args()
    host = option_value(args, ("--uri", "--host", "-h")) or "localhost"
    host = re.sub(r"^mongodb(\+srv)?://([^@/]*@)?", "", host).split("/")[0]
    if not all(LOCAL_URL.match(h) for h in host.split(",")):
        return _unknown("mongorestore", f" (it writes the databases of {host})")
    names = option_values(args, ("--nsTo", "-d", "--db"))
    if not names or not all(SCRATCH_NAME.search(n.split(".")[0]) for n in names):
        return _unknown("mongorestore", " (its target is not a database named for tests)")
    sources = _words(args, _MONGO_VALUED) + option_values(args, ("--dir",))
    if not sources or any(cmd.dynamic) or not all(inside(s, ctx) for s in sources):
        return _unknown("mongorestore", " (it loads a dump from outside the workspace)")
    return None


_CLICKHOUSE_READ = re.compile(r"^\s*(SELECT|WITH|DESCRIBE|DESC|SHOW|EXPLAIN)\b", re.IGNORECASE)
_TABLE_FUNCTION = re.compile(r"\b(\w+)\s*\(\s*'([^']*)'")
_FAR_FUNCTIONS = frozenset({"url", "s3", "s3cluster", "remote", "remotesecure", "executable",
                            "mysql", "postgresql", "mongodb", "redis", "hdfs", "jdbc", "odbc",
                            "azureblobstorage", "gcs", "cluster", "clusterallreplicas",
                            "iceberg", "deltalake", "hudi", "sqlite", "urlcluster",
                            "executablepool"})  # fmt: skip


def _clickhouse_local(cmd: Cmd, ctx: Context) -> Finding | None:
    """``clickhouse-local --query "SELECT … FROM file('data/x.parquet')"``: the workspace's
    files queried, nothing written and no other machine reached."""
    args = cmd.args()
    code = option_value(args, ("--query", "-q"))
    if code is None or any(cmd.dynamic) or option_value(args, ("--path", "--config-file")):
        return _unknown("clickhouse-local", " (its query or data folder is not shown)")
    statements = [s for s in code.split(";") if s.strip()]
    if not statements or not all(_CLICKHOUSE_READ.match(s) for s in statements):
        return _unknown("clickhouse-local", " (its query is not only a read)")
    if re.search(r"\bINTO\s+OUTFILE\b", code, re.IGNORECASE):
        return _unknown("clickhouse-local", " (it writes a file)")
    for name, value in _TABLE_FUNCTION.findall(code):
        if name.lower() in _FAR_FUNCTIONS or (name.lower() == "file" and not inside(value, ctx)):
            return _unknown("clickhouse-local", f" (it reads {name}({value!r}))")
    if re.search(r"\b(" + "|".join(_FAR_FUNCTIONS) + r")\s*\(", code, re.IGNORECASE):
        return _unknown("clickhouse-local", " (it reaches another server)")
    return None


VOUCHERS: dict[str, Callable[[Cmd, Context], Finding | None]] = {
    "nodetool": _nodetool,
    "etcdctl": _etcdctl,
    "etcdutl": _etcdutl,
    **{n: _migration for n in _MIGRATION_READS},
    **{f"kafka-{n}{s}": _kafka for n in ("consumer-groups",) for s in ("", ".sh")},
    "mongorestore": _mongorestore,
    "clickhouse-local": _clickhouse_local,
}
