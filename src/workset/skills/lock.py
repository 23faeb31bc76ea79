"""``skills.lock``: the hashes of skills that were installed deliberately into a folder.

A skill is trusted only while its folder hashes to the value recorded here; the file is
written by :func:`workset.skills.install_skill` and read by the loader. A damaged lock file
makes every skill in its folder untrusted, with a diagnostic, rather than an exception.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from workset.skills.base import LOCK_FILE, Diagnostic

LOCK_VERSION = 1


@dataclass(frozen=True, slots=True)
class LockEntry:
    name: str
    sha256: str
    source: str  # where it was installed from, for the audit trail
    installed_at: str  # ISO 8601, UTC


def read_lock(skills_dir: Path) -> tuple[dict[str, LockEntry], tuple[Diagnostic, ...]]:
    """The entries of ``skills_dir/skills.lock`` (none when the file does not exist)."""
    path = skills_dir / LOCK_FILE
    if not path.exists():
        return {}, ()
    fix = (
        "every skill in this folder is untrusted until you restore the file or reinstall the "
        "skills (workset skills install SOURCE --dir FOLDER --replace)"
    )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return {}, (Diagnostic(path, "error", f"cannot read the lock file ({exc}); {fix}"),)
    skills = data.get("skills") if isinstance(data, dict) else None
    if not isinstance(skills, dict):
        return {}, (Diagnostic(path, "error", f"the lock file has no 'skills' object; {fix}"),)
    entries: dict[str, LockEntry] = {}
    problems: list[Diagnostic] = []
    for name, record in sorted(skills.items()):
        sha = record.get("sha256") if isinstance(record, dict) else None
        if not isinstance(sha, str) or not sha:
            problems.append(
                Diagnostic(path, "error", f"entry {name!r} has no sha256; reinstall that skill")
            )
            continue
        entries[name] = LockEntry(
            name, sha, str(record.get("source", "")), str(record.get("installed_at", ""))
        )
    return entries, tuple(problems)


def write_lock(skills_dir: Path, entries: Mapping[str, LockEntry]) -> None:
    """Replace ``skills_dir/skills.lock`` atomically with ``entries``."""
    data = {
        "version": LOCK_VERSION,
        "skills": {
            name: {"sha256": e.sha256, "source": e.source, "installed_at": e.installed_at}
            for name, e in sorted(entries.items())
        },
    }
    fd, tmp = tempfile.mkstemp(prefix=".skills.lock.", dir=skills_dir)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2, sort_keys=True)
            handle.write("\n")
        Path(tmp).replace(skills_dir / LOCK_FILE)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
