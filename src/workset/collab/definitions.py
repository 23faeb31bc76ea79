"""Agent definitions: user-authored folders, one per agent, loaded like skills.

A definition is ``<root>/<name>/AGENT.md``: YAML frontmatter, then Markdown instructions
(what the agent does, what is out of its scope, when to give the task back)::

    ---
    name: code-searcher
    description: Finds where something is implemented in a code base. Use when ...
    role: You are a helper agent specialised in searching Python code bases.
    tools: [grep, find_files, read_file, list_dir]
    model: inherit          # or a model name the host knows
    handoff: minimal        # minimal | extracted | inherit
    limits:
      max_model_calls: 8
      token_budget: 20000
      wall_time_s: 300
    ---
    Search with grep first ...

:func:`discover_agents` returns ``(definitions, diagnostics)`` and never raises on what an
author wrote: invalid YAML, a missing field, a name that does not match its folder, an unknown
tool or limit become diagnostics (the same :class:`~workset.skills.base.Diagnostic` skills
use), and the agent is left out. :data:`GENERAL` is the built-in helper used when no
definition is named.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeAlias

from workset.errors import ToolError
from workset.skills.base import MAX_DESCRIPTION_CHARS, Diagnostic, name_problem
from workset.skills.frontmatter import parse_skill_file

AGENT_FILE = "AGENT.md"
Handoff: TypeAlias = Literal["minimal", "extracted", "inherit"]
HANDOFFS: tuple[Handoff, ...] = ("minimal", "extracted", "inherit")
KNOWN_FIELDS = ("name", "description", "role", "tools", "model", "handoff", "limits")
MAX_BODY_CHARS = 20_000


@dataclass(frozen=True, slots=True)
class AgentLimits:
    """What one subagent may spend; reaching any ends it with a result that says which."""

    max_model_calls: int = 8
    token_budget: int = 40_000  # prompt + completion tokens over all its model calls
    wall_time_s: float = 300.0

    def describe(self) -> str:
        return (
            f"at most {self.max_model_calls} model calls, {self.token_budget:,} tokens, "
            f"{self.wall_time_s:g} s"
        )


LIMIT_FIELDS: Mapping[str, type] = {
    "max_model_calls": int,
    "token_budget": int,
    "wall_time_s": float,
}


@dataclass(frozen=True, slots=True)
class AgentDefinition:
    """A validated definition. ``tools`` empty means every tool the host offers subagents
    (the subagent tools included, within the depth limit); ``model`` ``inherit`` means the
    parent's model."""

    name: str
    description: str
    role: str
    instructions: str = ""
    tools: tuple[str, ...] = ()
    model: str = "inherit"
    handoff: Handoff = "minimal"
    limits: AgentLimits = field(default_factory=AgentLimits)
    path: Path | None = None


GENERAL = AgentDefinition(
    name="general",
    description="A general helper for a self-contained subtask (search, read, summarise) "
    "whose intermediate work should stay out of your context.",
    role="You are a helper agent. You do one self-contained task for the main agent.",
    instructions="Stay within the task. If it cannot be done with your tools, say so in "
    "open_questions instead of guessing.",
)


def discover_agents(
    *roots: str | os.PathLike[str], tools: Iterable[str] | None = None
) -> tuple[tuple[AgentDefinition, ...], tuple[Diagnostic, ...]]:
    """The valid definitions under ``roots`` (sorted by name) and every problem found.

    A root is a folder of agent folders or one agent folder; the first root holding a name
    wins. ``tools``, when given, are the tool names subagents may use: a definition naming
    another is reported and left out.
    """
    known_tools = None if tools is None else frozenset(tools)
    found: dict[str, AgentDefinition] = {}
    diagnostics: list[Diagnostic] = []
    for given in roots:
        root = Path(given).expanduser()
        folders, problems = _folders(root)
        diagnostics += problems
        for folder in folders:
            definition, problems = load_definition(folder, known_tools)
            diagnostics += problems
            if definition is None:
                continue
            if definition.name in found:
                diagnostics.append(
                    Diagnostic(
                        folder / AGENT_FILE,
                        "error",
                        f"agent name {definition.name!r} is already taken by "
                        f"{found[definition.name].path}; this copy is ignored",
                    )
                )
                continue
            found[definition.name] = definition
    return tuple(found[n] for n in sorted(found)), tuple(diagnostics)


def _folders(root: Path) -> tuple[list[Path], list[Diagnostic]]:
    if not root.is_dir():
        what = "does not exist" if not root.exists() else "is not a folder"
        return [], [Diagnostic(root, "error", f"the agents folder {what}; create it or drop it")]
    if (root / AGENT_FILE).exists():
        return [root], []
    try:
        children = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError as exc:
        return [], [Diagnostic(root, "error", f"cannot list the folder ({exc}); fix permissions")]
    folders, problems = [], []
    for child in children:
        if (child / AGENT_FILE).is_file():
            folders.append(child)
        elif any(p.name.lower() == AGENT_FILE.lower() for p in child.iterdir()):
            problems.append(
                Diagnostic(child, "error", f"name the definition file exactly {AGENT_FILE}")
            )
    return folders, problems


