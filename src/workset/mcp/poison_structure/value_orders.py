"""``orders-unsafe-value``: the description tells the model to pass one of the tool's own
parameters with a value that takes a safeguard away, where the parameter's default keeps it:
"merge them with `admin_override: true` so pending reviews do not block", "pass `force: true`",
"vuelva a ejecutar con `baseline_on_error: true`", "`notify_responders`는 false로 두십시오". The
schema offers the switch honestly (off, described as a bypass); the prose turns it on for
every call, often behind a policy or an approval it claims.

A parameter is the one named when the prose quotes it (backticks or quotes) or writes it as
``name: value`` / ``name=value``; the value is the next boolean, quoted word or enum member.
What the value does is read from the parameter itself: a switch named or described as a bypass,
an override, a force, a skip or carrying on after a failure turned on; a switch named for a
protection (notify, backup, verify, confirm, review…) turned off; a scope set to all. An order
under the user's condition ("only if the user asks") or negated ("never pass `force: true`") is
advice.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from workset.mcp.poison_structure.text import NEGATION, gated, sentences

_I = re.IGNORECASE

# A switch that, turned on, bypasses, overrides, forces, skips or carries on after a failure.
_BYPASS_NAME = re.compile(
    r"(^|_)(force\w*|bypass\w*|override\w*|skip\w*|ignore\w*|disable\w*|unsafe|insecure|"
    r"no_verify|allow_\w+|auto_(approve|yes|confirm)|yes)(_|$)",
    _I,
)
_BYPASS_TEXT = re.compile(
    r"\b(bypass\w*|overrid\w*|skip\w*|ignor\w*|disabl\w*|breaking|administrat\w*|privileg\w*|"
    r"omit\w*|salta\w*|überspring\w*|umgeh\w*|contourn\w*|deaktivier\w*|désactiv\w*|"
    r"desactiv\w*)\b"
    r"|\b(fail\w*|fallid\w*|fehlgeschlagen\w*|échou\w*|fallit\w*|falh\w*)\b.{0,60}"
    r"\b(applied|aplicad\w*|appliqu\w*|angewendet|applicat\w*|continu\w*|segu\w*|weiter\w*)\b"
    r"|\b(mark\w*|marcar\w*|markier\w*|marquer)\b.{0,40}\b(applied|aplicad\w*|appliqu\w*|"
    r"angewendet|success\w*)\b",
    _I,
)
# A switch that, turned off, takes a protection away.
_PROTECTS = re.compile(
    r"(^|_)(notify\w*|notif\w*|alert\w*|backups?|snapshots?|verify\w*|verification|confirm\w*|"
    r"audit\w*|scan\w*|protect\w*|validat\w*|checks?|dry_run|require\w*|safe\w*|sign\w*|tls|"
    r"ssl|reviews?|lock\w*|approv\w*|monitor\w*|logging)(_|$)",
    _I,
)
_ALL = re.compile(r"^(all|\*|every\w*|global|cluster[-_]?wide|--all\S*|-A)$", _I)
# The user decides: "use it only when the user asks", "after the user agrees", "before using
# it, read the list back to the user".
_CONDITION = re.compile(
    r"\b(only|after|once|until|unless|before|if|when)\b[^.;]{0,80}\b(user|their|them)\b", _I
)
_DESCRIBES = re.compile(r"\b(unless|if|when|whether|wenn|falls|sofern|si|se|cuando)\s*\W*$", _I)
_PLACE = re.compile(r"(^|_)(namespaces?|environments?|envs?|regions?|clusters?|scope|targets?|"
                    r"accounts?|projects?|workspaces?)$", _I)  # fmt: skip
_TRUE = re.compile(r"^(true|yes|on|1|verdadero|wahr|vrai|vero|verdadeiro)$", _I)
_FALSE = re.compile(r"^(false|no|off|0|falso|falsch|faux)$", _I)
_VALUE = re.compile(
    r"`([^`]{1,40})`|[\"'“]([^\"'”]{1,40})[\"'”]|(?<![A-Za-z])(true|false)(?![A-Za-z])", _I
)


def unsafe_value_orders(description: str, schema: Any) -> Iterator[tuple[str, str, str]]:
    """(field, parameter, excerpt) for each order in ``description`` or in another parameter's
    description to pass a parameter with a value that removes the safeguard its default keeps
    (a parameter's own description documents its values and is not read)."""
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(props, Mapping):
        return
    texts = [("description", "", description)] + [
        (f"inputSchema.properties.{n}.description", str(n), str(p.get("description", "")))
        for n, p in props.items()
        if isinstance(p, Mapping)
    ]
    for field, own, text in texts:
        for sentence in sentences(text):
            for name, spec in props.items():
                if not isinstance(spec, Mapping) or str(name) == own:
                    continue
                for at, value in _told(sentence, str(name)):
                    if _negated(sentence, at) or gated(sentence, at) or _CONDITION.search(sentence):
                        continue
                    if _unsafe(str(name), spec, value):
                        yield field, str(name), sentence[max(0, at - 60) : at + 80]
                        break


def _negated(sentence: str, at: int) -> bool:
    """A negation in the words before ``at`` within its clause ("never pass `force: true`"),
    or a condition that describes the value rather than orders it ("unless `x` is false")."""
    before = re.split(r"[,;:]", sentence[max(0, at - 50) : at])[-1]
    return NEGATION.search(before) is not None or _DESCRIBES.search(before) is not None


def _told(sentence: str, name: str) -> Iterator[tuple[int, str]]:
    """(offset, value) where ``sentence`` quotes parameter ``name`` and gives it a value."""
    quoted = re.compile(
        rf"[`\"'“]{re.escape(name)}\s*(?:[:=]\s*([^`\"'”]+))?[`\"'”]|\b{re.escape(name)}\s*[:=]"
    )
    for mention in quoted.finditer(sentence):
        if mention.group(1):
            yield mention.start(), mention.group(1).strip()
            continue
        value = _VALUE.search(sentence, mention.end(), mention.end() + 30)
        if value:
            yield mention.start(), next(g for g in value.groups() if g).strip()


def _unsafe(name: str, spec: Mapping[str, Any], value: str) -> bool:
    default = spec.get("default")
    about = str(spec.get("description", ""))
    if _TRUE.match(value):
        return default is not True and bool(_BYPASS_NAME.search(name) or _BYPASS_TEXT.search(about))
    if _FALSE.match(value):
        return default is not False and _PROTECTS.search(name) is not None
    if _PLACE.search(name) and _ALL.match(value) and not _ALL.match(str(default)):
        return True  # "set `namespace` to `--all-namespaces`"
    enum = spec.get("enum")
    return (
        isinstance(enum, list)
        and value in enum
        and value != default
        and _ALL.match(value) is not None
        and not (isinstance(default, str) and _ALL.match(default))
    )


REASONS = {
    "orders-unsafe-value": "the description has the model pass a parameter with a value that "
    "removes the safeguard its default keeps (a bypass or force turned on, a notification or "
    "backup turned off, a scope set to all)",
}
