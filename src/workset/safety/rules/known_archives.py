"""Vouching for archivers: ``tar``, ``cpio``, ``zip``/``unzip``, ``7z``, ``gzip`` and kin.

An archive made or compressed inside the workspace or scratch space is confined; one unpacked
is confined only inside the workspace (or a folder ``mktemp`` made in the line), since an
archive writes whatever names it holds and a shared ``/tmp`` holds others' files and links.
Names kept absolute (``tar -P``) land where they say.
"""

from __future__ import annotations

import re

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    option_value,
    parse_flags,
    unknown_program,
)
from workset.safety.rules.confinement import inside, outside, unpacks_inside

ARCHIVERS = frozenset({"zip", "7z", "7za", "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz",
                       "zstd", "unzip", "unzstd"})  # fmt: skip


def archiver(cmd: Cmd, ctx: Context, operands: list[tuple[int, str]]) -> Finding | None:
    """zip/unzip/7z/gzip…: confined when every place they write is; what they unpack, only
    inside the workspace."""
    unpacking = cmd.name == "unzip" or (
        cmd.name in ("7z", "7za") and operands[:1] and operands[0][1] in ("x", "e")
    )
    confined = unpacks_inside if unpacking else inside
    for word in archive_writes(cmd):
        if not confined(word, ctx):
            return outside(word, f"{cmd.name} (unpacking)" if unpacking else "")
    return None


def archive_writes(cmd: Cmd) -> list[str]:
    """Where zip/unzip/7z/gzip… write: unzip's ``-d DIR``, 7z's ``-oDIR`` (the current
    directory without them), the archive zip or ``7z a`` creates, the files gzip and kin
    replace in place (none with ``-c``), zstd's ``-o FILE``."""
    args = cmd.args()
    flags, operands = parse_flags(args)
    words = [w for _, w in operands]
    if cmd.name == "unzip":
        if {"l", "t", "p", "Z", "z"} & parse_flags([a for a in args if a[:2] != "-d"])[0]:
            return []  # lists, tests or prints to stdout
        attached = [a[2:] for a in args if a.startswith("-d") and len(a) > 2]
        return [option_value(args, ("-d",)) or (attached[0] if attached else ".")]
    if cmd.name in ("7z", "7za"):
        out = [a[2:] for a in args if a.startswith("-o") and len(a) > 2]
        if words[:1] in (["x"], ["e"]):
            return out or ["."]
        return words[1:2] if words[:1] in (["a"], ["u"], ["d"], ["rn"]) else out
    if cmd.name == "zip":
        return words[:1]
    if "c" in flags or "--stdout" in flags or "l" in flags or "t" in flags:
        return []
    target = option_value(args, ("-o",)) if cmd.name in ("zstd", "unzstd") else None
    return [target] if target else words


def tar(cmd: Cmd, ctx: Context, flags: set[str]) -> Finding | None:
    args = cmd.args()
    first = args[0] if args else ""
    letters = set(first) if first and not first.startswith("-") else set()
    letters |= flags
    extracting = bool(letters & {"x", "--extract", "--get"})
    confined = unpacks_inside if extracting else inside
    for option in ("-C", "--directory"):
        target = option_value(args, (option,))
        if target is not None and not confined(target, ctx):
            return outside(target, "tar -x" if extracting else "")
    into = any(option_value(args, (o,)) for o in ("-C", "--directory"))
    if extracting and not into and not unpacks_inside(".", ctx):
        return outside(ctx.resolve("."), "tar -x")  # cd /tmp && tar xf …
    if extracting and letters & {"P", "--absolute-names"}:
        return outside("/", "tar --absolute-names")  # members land where their names say
    if letters & {"c", "r", "u", "--create", "--append"}:
        archive = option_value(args, ("-f", "--file")) or _archive_in_bundle(args)
        if archive is not None and archive != "-" and not inside(archive, ctx):
            return outside(archive)
    return None


def _archive_in_bundle(args: tuple[str, ...]) -> str | None:
    for index, word in enumerate(args):
        if re.fullmatch(r"-?[a-zA-Z]*f", word) and index + 1 < len(args):
            return args[index + 1]
    return None


def cpio(cmd: Cmd, ctx: Context) -> Finding | None:
    """``cpio -t`` lists, ``cpio -o`` writes the archive to its output, ``cpio -i
    --no-absolute-filenames`` unpacks under the current folder, ``cpio -p DIR`` copies there:
    confined when that folder is in the workspace (``-i`` without the option is denied)."""
    flags, operands = parse_flags(cmd.args())
    here = ctx.cwd is None or paths.in_workspace(ctx.cwd, ctx.workspace)
    if flags & {"t", "--list"} or (flags & {"o", "--create"} and not flags & {"F", "--file"}):
        return None
    if flags & {"i", "--extract"} and here and not flags & {"F", "--file", "E"}:
        return None
    if flags & {"p", "--pass-through"} and operands and inside(operands[-1][1], ctx):
        return None
    return unknown_program("cpio", " (it writes files where an archive or a list says)")
