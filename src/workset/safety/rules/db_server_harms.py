"""What a database client's statements do to the server itself, beyond its tables' rows.

Replication cut (``SELECT pg_drop_replication_slot(…)``, ``RESET MASTER``, ``PURGE BINARY
LOGS``), a keyspace dropped (``DROP KEYSPACE``) and the accounts' password hashes read
(``pg_shadow``, ``authentication_string``) are denied on another machine's server and ask on
this one's. Statements that change the server's state without naming a table (``VACUUM``,
``KILL``, ``SELECT pg_terminate_backend(…)``, ``SYSTEM …``) ask wherever they run, unless the
database is this machine's scratch copy. A dump restored over what a remote server holds
(``pg_restore --clean``, ``mongorestore --drop``) is denied; ``pg_resetwal`` (the write-ahead
log thrown away, the cluster's last transactions with it) is denied; and keys deleted by the
thousand (``redis-cli --scan | xargs redis-cli DEL``) on another machine's Redis are denied.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules import db_targets
from workset.safety.rules.base import Cmd, Context, Handler, Result, option_value
from workset.safety.rules.base import ask_finding as _ask
from workset.safety.rules.base import deny_finding as _deny
from workset.safety.rules.databases import sql_code
from workset.safety.rules.db_loads import local_server
from workset.safety.rules.db_reads import redis_command
from workset.safety.rules.env_names import THROWAWAY
from workset.safety.rules.loopback import LOCAL_URL

_SERVER_DESTROY = re.compile(
    r"\bpg_drop_replication_slot\b|\bpg_replication_origin_drop\b|\bRESET\s+(MASTER|BINARY\s+"
    r"LOGS)\b|\bPURGE\s+(BINARY|MASTER)\s+LOGS\b|\bRESET\s+(SLAVE|REPLICA)\s+ALL\b|\bDROP\s+("
    r"KEYSPACE|TABLESPACE|SUBSCRIPTION|PUBLICATION|MATERIALIZED\s+VIEW)\b",
    re.IGNORECASE,
)
_PASSWORD_HASHES = re.compile(r"\b(pg_shadow|pg_authid|authentication_string|rolpassword)\b", re.I)
# Calls and statements that change the server's state (sessions, settings, maintenance).
_SERVER_CHANGE = re.compile(
    r"\b(pg_terminate_backend|pg_cancel_backend|pg_reload_conf|pg_promote|pg_switch_wal|"
    r"pg_create_\w*replication_slot|set_config|pg_stat_reset\w*|lo_unlink|lo_import|lo_export|"
    r"dblink_exec|pg_rotate_logfile|pg_wal_replay_(pause|resume)|setval|nextval|pg_read_file|"
    r"pg_read_binary_file|pg_ls_dir)\s*\(|(^|;)\s*(RESET|PURGE|STOP|CHANGE|KILL|FLUSH|OPTIMIZE|"
    r"VACUUM|REINDEX|CLUSTER|CALL|DO|LOAD|INSTALL|UNINSTALL|REFRESH|LOCK|RENAME|REPLACE|MERGE|"
    r"UPSERT|SYSTEM|DETACH|ATTACH|CHECKPOINT|NOTIFY|IMPORT|UNLOAD|EXEC|EXECUTE)\b",
    re.IGNORECASE | re.MULTILINE,
)


def _server_sql(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    code = sql_code(cmd)
    if code is None or db_targets.scratch(cmd, code):
        return
    local = local_server(cmd)
    harm = _SERVER_DESTROY.search(code)
    if harm is not None and not local:
        yield _deny("db-server-destroy", f"{cmd.name} runs {harm.group(0)!r}, which cuts "
                    "replication or drops a whole keyspace on another machine's server",
                    "never do this from an agent; show the statement to the database's "
                    "owner")  # fmt: skip
    elif harm is not None:
        yield _ask("db-server-destroy", f"{cmd.name} runs {harm.group(0)!r} on this machine's "
                   "server (replication or a whole keyspace)")  # fmt: skip
    hashes = _PASSWORD_HASHES.search(code)
    if hashes is not None and not local:
        yield _deny("db-password-hashes", f"{cmd.name} reads {hashes.group(0)}, the password "
                    "hashes of another machine's database accounts",
                    "never copy credentials out of a server; ask the owner")  # fmt: skip
    elif hashes is not None:
        yield _ask("db-password-hashes", f"{cmd.name} reads {hashes.group(0)}, the password "
                   "hashes of the database's accounts")  # fmt: skip
    change = _SERVER_CHANGE.search(code)
    if change is not None and harm is None:
        said = change.group(0).strip(" ;(\n")
        yield _ask("db-admin", f"{cmd.name} runs {said!r}, which changes the server's sessions, "
                   "settings or storage rather than only reading")  # fmt: skip


def _remote_restore(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``pg_restore --clean -h db-prod -d app dump``, ``mongorestore --uri mongodb://prod
    --drop dump/``: what the server holds is dropped before the dump's copy replaces it."""
    args = cmd.args()
    drops = {"--clean", "-c"} if cmd.name == "pg_restore" else {"--drop"}
    if not drops & set(args) or "--list" in args or "-l" in args:
        return
    if "$" in (option_value(args, ("-h", "--host", "--uri")) or ""):
        return  # the server is only known at run time: the client rules ask
    if cmd.name == "pg_restore":
        local, name = db_targets.target(cmd)
        named = option_value(args, ("-h", "--host")) is not None or "://" in " ".join(args)
        # No host named: PGHOST or the local socket, unknown here (the client rules ask); a
        # database named for tests or development is not what this rule protects.
        into = named and any(a.startswith(("-d", "--dbname")) for a in args)
        where = f"{option_value(args, ('-h', '--host')) or ''} {name} {' '.join(args)}"
        into = into and not db_targets.SCRATCH_NAME.search(name) and not THROWAWAY.search(where)
    else:
        into = True
        host = option_value(args, ("--uri", "--host", "-h")) or "localhost"
        host = re.sub(r"^mongodb(\+srv)?://([^@/]*@)?", "", host)
        local = all(LOCAL_URL.match(h) for h in host.split("/")[0].split(","))
    if into and not local:
        yield _deny("db-restore-over", f"{cmd.name} {' '.join(sorted(drops & set(args)))} "
                    "drops what another machine's database holds before restoring a dump "
                    "over it", "restore into a new, empty database and let a human switch "
                    "over")  # fmt: skip


