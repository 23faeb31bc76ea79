"""Vouching for a data engineer's local tools: ``dbt``, ``airflow``, ``dvc``, ``mlflow``,
``feast``, ``ray``, ``wandb``, GPU and file inspectors.

Each tool is known by the verbs that only read (``dbt compile``, ``airflow dags list``,
``dvc status``, ``mlflow runs list``, ``feast plan``, ``nvidia-smi -L``) or that change only
the workspace (``dbt clean``, ``dvc pull``, an artifact downloaded into it, ``nbstripout
--install``). Every other verb asks: it writes to a shared warehouse, scheduler, tracking
server or remote store, runs jobs elsewhere, or prints credentials. What destroys shared data
is denied by :mod:`~workset.safety.rules.data_harms`; the cloud and warehouse clients are
vouched for in :mod:`~workset.safety.rules.data_clouds`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workset.safety.rules.base import Cmd, Context, Finding, Voucher, option_value, unknown_program
from workset.safety.rules.confinement import inside, outside
from workset.safety.rules.env_names import PRODUCTION
from workset.safety.rules.loopback import LOCAL_URL


def verbs(cmd: Cmd, valued: Sequence[str] = ()) -> list[str]:
    """The words that are not options nor the values of the options in ``valued``."""
    args = cmd.args()
    out: list[str] = []
    skip = False
    for word in args:
        if skip:
            skip = False
        elif word == "--":
            break
        elif word.startswith("-"):
            skip = word in valued
        else:
            out.append(word)
    return out


def _refused(cmd: Cmd, words: Sequence[str], why: str = "") -> Finding:
    what = " ".join([cmd.name, *words[:2]]).strip()
    return unknown_program(what, why or " (this verb is not one known to only read)")


def _written_inside(cmd: Cmd, ctx: Context, options: tuple[str, ...]) -> Finding | None:
    """The file or folder named by one of ``options`` is outside the workspace."""
    target = option_value(cmd.args(), options)
    return outside(target, cmd.name) if target is not None and not inside(target, ctx) else None


_DBT_VALUED = ("--target", "-t", "--select", "-s", "--exclude", "--selector", "--vars",
               "--args", "--profiles-dir", "--project-dir", "--threads", "--state",
               "--target-path", "--log-path", "--profile", "--resource-type", "--output",
               "-o", "--inline", "--limit", "--output-keys", "--defer-state")  # fmt: skip
_DBT_READS = frozenset({"compile", "ls", "list", "parse", "debug", "clean", "show"})
_SQL_CHANGE = re.compile(r"\b(INSERT|UPDATE|DELETE|MERGE|DROP|ALTER|CREATE|TRUNCATE|GRANT|"
                         r"REVOKE|COPY|UNLOAD|CALL|EXECUTE)\b", re.IGNORECASE)  # fmt: skip


def _dbt(cmd: Cmd, ctx: Context) -> Finding | None:
    """``dbt compile``/``ls``/``parse``/``debug``/``clean``/``show`` and ``source freshness``
    only read the project or the warehouse (``clean`` empties the project's own build
    folders); ``dbt test`` runs SELECTs, and stores failing rows only on a target that is not
    live. ``run``/``build``/``seed``/``snapshot``/``run-operation`` write the warehouse: ask."""
    words = verbs(cmd, _DBT_VALUED)
    sub = words[0] if words else ""
    target = option_value(cmd.args(), ("--target", "-t")) or ""
    inline = option_value(cmd.args(), ("--inline",)) or ""
    if sub in _DBT_READS and not _SQL_CHANGE.search(inline):
        return None
    if words[:2] == ["source", "freshness"] or words[:2] == ["docs", "generate"]:
        return None  # the newest load time of each source; the catalog, into target/
    stores = "--store-failures" in cmd.args()
    if sub == "test" and not (stores and (not target or PRODUCTION.search(target))):
        return None
    return _refused(cmd, words, " (it writes tables in the warehouse or runs macros there)")


_AIRFLOW_READS = {
    "dags": frozenset({"list", "show", "list-runs", "list-jobs", "state", "details", "report",
                       "list-import-errors", "next-execution", "list-warnings"}),
    "tasks": frozenset({"list", "state", "states-for-dag-run", "failed-deps"}),
    "providers": frozenset({"list", "get", "hooks", "links", "widgets", "behaviours"}),
    "pools": frozenset({"list", "get"}),
    "jobs": frozenset({"check"}),
    "db": frozenset({"check", "check-migrations"}),
    "roles": frozenset({"list"}),
    "variables": frozenset({"list"}),
    "config": frozenset({"get-value"}),
}  # fmt: skip
# Settings whose values are credentials: a key, a password, a connection string.
_SECRET_SETTING = re.compile(r"key|secret|pass|token|conn|auth|credential", re.IGNORECASE)


def _airflow(cmd: Cmd, ctx: Context) -> Finding | None:
    """``airflow dags list``, ``tasks states-for-dag-run``, ``config get-value core
    dags_folder``: the scheduler's metadata or settings read; ``dags show --save`` writes an
    image, so into the workspace. A setting that holds a credential, and every other verb
    (trigger, pause, backfill, clear, connections), asks."""
    words = verbs(cmd, ("-o", "--output", "-s", "--save", "-S", "--subdir", "-v", "--verbose"))
    group, action = [*words, "", ""][:2]
    if group in ("version", "cheat-sheet", "plugins") or (
        group == "info" and "--anonymize" in cmd.args()
    ):
        return None  # (without --anonymize, info prints the database's connection string)
    if action not in _AIRFLOW_READS.get(group, ()):
        return _refused(cmd, words)
    if group == "config" and any(_SECRET_SETTING.search(w) for w in words[2:]):
        return unknown_program("airflow config get-value", " (the setting holds a credential)")
    return _written_inside(cmd, ctx, ("--save", "-s"))


_DVC_READS = frozenset({"status", "diff", "dag", "ls", "list", "doctor", "version", "root",
                        "check-ignore", "params", "metrics", "plots", "fetch", "pull",
                        "checkout", "add", "commit", "move", "unprotect", "repro"})  # fmt: skip
_DVC_PARTS = {"exp": frozenset({"show", "diff", "list"}), "data": frozenset({"status"}),
              "remote": frozenset({"list"}), "stage": frozenset({"list"})}  # fmt: skip


def _dvc(cmd: Cmd, ctx: Context) -> Finding | None:
    """``dvc status``/``diff``/``dag``/``metrics``/``params``/``plots`` read the project and
    its remote; ``pull``/``fetch``/``checkout``/``add``/``commit`` fill the workspace and its
    cache; ``repro`` runs the project's own pipeline, as ``make`` does; ``gc --dry`` only
    lists. ``push``, ``gc``, ``remote add/modify``, ``config`` and ``import`` ask."""
    words = verbs(cmd, ("-r", "--remote", "-j", "--jobs", "-o", "--out", "-R", "--rev"))
    sub = words[0] if words else ""
    if sub in ("add", "commit", "move", "unprotect"):
        far = next((w for w in words[1:] if not inside(w, ctx)), None)
        if far is not None:
            return outside(far, f"dvc {sub}")  # dvc add ~/x: data from outside the project
    if sub in _DVC_READS or (words[1:2] and words[1] in _DVC_PARTS.get(sub, ())):
        return _written_inside(cmd, ctx, ("-o", "--out"))
    if sub == "gc" and "--dry" in cmd.args():
        return None
    return _refused(cmd, words, " (it uploads, deletes or re-points shared data storage)")


_MLFLOW_READS = {"runs": frozenset({"list", "describe"}),
                 "experiments": frozenset({"search", "list", "get"}),
                 "artifacts": frozenset({"list", "download"})}  # fmt: skip


def _mlflow(cmd: Cmd, ctx: Context) -> Finding | None:
    """``mlflow runs list``, ``experiments search``, ``artifacts list``: the tracking server
    read; ``artifacts download -d DIR`` copies into the workspace; ``ui``/``server`` bound to
    this machine. Deleting runs, ``gc``, serving models and registering them ask."""
    words = verbs(
        cmd,
        (
            "--experiment-id",
            "--run-id",
            "--artifact-path",
            "-d",
            "--dst-path",
            "--artifact-uri",
            "-h",
            "--host",
            "-p",
            "--port",
            "--view",
            "-v",
        ),
    )
    group, action = [*words, "", ""][:2]
    if group in ("doctor", "--version") or action in _MLFLOW_READS.get(group, ()):
        return _written_inside(cmd, ctx, ("-d", "--dst-path"))
    host = option_value(cmd.args(), ("-h", "--host")) or "127.0.0.1"
    store = option_value(cmd.args(), ("--backend-store-uri",)) or ""
    if group in ("ui", "server") and LOCAL_URL.match(host) and "://" not in store:
        return None
    return _refused(cmd, words, " (it changes the tracking server or serves a model)")


_FEAST_READS = frozenset({"plan", "version", "registry-dump", "validate"})
_FEAST_LISTS = frozenset({"entities", "feature-views", "feature-services", "data-sources",
                          "on-demand-feature-views", "projects", "permissions",
                          "saved-datasets", "stream-feature-views"})  # fmt: skip


def _feast(cmd: Cmd, ctx: Context) -> Finding | None:
    """``feast plan``, ``feast entities list``: the feature repository and registry read;
    ``apply``, ``materialize`` and ``teardown`` change the stores: ask."""
    words = verbs(cmd, ("-c", "--chdir", "-f", "--feature-store-yaml", "--log-level"))
    sub = words[0] if words else ""
    if sub in _FEAST_READS or (sub in _FEAST_LISTS and words[1:2] in (["list"], ["describe"])):
        return None
    return _refused(cmd, words, " (it changes the feature stores)")


def _ray(cmd: Cmd, ctx: Context) -> Finding | None:
    """``ray status``/``list``/``summary``/``stop`` and ``ray start --head`` whose dashboard
    stays on this machine: a local cluster. Jobs, cluster launches and joins ask."""
    words = verbs(
        cmd,
        (
            "--address",
            "--dashboard-host",
            "--port",
            "--num-cpus",
            "--num-gpus",
            "--dashboard-port",
            "--temp-dir",
            "--object-store-memory",
        ),
    )
    sub = words[0] if words else ""
    if sub in ("status", "list", "summary", "memory", "stop", "get"):
        return None
    dashboard = option_value(cmd.args(), ("--dashboard-host",)) or "127.0.0.1"
    joins = option_value(cmd.args(), ("--address",)) is not None
    if sub == "start" and "--head" in cmd.args() and LOCAL_URL.match(dashboard) and not joins:
        return None
    return _refused(cmd, words, " (it runs jobs on a cluster or opens one to the network)")


def _wandb(cmd: Cmd, ctx: Context) -> Finding | None:
    """``wandb offline``/``disabled``: the client's mode, kept in the project; syncs ask."""
    words = verbs(cmd, ("-p", "--project", "-e", "--entity", "--id"))
    if words[:1] and words[0] in ("offline", "online", "disabled", "enabled"):
        return None
    return _refused(cmd, words, " (it uploads runs or reads the login)")


