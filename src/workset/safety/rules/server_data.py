"""A server's data lost or published: backups deleted, live data mirrored over, dumps served.

- A folder of backups deleted whole (``rm -rf /mnt/backup/borg``, ``rm -r /var/backups``):
  the copies a mistake would be recovered from, gone with no way back (the backup tools'
  own pruning is :func:`~workset.safety.rules.platform_reads.backup_tool`'s).
- ``rsync --delete`` onto a service's live data (``/var/lib/…``), or onto a whole top-level
  folder or home of another host (``backup@nas:/srv/``): everything there the source lacks
  is deleted (a dry run, ``-n``, only lists it and runs).
- A database dump or a secrets file put under a web server's document root
  (``mysqldump --all-databases | gzip > /var/www/site/db.sql.gz``, ``cp .env
  /var/www/site/public/env.txt``): anyone who guesses the name downloads it.

Each is denied with what to do instead. rclone's listings and comparisons of a remote
(:func:`rclone_look`) and rsync's dry runs (:func:`rsync_dry_run`) only read, and run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Handler,
    Result,
    deny_finding,
    option_value,
    parse_flags,
)
from workset.safety.rules.secret_paths import is_secret

_BACKUP_PART = re.compile(r"(^|[-_.@])(backups?|borg|restic|snapshots|timeshift|bak)([-_.]|$)",
                          re.I)  # fmt: skip


def _rm(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``rm -rf /mnt/backup/borg``: a folder of backups, outside the workspace, deleted."""
    flags, operands = parse_flags(cmd.args())
    if not flags & {"r", "R", "--recursive"}:
        return
    for index, word in operands:
        place = paths.normalize(ctx.resolve(word))
        if cmd.is_dynamic(index) or paths.in_workspace(place, ctx.workspace):
            continue
        if paths.is_scratch(place) or place.startswith(("/tmp/", "/var/tmp/", "/dev/shm/")):
            continue
        if any(_BACKUP_PART.search(part) for part in place.split("/")):
            yield deny_finding(
                "backups-deleted",
                f"rm -r deletes {word}, backups: the copies a mistake would be recovered from, "
                "beyond recovery",
                "delete one named old archive once the user agrees, or use the backup tool's "
                "prune with --dry-run and show the list",
            )
            return


def _dry_run(args: Sequence[str]) -> bool:
    return any(a in ("-n", "--dry-run") or re.fullmatch(r"-[a-zA-Z]*n[a-zA-Z]*", a)
               for a in args)  # fmt: skip


def rsync_dry_run(cmd: Cmd) -> bool:
    """``rsync -avn --delete www/ /var/www/site/``: lists what it would copy and delete, and
    changes nothing (no log file, batch file or remote program named)."""
    return (
        cmd.name == "rsync"
        and _dry_run(cmd.args())
        and not any(a.startswith(_RSYNC_WRITES) for a in cmd.args())
    )


_RSYNC_WRITES = ("-e", "--rsh", "--rsync-path", "--log-file", "--write-batch", "--only-write-batch")


_LIVE_DATA = re.compile(r"^/var/lib/[^/]+")
_WHOLE_REMOTE = re.compile(r"^(~?/?|/[^/]+/?|~/?[^/]*/?|/home/[^/]+/?)$")