def _reset_wal(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if {"-n", "--dry-run", "--help", "-V", "--version", "-?"} & set(cmd.args()):
        return
    yield _deny("db-server-destroy", f"{cmd.name} throws away the cluster's write-ahead log "
                "(its last transactions lost, the data left inconsistent)",
                "a last resort for a database's owner; show the command to a human")  # fmt: skip


def _redis_mass_delete(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``redis-cli --scan --pattern '*' | xargs redis-cli -h prod DEL``: every key deleted."""
    words = redis_command(cmd.args())
    if not words or words[0].lower() not in ("del", "unlink"):
        return
    scans = [up for up in cmd.upstream if up.name == "redis-cli" and "--scan" in up.args()]
    every = [s for s in scans if option_value(s.args(), ("--pattern",)) in (None, "*")
             and not any(s.dynamic)]  # fmt: skip
    if every and not db_targets.target(cmd)[0]:
        yield _deny("sql-destroy", f"redis-cli {words[0]} of every key a --scan lists deletes "
                    "all the data of another machine's Redis", "delete the keys you created, "
                    "by a pattern that names them")  # fmt: skip


HANDLERS: dict[str, Handler] = {
    **{n: _server_sql for n in ("psql", "mysql", "mariadb", "cqlsh", "clickhouse-client")},
    **{n: _remote_restore for n in ("pg_restore", "mongorestore")},
    **{n: _reset_wal for n in ("pg_resetwal", "pg_resetxlog")},
    "redis-cli": _redis_mass_delete,
}
