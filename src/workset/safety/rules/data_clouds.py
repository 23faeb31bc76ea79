"""Vouching for the clients of shared data platforms: ``databricks``, ``bq``, the SQL shells
of warehouses (``snowsql``, ``spark-sql``, ``beeline``, ``trino``…), and the model and dataset
hubs (``huggingface-cli``/``hf``, ``kaggle``).

Listing, describing and reading pass: ``databricks fs ls``, ``jobs get``, ``bq show``, ``bq
query --dry_run``, one ``SELECT``/``SHOW``/``DESCRIBE`` given on the command line, ``hf
whoami``, ``kaggle competitions list``. A download passes when it lands in the workspace.
Everything else asks: it writes shared tables or storage, runs jobs, or publishes; the SQL
that destroys is denied by :mod:`~workset.safety.rules.databases`, the rest that destroys or
publishes by :mod:`~workset.safety.rules.data_harms`.
"""

from __future__ import annotations

import re

from workset.safety.rules.base import Cmd, Context, Finding, Voucher, option_value, unknown_program
from workset.safety.rules.confinement import inside, outside
from workset.safety.rules.data_tools import verbs

# A statement that only reads, with nothing after it that writes.
_READ_SQL = re.compile(r"^\s*\(?\s*(SELECT|WITH|SHOW|DESCRIBE|DESC|EXPLAIN|LIST|LS)\b", re.I)
_WRITE_SQL = re.compile(
    r"\b(INSERT|UPDATE|DELETE|MERGE|DROP|ALTER|CREATE|TRUNCATE|GRANT|REVOKE|COPY|UNLOAD|PUT|"
    r"GET|REMOVE|RM|CALL|EXECUTE|EXPORT|IMPORT|LOAD|SET|USE|UNDROP|REPLACE|INTO|MSCK|"
    r"REFRESH|CACHE|ADD|RESET|OPTIMIZE|VACUUM)\b",
    re.IGNORECASE,
)


def read_sql(text: str) -> bool:
    """Every statement of ``text`` only reads."""
    statements = [s for s in text.split(";") if s.strip()]
    return bool(statements) and all(
        _READ_SQL.match(s) and not _WRITE_SQL.search(re.sub(r"'[^']*'", "''", s))
        for s in statements
    )


_SQL_OPTIONS = ("-q", "--query", "-e", "--execute")


def _sql_shell(cmd: Cmd, ctx: Context) -> Finding | None:
    """``snowsql -q "SHOW TABLES"``, ``spark-sql -e "SELECT …"``: one read given on the
    command line; a script, a session or a write asks."""
    code = option_value(cmd.args(), _SQL_OPTIONS)
    saved = [v.split("=", 1)[1] for v in cmd.args() if v.startswith("output_file=")]
    if any(not inside(v, ctx) for v in saved):
        return outside(saved[0], cmd.name)  # snowsql -o output_file=…: the rows saved there
    if code is not None and read_sql(code):
        return None
    return unknown_program(cmd.name, " (its SQL is not one read the line shows)")


def _bq(cmd: Cmd, ctx: Context) -> Finding | None:
    """``bq ls``, ``bq show``, ``bq head``; ``bq query`` as a dry run or one SELECT that
    writes no table. Loads, copies, extracts, removals and ``mk`` ask."""
    words = verbs(cmd, ("--format", "--project_id", "--location", "--dataset_id", "-n",
                        "--max_rows", "--max_results", "-j", "--parameter"))  # fmt: skip
    sub = words[0] if words else ""
    args = cmd.args()
    if sub in ("ls", "show", "head", "version", "help", "wait"):
        return None
    writes = any(a.startswith(("--destination_table", "--replace", "--append_table",
                               "--schedule", "--destination")) for a in args)  # fmt: skip
    dry = any(a in ("--dry_run", "--dry_run=true", "--nodry_run=false") for a in args)
    if sub == "query" and not writes and (dry or (words[1:] and read_sql(words[-1]))):
        return None
    return unknown_program(f"bq {sub}".strip(), " (it writes, copies or removes tables)")


