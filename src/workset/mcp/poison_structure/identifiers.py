"""``unneeded-identifier``: a parameter, at any depth of the input schema (an array's item
schema, a ``$defs`` entry), that asks for a government identity number, a bank account or a
payment card while the tool's name and opening sentence do nothing that needs one: a time-off
request whose day entries each want "the employee's social security number", a meeting
scheduler with a ``passport_number`` field. The model fills what the schema asks for, so the
number leaves with an unrelated call.

The same field on a tool that verifies identity, files taxes, runs payroll, onboards a hire,
pays or bills is its input; a field that only takes the last four digits, or whose description
says the number is masked or must not be given, is not asking for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from workset.mcp.definition_fields import CAMEL_BREAK, named_schemas

REASON = (
    "a parameter asks for a government ID, bank account or card number that nothing the tool's "
    "name or opening says it does needs"
)

_I = re.IGNORECASE
# Each kind of number: how a parameter's name spells it, how a description names it, and the
# words of a purpose that needs it.
_KINDS: dict[str, tuple[str, str, str]] = {
    "government": (
        r"ssn|social_security(_number|_no)?|national_(id|identity|insurance)(_number|_no)?|nino|"
        r"passport(_number|_no|_id)?|itin|drivers?_licen[cs]e(_number|_no)?",
        r"social\s+security(\s+numbers?)?|ssns?|national\s+(id|identity|insurance)\s+numbers?|"
        r"passport\s+numbers?|driver['’]?s\s+licen[cs]e\s+numbers?",
        r"identit|kyc|verif|tax|w-?[2-9]\b|1099|i-?9\b|onboard|hire|hiring|background|passport|"
        r"visa|immigra|payroll|benefit|insur|credit|loan|census|complian|aml\b|regist|enrol|"
        r"new\s+(employee|worker)|(create|add)\s+(employee|worker)|travel|booking\s+flight",
    ),
    # a tax number also names a business: an invoice's customer, a vendor, a contract party
    "tax": (
        r"tax_?id|tin|ein|vat(_id|_number)?",
        r"tax\s+(id|identification)\s+numbers?",
        r"identit|kyc|verif|tax|w-?[2-9]\b|1099|onboard|hire|payroll|regist|invoice|bill|vendor|"
        r"supplier|customer|client|compan|business|account|order|quote|contract|purchas|procure|"
        r"pay|organi[sz]ation|partner|lead|deal",
    ),
    "bank": (
        r"bank_account(_number|_no)?|routing_number|iban|swift_code|sort_code",
        r"bank\s+account(\s+numbers?)?|routing\s+numbers?|iban",
        r"bank|pay|deposit|transfer|refund|vendor|supplier|invoice|wire|ach\b|remit|reimburs|"
        r"expense|billing|salary|compensation|settle|account",
    ),
    "card": (
        r"card_number|credit_card(_number)?|debit_card(_number)?|cvv2?|cvc|card_security_code",
        r"(credit|debit|payment)\s+card(\s+numbers?)?|card\s+numbers?|cvv|cvc",
        r"pay|checkout|billing|card|charge|purchase|order|subscri|donat|book|reserv|wallet|"
        r"invoice|refund",
    ),
}
# Not the number itself: its last digits, a masked or tokenised form, or a yes/no about it.
_PARTIAL = re.compile(
    r"\b(last\s+(4|four)|final\s+(4|four)|ending\s+in|masked|redacted|tokeni[sz]ed|hash\w*|"
    r"truncated|suffix)\b|last_?(4|four)|_(suffix|hash|token|masked|on_file|verified|present)$",
    _I,
)
# A description that says the number is not to be given.
_REFUSED = re.compile(
    r"\b(never|do\s+not|don['’]?t|must\s+not|should\s+not|not\s+(be\s+)?(required|needed|"
    r"collected|stored|accepted)|is\s+not|are\s+not)\b",
    _I,
)
# A description that opens by naming the number: "Employee's full SSN", "The passport number".
_NAMES_FIRST = r"^\W*((the|a|an|your|their|its)\s+)?([\w'’-]+\s+){0,3}?("


def unneeded_identifiers(name: str, description: str, schema: Any) -> Iterator[tuple[str, str]]:
    """(field, parameter) for each parameter asking for a number the tool's purpose does not
    need."""
    opening = re.split(r"(?<=[.!?])\s+|\n", description.strip(), maxsplit=1)[0]
    purpose = f"{CAMEL_BREAK.sub(' ', name)} {opening}".lower()
    for path, param, spec in named_schemas(schema, "inputSchema"):
        if not isinstance(spec, Mapping) or spec.get("type") == "boolean":
            continue
        words = CAMEL_BREAK.sub("_", str(param)).lower()
        prose = str(spec.get("description", ""))
        if _PARTIAL.search(words) or _PARTIAL.search(prose) or _REFUSED.search(prose):
            continue
        for spelled, named, needs in _KINDS.values():
            asks = re.fullmatch(rf"(\w+_)?({spelled})", words) or re.search(
                _NAMES_FIRST + named + r")\b", prose, _I
            )
            if asks and not re.search(needs, purpose, _I) and not re.search(named, purpose, _I):
                yield f"{path} (name)", str(param)
                break
