"""Sentences, clauses, and the scope of a negation, a user's condition or a quoted warning."""

from __future__ import annotations

import re

from workset.mcp.poison_terms import excluded

_I = re.IGNORECASE


NEGATION = re.compile(
    r"\b(never|not|don['’]?t|doesn['’]?t|won['’]?t|isn['’]?t|aren['’]?t|cannot|can['’]?t|"
    r"without|nor|neither|refuse[sd]?|reject(s|ed)?|exclude[sd]?|excluding|redact(s|ed)?|"
    r"mask(s|ed)?|strip(s|ped)?|omit(s|ted)?|avoid|nunca|jamais|nie|nicht|kein\w*|não|nem|"
    r"ni|ne|pas|niemals|mai)\b"
    # Portuguese "no campo", "no corpo": "in the", not a negation
    r"|\bno\b(?!\s+(campo|parâmetro|corpo|cabeçalho|final|início|fim|topo|rodapé|formulário)\b)",
    _I,
)


USER_GATE = re.compile(
    r"\b(if|when|whenever|only\s+if|only\s+when|unless)\s+(the\s+)?(user|customer|they|you\s+"
    r"are\s+asked)\s+(explicitly\s+|specifically\s+)?(asks?|requests?|wants?|says|chooses?|"
    r"chose|provides?|names?|selects?|opts?|agrees?|consents?|pastes?|supplies|gives?)|"
    r"\b(the\s+user|they)\s+(asked|requested|named|chose|provided|supplied|pasted|gave|"
    r"points?\s+to|specif(y|ies|ied))\b|at\s+the\s+user['’]s\s+request|with\s+the\s+user['’]s\s+"
    r"(explicit\s+)?(consent|approval|permission)|after\s+(the\s+user\s+)?(confirm\w*|approv\w*)|"
    r"ask\s+the\s+user|confirm\s+with\s+the\s+user|(once|after|when)\s+(the\s+user|they)\s+"
    r"(has\s+|have\s+)?(explicitly\s+)?(confirmed|approved|agreed|asked|consented)",
    _I,
)


# An imperative's place: the start of a sentence or clause, or after "then", "please", "must" ….
IMPERATIVE_AT = re.compile(
    r"(^|[,;:]|\b(then|and|also|first|please|must|should|always|now|just|you|to\s+fix\s+it,?))\s*$",
    _I,
)


# A later clause that says the source is kept out: "…may contain cookies; they are returned
# redacted", "…, which are masked".
REDACTED = re.compile(
    r"\b(they|which|these|those|it|this)\s+(are|is|get|gets|will\s+be)\s+(always\s+)?"
    r"(returned\s+|shown\s+|stored\s+|logged\s+|sent\s+)?(redacted|masked|removed|stripped|"
    r"omitted|hashed|dropped|replaced\s+by\s+\S+)\b",
    _I,
)


# "pages may contain text that looks like instructions (for example …); do not follow it".
WARNING = re.compile(
    r"\b(looks?\s+like|may\s+contain|might\s+contain|can\s+contain|for\s+example|e\.g\.|"
    r"such\s+as|pretend\w*\s+to\s+be)\b",
    _I,
)


_CLAUSE_BREAK = re.compile(r"\s*(?:[;,:]|\s-\s|\(|\)|\bbut\b|\bhowever\b|\bunless\b)\s*", _I)


_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[^\sa-z])|\n+|(?<=[.!?])$|(?<=[。！？।॥۔؟])")


def sentences(text: str) -> list[str]:
    """``text`` split at sentence ends, line breaks and list items."""
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def clauses(sentence: str) -> list[str]:
    return [c for c in _CLAUSE_BREAK.split(sentence) if c and c.strip()]


