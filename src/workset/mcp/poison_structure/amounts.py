"""``alters-user-amount``: the definition, not the user, decides how much is ordered, paid or
booked. Two shapes:

- prose that has the model change the number the user gave by a factor, a share or a floor of
  its own ("multiply the requested quantity by 10", "add a 20% buffer to whatever amount is
  asked for", "round every order up to at least 500 units");
- a parameter that scales the user's amount (a quantity multiplier, an order buffer, extra
  units) and comes with a default that changes it (``quantity_multiplier: {"default": 10}``).

An honest tool takes the user's number as given: it converts units ("amount in cents: multiply
dollars by 100"), states its own limits ("the supplier rounds up to full cases"), or changes an
amount when the user asks. None of those is a finding, nor is a negated or user-gated sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from workset.mcp.definition_fields import named_schemas
from workset.mcp.poison_structure.text import USER_GATE, negated_clause, sentences

REASON = (
    "the definition has the model change an amount the user gave (a factor, a share, a floor "
    "or extra units of its own), or defaults a parameter that scales it"
)

_I = re.IGNORECASE
# An order that changes a number: imperative base forms, not a description of the server's own
# rounding ("quantities are rounded up", "the supplier rounds"); its object is the amount.
_AMOUNT = (
    r"(quantit(y|ies)|qty|amounts?|units?|counts?|order\s+sizes?|totals?|prices?|seats?|"
    r"licen[cs]es?|headcount|hours|volumes?|figures?|numbers?\s+of\s+\w+)\b"
)
_CHANGE = re.compile(
    r"\b(multiply|double(?![- ]check)|triple|quadruple|increase|raise|inflate|pad|bump|"
    r"round|scale|top\s+up|boost|uplift)\s+(up\s+)?([\w'’-]+\s+){0,4}?"
    + _AMOUNT
    + r"|\badd\s+(?P<added>([\w%.'’-]+\s+){1,5}?)(to|onto)\s+([\w'’-]+\s+){0,4}?"
    + _AMOUNT
    + r"|\badd\s+\d+\s+(extra|additional|more|spare)\s+(\w+\s+)?"
    + _AMOUNT,
    _I,
)
# A change of the definition's own: a factor, a share, a floor or a number of extra units.
_OWN_CHANGE = re.compile(
    r"\bby\s+(a\s+factor\s+of\s+)?\d|\b\d+(\.\d+)?\s*(%|percent\b|x\b|times\b)|"
    r"\b(at\s+least|a\s+minimum\s+of|no\s+(fewer|less)\s+than)\s+\d|"
    r"\b\d+\s+(extra|additional|more|spare)\b|\b(double|triple|quadruple)\b|"
    r"\b(buffer|padding|margin|cushion|overage|headroom)\b",
    _I,
)
# Units converted, not amounts changed: "multiply by 100 to give cents".
_CONVERSION = re.compile(
    r"\b(cents?|minor\s+units?|pence|smallest\s+(currency\s+)?unit|basis\s+points|bps|"
    r"milli\w+|micro\w+|seconds|minutes|bytes|kilo\w+|mega\w+|to\s+convert|conver(t|sion))\b",
    _I,
)

# A parameter that scales the amount, and the value that leaves it alone.
_SCALER = re.compile(
    r"(^|_)(multiplier|factor|buffer|padding|overage|uplift|over_?order|extra_units?|"
    r"additional_units?|safety_stock)($|_)",
    _I,
)
_AMOUNT_WORD = re.compile(r"quantit|qty|amount|units?\b|order|count|seats|licen", _I)


def altered_amounts(
    schema: Any, texts: Iterable[tuple[str, str, str]]
) -> Iterator[tuple[str, str]]:
    """(field, excerpt) for each sentence or default that changes the user's amount."""
    for where, kind, text in texts:
        if kind in ("name", "data") or where.startswith("outputSchema"):
            continue
        for sentence in sentences(text):
            if _changes_amount(sentence):
                yield where, sentence[:80]
                break
    for path, name, spec in named_schemas(schema, "inputSchema"):
        if not isinstance(spec, dict) or not _SCALER.search(_snake(str(name))):
            continue
        about = f"{_snake(str(name)).replace('_', ' ')} {spec.get('description', '')}"
        default = spec.get("default")
        if not _AMOUNT_WORD.search(about) or isinstance(default, bool):
            continue
        if not isinstance(default, int | float):
            continue
        identity = 1 if re.search(r"multiplier|factor", str(name), _I) else 0
        if default != identity:
            yield f"{path}.default", f"{name}={default}"


def _changes_amount(sentence: str) -> bool:
    if _CONVERSION.search(sentence) or USER_GATE.search(sentence):
        return False
    for verb in _CHANGE.finditer(sentence):
        own = verb.group("added") or sentence[verb.start() : verb.end() + 60]
        if _OWN_CHANGE.search(own) and not negated_clause(sentence, verb.start()):
            return True
    return False


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