# nvidia-smi's options that only print (and their values: ids, a loop period).
_SMI_READS = re.compile(r"^(-L|--list-gpus|-q|--query|-x|--xml-format|-i|--id(=.*)?|-d|"
                        r"--display(=.*)?|-l|--loop(=.*)?|-lms|--loop-ms(=.*)?|-u|--unit|"
                        r"--query-[\w-]+=.*|--format=.*|-m|--matrix|topo|dmon|pmon|"
                        r"[\w,.]+)$")  # fmt: skip


def _nvidia_smi(cmd: Cmd, ctx: Context) -> Finding | None:
    """``nvidia-smi -L``, ``--query-gpu=… --format=csv``: the GPUs described; options that
    set clocks, power, modes or reset a GPU ask."""
    changing = next((a for a in cmd.args() if not _SMI_READS.match(a)), None)
    if changing is None:
        return None
    return unknown_program(f"nvidia-smi {changing}", " (it changes the GPU's settings)")


def _nvcc(cmd: Cmd, ctx: Context) -> Finding | None:
    """nvcc compiles like gcc: its output must land in the workspace."""
    return _written_inside(cmd, ctx, ("-o", "--output-file"))


_PARQUET_READS = frozenset({"schema", "show", "head", "cat", "meta", "inspect", "rowcount",
                            "size", "dump", "csv", "footer", "column-index", "pages"})  # fmt: skip


