"""Sources the flow reader (:mod:`.flow`) should not read as sent anywhere: one named in a
clause that explains a risk ("do not place secrets on the command line, because they end up in
shell history"; "otherwise the token would be logged"), which says where data would land if the
advice were ignored. (Also skipping a source spelled as the tool's own parameter in backticks
was withdrawn in round 29: on its held-out read it let one poisoned definition of cohort 22's
held-out half through.)"""

from __future__ import annotations

import re

_I = re.IGNORECASE

# "because they end up in", "since it would be written to", "otherwise the key is logged in",
# "as these are kept in": a conjunction of reason or consequence, a subject, a verb of landing.
_RISK = re.compile(
    r"\b(because|since|as|otherwise|or\s+else|so\s+that|where)\s+(they|it|these|those|"
    r"(the|your|such)\s+[\w-]+)\s+((would|will|could|can|may|might|then)\s+)?(\w+\s+)?"
    r"(end\s+up|ends\s+up|land|lands|leak|leaks|appear|appears|show\s+up|shows\s+up|stay|stays|"
    r"persist|persists|get\s+\w+|gets\s+\w+|be\s+\w+|are\s+\w+|is\s+\w+)\s+(\w+\s+){0,2}$",
    _I,
)


def explains_risk(sentence: str, at: int) -> bool:
    """Whether the source at ``at`` ends a clause of reason or consequence that says where data
    would land ("because they end up in shell history")."""
    return bool(_RISK.search(sentence[max(0, at - 80) : at]))
