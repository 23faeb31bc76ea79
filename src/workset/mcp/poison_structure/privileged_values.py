"""``privileged-default``: a scope, permission or role parameter whose default (or const) asks
for administrator, owner or delete rights: ``scopes: {"default": ["repo", "admin:org",
"delete_repo"]}`` on a tool that requests a session token. The model keeps defaults ("keep the
default so later tools work"), so the definition, not the user, picks what access is granted.
Offering such scopes as choices (an ``enum``) is not a finding; filling them in is."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from workset.mcp.definition_fields import named_schemas

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
    for path, name, spec in named_schemas(schema, "inputSchema"):
        if not isinstance(spec, dict) or not _ACCESS_PARAM.search(str(name)):
            continue
        for key in ("default", "const"):
            granted = [v for v in _values(spec.get(key)) if _PRIVILEGED.match(v.strip())]
            if granted:
                yield f"{path}.{key}", ", ".join(granted)[:80]


def _values(value: Any) -> list[str]:
    if isinstance(value, str):
        return [v for v in re.split(r"[\s,]+", value) if v]
    if isinstance(value, list):
        return [v for item in value for v in _values(item)]
    return []
