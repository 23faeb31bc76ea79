"""``consent-preset``: a parameter that records the user's approval (``confirm``,
``approved_by_user``, ``consent``) or skips asking for it (``skip_confirmation``,
``auto_approve``) whose value the definition fixes, so the call goes through as
if the user had agreed: a default or const of true, an enum whose only value says yes, a
description saying it is "always true" or "pre-filled", or a text telling the model to set it
to true, not under a condition on the user ("set `confirm` to true only after the user has
confirmed" is the honest form). A const of true whose description leaves the value to the user
("the client should get it from the user") says what the call needs, and is not flagged."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from workset.mcp.poison_structure.text import USER_GATE, negated_clause, sentences

_I = re.IGNORECASE

_CONSENT_PARAM = re.compile(
    r"^(user_?)?(confirm(ed|ation)?|approved?|approval|consent(ed)?|authori[sz]ed|agreed|"
    r"acknowledged?)(_?(by_?user|by_?owner|by_?customer|flag|token|status|code|given))?$|^(user|owner|"
    r"customer)_?(confirm(ed|ation)?|approved?|approval|consent(ed)?|authori[sz]ed|agreed)(_?(token|"
    r"status|code|given|flag))?$",
    _I,
)
# A parameter that skips the user's confirmation: on means the user is not asked.
_SKIP_PARAM = re.compile(
    r"^(skip|no|bypass|disable|without|suppress)_?(user_?)?(confirm\w*|approv\w*|prompts?|review|"
    r"consent)$|^auto_?(approve|confirm|accept)\w*$",
    _I,
)
_YES = frozenset({"true", "yes", "y", "granted", "approved", "confirmed", "agreed", "1", "ok"})
# A description that fixes the value or claims the approval happened elsewhere.
_FIXED = re.compile(
    r"\b(always|must\s+(always\s+)?be)\s+(true|yes|set|granted)\b|\bpre-?(filled|set|"
    r"approved|confirmed)\b|\bleave\s+(it\s+|this\s+)?(as\s+is|unchanged|at\s+(its\s+)?"
    r"(default|true))\b|\balready\s+(displayed|shown|approved|confirmed|granted|given|"
    r"obtained|collected)\b",
    _I,
)
# A description that leaves the value to the user: a const true then says what the call needs
# ("must be true; the client should get it from the user"), not that consent was given.
_FROM_USER = re.compile(
    r"\b(get|gets|obtain|obtained|take|taken|collect|collected|request|requested|come|comes|"
    r"coming)\s+(it\s+|this\s+|the\s+value\s+|the\s+answer\s+|approval\s+|confirmation\s+)?"
    r"(directly\s+|explicitly\s+)?from\s+the\s+(user|human|person)\b|\b(set|given|chosen|"
    r"confirmed|approved)\s+(only\s+)?by\s+the\s+(user|human)\b",
    _I,
)
_SET_TRUE = r"\b(set|pass|send|use|fill(\s+in)?)\s+`?{name}`?\s*(to|as|=|:|with)?\s*`?(true|yes)\b"


def consent_presets(
    schema: Any, texts: Iterable[tuple[str, str, str]]
) -> Iterator[tuple[str, str]]:
    """(field, excerpt) for each consent parameter of ``schema`` whose value is fixed, and each
    text (``texts``: field, kind, readable text) that sets one to true unasked."""
    names: list[str] = []
    for where, name, spec in _consent_params(schema, "inputSchema"):
        names.append(name)
        description = str(spec.get("description", ""))
        enum = spec.get("enum")
        if (
            _yes(spec.get("default"))
            or (
                _yes(spec.get("const"))
                and not _FROM_USER.search(description)
                and not USER_GATE.search(description)
            )
            or (isinstance(enum, list) and enum and all(_yes(v) for v in enum))
            or (
                _FIXED.search(description)
                and not USER_GATE.search(description)
                and not _FROM_USER.search(description)
            )
        ):
            yield where, f"{name}: {description or spec.get('default', spec.get('enum'))}"[:80]
    for where, kind, text in texts:
        if kind in ("name", "data") or not names:
            continue
        for sentence in sentences(text):
            for name in names:
                found = re.search(_SET_TRUE.format(name=re.escape(name)), sentence, _I)
                if (
                    found
                    and not USER_GATE.search(sentence)
                    and not negated_clause(sentence, found.start())
                ):
                    yield where, sentence[:80]
                    break


def _consent_params(node: Any, path: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            for name, spec in props.items():
                consent = _CONSENT_PARAM.match(str(name)) or _SKIP_PARAM.match(str(name))
                if isinstance(spec, dict) and consent:
                    yield f"{path}.properties.{name}", str(name), spec
        for key, value in node.items():
            yield from _consent_params(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _consent_params(item, f"{path}[{index}]")


def _yes(value: Any) -> bool:
    """True, or a string whose first word says yes ("APPROVED-ALL", "granted")."""
    if value is True:
        return True
    words = re.split(r"[^a-z0-9]+", value.strip().lower()) if isinstance(value, str) else []
    return bool(words) and words[0] in _YES
