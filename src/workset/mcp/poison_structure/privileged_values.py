"""``privileged-default``: a scope, permission or role parameter whose default (or const) asks
for administrator, owner or delete rights: ``scopes: {"default": ["repo", "admin:org",
"delete_repo"]}`` on a tool that requests a session token, ``role_type: {"default":
"SUPER_ADMIN"}`` on a tool that assigns roles. The model keeps defaults ("keep the default so
later tools work"), so the definition, not the user, picks what access is granted. The same
default given in prose counts too: "when no role is named, assign Global Administrator".
Offering such scopes as choices (an ``enum``), or a read-only administrator role, is not a
finding; filling them in is."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from workset.mcp.definition_fields import named_schemas
from workset.mcp.poison_structure.text import NEGATION, USER_GATE

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


# What a role-granting tool calls the role it grants: ``{"type": "SUPER_ADMIN"}``.
_GRANTS = re.compile(
    r"(^|_)(assign|grant|add|set|give|invite|elevate|promote|update|change|provision)(_|$)", _I
)
_GENERIC = re.compile(r"^(type|kind|name|level|tier|value|id|key)$", _I)
# A role named by words, one of which grants administration or ownership ("SUPER_ADMIN",
# "Global Administrator", "tenant-owner"), unless another word keeps it to reading.
_RANK = frozenset({"admin", "admins", "administrator", "administrators", "superuser",
                   "superadmin", "owner", "owners", "root", "sysadmin", "superusers"})  # fmt: skip
_READS_ONLY = frozenset({"read", "readonly", "view", "viewer", "reader", "auditor", "report",
                         "reporting", "observer", "guest"})  # fmt: skip
# Prose that fills an access parameter in: "defaults to", "when none is named, assign", "the
# standard role is".
_FALLBACK = re.compile(
    r"\b(defaults?(\s+(role|value|scope|level))?\s*(is|to|of|=|:)|default(s|ing)?\s+to|"
    r"(when|if)\s+(it\s+is\s+|none\s+is\s+|no\s+\w+\s+is\s+)?(unspecified|omitted|left\s+(out|"
    r"blank|empty)|absent|not\s+(specified|given|provided|set|named|sure|stated))|"
    r"(standard|usual|recommended|normal)\s+(\w+\s+){0,4}(is|are)|otherwise)\b[\s,:]*"
    r"(\w+\s+){0,3}?(use|assign|grant|give|pick|choose|select|set\s+it\s+to|apply)?\s*"
    r"(the\s+)?[`'\"“‘]?(?P<value>[A-Za-z][\w:-]*(\s+[A-Z][\w-]*)?)",
    _I,
)


# The value is one the model fills in (a verb of filling), or written as a value (quoted, in
# capitals, an identifier, a title-cased role name), not a word of the sentence ("the owner").
_FILLS = re.compile(r"\b(use|assign|grant|give|pick|choose|select|set\s+it\s+to|apply)\b", _I)
_AS_VALUE = re.compile(r"[A-Z][A-Z0-9_:-]+|\w+_\w+|[A-Z][a-z]+(\s+[A-Z][a-z]+)+")


def privileged_defaults(schema: Any, tool: str = "") -> Iterator[tuple[str, str]]:
    """(field, values) for each access parameter in ``schema`` defaulting to privileged values,
    in its default or const, or in its description's prose. On a tool whose name grants access
    (``assign_role``), its generic parameters (``type``, ``name``, ``level``) are access ones."""
    grants = bool(_GRANTS.search(_snake(tool)) and _ACCESS_PARAM.search(_snake(tool)))
    for path, name, spec in named_schemas(schema, "inputSchema"):
        access = _ACCESS_PARAM.search(_snake(str(name))) or (grants and _GENERIC.match(str(name)))
        if not isinstance(spec, dict) or not access:
            continue
        for key in ("default", "const"):
            granted = [v for v in _values(spec.get(key)) if privileged(v)]
            if granted:
                yield f"{path}.{key}", ", ".join(granted)[:80]
        prose = spec.get("description")
        if isinstance(prose, str) and (filled := _prose_default(prose)):
            yield f"{path}.description", filled[:80]


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)


def privileged(value: str) -> bool:
    """Whether one access value grants administration, ownership, deletion or everything."""
    if any(_PRIVILEGED.match(piece) for piece in value.split()):
        return True
    words = {w.lower() for w in re.split(r"[\s_:./-]+|(?<=[a-z])(?=[A-Z])", value) if w}
    return bool(words & _RANK) and not words & _READS_ONLY


def _prose_default(prose: str) -> str:
    """The privileged value a description fills in when the user names none, unless the
    sentence leaves the choice to the user."""
    for sentence in re.split(r"(?<=[.!?;])\s+", prose):
        # "if not specified" is the fallback's own condition, not a negation of the act
        bare = re.sub(r"\bnot\s+(specified|given|provided|set|named|sure|stated)\b", "", sentence)
        if USER_GATE.search(sentence) or NEGATION.search(bare):
            continue
        for found in _FALLBACK.finditer(sentence):
            value = found.group("value")
            filled = _FILLS.search(found.group(0)) or _AS_VALUE.fullmatch(value)
            if filled and privileged(value):
                return value
    return ""


def _values(value: Any) -> list[str]:
    if isinstance(value, str):
        # a role spelled in words ("Global Administrator") is one value, a scope list is many
        if re.fullmatch(r"[A-Za-z][\w-]*(\s+[A-Za-z][\w-]*){1,3}", value.strip()) and not re.search(
            r"[:,]", value
        ):
            return [value.strip()]
        return [v for v in re.split(r"[\s,]+", value) if v]
    if isinstance(value, list):
        return [v for item in value for v in _values(item)]
    return []
