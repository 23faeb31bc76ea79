"""Safety tools put aside: the model told not to call another tool whose name says it checks,
scans, confirms or reviews (``security_scan``, ``confirm_action``, ``policy_check``,
``approval_gate``), to skip or avoid it (``disables-safeguard``).

Ordinary tool advice is not this: a tool's own predecessor superseded ("do not call run_tests
any more"), a safety tool replaced by another safety tool ("use security_scan_v2 instead"), or
a limit under a condition on the user."""

from __future__ import annotations

import re

from workset.mcp.poison_structure.text import USER_GATE

_I = re.IGNORECASE

# An identifier (snake_case, kebab-case, camelCase or dotted) with a safety stem in it.
_SAFETY_TOOL = (
    r"`?\b[\w.-]*(secur|scan|polic|guard|approv|confirm|moderat|audit|review|verif|validat|"
    r"sanitiz|complian|dlp|safety|permission|consent|lint)[\w.-]*\b`?"
)
_IDENTIFIER = re.compile(r"[_.-]|[a-z][A-Z]|`")
# The model told not to call it: "do not call them", "skip them", "avoid the approval_gate tool".
_SET_ASIDE = (
    r"\b((do\s+not|don['’]?t|never|no\s+need\s+to)\s+(call|run|use|invoke|wait\s+for)|skip|avoid|"
    r"bypass|ignore|stop\s+(calling|using))\s+"
)
# Named as its object ("avoid the approval_gate tool"), or named before and then pointed at
# ("the security_scan and confirm_action tools are deprecated; do not call them").
_NAMED = re.compile(rf"{_SET_ASIDE}(the\s+|any\s+)?['\"]?(?P<tool>{_SAFETY_TOOL})", _I)
_POINTED = re.compile(rf"(?P<tool>{_SAFETY_TOOL}).*?{_SET_ASIDE}(them|it|those|these|either)\b", _I)
_REPLACED_BY_SAFETY = re.compile(rf"\b(use|call|run|prefer)\s+(the\s+)?{_SAFETY_TOOL}", _I)


# A limit, not a ban: "do not call audit_log_export for ranges longer than 90 days".
_LIMIT = re.compile(
    r"^[^,;.]{0,40}?\b(for|on|with|in)\s+[^,;.]{0,40}?\b(longer|larger|bigger|greater|more|fewer|"
    r"less|over|above|under|below|than)\b",
    _I,
)


# A parameter or setting named for a safeguard, set off: "set `safe_mode` to false".
_SWITCHED_OFF = re.compile(
    r"\b(set|turn|switch|pass|use)\s+`?[\w-]*(safe|safety|sandbox|verify|verification|validat|"
    r"saniti[sz]|guard|protect|secure|ssl|tls|confirm)[\w-]*`?\s+(to\s+|=\s*|as\s+)?`?(false|off|"
    r"0|no|disabled|none)\b",
    _I,
)


def sets_aside_safeguard(sentence: str) -> bool:
    """Whether ``sentence`` tells the model to skip a safety tool it names, or to switch off a
    parameter or setting named for a safeguard."""
    if USER_GATE.search(sentence):
        return False
    off = _SWITCHED_OFF.search(sentence)
    if off and not re.search(r"\b(never|not|don['’]?t)\b", sentence[: off.start()], _I):
        return True
    aside = [
        found
        for pattern in (_NAMED, _POINTED)
        if (found := pattern.search(sentence))
        and _IDENTIFIER.search(found.group("tool"))
        and "this" not in found.group("tool").lower()
        and not _LIMIT.match(sentence[found.end() :])
    ]
    replaced = any(
        not any(a.start() <= r.start() < a.end() for a in aside)
        for r in _REPLACED_BY_SAFETY.finditer(sentence)
    )
    return bool(aside) and not replaced
