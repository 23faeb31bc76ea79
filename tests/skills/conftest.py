"""Builders for skill folders on disk: every test works on real files in tmp_path."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

SkillFactory = Callable[..., Path]

EXAMPLES = Path(__file__).parents[2] / "examples" / "skills"


def skill_text(name: str, description: str = "Do X. Use when X is asked.", body: str = "") -> str:
    body = body or f"# {name}\n\n1. Do the first step.\n2. Check the result.\n"
    return f"---\nname: {name}\ndescription: {description}\n---\n{body}"


@pytest.fixture
def make_skill(tmp_path: Path) -> SkillFactory:
    """``make_skill(name, root=..., text=..., files={...})`` writes a skill folder."""

    def build(
        name: str,
        *,
        root: Path | None = None,
        text: str | None = None,
        files: Mapping[str, str] | None = None,
        description: str = "Do X. Use when X is asked.",
        body: str = "",
    ) -> Path:
        folder = (root or tmp_path / "skills") / name
        folder.mkdir(parents=True, exist_ok=True)
        content = text if text is not None else skill_text(name, description, body)
        (folder / "SKILL.md").write_text(content, encoding="utf-8")
        for rel, data in (files or {}).items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(data, encoding="utf-8")
        return folder

    return build
