"""Rules for database clients (``psql``, ``mysql``, ``mongosh``, ``redis-cli``…).

The statement given on the command line or stdin is read: ``DROP``/``TRUNCATE``/``FLUSHALL``
and kin are denied, other writes ask, reads pass; a session whose statements cannot be seen
asks. ``dropdb``/``dropuser``/``mysqladmin drop`` are denied. A message broker's or key-value
store's data deleted (``kafka-topics --delete``, ``rabbitmqctl purge_queue``, ``etcdctl del``)
is denied on another server and asks on this machine.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules import db_targets
from workset.safety.rules.base import Cmd, Context, Handler, Nested, Result, option_values
from workset.safety.rules.base import ask_finding as _ask
from workset.safety.rules.base import deny_finding as _deny
from workset.safety.rules.db_loads import confined
from workset.safety.rules.db_reads import REDIS_READ_MODES, mongo_write, redis_write
from workset.safety.rules.env_names import PRODUCTION, THROWAWAY
from workset.safety.rules.loopback import LOCAL_URL
from workset.safety.rules.sql import SQL_DESTROY as _SQL_DESTROY

_SQL_WRITE = re.compile(
    r"\b(INSERT|UPDATE|DELETE|ALTER|CREATE|GRANT|REVOKE|COPY|SET|DEL|HSET|EXPIRE|"
    r"insert(One|Many)?|update(One|Many)?|remove)\b",
    re.IGNORECASE,
)
# A role given the server's own powers: a scratch database's name does not confine it.
_SERVER_ROLE = re.compile(
    r"\b(ALTER|CREATE)\s+(USER|ROLE)\b[^;]*\b(SUPERUSER|CREATEROLE|BYPASSRLS)\b|"
    r"\bGRANT\s+SUPERUSER\b",
    re.IGNORECASE,
)
_SQL_CODE_FLAGS = ("-c", "--command", "-e", "--execute", "--eval", "-q", "--query")
# The statement flag written last in a run of flags that take no value (``-tAc``, ``-Ne``).
_JOINED_CODE_FLAG = {
    "psql": re.compile(r"-[tAqxXaeEnsSwW1]+c"),
    **dict.fromkeys(("mysql", "mariadb"), re.compile(r"-[NBsrtvEnqH]+e")),
}


def sql_code(cmd: Cmd) -> str | None:
    """The SQL (or Mongo/Redis commands) given on the command line or stdin, if static."""
    args = cmd.args()
    for index, word in enumerate(args):
        if word in _SQL_CODE_FLAGS and index + 1 < len(args):
            return args[index + 1]
        joined = _JOINED_CODE_FLAG.get(cmd.name)  # psql -tAc SQL, mysql -Ne SQL
        if joined is not None and joined.fullmatch(word) and index + 1 < len(args):
            return args[index + 1]
        for flag in ("--command=", "--execute=", "--eval=", "--query="):
            if word.startswith(flag):
                return word[len(flag) :]
    for op, target in cmd.redirects:
        if op == "<<":
            return target
    if cmd.name == "redis-cli":
        words = [a for a in args if not a.startswith("-")]
        return " ".join(words) if words else None
    return None


def _database(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if cmd.name in ("psql", "mysql", "mariadb"):
        yield from shell_escapes(cmd, ctx)
    code = sql_code(cmd)
    scratch = code is not None and (db_targets.scratch(cmd, code) or confined(cmd, code, ctx))
    if code is not None and db_targets.ESCALATE.search(code) and not scratch:
        yield _deny("sql-privilege", f"{cmd.name} raises an account's rights or turns off its "
                    "second factor", "never grant rights from an agent; ask the owner")  # fmt: skip
    elif code is not None and _SERVER_ROLE.search(code):
        yield _deny("sql-privilege", f"{cmd.name} makes a role a superuser (or lets it make "
                    "roles): roles belong to the whole server, not to the scratch database "
                    "named", "never grant rights from an agent; ask the owner")  # fmt: skip
    elif (
        code is not None
        and db_targets.PASSWORD_SET.search(code)
        and not scratch
        and not db_targets.target(cmd)[0]
    ):
        yield _deny("sql-password", f"{cmd.name} sets an account's password on a database "
                    "server of another machine", "never change logins from an agent; ask the "
                    "owner")  # fmt: skip
    elif scratch and code is not None and not re.search(r"FLUSHALL", code, re.I):
        return  # the project's scratch database on this machine: its tests rebuild it
    elif (
        code is not None
        and _SQL_DESTROY.search(code)
        and db_targets.target(cmd)[0]
        and not re.search(r"FLUSHALL", code, re.I)  # every database of the server
    ):
        yield _ask("sql-write", f"{cmd.name} empties data in a database on this machine")
    elif code is not None and _SQL_DESTROY.search(code):
        yield _deny(
            "sql-destroy",
            f"{cmd.name} runs {_SQL_DESTROY.search(code).group(0)!r}, which throws away a "  # type: ignore[union-attr]
            "database's data",
            "never drop or empty a database; show the statement to a human instead",
        )
    elif code is not None and _SQL_WRITE.search(code):
        yield _ask("sql-write", f"{cmd.name} changes data in a database server")
    elif cmd.name in ("mongo", "mongosh") and code is not None and (call := mongo_write(code)):
        yield _ask("db-admin", f"{cmd.name} runs {call}(…), which is not a known read of the "
                   "database (it may reconfigure, stop or change the server)")  # fmt: skip
    elif cmd.name == "redis-cli" and (sent := redis_write(cmd.args())):
        yield _ask("db-admin", f"redis-cli sends {sent!r}, which is not a known read (it may "
                   "change data, replication or the server itself)")  # fmt: skip
    elif code is None and cmd.name == "redis-cli" and REDIS_READ_MODES & set(cmd.args()):
        return  # redis-cli --bigkeys, --scan, --stat: the client's own sampling of the keys
    elif code is None and db_targets.project_script(cmd, ctx):
        return  # the project's SQL file into its scratch database
    elif code is None and cmd.name == "psql" and {"-l", "--list"} & set(cmd.args()):
        return  # psql -l: the databases listed, no session opened
    elif code is None:
        yield _ask(
            "sql-session",
            f"{cmd.name} opens a database session whose statements cannot be checked",
            "pass one statement with -c/-e so it can be checked",
        )


# Client commands that hand a line to the shell: psql/mysql ``\! CMD`` (mysql ``system``),
# output piped to a program (``\o |CMD``, ``\g |CMD``, sqlite's ``.once |CMD``), COPY's
# ``PROGRAM 'CMD'``, sqlite's ``.shell``/``.system``.
_SHELL_ESCAPE = re.compile(
    r"(?:^|[\n;])\s*(?:\\!|\\system\b|system\s|\.shell\b|\.system\b)\s*([^\n;]*)"
    r"|(?:\\[og]|\.once|\.output)\s*\|\s*([^\n]*)|\bPROGRAM\s+'((?:[^']|'')*)'",
    re.IGNORECASE,
)


def shell_escapes(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    r"""``psql -c '\! rm -rf ~'``, ``sqlite3 db '.shell …'``: the command is run as if here."""
    code = sql_code(cmd)
    if cmd.name == "sqlite3":
        code = "\n".join(a for a in cmd.args()[1:] if not a.startswith("-")) or code
    for match in _SHELL_ESCAPE.finditer(code or ""):
        command = next(g for g in match.groups() if g is not None).replace("''", "'")
        if command.strip():
            yield Nested(command)


def _drop_tools(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    local, name = db_targets.target(cmd)
    if cmd.name in ("createdb", "pg_restore"):  # a new database, or a dump loaded into one
        into = cmd.name == "createdb" or any(a.startswith(("-d", "--dbname")) for a in cmd.args())
        if into and not local:  # (pg_restore without -d prints the dump's SQL)
            yield _ask("sql-write", f"{cmd.name} writes a database on another machine's server")
        return
    if cmd.name == "dropdb" and local and name and db_targets.scratch(cmd, ""):
        return  # a local database named for tests or development: the tests make it again
    if cmd.name == "dropdb" and local:
        yield _ask("sql-write", "dropdb drops a database on this machine")
    elif cmd.name in ("dropdb", "dropuser") or "drop" in cmd.args():
        yield _deny(
            "sql-destroy",
            f"{cmd.name} drops a database",
            "never drop databases; ask the database's owner",
        )


# Message brokers and key-value stores: the calls that delete or empty what they hold, and
# where each is pointed (the option naming the server; its default is this machine).
_BROKER_DESTROY: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    **{f"kafka-{n}{s}": (frozenset({"--delete", "--delete-offsets"}),
                         ("--bootstrap-server", "--zookeeper", "--broker-list"))
       for n in ("topics", "consumer-groups", "delete-records", "configs") for s in ("", ".sh")},
    "rabbitmqctl": (frozenset({"delete_queue", "purge_queue", "reset", "force_reset",
                               "delete_vhost", "delete_user", "clear_permissions"}),
                    ("-n", "--node")),
    "rabbitmqadmin": (frozenset({"delete", "purge"}), ("-H", "--host")),
    "etcdctl": (frozenset({"del", "delete", "defrag", "compaction", "snapshot restore"}),
                ("--endpoints",)),
    "nats": (frozenset({"rm", "purge", "del", "delete"}), ("-s", "--server")),
}  # fmt: skip


def _broker(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``kafka-topics --delete``, ``rabbitmqctl purge_queue``, ``etcdctl del --prefix``: a
    broker's or store's data deleted. On this machine it asks (a dev broker the tests
    rebuild); on a server named elsewhere it is denied, as a database dropped there is."""
    verbs, server_options = _BROKER_DESTROY[cmd.name]
    args = cmd.args()
    said = next((a for a in args if a.split("=", 1)[0] in verbs), None)
    if said is None:
        return
    servers = option_values(args, server_options)
    hosts = [h.strip() for s in servers for h in s.split(",") if h.strip()]
    if cmd.name == "rabbitmqctl":  # -n rabbit@HOST: the node's host, "rabbit" alone is local
        hosts = [h.split("@", 1)[1] for h in hosts if "@" in h]
    if all(LOCAL_URL.match(h) for h in hosts):
        yield _ask("broker-destroy", f"{cmd.name} {said} deletes a broker's data on this machine")
    elif all(THROWAWAY.search(h) and not PRODUCTION.search(h) for h in hosts):
        yield _ask("broker-destroy", f"{cmd.name} {said} deletes the data of {hosts[0]}, a "
                   "staging or test broker")  # fmt: skip
    else:
        yield _deny(
            "broker-destroy",
            f"{cmd.name} {said} deletes or empties the data of {hosts[0]}, a server elsewhere",
            "never delete a shared broker's topics, queues or keys from an agent; show the "
            "command to a human instead",
        )


HANDLERS: dict[str, Handler] = {
    **{n: _broker for n in _BROKER_DESTROY},
    **{
        n: _database
        for n in (
            "psql",
            "mysql",
            "mariadb",
            "mongo",
            "mongosh",
            "redis-cli",
            "cqlsh",
            "sqlcmd",
            "clickhouse-client",
            *("snowsql", "spark-sql", "beeline", "hive", "trino", "presto", "impala-shell"),
        )
    },
    **{n: _drop_tools for n in ("dropdb", "dropuser", "mysqladmin", "createdb", "pg_restore")},
    "sqlite3": shell_escapes,
}