def load_definition(
    folder: Path, tools: frozenset[str] | None = None
) -> tuple[AgentDefinition | None, list[Diagnostic]]:
    """One agent folder: its definition, or None and the errors that keep it out."""
    file = folder / AGENT_FILE
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Diagnostic(file, "error", f"cannot read {AGENT_FILE} ({exc}); save as UTF-8")]
    parsed = parse_skill_file(text, file=AGENT_FILE)
    if parsed.problem:
        return None, [Diagnostic(file, "error", parsed.problem)]
    fields, errors, warnings = parsed.fields, [], []
    name = fields.get("name")
    if not isinstance(name, str) or not name.strip():
        errors.append(f"'name' is missing: add 'name: {folder.name}' to the frontmatter")
    elif problem := name_problem(name):
        errors.append(problem)
    elif name != folder.name:
        errors.append(f"name {name!r} does not match the folder {folder.name!r}: rename one")
    description = fields.get("description")
    if not isinstance(description, str) or not description.strip():
        errors.append("'description' is missing: say what the agent does and when to use it")
    elif len(description) > MAX_DESCRIPTION_CHARS:
        errors.append(f"'description' is over {MAX_DESCRIPTION_CHARS} characters; shorten it")
    role = fields.get("role", "")
    if not isinstance(role, str):
        errors.append("'role' must be text, e.g. 'You are a helper agent specialised in ...'")
    listed = _names(fields.get("tools"), errors)
    if tools is not None:
        unknown = [t for t in listed if t not in tools]
        if unknown:
            errors.append(
                f"'tools' names {unknown}, which subagents cannot use here; available: "
                f"{', '.join(sorted(tools)) or 'none'}"
            )
    model = fields.get("model", "inherit")
    if not isinstance(model, str) or not model.strip():
        errors.append("'model' must be a model name or 'inherit'")
    handoff = fields.get("handoff", "minimal")
    if handoff not in HANDOFFS:
        errors.append(f"'handoff' must be one of {', '.join(HANDOFFS)}, not {handoff!r}")
    limits = _limits(fields.get("limits"), errors)
    if len(parsed.body) > MAX_BODY_CHARS:
        errors.append(f"the instructions are over {MAX_BODY_CHARS:,} characters; shorten them")
    for key in fields:
        if key not in KNOWN_FIELDS:
            warnings.append(f"unknown field {key!r} is ignored; known: {', '.join(KNOWN_FIELDS)}")
    if errors:
        return None, [Diagnostic(file, "error", e) for e in errors]
    assert isinstance(name, str) and isinstance(description, str) and isinstance(role, str)
    definition = AgentDefinition(
        name=name,
        description=" ".join(description.split()),
        role=role.strip() or f"You are a helper agent: {' '.join(description.split())}",
        instructions=parsed.body.strip(),
        tools=listed,
        model=str(model).strip(),
        handoff=handoff,
        limits=limits,
        path=folder.resolve(),
    )
    return definition, [Diagnostic(file, "warning", w) for w in warnings]


def _names(value: Any, errors: list[str]) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(value.replace(",", " ").split())
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    errors.append("'tools' must be a list of tool names, e.g. [grep, read_file]")
    return ()


def _limits(value: Any, errors: list[str]) -> AgentLimits:
    if value is None:
        return AgentLimits()
    if not isinstance(value, dict):
        errors.append(f"'limits' must map {', '.join(LIMIT_FIELDS)} to numbers")
        return AgentLimits()
    given: dict[str, Any] = {}
    for key, number in value.items():
        kind = LIMIT_FIELDS.get(str(key))
        if kind is None:
            errors.append(f"unknown limit {key!r}; the limits are {', '.join(LIMIT_FIELDS)}")
        elif isinstance(number, bool) or not isinstance(number, int | float) or number <= 0:
            errors.append(f"limit {key!r} must be a positive number, not {number!r}")
        elif kind is int and not isinstance(number, int):
            errors.append(f"limit {key!r} must be a whole number, not {number!r}")
        else:
            given[str(key)] = kind(number)
    return AgentLimits(**given)


def find_definition(name: str, definitions: Sequence[AgentDefinition]) -> AgentDefinition:
    """The definition called ``name``; a :class:`ToolError` naming the closest ones if none."""
    by_name = {d.name: d for d in definitions}
    if name in by_name:
        return by_name[name]
    close = difflib.get_close_matches(name, list(by_name), n=3, cutoff=0.5)
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    raise ToolError(
        f"no agent named {name!r}",
        hint=f"{hint}the agents are: {', '.join(sorted(by_name))} (list_agents describes them)",
    )
