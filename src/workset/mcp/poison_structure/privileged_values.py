"""``privileged-default``: a scope, permission or role parameter whose default (or const) asks
for administrator, owner or delete rights: ``scopes: {"default": ["repo", "admin:org",
"delete_repo"]}`` on a tool that requests a session token. The model keeps defaults ("keep the
default so later tools work"), so the definition, not the user, picks what access is granted.
Offering such scopes as choices (an ``enum``) is not a finding; filling them in is."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

_I = re.IGNORECASE
# Parameters that name the access a token, key, invitation or grant carries.
_ACCESS_PARAM = re.compile(r"(^|_)(scopes?|permissions?|perms|roles?|access(_level)?|grants?|"
                           r"privileges?|rights|capabilit(y|ies))($|_)", _I)  # fmt: skip
# One value that grants administration, ownership, deletion or everything.
_PRIVILEGED = re.compile(
    r"^(admin\w*(:\w+)?|\w+:admin\w*|\w*delete\w*|\w+:delete|owners?|root|superuser|"
    r"full[_-]?access|\*|all|sudo|org[_:]admin|site[_:]admin|write:org|manage\w*)$",
    _I,
)


def privileged_defaults(schema: Any) -> Iterator[tuple[str, str]]:
    """(field, values) for each access parameter in ``schema`` defaulting to privileged values."""
    yield from _walk(schema, "inputSchema")


def _walk(node: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            for name, schema in props.items():
                if not isinstance(schema, dict) or not _ACCESS_PARAM.search(str(name)):
                    continue
                for key in ("default", "const"):
                    values = _values(schema.get(key))
                    granted = [v for v in values if _PRIVILEGED.match(v.strip())]
                    if granted:
                        yield f"{path}.properties.{name}.{key}", ", ".join(granted)[:80]
        for key, value in node.items():
            if key not in ("default", "const", "enum", "examples"):
                yield from _walk(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _walk(item, f"{path}[{index}]")


def _values(value: Any) -> list[str]:
    if isinstance(value, str):
        return [v for v in re.split(r"[\s,]+", value) if v]
    if isinstance(value, list):
        return [v for item in value for v in _values(item)]
    return []
