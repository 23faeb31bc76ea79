"""Vouching for data tools: ``sqlite3``, ``duckdb``, database dumps, ``plutil``.

Reads of workspace files pass; what changes a database, writes or fetches files, or reaches a
database server that is not local asks; destroying a database outside the workspace is
denied (:func:`sqlite_destroy`, called before the secret-read rules).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from workset.safety import paths
from workset.safety.rules import sql as sql_rules
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    option_value,
    parse_flags,
    unknown_program,
)
from workset.safety.rules.confinement import inside, outside


def sqlite_destroy(cmd: Cmd, ctx: Context) -> Iterator[Finding]:
    """sqlite3 DB 'DROP …' on a database outside the workspace (a browser's history)."""
    _, operands = parse_flags(cmd.args())
    sql = " ".join(w for _, w in operands[1:]).upper()
    database = operands[0][1] if operands else ""
    if database and not inside(database, ctx) and sql_rules.destroys(sql):
        yield Finding(
            "sql-destroy",
            "deny",
            f"the SQL empties or drops data in {database}, a database outside the workspace "
            "that belongs to the user or another program; work on a copy inside the workspace",
        )


def sqlite(cmd: Cmd, ctx: Context) -> Finding | None:
    _, operands = parse_flags(cmd.args())
    sql = " ".join(w for _, w in operands[1:]).upper()
    own = (
        bool(operands)
        and not cmd.is_dynamic(operands[0][0])
        and operands[0][1] != ":memory:"
        and inside(operands[0][1], ctx)
        and not re.search(r"\bATTACH\b|\bVACUUM\s+INTO\b|^\s*\.", sql)
    )
    if own and sql:
        return None  # a database file of the workspace: changing it is changing a project file
    if re.search(r"\b(DROP|DELETE|UPDATE|INSERT|ALTER|CREATE|REPLACE|ATTACH|VACUUM)\b", sql):
        return Finding(
            "sql-write",
            "ask",
            "the SQL changes the database; a human must confirm, or run a SELECT to look first",
        )
    fed = [t for op, t in cmd.redirects if op == "<"]
    database = operands[0][1] if operands else ""
    if (
        not sql
        and not cmd.piped
        and fed
        and all(paths.in_workspace(ctx.resolve(t), ctx.workspace) for t in fed)
        and database
        and not cmd.is_dynamic(operands[0][0])
        and paths.in_workspace(ctx.resolve(database), ctx.workspace)
        and not any(ctx.resolve(t) in ctx.downloaded for t in fed)
    ):
        return None  # the project's SQL script run on a database file of the workspace
    if not sql and (cmd.piped or any(op in ("<<", "<") for op, _ in cmd.redirects)):
        return Finding(
            "sql-stdin",
            "ask",
            "sqlite3 runs SQL fed on its input, which cannot be checked here; pass one SELECT "
            "as an argument instead",
        )
    return None


_DUMPERS = ("pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump", "mongodump", "mongoexport")
_DUMP_OUTPUTS = ("-f", "--file", "-r", "--result-file", "-o", "--out", "--archive")
_DUMP_HOSTS = ("-h", "--host", "--uri")
_LOCAL_DB = re.compile(r"^(localhost|127\.0\.0\.1|::1|/.*|mongodb://(localhost|127\.0\.0\.1)\b.*)$")


def _dump(cmd: Cmd, ctx: Context) -> Finding | None:
    """pg_dump/mysqldump/mongodump only read the database; a local one dumped to the terminal
    or into the workspace is confined. A remote host copies another machine's data: asks."""
    host = option_value(cmd.args(), _DUMP_HOSTS)
    attached = [a[2:] for a in cmd.args() if a.startswith("-h") and len(a) > 2]
    host = host or (attached[0] if attached else None)
    if host is not None and not _LOCAL_DB.match(host):
        return unknown_program(f"{cmd.name} -h {host}", " (it copies a remote database)")
    target = option_value(cmd.args(), _DUMP_OUTPUTS)
    if target is not None and not inside(target, ctx):
        return outside(target, cmd.name)
    return None


# plutil's actions that rewrite the file they are given (in place, or into ``-o OUT``).
_PLUTIL_WRITES = frozenset({"-convert", "-insert", "-replace", "-remove", "-create"})


def _plutil(cmd: Cmd, ctx: Context) -> Finding | None:
    """plutil -lint/-p/-type read; -convert/-insert… rewrite the file (or ``-o OUT``)."""
    args = cmd.args()
    out = option_value(args, ("-o",))
    if out is not None and out != "-" and not inside(out, ctx):
        return outside(out, "plutil -o")
    if not _PLUTIL_WRITES & set(args) or out is not None:
        return None
    files = [(i, a) for i, a in enumerate(args, start=1) if a.startswith(("./", "/", "~"))
             or a.endswith((".plist", ".json", ".xml", ".strings"))]  # fmt: skip
    for index, word in files:
        if cmd.is_dynamic(index) or not inside(word, ctx):
            return outside(word, "plutil")
    return None if files else unknown_program("plutil", " (it rewrites a file it cannot name)")


# duckdb SQL that only reads: no writes, no COPY/EXPORT out, no extensions, no other database.
_DUCKDB_CHANGES = re.compile(
    r"\b(INSERT|UPDATE|DELETE|DROP|ALTER|CREATE|REPLACE|COPY|EXPORT|IMPORT|INSTALL|LOAD|ATTACH|"
    r"DETACH|SET|RESET|PRAGMA|CALL|VACUUM|CHECKPOINT|TRUNCATE|FORCE|USE)\b|"
    r"\b(getenv|read_text|read_blob|glob)\s*\(|://",
    re.IGNORECASE,
)


def _duckdb(cmd: Cmd, ctx: Context) -> Finding | None:
    """``duckdb -c "select … from read_csv('data/x.csv')"``: a query that only reads files of
    the workspace, on an in-memory database or one in the workspace, is a read."""
    args = cmd.args()
    sql = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-c", "-s")]
    values = {i + 1 for i, a in enumerate(args[:-1]) if a in ("-c", "-s", "-cmd", "-init")}
    operands = [(i, a) for i, a in enumerate(args) if not a.startswith("-") and i not in values]
    if len(operands) > 1:
        sql.append(operands[1][1])
    database = operands[0][1] if operands else None
    if not sql or cmd.piped or any(a in ("-cmd", "-init") for a in args):
        return unknown_program("duckdb", " (its SQL is not one the line shows)")
    text = " ".join(sql)
    literals = re.findall(r"'([^']*)'", text)
    if _DUCKDB_CHANGES.search(text) or "-unsigned" in args:
        return Finding(
            "sql-write",
            "ask",
            "the SQL changes a database, writes or fetches files, or loads an extension; a "
            "human must confirm, or run a SELECT on workspace files",
        )
    for word in [w for w in literals if "/" in w or "." in w] + ([database] if database else []):
        if not paths.in_workspace(ctx.resolve(word), ctx.workspace):
            return outside(word, "duckdb") if word == database else unknown_program(
                "duckdb", f" (its query reads {word!r}, outside the workspace)")  # fmt: skip
    return None


def _createdb(cmd: Cmd, ctx: Context) -> Finding | None:
    """``createdb -h localhost app_test``: a new, empty database on this machine; elsewhere
    (or wherever ``PGHOST`` points, when no host is given) it asks."""
    host = option_value(cmd.args(), ("-h", "--host"))
    if host is not None and _LOCAL_DB.match(host):
        return None
    return unknown_program(f"{cmd.name}", " (on a server not named as this machine)")


VOUCHERS: dict[str, Callable[[Cmd, Context], Finding | None]] = {
    "plutil": _plutil,
    "createdb": _createdb,
    "duckdb": _duckdb,
    **{n: _dump for n in _DUMPERS},
}
