"""What a data or ML platform's client destroys, publishes or opens, beyond confirming.

Denied, with the reason in one line:

- shared data destroyed at once: a live dbt target rebuilt from nothing (``--full-refresh``)
  or a dropping macro run on it; an Airflow DAG deleted with its history, or a backfill that
  resets existing runs unconfirmed; ``dvc gc --cloud`` (every object the current commit does
  not use, deleted from the shared remote); ``mlflow gc`` on a tracking server's database;
  ``databricks fs rm -r``; ``bq rm -r``/``-d`` (a dataset and its tables); ``feast
  teardown`` of a live repository; a Kafka topic's retention cut to minutes on another host
  (its data purged); DuckDB dropping tables of a database server it attached;
- data published to anyone: ``kaggle datasets create --public``, a hub upload (public unless
  ``--private``) of a folder named for people's data;
- the project's data pushed to a DVC remote the same line re-pointed;
- a Ray head whose dashboard listens on every interface (it runs any job sent to it);
- the code a Ray job runs on the cluster is judged as if run here (``-- python -c …``).

Everything else these clients change asks, through the vouchers of
:mod:`~workset.safety.rules.data_tools` and :mod:`~workset.safety.rules.data_clouds`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import (
    Cmd,
    Context,
    Handler,
    Nested,
    Result,
    option_value,
    option_values,
    requote,
)
from workset.safety.rules.base import ask_finding as _ask
from workset.safety.rules.base import deny_finding as _deny
from workset.safety.rules.confinement import inside
from workset.safety.rules.data_tools import verbs
from workset.safety.rules.env_names import PRODUCTION
from workset.safety.rules.loopback import LOCAL_URL
from workset.safety.rules.sql import SQL_DESTROY

_DESTROYING_MACRO = re.compile(r"drop|truncate|delete|purge|wipe|clean|reset", re.IGNORECASE)


def _dbt(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = verbs(cmd, ("--target", "-t", "--select", "-s", "--args", "--vars", "--exclude"))
    target = option_value(cmd.args(), ("--target", "-t")) or ""
    if not PRODUCTION.search(target) or not words:
        return
    if words[0] in ("run", "build", "seed", "snapshot") and "--full-refresh" in cmd.args():
        yield _deny("dbt-live-rebuild", f"dbt {words[0]} --full-refresh on the {target} target "
                    "drops live tables and rebuilds them from nothing, losing what only they "
                    "held", "run it on a development target, or ask the data owner")  # fmt: skip
    elif words[0] == "run-operation" and _DESTROYING_MACRO.search(" ".join(words[1:2])):
        yield _deny("dbt-live-rebuild", f"dbt run-operation {words[1]} on the {target} target "
                    "drops or empties live data", "run it on a development target, or ask "
                    "the data owner")  # fmt: skip


def _airflow(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = verbs(cmd, ("-s", "--start-date", "-e", "--end-date", "-S", "--subdir"))
    args = set(cmd.args())
    if words[:2] == ["dags", "delete"]:
        yield _deny("scheduler-history-deleted", "airflow dags delete removes every record of "
                    "the DAG's runs and tasks from the scheduler's database", "pause the DAG "
                    "instead, or ask its owner")  # fmt: skip
    elif words[:2] == ["db", "reset"]:
        yield _deny("scheduler-history-deleted", "airflow db reset drops the scheduler's whole "
                    "database: every run, connection and variable", "ask the owner")  # fmt: skip
    elif words[:2] == ["dags", "backfill"] and "--reset-dagruns" in args and args & {"-y", "--yes"}:
        yield _deny("scheduler-history-deleted", "airflow dags backfill --reset-dagruns -y "
                    "clears every existing run in the range without asking and loads it "
                    "again", "backfill a short range without --yes, or ask the owner")  # fmt: skip


def _dvc(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = verbs(cmd, ("-r", "--remote", "-j", "--jobs"))
    args = set(cmd.args())
    if words[:1] == ["gc"] and args & {"-c", "--cloud"} and "--dry" not in args:
        yield _deny("cloud-storage-wipe", "dvc gc --cloud deletes from the shared remote every "
                    "object the current workspace does not use, other branches' data "
                    "included", "collect only the local cache, or ask the data owner")  # fmt: skip
    elif words[:2] in (["remote", "add"], ["remote", "modify"]) and len(words) > 2:
        ctx.remotes.add(f"dvc:{words[2]}")  # a push to it later in the line goes there
    elif words[:1] == ["push"]:
        remote = option_value(cmd.args(), ("-r", "--remote"))
        named = f"dvc:{remote}" in ctx.remotes if remote else any(
            r.startswith("dvc:") for r in ctx.remotes)  # fmt: skip
        if named:
            yield _deny("exfiltration", "dvc push sends the project's data to the storage this "
                        "line just pointed the remote at", "push to the remote the project "
                        "already uses, or ask the data owner")  # fmt: skip


def _mlflow(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = verbs(cmd, ("--backend-store-uri",))
    store = option_value(cmd.args(), ("--backend-store-uri",)) or ""
    if words[:1] == ["gc"] and "://" in store and not store.startswith(("sqlite:", "file:")):
        yield _deny("tracking-history-deleted", "mlflow gc on the tracking server's database "
                    "deletes its deleted runs and their artifacts for good, for everyone",
                    "ask the tracking server's owner")  # fmt: skip


def _databricks(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = verbs(cmd, ("-p", "--profile"))
    recursive = set(cmd.args()) & {"-r", "--recursive", "--recursive=true"}
    if (words[:2] == ["fs", "rm"] or words[:2] == ["workspace", "delete"]) and recursive:
        yield _deny("cloud-storage-wipe", f"databricks {words[0]} {words[1]} -r deletes a "
                    "whole tree of the shared workspace or its storage", "delete the files "
                    "you created, by name, or ask the owner")  # fmt: skip


def _bq(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = verbs(cmd, ("--project_id", "--location", "--format"))
    flags = {f for a in cmd.args() if re.fullmatch(r"-[a-z]+", a) for f in a[1:]}
    flags |= {a.lstrip("-") for a in cmd.args() if a.startswith("--")}
    if words[:1] == ["rm"] and flags & {"r", "d", "recursive", "dataset"}:
        yield _deny("cloud-destroy", "bq rm of a dataset deletes it with every table in it",
                    "delete the tables you created, by name, or ask the owner")  # fmt: skip
    elif words[:1] == ["query"] and len(words) > 1 and SQL_DESTROY.search(words[-1]):
        yield _deny("sql-destroy", "bq query drops or empties warehouse tables", "never drop "
                    "or empty a table; show the statement to a human instead")  # fmt: skip


# Names of folders that hold people's data: customers, users, patients, personal records.
_PEOPLE_DATA = re.compile(r"pii|personal|customer|client|user|patient|employee|member|"
                          r"subscriber|account|contact|people|gdpr|phi", re.IGNORECASE)  # fmt: skip


def _hub_upload(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = verbs(cmd, ("--repo-type", "--revision", "--include", "--exclude", "--token",
                        "--commit-message"))  # fmt: skip
    if words[:1] != ["upload"] or "--private" in cmd.args():
        return
    sent = next((w for w in words[2:3] if _PEOPLE_DATA.search(w)), None)
    if sent is not None:
        yield _deny("data-published", f"{cmd.name} upload publishes {sent}, a folder named for "
                    "people's data, to a hub repository anyone can read unless made private",
                    "never publish personal data; ask the data owner")  # fmt: skip


def _kaggle(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = verbs(cmd, ("-p", "--path", "-m", "--message"))
    first = words[0] if words else ""
    group = {"d": "datasets", "k": "kernels", "m": "models"}.get(first, first)
    if group in ("datasets", "models") and {"--public", "-u"} & set(cmd.args()):
        yield _deny("data-published", f"kaggle {group} {' '.join(words[1:2])} --public makes "
                    "the data downloadable by anyone", "publish it private and let the data "
                    "owner decide")  # fmt: skip


_OPEN_HOST = re.compile(r"^(0\.0\.0\.0|::|\[::\]|\*)$")


def _ray(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = verbs(cmd, ("--address", "--dashboard-host", "--working-dir", "--runtime-env",
                        "--submission-id", "--entrypoint-num-cpus"))  # fmt: skip
    args = cmd.args()
    if words[:1] == ["start"] and any(
        _OPEN_HOST.match(h) for h in option_values(args, ("--dashboard-host",))
    ):
        yield _deny("serves-root-access", "ray start --dashboard-host 0.0.0.0 lets anyone who "
                    "reaches this machine submit jobs, which run any code, with no login",
                    "leave the dashboard on 127.0.0.1")  # fmt: skip
    elif words[:2] == ["job", "submit"] and "--" in args:
        entrypoint = args[args.index("--") + 1 :]
        if entrypoint:
            yield Nested(requote(entrypoint), deny_only=True)  # runs on the cluster's machines


def _feast(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = verbs(cmd, ("-c", "--chdir", "-f", "--feature-store-yaml"))
    repo = " ".join(option_values(cmd.args(), ("-c", "--chdir", "-f", "--feature-store-yaml")))
    if words[:1] == ["teardown"] and PRODUCTION.search(repo):
        yield _deny("cloud-destroy", "feast teardown of a live feature repository deletes its "
                    "online and offline stores' tables",
                    "ask the feature store's owner")  # fmt: skip
    elif words[:1] == ["teardown"]:
        yield _ask("cloud-storage-change", "feast teardown deletes the feature stores' tables")


# A retention that purges a topic: under an hour of messages, or under a megabyte.
_PURGING = re.compile(r"retention\.ms=(\d{1,6})(\D|$)|retention\.bytes=(\d{1,6})(\D|$)")


def _kafka_retention(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    settings = " ".join(option_values(cmd.args(), ("--add-config",)))
    servers = option_values(cmd.args(), ("--bootstrap-server", "--zookeeper"))
    if not _PURGING.search(settings):
        return
    if servers and all(LOCAL_URL.match(h) for s in servers for h in s.split(",")):
        yield _ask("broker-destroy", f"{cmd.name} cuts a topic's retention, purging its data")
    else:
        yield _deny("broker-destroy", f"{cmd.name} cuts a topic's retention to almost nothing "
                    "on a shared cluster, which purges its messages", "never purge a shared "
                    "topic from an agent; ask its owner")  # fmt: skip


_ATTACHED = re.compile(r"\bATTACH\s+'([^']*)'", re.IGNORECASE)


def _duckdb(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """DuckDB attaches a database server (``host=… dbname=…``, ``postgres://…``) or a file
    elsewhere, and the SQL drops or empties tables: the server's data is destroyed."""
    text = " ".join(option_values(cmd.args(), ("-c", "-s", "-cmd")))
    far = [a for a in _ATTACHED.findall(text) if "=" in a or "://" in a or not inside(a, ctx)]
    if far and SQL_DESTROY.search(text):
        yield _deny("sql-destroy", "duckdb attaches a database outside the workspace and drops "
                    "or empties its tables", "never drop shared data; show the statement to "
                    "a human instead")  # fmt: skip


HANDLERS: dict[str, Handler] = {
    "dbt": _dbt,
    "airflow": _airflow,
    "dvc": _dvc,
    "mlflow": _mlflow,
    "databricks": _databricks,
    "bq": _bq,
    "huggingface-cli": _hub_upload,
    "hf": _hub_upload,
    "kaggle": _kaggle,
    "ray": _ray,
    "feast": _feast,
    **{f"kafka-configs{s}": _kafka_retention for s in ("", ".sh")},
    "duckdb": _duckdb,
}
