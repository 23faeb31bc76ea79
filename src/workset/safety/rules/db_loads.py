"""Statements that only move rows between this machine's scratch database and the workspace.

``clickhouse-client --host localhost --query "INSERT INTO app_dev.events FORMAT CSV" <
seeds/events.csv`` loads the workspace's seed file into a local database named for tests or
development (every table named with its database); ``cqlsh localhost -e "COPY ks.t (…) TO
'tmp/x.csv'"`` exports a local table into the workspace. Either is confined work, as the
project's SQL file run into its scratch database is (:mod:`~workset.safety.rules.db_targets`).
"""

from __future__ import annotations

import re

from workset.safety.rules import db_targets
from workset.safety.rules.base import Cmd, Context
from workset.safety.rules.confinement import inside
from workset.safety.rules.db_targets import SCRATCH_NAME
from workset.safety.rules.loopback import LOCAL_URL

_INSERT = re.compile(r"^\s*INSERT\s+INTO\s+[`\"]?(\w+)[`\"]?\.[`\"]?\w+[`\"]?\s*(\([\w\s,`\"]*\)"
                     r"\s*)?FORMAT\s+\w+\s*$", re.IGNORECASE)  # fmt: skip
_EXPORT = re.compile(r"^\s*COPY\s+[\w.]+\s*(\([\w\s,]*\))?\s*TO\s+'([^']+)'(\s+WITH\s+[\w\s=.'"
                     r"]*)?$", re.IGNORECASE)  # fmt: skip


_CQLSH_VALUED = frozenset({"-u", "--username", "-p", "--password", "-k", "--keyspace", "-f",
                           "--file", "-e", "--execute", "--cqlversion", "--protocol-version",
                           "--connect-timeout", "--request-timeout", "--encoding", "-t",
                           "--cqlshrc", "--credentials"})  # fmt: skip


def local_server(cmd: Cmd) -> bool:
    """The client talks to a server on this machine (cqlsh names it as its first word)."""
    if cmd.name != "cqlsh":
        return db_targets.target(cmd)[0]
    args = cmd.args()
    words = [a for i, a in enumerate(args) if not a.startswith("-")
             and (i == 0 or args[i - 1] not in _CQLSH_VALUED)]  # fmt: skip
    return not words or bool(LOCAL_URL.match(words[0]))


def confined(cmd: Cmd, code: str, ctx: Context) -> bool:
    """Every statement of ``code`` loads into a local scratch database, or exports a local
    table into the workspace."""
    statements = [s for s in code.split(";") if s.strip()]
    if not statements or any(cmd.dynamic) or not local_server(cmd):
        return False
    for statement in statements:
        load = _INSERT.match(statement) if cmd.name == "clickhouse-client" else None
        export = _EXPORT.match(statement) if cmd.name == "cqlsh" else None
        if load is not None and SCRATCH_NAME.search(load.group(1)):
            continue
        if export is not None and inside(export.group(2), ctx) and ".." not in export.group(2):
            continue
        return False
    return all(inside(t, ctx) for op, t in cmd.redirects if op == "<")