def _rsync(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    flags, operands = parse_flags(cmd.args())
    if not any(f.startswith("--del") for f in flags) or len(operands) < 2 or _dry_run(cmd.args()):
        return
    index, target = operands[-1]
    if cmd.is_dynamic(index):
        return
    host, colon, place = target.partition(":")
    if colon and "/" not in host and _WHOLE_REMOTE.match(place):
        yield deny_finding(
            "rsync-delete-remote",
            f"rsync --delete makes {target}, a whole folder of another host, a copy of the "
            "source: everything else there is deleted",
            "sync into a folder named for this project, and try it with -n first",
        )
    elif not colon and _LIVE_DATA.match(paths.normalize(ctx.resolve(target))):
        yield deny_finding(
            "rsync-delete-live",
            f"rsync --delete onto {target} deletes the live data of a service there that the "
            "source lacks (whatever was written since the copy was made)",
            "stop the service and snapshot its data first, try it with -n, and ask the user",
        )


_WEB_ROOT = re.compile(r"^/(var/www|srv/(www|http)|usr/share/nginx/html|var/lib/nginx/html)"
                       r"(/|$)|/(public_html|htdocs)(/|$)")  # fmt: skip
_DUMPERS = frozenset({"mysqldump", "mariadb-dump", "pg_dump", "pg_dumpall", "mongodump",
                      "redis-cli", "sqlite3"})  # fmt: skip


def _ran(cmd: Cmd) -> str:
    """The program a pipeline stage runs, past ``sudo``/``sudo -u USER``."""
    words = list(cmd.argv)
    while words and words[0].rsplit("/", 1)[-1] in ("sudo", "doas", "nice", "ionice"):
        words = words[1:]
        while words and words[0].startswith("-"):
            words = words[2:] if words[0] in ("-u", "-g") else words[1:]
    return words[0].rsplit("/", 1)[-1] if words else ""


# Trees that hold a machine's or a user's secrets among other files, archived or copied whole.
_SECRET_HOLDERS = frozenset(
    {
        "/etc",
        "/root",
        "~",
        "/home",
        "/etc/ssl",
        "/etc/ssh",
        "/etc/letsencrypt",
        "/var/lib/mysql",
        "/var/lib/postgresql",
    }
)


def _archive(cmd: Cmd) -> str | None:
    """The archive ``tar`` creates (``tar czf X``, ``tar -czf X``, ``tar -c -f X``)."""
    args = cmd.args()
    if not args or not ("c" in args[0].lstrip("-") or "--create" in args or "-c" in args):
        return None
    for index, word in enumerate(args[:-1]):
        if re.fullmatch(r"-?[A-Za-z]*f", word) and (index == 0 or word.startswith("-")):
            return args[index + 1]
    return option_value(args, ("--file",))


def _published(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``mysqldump --all-databases | gzip | tee /var/www/site/db.sql.gz``, ``cp .env
    /var/www/site/public/env.txt``: a dump or a secret where the web server serves it."""
    _, operands = parse_flags(cmd.args())
    targets = [t for op, t in cmd.redirects if op in (">", ">>", ">|")]
    if cmd.name == "tee":
        targets += [w for _, w in operands]
    copied: list[str] = []
    if cmd.name in ("cp", "mv", "install", "rsync", "ln") and len(operands) >= 2:
        targets.append(operands[-1][1])
        copied = [w for _, w in operands[:-1]]
    elif cmd.name in ("tar", "zip") and operands:  # tar czf /var/www/x/etc.tgz /etc
        archive = _archive(cmd) if cmd.name == "tar" else operands[0][1]
        targets += [archive] if archive else []
        copied = [w for _, w in operands if w != archive and not re.fullmatch(r"\w*f\w*", w)]
    served = next((t for t in targets if _WEB_ROOT.search(paths.normalize(ctx.resolve(t)))), None)
    if served is None:
        return
    dumper = next((n for n in (_ran(c) for c in (*cmd.upstream, cmd)) if n in _DUMPERS), None)
    secret = next(
        (
            w
            for w in copied
            if is_secret(w)
            or is_secret(ctx.resolve(w))
            or paths.normalize(ctx.resolve(w)).rstrip("/") in _SECRET_HOLDERS
        ),
        None,
    )
    if dumper is not None or secret is not None:
        what = f"a dump made by {dumper}" if dumper else f"{secret}, a secrets file"
        yield deny_finding(
            "published-secret",
            f"the line puts {what} at {served}, under the web server's document root, where "
            "anyone who guesses the name downloads it",
            "keep dumps and secrets outside the web root (in the workspace or /var/backups, "
            "mode 600)",
        )


def _rsync_all(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    yield from _rsync(cmd, ctx)
    yield from _published(cmd, ctx)


# rclone's verbs that only list or compare (the remote's listing and hashes are read), and
# check's options that shape the comparison.
_RCLONE_LOOKS = frozenset({"check", "cryptcheck", "ls", "lsf", "lsd", "lsl", "lsjson", "size",
                           "tree", "md5sum", "sha1sum", "hashsum", "about", "listremotes",
                           "version"})  # fmt: skip
_DRY = ("sync", "copy")  # with --dry-run: compared, nothing copied
_RCLONE_SHAPES = re.compile(r"--(one-way|size-only|download|checksum|fast-list|exclude|include|"
                            r"filter|max-depth|min-age|max-age|progress|stats|human-readable|"
                            r"checkers|transfers|json|long|dry-run)(=.*)?$|-[vqP]+$|-R$|"
                            r"--recursive$")  # fmt: skip


def rclone_look(cmd: Cmd) -> bool:
    """``rclone check www b2:site-mirror --one-way``, ``rclone lsd b2:``: a remote listed or
    compared with local files; nothing is copied, sent or written (no report file named)."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    options = [a for a in cmd.args() if a.startswith("-")]
    return (
        cmd.name == "rclone"
        and bool(words)
        and (words[0] in _RCLONE_LOOKS or (words[0] in _DRY and "--dry-run" in options))
        and all(_RCLONE_SHAPES.match(o) for o in options)
        and not any(cmd.dynamic)
        and not any(
            o.split("=", 1)[0] in ("--exclude", "--include", "--filter") and "=" not in o
            for o in options
        )  # a value in the next word: not parsed
    )


HANDLERS: dict[str, Handler] = {
    "rm": _rm,
    "rsync": _rsync_all,
    **{
        n: _published
        for n in (
            "tee",
            "cp",
            "mv",
            "install",
            "ln",
            "gzip",
            "xz",
            "bzip2",
            "zstd",
            "cat",
            "tar",
            "zip",
            *_DUMPERS,
        )
    },
}
