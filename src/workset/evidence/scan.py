"""Which files of a workspace are worth indexing: text, not ignored, not too large.

:func:`scan_workspace` walks a folder in name order and returns one :class:`FileStat` per
candidate file, the way ``git`` would see the tree: ``.gitignore`` files are honoured at every
level (patterns relative to the folder holding them, later and deeper rules win, ``!`` negates;
via ``pathspec``), hidden entries and the usual build and cache folders are skipped, and so
are files over :data:`MAX_BYTES`. Reading contents (and telling text from binary) is left to
the caller, which only needs to for files whose size or mtime changed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pathspec import GitIgnoreSpec

MAX_BYTES = 512_000  # larger files are data or generated code, not worth a chunk each
SKIP_DIRS = frozenset(
    {".git", "__pycache__", ".venv", "venv", "node_modules", ".mypy_cache", ".ruff_cache"}
    | {".pytest_cache", ".tox", "dist", "build", ".cache"}
)
SKIP_SUFFIXES = frozenset(
    {".pyc", ".so", ".o", ".a", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".pdf", ".zip"}
    | {".gz", ".tar", ".whl", ".gguf", ".bin", ".db", ".sqlite", ".lock", ".svg"}
)


@dataclass(frozen=True, slots=True)
class FileStat:
    path: str  # relative to the workspace root, with "/"
    size: int
    mtime_ns: int


def scan_workspace(root: Path | str) -> list[FileStat]:
    """Candidate files below ``root``, sorted by path (see the module docstring)."""
    base = Path(root)
    return sorted(_walk(base, base, ()), key=lambda f: f.path)


def _walk(
    base: Path, folder: Path, rules: tuple[tuple[str, GitIgnoreSpec], ...]
) -> Iterator[FileStat]:
    ignore = folder / ".gitignore"
    if ignore.is_file():
        prefix = folder.relative_to(base).as_posix()
        lines = ignore.read_text(encoding="utf-8", errors="replace").splitlines()
        rules = (*rules, ("" if prefix == "." else prefix + "/", GitIgnoreSpec.from_lines(lines)))
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        rel = Path(entry.path).relative_to(base).as_posix()
        if entry.is_dir(follow_symlinks=False):
            if entry.name in SKIP_DIRS or _ignored(rel + "/", rules):
                continue
            yield from _walk(base, Path(entry.path), rules)
        elif entry.is_file(follow_symlinks=False):
            if Path(entry.name).suffix.lower() in SKIP_SUFFIXES or _ignored(rel, rules):
                continue
            stat = entry.stat(follow_symlinks=False)
            if 0 < stat.st_size <= MAX_BYTES:
                yield FileStat(rel, stat.st_size, stat.st_mtime_ns)


def _ignored(rel: str, rules: tuple[tuple[str, GitIgnoreSpec], ...]) -> bool:
    """The verdict of the deepest ``.gitignore`` that has an opinion on ``rel``."""
    verdict = False
    for prefix, spec in rules:
        if not rel.startswith(prefix):
            continue
        result = spec.check_file(rel[len(prefix) :])
        if result.include is not None:
            verdict = result.include
    return verdict
