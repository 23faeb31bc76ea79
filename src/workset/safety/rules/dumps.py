"""Rules for whole-database (and whole-repository) dumps sent to another host.

``pg_dump``, ``mysqldump``, ``mongodump`` and kin copy every row of a database, ``git
archive``/``git bundle`` the whole repository; piped straight
into something that sends its input away (``| aws s3 cp - s3://…``, ``| ssh host 'cat > …'``,
``| curl -T - …``, ``| nc host port``) they carry the data off the machine, which is denied as
exfiltration. A dump into a workspace file only asks, as the unknown program it is.
"""

from __future__ import annotations

from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result
from workset.safety.rules.interpreters import OTHER_INTERPRETERS, PYTHON
from workset.safety.rules.network import NETWORK, local_only
from workset.safety.rules.wrappers import unwrap

DUMPERS = frozenset({"pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump", "mongodump",
                     "mongoexport", "redis-cli", "sqlite3", "influxd", "etcdctl",
                     "cockroach"})  # fmt: skip
_CLOUD_COPIES = {"aws": "s3", "gsutil": "cp", "gcloud": "storage", "az": "storage",
                 "rclone": "rcat"}  # fmt: skip


def _dump_name(cmd: Cmd) -> str:
    """``pg_dump``, or ``git archive``/``git bundle`` (the whole repository), else ""."""
    if cmd.name in DUMPERS:
        return cmd.name
    words = [a for a in cmd.args() if not a.startswith("-")]
    if cmd.name == "git" and words[:1] in (["archive"], ["bundle"]):
        return f"git {words[0]}"
    return ""


def _sends_away(cmd: Cmd) -> bool:
    if cmd.name in NETWORK:
        return not local_only(cmd)
    marker = _CLOUD_COPIES.get(cmd.name)
    return marker is not None and marker in cmd.args()


def _dumped_away(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if not _sends_away(cmd):
        return
    dumps = [_dump_name(c) for c in (unwrap(u, []) for u in cmd.upstream) if _dump_name(c)]
    if dumps:
        yield Finding(
            "exfiltration",
            "deny",
            f"{dumps[0]} dumps a database or repository and {cmd.name} sends the dump to "
            "another host in the same pipeline, which carries the data off the machine; dump "
            "into the workspace and ask the user to move it",
        )


HANDLERS: dict[str, Handler] = {
    n: _dumped_away
    for n in (*NETWORK, *_CLOUD_COPIES)
    if n not in OTHER_INTERPRETERS and not PYTHON.match(n)  # those are judged as code
}
