"""Storage destroyed beyond recovery: pools, volumes, arrays and encrypted disks.

- ``zfs destroy`` of a dataset, recursively or a range of snapshots, ``zpool destroy``,
  ``zpool labelclear``, ``zfs rollback -r`` (it destroys every later snapshot): the data and
  the snapshots that would bring it back go together. A single named snapshot asks.
- ``btrfs subvolume delete`` outside the workspace: a subvolume (often a snapshot) gone.
- ``lvremove``/``vgremove``/``pvremove``, and ``lvreduce`` without ``--resizefs`` (the volume
  shrinks under its filesystem, which loses what lay past the new end).
- ``mdadm --zero-superblock``, ``mdadm --create … --run`` over disks (the prompt that says they
  hold a filesystem is skipped), ``mdadm --grow --raid-devices=1`` (the mirror gone).
- ``cryptsetup luksKillSlot``/``luksRemoveKey``/``luksErase``/``erase``: the keys that open an
  encrypted disk wiped, its data unreadable.

A target named as a copy or for tests (``tank/scratch``, ``vg0/test_lv``), a loop device or a
file of the workspace asks instead; so does anything only known when the line runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Handler,
    Result,
    ask_finding,
    deny_finding,
    option_value,
)
from workset.safety.rules.db_targets import named_copy

_SPARE = re.compile(r"^/dev/(loop\d+|ram\d+|nbd\d+)(p\d+)?$")


def _spare(word: str, ctx: Context) -> bool:
    """A loop device, a file of the workspace or /tmp, or a name for tests or a copy."""
    if not word.startswith(("/", "~", ".")):  # a pool, dataset or volume: tank/backups
        return named_copy(*re.split(r"[/@]", word))
    if named_copy(word.rstrip("/").rsplit("/", 1)[-1].lstrip("@")):
        return True  # /dev/vg0/test_lv, /mnt/pool/@scratch
    path = paths.normalize(ctx.resolve(word))
    return (
        bool(_SPARE.match(path))
        or paths.in_workspace(path, ctx.workspace)
        or (paths.is_scratch(path))
    )


def _gone(rule: str, what: str, cmd: Cmd, targets: list[str], ctx: Context) -> Iterator[Result]:
    if not targets or any(cmd.dynamic) or any(_spare(t, ctx) for t in targets):
        yield ask_finding(rule, f"{what}, outside the workspace")
        return
    yield deny_finding(
        rule,
        f"{what}: the data, and often the snapshots that would bring it back, are gone beyond "
        "recovery",
        "show the user the exact target and let them run it",
    )


def _operands(cmd: Cmd, valued: frozenset[str] = frozenset()) -> tuple[set[str], list[str]]:
    flags: set[str] = set()
    operands: list[str] = []
    args = cmd.args()
    index = 0
    while index < len(args):
        word = args[index]
        if word in valued:
            flags.add(word)
            index += 2
            continue
        if word.startswith("--"):
            flags.add(word.split("=", 1)[0])
        elif word.startswith("-") and word != "-":
            flags.update("-" + c for c in word[1:])
        else:
            operands.append(word)
        index += 1
    return flags, operands


def _zfs(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``zfs destroy -r tank/backups``, ``zfs rollback -r tank/db@x``, ``zpool destroy``."""
    flags, words = _operands(cmd, frozenset({"-o", "-O", "-t"}))
    if not words:
        return
    verb, targets = words[0], words[1:]
    if cmd.name == "zpool" and verb in ("destroy", "labelclear"):
        yield from _gone("storage-destroy", f"zpool {verb} {' '.join(targets)}", cmd, targets, ctx)
    elif cmd.name == "zfs" and verb == "destroy" and "-n" not in flags:
        whole = flags & {"-r", "-R"} or any("@" not in t or "%" in t for t in targets)
        if whole or not targets:
            what = f"zfs destroy {' '.join(sorted(flags))} {' '.join(targets) or '(listed)'}"
            yield from _gone("storage-destroy", " ".join(what.split()), cmd, targets, ctx)
    elif cmd.name == "zfs" and verb == "rollback" and flags & {"-r", "-R"}:
        yield from _gone("storage-destroy", f"zfs rollback -r {' '.join(targets)} destroys every "
                         "later snapshot and the dataset's changes", cmd, targets, ctx)  # fmt: skip


def _listed_snapshots(cmd: Cmd) -> bool:
    """``zfs list -t snapshot | xargs zfs destroy``: every snapshot the listing prints."""
    for stage in cmd.upstream:
        if stage.name == "zfs" and "list" in stage.args() and "snapshot" in " ".join(stage.args()):
            return not any(s.name in ("grep", "awk", "head", "tail", "sed") for s in cmd.upstream)
    return False


