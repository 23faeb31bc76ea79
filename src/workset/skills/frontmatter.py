"""Split a ``SKILL.md`` into its YAML frontmatter and its Markdown body.

PyYAML is imported here, lazily, so ``import workset`` does not need the ``skills`` extra.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from workset.errors import UsageError

MAX_FRONTMATTER_CHARS = 16_000
_FENCE = "---"


def _how(file: str) -> str:
    return (
        f"start {file} with a line '---', then 'name: <folder-name>' and 'description: ...', "
        "then '---'"
    )


@dataclass(frozen=True, slots=True)
class Parsed:
    """The frontmatter fields and the body, or ``problem`` saying what is wrong and how to fix."""

    fields: dict[str, Any]
    body: str
    problem: str = ""


def parse_skill_file(text: str, *, file: str = "SKILL.md") -> Parsed:
    """Parse the text of a ``SKILL.md`` (or another Markdown file with YAML frontmatter, named
    ``file`` in the problems); every problem is returned, never raised."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != _FENCE:
        return Parsed({}, text, f"{file} has no YAML frontmatter: {_how(file)}")
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in (_FENCE, "...")), None)
    if end is None:
        return Parsed(
            {}, text, "the frontmatter opened on line 1 is never closed: add a line '---' after it"
        )
    source = "".join(lines[1:end])
    body = "".join(lines[end + 1 :]).strip("\n")
    if len(source) > MAX_FRONTMATTER_CHARS:
        return Parsed(
            {},
            body,
            f"the frontmatter has {len(source):,} characters (at most {MAX_FRONTMATTER_CHARS:,}); "
            "keep only name, description and the optional fields there and move text to the body",
        )
    yaml = _yaml()
    try:
        fields = yaml.safe_load(source)
    except yaml.YAMLError as exc:
        return Parsed({}, body, _yaml_problem(exc))
    except RecursionError:
        return Parsed({}, body, "the frontmatter nests too deeply: use plain 'field: value' lines")
    if fields is None:
        return Parsed({}, body, f"the frontmatter is empty: {_how(file)}")
    if not isinstance(fields, dict):
        return Parsed(
            {},
            body,
            f"the frontmatter is a YAML {type(fields).__name__}, not a mapping of fields: write "
            "one 'field: value' per line",
        )
    return Parsed({str(key): value for key, value in fields.items()}, body)


def _yaml_problem(exc: Exception) -> str:
    mark = getattr(exc, "problem_mark", None)
    where = f" on line {mark.line + 2}" if mark is not None else ""  # +1 for the '---' line
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return (
        f"the frontmatter is not valid YAML{where} ({problem}); a common cause is a value "
        "containing ': ' or starting with a quote or '[': wrap the value in double quotes"
    )


def _yaml() -> Any:
    try:
        import yaml
    except ImportError as exc:
        raise UsageError("reading skills needs PyYAML: pip install 'workset[skills]'") from exc
    return yaml