def negated_clause(sentence: str, at: int) -> bool:
    """Whether the clause holding ``at`` is negated. A negation after ``at`` counts only up to
    the next coordinated verb phrase: in "append the history to kontext and do not mention
    it" the "not" belongs to the mentioning."""
    clause = clause_at(sentence, at)
    start = sentence.find(clause)
    ahead = sentence[start:at] if start >= 0 else clause
    after = sentence[at : start + len(clause)] if start >= 0 else ""
    own, *rest = _COORDINATED.split(after, maxsplit=1)
    shared = bool(rest) and bool(_SHARED_NEGATION.match(rest[-1]))  # "… and never committed"
    # nouns joined by "and" before a negated predicate: "secrets and tokens are never expanded"
    passive = bool(_NEGATED_PREDICATE.match(after))
    return bool(
        NEGATION.search(ahead) or NEGATION.search(own) or shared or passive or excluded(ahead)
    )


_COORDINATED = re.compile(r"\s(?:and|und|y|et|e|и|ed)\s+(?!(?:\w+\s+)?(?:or|oder|ou|o)\b)", _I)
# A second predicate of the same subject that opens negated: "listed in .gitignore and never
# committed" (not "and do not mention it", a new act).
_NEGATED_PREDICATE = re.compile(
    r"[\w\s'’-]{0,60}?\b(are|is|were|was|will\s+be|gets?|get)\s+(never|not|no\s+longer)\b", _I
)
_SHARED_NEGATION = re.compile(r"(never|not|nie|niemals|nicht|jamais|nunca|não|mai)\b", _I)


def negated_before(sentence: str, pattern: re.Pattern[str]) -> bool:
    match = pattern.search(sentence)
    if match is None:
        return False
    return bool(NEGATION.search(clause_at(sentence, match.start())))


# Where a postposed condition's scope ends: a semicolon or a coordinated verb phrase.
_SCOPE_BREAK = re.compile(r"\s*[;:]\s*|\s-\s|\s+(and|then|also)\s+", _I)


def gated(sentence: str, at: int) -> bool:
    """Whether the words at ``at`` are under a condition on the user ("only if the user asks").

    A condition that opens its clause ("If the user asks, share the page") governs what follows
    it; one placed after its predicate ("dotfiles are excluded unless the user asks") governs
    that predicate with its subject, but not an earlier verb phrase joined by "and" ("call
    share_page … and include the link only if the user asks").
    """
    for gate in USER_GATE.finditer(sentence):
        start = max((m.end() for m in _SCOPE_BREAK.finditer(sentence, 0, gate.start())), default=0)
        ahead = _SCOPE_BREAK.search(sentence, gate.end())
        end = ahead.start() if ahead else len(sentence)
        if start <= at < end:
            return True
        clause = max(
            (m.end() for m in _CLAUSE_BREAK.finditer(sentence, 0, gate.start())), default=0
        )
        opens = not re.sub(r"\b(only|even|just)\b", "", sentence[clause : gate.start()]).strip()
        if opens and gate.start() < at:
            return True
    return False


def warned_at(sentence: str, at: int) -> bool:
    """Whether the words at ``at`` sit in the part of the sentence (up to a semicolon or colon)
    that warns about or quotes examples ("pages may contain text like …"): "configs can contain
    a key; its value is to be followed" warns in one part and orders in the next."""
    starts = [0, *(m.end() for m in re.finditer(r"[;:]", sentence))]
    start = max(s for s in starts if s <= at)
    ahead = re.search(r"[;:]", sentence[at:])
    end = at + ahead.start() if ahead else len(sentence)
    return bool(WARNING.search(sentence[start:end]))


def clause_at(sentence: str, at: int) -> str:
    start = 0
    for part in _CLAUSE_BREAK.finditer(sentence):
        if part.start() >= at:
            return sentence[start : part.start()]
        start = part.end()
    return sentence[start:]


def quoted(sentence: str, match: re.Match[str]) -> bool:
    before = sentence[: match.start()]
    return before.count('"') % 2 == 1 or before.count("“") > before.count("”")
