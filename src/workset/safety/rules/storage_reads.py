"""Reads of a machine's storage, known by their subcommands and options.

- ZFS pools and datasets shown: ``zpool status -x``, ``zpool list -o name,health``, ``zpool
  iostat``, ``zfs list -t snapshot``, ``zfs get compression tank``.
- Btrfs shown: ``btrfs subvolume list /``, ``btrfs filesystem df /``, ``btrfs device stats``;
  a subvolume made or snapshotted inside the workspace (``btrfs subvolume create
  ./.tmp/sv``) is confined.
- LVM reports (``pvs``, ``vgs``, ``lvs``, ``lvdisplay vg0/home``) and RAID reports (``mdadm
  --detail --scan``, ``mdadm --examine /dev/sdb1``): nothing is assembled, grown or wiped.
- ``mountpoint -q /mnt/backup``; ``zstdcat dump.sql.zst`` (the text to standard output).
- Object storage listed: ``mc ls``/``du``/``stat``/``tree``, ``s3cmd ls``/``la``/``du``/``info``
  (as ``aws s3 ls`` is).

Any other subcommand or option asks as unknown; what destroys storage is denied by
:mod:`~workset.safety.rules.storage_harms`.
"""

from __future__ import annotations

from workset.safety.rules.base import Cmd, Context, Finding, Voucher, unknown_program
from workset.safety.rules.confinement import inside

_ZPOOL_READS = frozenset({"status", "list", "iostat", "get", "history", "version"})
_ZFS_READS = frozenset({"list", "get", "holds", "version", "userspace", "groupspace"})
_BTRFS_READS = {
    "subvolume": frozenset({"list", "show", "get-default"}),
    "filesystem": frozenset({"show", "df", "usage", "du", "label"}),
    "device": frozenset({"stats", "usage"}),
    "qgroup": frozenset({"show"}),
    "property": frozenset({"get", "list"}),
    "scrub": frozenset({"status"}),
    "balance": frozenset({"status"}),
    "inspect-internal": frozenset({"rootid", "inode-resolve", "subvolid-resolve"}),
}
_BTRFS_CONFINED = frozenset({"create", "snapshot"})
# btrfs accepts any unique prefix of a group or command (``btrfs sub list``, ``fi df``).
_BTRFS_GROUPS = ("subvolume", "filesystem", "device", "qgroup", "property", "scrub", "balance",
                 "inspect-internal")  # fmt: skip
_MDADM_READS = frozenset({"--detail", "-D", "--examine", "-E", "--query", "-Q", "--scan", "-s",
                          "--brief", "-b", "--verbose", "-v", "--export", "-Y", "--test",
                          "-t"})  # fmt: skip
_MDADM_SHOWS = frozenset({"--detail", "-D", "--examine", "-E", "--query", "-Q"})
_LVM_REPORTS = frozenset({"pvs", "vgs", "lvs", "pvdisplay", "vgdisplay", "lvdisplay"})
_OBJECT_READS = {
    "mc": frozenset({"ls", "du", "stat", "tree", "version"}),  # not alias: it prints keys
    "s3cmd": frozenset({"ls", "la", "du", "info"}),
}


def _words(cmd: Cmd) -> list[str]:
    return [a for a in cmd.args() if not a.startswith("-")]


def _zfs(cmd: Cmd, ctx: Context) -> Finding | None:
    """``zpool status -x``, ``zfs list -H -o name -t snapshot``: pools and datasets shown."""
    reads = _ZPOOL_READS if cmd.name == "zpool" else _ZFS_READS
    words = _words(cmd)
    if words[:1] and words[0] in reads and not any(cmd.dynamic):
        return None
    return unknown_program(f"{cmd.name} {' '.join(words[:1])}".strip())


def _btrfs_group(word: str) -> str:
    found = [g for g in _BTRFS_GROUPS if g.startswith(word)] if len(word) >= 2 else []
    return found[0] if len(found) == 1 else word


def _btrfs(cmd: Cmd, ctx: Context) -> Finding | None:
    """``btrfs subvolume list /``, ``btrfs fi df /``; ``btrfs subvolume create ./.tmp/sv``."""
    words = _words(cmd)
    group = _btrfs_group(words[0]) if words else ""
    action = words[1] if len(words) > 1 else ""
    shown = _BTRFS_READS.get(group, frozenset())
    if any(cmd.dynamic):
        return unknown_program("btrfs")
    if action in shown:  # named in full: btrfs takes prefixes, and some fit a write too
        return None
    places = words[2:]
    made = group == "subvolume" and action in _BTRFS_CONFINED and bool(places)
    if made and all(inside(p, ctx) for p in places) and not {"-i", "--qgroup"} & set(cmd.args()):
        return None  # a subvolume (or a snapshot of one) made inside the workspace
    return unknown_program(f"btrfs {group} {action}".strip())


def _mdadm(cmd: Cmd, ctx: Context) -> Finding | None:
    """``mdadm --detail --scan``, ``mdadm --examine /dev/sdb1``: arrays and members shown."""
    options = [a for a in cmd.args() if a.startswith("-")]
    if set(options) & _MDADM_SHOWS and set(options) <= _MDADM_READS:
        return None
    return unknown_program("mdadm", " (only --detail, --examine and --query are known reads)")


def _lvm_report(cmd: Cmd, ctx: Context) -> Finding | None:
    """``vgs --noheadings -o vg_name,vg_free``, ``lvdisplay vg0/home``: only reports."""
    if any(a.startswith("--config") or a == "--reportformat=json_std" for a in cmd.args()):
        return unknown_program(cmd.name)
    return None


def _mountpoint(cmd: Cmd, ctx: Context) -> Finding | None:
    return None  # says whether a directory is a mount point


def _zstdcat(cmd: Cmd, ctx: Context) -> Finding | None:
    """``zstdcat dump.sql.zst``: decompressed to standard output (not ``-o FILE``)."""
    if any(a in ("-o", "--rm") or a.startswith("--output") for a in cmd.args()):
        return unknown_program(cmd.name, " (with -o it writes a file)")
    return None


def _object_listing(cmd: Cmd, ctx: Context) -> Finding | None:
    """``mc ls --recursive myminio/backups``, ``s3cmd ls s3://bucket/``: objects listed."""
    words = _words(cmd)
    risky = {"--configure", "--dump-config", "--exec", "--config-dir"} & set(cmd.args())
    if words[:1] and words[0] in _OBJECT_READS[cmd.name] and not risky:
        return None
    return unknown_program(f"{cmd.name} {' '.join(words[:1])}".strip())


VOUCHERS: dict[str, Voucher] = {
    "zpool": _zfs,
    "zfs": _zfs,
    "btrfs": _btrfs,
    "mdadm": _mdadm,
    **{n: _lvm_report for n in _LVM_REPORTS},
    "mountpoint": _mountpoint,
    "zstdcat": _zstdcat,
    **{n: _object_listing for n in _OBJECT_READS},
}
