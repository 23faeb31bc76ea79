"""Discover skill folders and validate their ``SKILL.md``, turning every problem into a
:class:`Diagnostic` that says how to fix it. Nothing a skill author writes makes this raise.

A root is either a folder of skill folders (``root/<name>/SKILL.md``) or one skill folder.
Roots are given in priority order: when two roots hold the same skill name, the first wins and
the other copy is reported. Skills come back sorted by name, so the catalog is stable.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workset.skills.base import (
    MAX_COMPATIBILITY_CHARS,
    MAX_DESCRIPTION_CHARS,
    SKILL_FILE,
    Diagnostic,
    Skill,
    SkillLimits,
    name_problem,
)
from workset.skills.folder import scan_folder
from workset.skills.frontmatter import parse_skill_file
from workset.skills.lock import LockEntry, read_lock
from workset.tokens.base import Tokenizer

KNOWN_FIELDS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")


def discover_skills(
    *roots: str | os.PathLike[str],
    limits: SkillLimits | None = None,
    tokenizer: Tokenizer | None = None,
) -> tuple[tuple[Skill, ...], tuple[Diagnostic, ...]]:
    """The valid skills under ``roots`` (sorted by name) and every problem found on the way.

    ``tokenizer`` enables the body limit in tokens; without it only characters are checked.
    """
    limits = limits or SkillLimits()
    skills: dict[str, Skill] = {}
    diagnostics: list[Diagnostic] = []
    locks: dict[Path, dict[str, LockEntry]] = {}
    for given in roots:
        root = Path(given).expanduser()
        folders, found = _skill_folders(root)
        diagnostics.extend(found)
        for folder in folders:
            home = folder.parent
            if home not in locks:
                locks[home], lock_problems = read_lock(home)
                diagnostics.extend(lock_problems)
            skill, problems = _load(folder, limits, tokenizer, locks[home])
            diagnostics.extend(problems)
            if skill is None:
                continue
            if skill.name in skills:
                diagnostics.append(
                    Diagnostic(
                        skill.skill_file,
                        "error",
                        f"skill name {skill.name!r} is already taken by "
                        f"{skills[skill.name].path}; this copy is ignored (rename one of them, "
                        "folder and name, or remove the duplicate)",
                    )
                )
                continue
            skills[skill.name] = skill
    return tuple(skills[name] for name in sorted(skills)), tuple(diagnostics)


def _skill_folders(root: Path) -> tuple[list[Path], list[Diagnostic]]:
    if not root.exists():
        return [], [
            Diagnostic(root, "warning", "the skills folder does not exist; create it or drop it")
        ]
    if not root.is_dir():
        return [], [
            Diagnostic(root, "error", "not a folder: pass a folder of skills or one skill folder")
        ]
    if (root / SKILL_FILE).exists() or (root / SKILL_FILE).is_symlink():
        return [root], []
    folders: list[Path] = []
    problems: list[Diagnostic] = []
    try:
        children = sorted(root.iterdir())
    except OSError as exc:
        return [], [Diagnostic(root, "error", f"cannot list the folder ({exc}); fix permissions")]
    for child in children:
        if child.name.startswith(".") or not child.is_dir():
            continue
        if (child / SKILL_FILE).exists() or (child / SKILL_FILE).is_symlink():
            folders.append(child)
            continue
        misnamed = [p.name for p in _safe_iterdir(child) if p.name.lower() == SKILL_FILE.lower()]
        if misnamed:
            problems.append(
                Diagnostic(
                    child / misnamed[0],
                    "error",
                    f"the skill file must be named exactly {SKILL_FILE}: rename {misnamed[0]}",
                )
            )
    return folders, problems


def _safe_iterdir(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def _load(
    folder: Path,
    limits: SkillLimits,
    tokenizer: Tokenizer | None,
    lock: Mapping[str, LockEntry],
) -> tuple[Skill | None, list[Diagnostic]]:
    file = folder / SKILL_FILE
    problems: list[Diagnostic] = []

    def error(message: str) -> tuple[None, list[Diagnostic]]:
        return None, [*problems, Diagnostic(file, "error", message)]

    if file.is_symlink():
        return error(f"{SKILL_FILE} is a symbolic link; put the real file in the skill folder")
    if not file.is_file():
        return error(f"{SKILL_FILE} is not a regular file; make it a Markdown file")
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        return error(f"{SKILL_FILE} is not valid UTF-8 ({exc.reason}); save it as UTF-8")
    except OSError as exc:
        return error(f"cannot read {SKILL_FILE} ({exc.strerror or exc}); fix its permissions")
    parsed = parse_skill_file(text)
    if parsed.problem:
        return error(parsed.problem)
    fields = parsed.fields
    errors = [*_name_errors(fields.get("name"), folder), *_description_errors(fields)]
    errors.extend(_body_errors(parsed.body, limits, tokenizer))
    if errors:
        return None, [Diagnostic(file, "error", message) for message in errors]
    warn = [Diagnostic(file, "warning", message) for message in _field_warnings(fields)]
    if not parsed.body.strip():
        warn.append(
            Diagnostic(
                file,
                "warning",
                "there are no instructions after the frontmatter; write the steps to follow",
            )
        )
    scan = scan_folder(folder, max_files=limits.max_files)
    if scan.too_many:
        return None, [*warn, Diagnostic(folder, "error", scan.problems[0])]
    warn.extend(Diagnostic(folder, "warning", message) for message in scan.problems)
    name = str(fields["name"])
    installed = False
    entry = lock.get(name)
    if entry is not None and entry.sha256 == scan.sha256:
        installed = True
    elif entry is not None:
        warn.append(
            Diagnostic(
                folder,
                "warning",
                "this installed skill changed since it was installed, so it is untrusted again; "
                "review the change, then approve it with: workset skills install "
                f"{folder} --dir {folder.parent} --replace",
            )
        )
    skill = Skill(
        name=name,
        description=" ".join(str(fields["description"]).split()),
        path=folder.resolve(),
        body=parsed.body,
        files=scan.files,
        scripts=scan.scripts,
        installed=installed,
        sha256=scan.sha256,
        license=_text(fields.get("license")),
        compatibility=_text(fields.get("compatibility")),
        allowed_tools=_allowed_tools(fields.get("allowed-tools")),
        metadata=_metadata(fields.get("metadata")),
    )
    return skill, warn


def _name_errors(name: Any, folder: Path) -> list[str]:
    if name is None or (isinstance(name, str) and not name.strip()):
        return [f"'name' is missing: add 'name: {folder.name}' to the frontmatter"]
    if not isinstance(name, str):
        return [f"'name' must be text, not {type(name).__name__}: write name: {folder.name}"]
    problem = name_problem(name)
    if problem:
        return [problem]
    if name != folder.name:
        return [
            f"name {name!r} does not match the folder name {folder.name!r}: rename the folder "
            f"to {name!r} or set 'name: {folder.name}'"
        ]
    return []


def _description_errors(fields: Mapping[str, Any]) -> list[str]:
    description = fields.get("description")
    if description is None or (isinstance(description, str) and not description.strip()):
        return [
            "'description' is missing: add one line saying what the skill does and when to "
            "use it (Use when … Do not use when …)"
        ]
    if not isinstance(description, str):
        return [f"'description' must be text, not {type(description).__name__}: quote it"]
    if len(description) > MAX_DESCRIPTION_CHARS:
        return [
            f"'description' has {len(description):,} characters (at most "
            f"{MAX_DESCRIPTION_CHARS:,}); it is in every request, so keep it to when to use "
            "the skill and move details to the body"
        ]
    return []


def _body_errors(body: str, limits: SkillLimits, tokenizer: Tokenizer | None) -> list[str]:
    split = "move details into reference files (e.g. references/*.md) linked from the body"
    if len(body) > limits.max_body_chars:
        return [
            f"the body has {len(body):,} characters (limit {limits.max_body_chars:,}); {split}, "
            "or raise max_body_chars"
        ]
    if tokenizer is not None and (tokens := tokenizer.count(body)) > limits.max_body_tokens:
        return [
            f"the body has {tokens:,} tokens (limit {limits.max_body_tokens:,}); {split}, or "
            "raise max_body_tokens"
        ]
    return []


def _field_warnings(fields: Mapping[str, Any]) -> list[str]:
    found: list[str] = []
    for key in fields:
        if key not in KNOWN_FIELDS:
            found.append(
                f"unknown field {key!r} is ignored; the fields are {', '.join(KNOWN_FIELDS)} "
                "(put custom data under 'metadata')"
            )
    for key in ("license", "compatibility"):
        value = fields.get(key)
        if value is not None and not isinstance(value, str):
            found.append(f"{key!r} must be text; it is ignored (quote the value)")
    compatibility = fields.get("compatibility")
    if isinstance(compatibility, str) and len(compatibility) > MAX_COMPATIBILITY_CHARS:
        found.append(
            f"'compatibility' has {len(compatibility)} characters; keep it under "
            f"{MAX_COMPATIBILITY_CHARS}"
        )
    tools = fields.get("allowed-tools")
    if tools is not None and _allowed_tools(tools) == () and tools not in ("", []):
        found.append("'allowed-tools' must be a space-separated list of tool names; it is ignored")
    metadata = fields.get("metadata")
    if metadata is not None and (
        not isinstance(metadata, dict)
        or not all(isinstance(v, str | int | float | bool) for v in metadata.values())
    ):
        found.append(
            "'metadata' must map names to text values (e.g. 'version: \"1.0\"'); "
            "entries that are not are ignored"
        )
    return found


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _allowed_tools(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    return ()


def _metadata(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {
        str(key): str(item)
        for key, item in value.items()
        if isinstance(item, str | int | float | bool)
    }
