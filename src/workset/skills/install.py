"""Install a skill deliberately: copy its folder into a skills folder and record its hash.

Skills found anywhere else are untrusted: their text reaches the model wrapped as data. An
installed skill stays trusted only while its folder still hashes to the recorded value.
Installing a folder onto itself approves its current content (after reviewing a change).
"""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

from workset.errors import UsageError
from workset.skills.base import Skill, SkillLimits
from workset.skills.folder import folder_sha256
from workset.skills.loader import discover_skills
from workset.skills.lock import LockEntry, read_lock, write_lock


def install_skill(
    source_dir: str | os.PathLike[str],
    skills_dir: str | os.PathLike[str],
    *,
    replace: bool = False,
    limits: SkillLimits | None = None,
) -> Skill:
    """Copy the skill at ``source_dir`` to ``skills_dir/<name>`` and trust its current content.

    Raises :class:`UsageError` when the source is not a valid skill, contains symbolic links,
    is already installed (unless ``replace``), or the lock file is damaged.
    """
    limits = limits or SkillLimits()
    source = Path(source_dir).expanduser().resolve()
    target_root = Path(skills_dir).expanduser()
    skill = _valid_source(source, limits)
    _refuse_links(source)
    target_root.mkdir(parents=True, exist_ok=True)
    target_root = target_root.resolve()
    lock, problems = read_lock(target_root)
    if problems:
        raise UsageError(
            f"{problems[0].path} is damaged ({problems[0].message.split(';')[0]}); fix it or "
            "delete it (every skill in that folder then needs reinstalling), then try again"
        )
    destination = target_root / skill.name
    if destination != source:
        if destination.exists() and not replace:
            raise UsageError(
                f"skill {skill.name!r} is already installed at {destination}; pass replace=True "
                "(workset skills install --replace) to overwrite it"
            )
        _copy(source, destination, skill.sha256, limits)
    installed_at = datetime.now(UTC).isoformat(timespec="seconds")
    lock[skill.name] = LockEntry(skill.name, skill.sha256, str(source), installed_at)
    write_lock(target_root, lock)
    found, _ = discover_skills(destination, limits=limits)
    return found[0]


def _valid_source(source: Path, limits: SkillLimits) -> Skill:
    skills, diagnostics = discover_skills(source, limits=limits)
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors or len(skills) != 1 or skills[0].path != source:
        details = "; ".join(str(d) for d in errors) or "no SKILL.md in that folder"
        raise UsageError(f"{source} is not a valid skill folder: {details}")
    return skills[0]


def _refuse_links(source: Path) -> None:
    for current, dirs, names in os.walk(source, followlinks=False):
        for name in [*dirs, *names]:
            path = Path(current) / name
            if path.is_symlink():
                raise UsageError(
                    f"{path} is a symbolic link; a skill to install must hold real files "
                    "(replace the link with a copy of what it points to)"
                )


def _copy(source: Path, destination: Path, expected: str, limits: SkillLimits) -> None:
    staging = destination.with_name(f".{destination.name}.installing-{os.getpid()}")
    old = destination.with_name(f".{destination.name}.replaced-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(source, staging, symlinks=True)
    if folder_sha256(staging, max_files=limits.max_files) != expected:
        shutil.rmtree(staging, ignore_errors=True)
        raise UsageError(f"{source} changed while it was being copied; install it again")
    if destination.exists():
        destination.rename(old)
    staging.rename(destination)
    shutil.rmtree(old, ignore_errors=True)