def _parquet(cmd: Cmd, ctx: Context) -> Finding | None:
    """``parquet-tools schema|show|meta FILE``: a data file's contents printed."""
    words = verbs(cmd)
    if words[:1] and words[0] in _PARQUET_READS:
        return None
    return _refused(cmd, words, " (it writes or merges files)")


def _fickling(cmd: Cmd, ctx: Context) -> Finding | None:
    """``fickling --check-safety model.pkl``: a pickle decompiled and judged, never loaded;
    ``--inject``/``--create`` write one, so they ask."""
    options = {a for a in cmd.args() if a.startswith("-")}
    if options <= {"--check-safety", "-s", "--trace", "-t", "--print-results", "-p"}:
        return None
    return unknown_program("fickling", " (it writes or rewrites a pickle)")


def _nbstripout(cmd: Cmd, ctx: Context) -> Finding | None:
    """``nbstripout --install``: a git filter set in the repository's own settings and
    ``.gitattributes``; ``nbstripout nb.ipynb`` rewrites that notebook. ``--global`` and
    ``--system`` change every repository of the user or machine: ask."""
    args = cmd.args()
    if {"--global", "--system"} & set(args):
        return unknown_program("nbstripout --global", " (it changes every repository)")
    valued = ("--attributes", "--extra-keys", "--keep-id", "--python", "--mode")
    for word in [*verbs(cmd, valued), *filter(None, [option_value(args, ("--attributes",))])]:
        if not inside(word, ctx):
            return outside(word, "nbstripout")
    return None


VOUCHERS: dict[str, Voucher] = {
    "dbt": _dbt,
    "airflow": _airflow,
    "dvc": _dvc,
    "mlflow": _mlflow,
    "feast": _feast,
    "ray": _ray,
    "wandb": _wandb,
    "nvidia-smi": _nvidia_smi,
    "nvcc": _nvcc,
    "parquet-tools": _parquet,
    "parquet": _parquet,
    "fickling": _fickling,
    "nbstripout": _nbstripout,
}
