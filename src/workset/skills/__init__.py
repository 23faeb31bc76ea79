"""Agent Skills: folders with a ``SKILL.md`` (YAML frontmatter ``name`` and ``description``,
then Markdown instructions) plus optional reference files and scripts, disclosed progressively.
This package owns discovering skill folders (:func:`discover_skills`, which reports every
problem in user-authored files as a :class:`Diagnostic` instead of raising), the trust record
of deliberately installed skills (:func:`install_skill` and its ``skills.lock``), the small
stable catalog of names and descriptions for the system prompt (:func:`catalog_text`,
:func:`catalog_item`), and the two tools that load a skill's body and its referenced files on
demand (:func:`skill_tools`). Scripts are never run here: a loaded skill tells the model to run
them through the shell tool, so only their output enters the context.
"""

from workset.skills.base import Diagnostic, Severity, Skill, SkillLimits, default_skill_dirs
from workset.skills.catalog import catalog_item, catalog_text
from workset.skills.install import install_skill
from workset.skills.loader import discover_skills
from workset.skills.lock import read_lock
from workset.skills.tools import LoadedSkills, skill_tools

__all__ = [
    "Diagnostic",
    "LoadedSkills",
    "Severity",
    "Skill",
    "SkillLimits",
    "catalog_item",
    "catalog_text",
    "default_skill_dirs",
    "discover_skills",
    "install_skill",
    "read_lock",
    "skill_tools",
]
