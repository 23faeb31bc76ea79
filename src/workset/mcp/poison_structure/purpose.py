"""What a tool says it is for (its name, opening sentence and parameter names): which sources
are its own subject."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from workset.mcp.poison_structure.text import sentences

_OWN_CREDENTIAL = re.compile(
    r"^(api_?key|(access_|auth_|bearer_|api_|personal_access_)?token|password|secret|"
    r"credentials?|client_secret)$"
)


@dataclass(frozen=True, slots=True)
class Purpose:
    """What the tool says it is for: its name's words and opening sentence (``text``) and its
    parameters' names (``params``; spelled out in ``spelled``)."""

    text: str
    params: frozenset[str]
    spelled: str
    server: str = ""

    def covers(self, kind: str, scope: re.Pattern[str]) -> bool:
        if kind == "secrets":  # its own credential parameter, or secrets named as its subject
            return bool(scope.search(self.text)) or any(
                _OWN_CREDENTIAL.match(p) for p in self.params
            )
        return bool(scope.search(f"{self.text} {self.spelled}"))

    def covers_found(self, kind: str, scope: re.Pattern[str], found: str) -> bool:
        """:meth:`covers`, and for the user's private things the thing itself: a geocoder's
        purpose names addresses, not the user's contacts or phone number."""
        if not self.covers(kind, scope):
            return False
        if kind != "private":
            return True
        head = re.findall(r"[a-z]+", found.lower())[-1:]
        stem = (
            head[0].removesuffix("es" if head and head[0].endswith("sses") else "s") if head else ""
        )
        return not stem or stem in f"{self.text} {self.spelled}".lower()


def purpose_of(name: str, description: str, params: Iterable[str], server: str = "") -> Purpose:
    words = re.sub(r"[_\-.]+|(?<=[a-z])(?=[A-Z])", " ", name)
    opening = sentences(description)[:1]
    names = frozenset(p.lower() for p in params)
    spelled = " ".join(re.sub(r"[_\-.]+", " ", p) for p in names)
    return Purpose(f"{words} {' '.join(opening)}", names, spelled, server)
