"""The files of a skill folder: what it bundles, its content hash, and confined lookups.

The hash covers every entry below the folder (relative path, and the content of regular files
or the target of symbolic links), so any edit, addition or removal changes it. Symbolic links
that lead outside the folder are never followed: they are reported and left out of the lists.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from workset.skills.base import SCRIPTS_DIR, SKILL_FILE

_CHUNK = 1 << 16


@dataclass(frozen=True, slots=True)
class FolderScan:
    """What :func:`scan_folder` found. ``problems`` are warnings (links out, unreadable files)
    unless ``too_many`` is set, in which case the scan stopped early and the hash is empty."""

    files: tuple[str, ...]
    scripts: tuple[str, ...]
    sha256: str
    problems: tuple[str, ...]
    too_many: bool = False


def scan_folder(folder: Path, *, max_files: int) -> FolderScan:
    """Walk ``folder`` (without following links) and hash it; never raises for its content."""
    root = folder.resolve()
    digest = hashlib.sha256()
    files: list[str] = []
    scripts: list[str] = []
    problems: list[str] = []
    count = 0
    for rel, path in _entries(root):
        count += 1
        if count > max_files:
            problem = (
                f"the folder holds more than {max_files} files; keep skills small (move data "
                "sets elsewhere and have a script fetch them) or raise max_files"
            )
            return FolderScan((), (), "", (problem,), too_many=True)
        if path.is_symlink():
            target = str(path.readlink())
            digest.update(f"L {rel}\0{target}\n".encode())
            if inside(root, path.resolve()) is None:
                problems.append(
                    f"{rel} is a symbolic link to {target!r}, outside the skill folder; it is "
                    "not offered (copy the file into the folder instead)"
                )
                continue
            if path.is_dir():
                continue
        elif not path.is_file():
            problems.append(f"{rel} is not a regular file; remove it from the skill folder")
            digest.update(f"S {rel}\n".encode())
            continue
        else:
            try:
                digest.update(f"F {rel}\0".encode() + _file_digest(path) + b"\n")
            except OSError as exc:
                problems.append(f"{rel} cannot be read ({exc.strerror or exc}); fix permissions")
                digest.update(f"E {rel}\n".encode())
                continue
        if rel == SKILL_FILE:
            continue
        (scripts if rel.split("/", 1)[0] == SCRIPTS_DIR else files).append(rel)
    return FolderScan(tuple(files), tuple(scripts), digest.hexdigest(), tuple(problems))


def folder_sha256(folder: Path, *, max_files: int) -> str:
    """The content hash of ``folder`` ("" when it holds more than ``max_files`` entries)."""
    return scan_folder(folder, max_files=max_files).sha256


def inside(root: Path, path: Path) -> Path | None:
    """``path`` when it is ``root`` or below it (both already resolved), else None."""
    return path if path == root or path.is_relative_to(root) else None


def _entries(root: Path) -> list[tuple[str, Path]]:
    """Every file and link below ``root`` as (POSIX relative path, path), sorted by path."""
    found: list[tuple[str, Path]] = []
    for current, dirs, names in os.walk(root, followlinks=False):
        base = Path(current)
        links = [d for d in dirs if (base / d).is_symlink()]
        dirs[:] = sorted(d for d in dirs if d not in links)
        for name in [*names, *links]:
            path = base / name
            found.append((path.relative_to(root).as_posix(), path))
    return sorted(found, key=lambda entry: entry[0])


def _file_digest(path: Path) -> bytes:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.digest()