_DATABRICKS_READS = {
    "fs": frozenset({"ls", "cat"}),
    "jobs": frozenset({"get", "list", "get-run", "list-runs", "get-run-output"}),
    "runs": frozenset({"get", "list", "get-output"}),
    "clusters": frozenset({"get", "list", "list-node-types", "spark-versions", "events"}),
    "workspace": frozenset({"list", "ls", "get-status"}),
    "bundle": frozenset({"validate", "summary"}),
    "current-user": frozenset({"me"}),
    "pipelines": frozenset({"get", "list-pipelines", "list-updates", "get-update"}),
}  # fmt: skip
_DATABRICKS_LISTS = frozenset({"catalogs", "schemas", "tables", "volumes", "warehouses",
                               "experiments", "repos", "metastores", "registered-models",
                               "model-versions", "serving-endpoints"})  # fmt: skip


def _databricks(cmd: Cmd, ctx: Context) -> Finding | None:
    """``databricks fs ls dbfs:/…``, ``jobs get``, ``clusters list``, ``tables list``: the
    workspace's objects read. Runs, deploys, copies and deletions ask."""
    words = verbs(cmd, ("-p", "--profile", "-o", "--output", "-t", "--target", "--limit"))
    group, action = [*words, "", ""][:2]
    if action in _DATABRICKS_READS.get(group, ()):
        return None
    if group in _DATABRICKS_LISTS and re.match(r"^(get|list|describe|summary)", action):
        return None
    return unknown_program(f"databricks {group} {action}".strip(),
                           " (it runs, deploys or changes the workspace)")  # fmt: skip


_HUB_DOWNLOAD_DIRS = ("--local-dir", "--cache-dir")


def _hub(cmd: Cmd, ctx: Context) -> Finding | None:
    """``huggingface-cli whoami``/``env``/``scan-cache``; ``download`` into a folder of the
    workspace (``--local-dir``/``--cache-dir``). A download into the shared cache of the
    home, uploads, repository changes and logins ask."""
    words = verbs(cmd, ("--repo-type", "--revision", "--include", "--exclude", "--token",
                        *_HUB_DOWNLOAD_DIRS))  # fmt: skip
    sub = words[0] if words else ""
    if sub in ("whoami", "env", "version", "scan-cache") or words[:2] == ["auth", "whoami"]:
        return None
    if sub == "download":
        place = option_value(cmd.args(), _HUB_DOWNLOAD_DIRS)
        if place is None:
            return unknown_program(f"{cmd.name} download", " (it fills the shared cache of "
                                   "the home; pass --local-dir inside the workspace)")  # fmt: skip
        return None if inside(place, ctx) else outside(place, f"{cmd.name} download")
    return unknown_program(f"{cmd.name} {sub}".strip(), " (it publishes, logs in or deletes)")


_KAGGLE_READS = {
    "competitions": frozenset({"list", "files", "leaderboard", "download"}),
    "datasets": frozenset({"list", "files", "download", "status"}),
    "kernels": frozenset({"list", "status", "files"}),
    "models": frozenset({"list", "get"}),
    "config": frozenset({"view"}),
}
_KAGGLE_SHORT = {"c": "competitions", "d": "datasets", "k": "kernels", "m": "models"}


def _kaggle(cmd: Cmd, ctx: Context) -> Finding | None:
    """``kaggle competitions list``, ``datasets files``: the site read; ``download -p DIR``
    into the workspace. Creating, versioning, pushing and submitting publish: ask."""
    words = verbs(
        cmd,
        (
            "-p",
            "--path",
            "-s",
            "--search",
            "--category",
            "--sort-by",
            "--page",
            "-f",
            "--file",
            "--group",
            "--user",
            "-m",
            "--message",
        ),
    )
    group, action = [*words, "", ""][:2]
    group = _KAGGLE_SHORT.get(group, group)
    if action not in _KAGGLE_READS.get(group, ()):
        return unknown_program(f"kaggle {group} {action}".strip(), " (it publishes or submits)")
    place = option_value(cmd.args(), ("-p", "--path"))
    return outside(place, "kaggle") if place is not None and not inside(place, ctx) else None


_SQL_SHELLS = ("snowsql", "spark-sql", "beeline", "hive", "trino", "presto", "impala-shell")
VOUCHERS: dict[str, Voucher] = {
    **dict.fromkeys(_SQL_SHELLS, _sql_shell),
    "bq": _bq,
    "databricks": _databricks,
    "huggingface-cli": _hub,
    "hf": _hub,
    "kaggle": _kaggle,
}