def _xargs_zfs(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = list(cmd.args())
    tail = words[words.index("destroy") + 1 :] if "destroy" in words else []
    dry = any(re.fullmatch(r"-[a-zA-Z]*n[a-zA-Z]*", w) for w in tail)
    if "zfs" in words and "destroy" in words and not dry and _listed_snapshots(cmd):
        yield deny_finding(
            "storage-destroy",
            "xargs zfs destroy destroys every snapshot zfs list prints: all the copies a "
            "mistake would be recovered from",
            "destroy the one snapshot named by the user, or list them and ask",
        )


def _btrfs(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``btrfs subvolume delete /mnt/pool/@snapshots/*``."""
    _, words = _operands(cmd, frozenset({"-i", "--subvolid"}))
    if len(words) >= 2 and "subvolume".startswith(words[0]) and words[1] in ("delete", "del"):
        targets = words[2:]
        yield from _gone("storage-destroy", f"btrfs subvolume delete {' '.join(targets)}",
                         cmd, targets, ctx)  # fmt: skip


def _lvm(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``lvremove -f vg0/root``, ``lvreduce -f -L 5G /dev/vg0/home`` (no --resizefs)."""
    flags, targets = _operands(cmd, frozenset({"-L", "--size", "-l", "--extents", "-S",
                                               "--select", "--config"}))  # fmt: skip
    if cmd.name == "lvreduce":
        if flags & {"-r", "--resizefs", "-t", "--test"}:
            return
        what = f"lvreduce {' '.join(targets)} shrinks the volume under its filesystem, which "
        yield from _gone("storage-destroy", what + "loses what lay past the new end",
                         cmd, targets, ctx)  # fmt: skip
        return
    if cmd.name == "lvremove" and targets and all("snap" in t.lower() for t in targets):
        yield ask_finding("storage-destroy", f"lvremove {' '.join(targets)} removes snapshots")
    elif not flags & {"-t", "--test"}:
        yield from _gone("storage-destroy", f"{cmd.name} {' '.join(targets)}", cmd, targets, ctx)


def _mdadm(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``mdadm --zero-superblock /dev/sdb1``, ``mdadm --create … --run``, ``--grow -n 1``."""
    args = cmd.args()
    devices = [a for a in args if a.startswith("/dev/")]
    if "--zero-superblock" in args:
        yield from _gone("raid-destroy", f"mdadm --zero-superblock {' '.join(devices)} wipes "
                         "the RAID metadata", cmd, devices, ctx)  # fmt: skip
    elif {"--create", "-C"} & set(args) and {"--run", "-R", "--force", "-f"} & set(args):
        members = devices[1:]
        yield from _gone("raid-destroy", f"mdadm --create --run over {' '.join(members)} skips "
                         "the warning that they hold data and overwrites them",
                         cmd, members, ctx)  # fmt: skip
    elif {"--grow", "-G"} & set(args) and (
        option_value(args, ("--raid-devices", "-n")) == "1"
        or any(a in ("-n1", "--raid-devices=1") for a in args)
    ):
        yield from _gone("raid-destroy", f"mdadm --grow {' '.join(devices)} to one device drops "
                         "the array's redundancy", cmd, devices, ctx)  # fmt: skip


_KEY_WIPES = frozenset({"luksKillSlot", "luksRemoveKey", "luksErase", "erase"})


def _cryptsetup(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``cryptsetup luksKillSlot -q /dev/nvme0n1p3 0``: a key slot of the disk wiped."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    action = next((w for w in words if w in _KEY_WIPES), None)
    if action is None:
        return
    devices = [w for w in words[words.index(action) + 1 :][:1]]
    yield from _gone("key-wipe", f"cryptsetup {action} {' '.join(devices)} wipes keys that "
                     "open the encrypted disk, leaving its data unreadable",
                     cmd, devices, ctx)  # fmt: skip


_HOME = re.compile(r"(^|/)@?home(/|@|$)|^~(/|$)|^/Users/|^/root(/|$)")
_WRAPPERS = frozenset({"sudo", "doas", "nice", "ionice", "pv"})


def _home_sent(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``btrfs send /mnt/pool/@home/.snapshots/42/snapshot | ssh host 'cat > home.btrfs'``: a
    whole snapshot of the homes (their keys included) streamed to another machine. Into a
    ``zfs receive``/``btrfs receive`` there (a replica kept as a filesystem) it asks."""
    if any(re.search(r"\b(recv|receive)\b", a) for a in cmd.args()):
        return
    for stage in cmd.upstream:
        words = [a for a in stage.argv if not a.startswith("-")]
        while words and words[0].rsplit("/", 1)[-1] in _WRAPPERS:
            words = words[1:]  # sudo btrfs send …: the program it runs
        if words[:2] in (["btrfs", "send"], ["zfs", "send"]):
            home = next((w for w in words[2:] if _HOME.search(w)), None)
            if home is not None and not any(cmd.dynamic):
                yield deny_finding(
                    "home-sent-away",
                    f"{words[0]} send streams {home}, a snapshot of the homes with every key "
                    f"and credential in them, through {cmd.name} to another machine",
                    "send a dataset of the project's own data, or ask the user",
                )
                return


HANDLERS: dict[str, Handler] = {
    **{n: _home_sent for n in ("ssh", "nc", "ncat", "netcat", "socat", "curl")},
    "zfs": _zfs,
    "zpool": _zfs,
    "xargs": _xargs_zfs,
    "btrfs": _btrfs,
    **{n: _lvm for n in ("lvremove", "vgremove", "pvremove", "lvreduce")},
    "mdadm": _mdadm,
    "cryptsetup": _cryptsetup,
}
