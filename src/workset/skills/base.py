"""The shapes of the skills package: a loaded :class:`Skill`, a :class:`Diagnostic` about a
user-authored file, the :class:`SkillLimits` a loader enforces, and the name rule."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeAlias

from workset.context.items import Trust

SKILL_FILE = "SKILL.md"
LOCK_FILE = "skills.lock"
SCRIPTS_DIR = "scripts"
MAX_NAME_CHARS = 64
MAX_DESCRIPTION_CHARS = 1024
MAX_COMPATIBILITY_CHARS = 500

# "error": the skill is not offered; "warning": it is offered, but something needs attention.
Severity: TypeAlias = Literal["error", "warning"]

_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A problem found in a user-authored file; ``message`` says how to fix it."""

    path: Path
    severity: Severity
    message: str

    def __str__(self) -> str:
        return f"{self.severity}: {self.path}: {self.message}"


@dataclass(frozen=True, slots=True)
class SkillLimits:
    """What a loader accepts. Bodies past a limit are refused: split the details into
    reference files that load only when followed."""

    max_body_chars: int = 40_000
    max_body_tokens: int = 10_000  # checked only when the loader is given a tokenizer
    max_files: int = 500


@dataclass(frozen=True, slots=True)
class Skill:
    """A skill that passed validation.

    ``path`` is the skill folder; ``body`` the Markdown after the frontmatter, as read at
    discovery; ``files`` and ``scripts`` the other files, as POSIX paths relative to ``path``
    (``scripts`` are those under ``scripts/``), sorted. ``installed`` is True only when the
    folder's current ``sha256`` matches the one recorded when it was installed deliberately;
    otherwise the skill's text is untrusted data.
    """

    name: str
    description: str
    path: Path
    body: str
    files: tuple[str, ...]
    scripts: tuple[str, ...]
    installed: bool
    sha256: str
    license: str = ""
    compatibility: str = ""
    allowed_tools: tuple[str, ...] = ()
    metadata: Mapping[str, str] = field(default_factory=dict, hash=False)

    @property
    def trust(self) -> Trust:
        return "trusted" if self.installed else "untrusted"

    @property
    def skill_file(self) -> Path:
        return self.path / SKILL_FILE


def name_problem(name: str) -> str | None:
    """Why ``name`` breaks the Agent Skills name rule, or None when it is valid."""
    if len(name) > MAX_NAME_CHARS:
        return f"name {name!r} has {len(name)} characters; use at most {MAX_NAME_CHARS}"
    if not _NAME.fullmatch(name):
        suggestion = "-".join(re.findall(r"[a-z0-9]+", name.lower()))[:MAX_NAME_CHARS]
        hint = f", e.g. {suggestion!r}" if suggestion else ""
        return (
            f"name {name!r} is invalid: use lowercase letters, digits and single hyphens, "
            f"not at the start or end{hint} (and rename the folder to match)"
        )
    return None


def default_skill_dirs() -> tuple[Path, ...]:
    """Where skills are looked for when no folder is given: the project's ``.agents/skills``
    first (it wins on a name clash), then the user's ``~/.agents/skills``."""
    return (Path.cwd() / ".agents" / "skills", Path.home() / ".agents" / "skills")
