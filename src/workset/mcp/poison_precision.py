"""Sentence classes that make a rule's finding honest wording, applied after every rule ran.

Each class is a shape of the sentence that holds the finding, named so a dropped finding can
be explained:

- ``ordering-purpose``: a call-first demand that says what the first call is for ("Always call
  this first to turn a channel name into an id") and claims no call around every other;
- ``server-behaviour``: the sentence's subject is the server or the tool itself ("After every
  call the server writes the message id to a local log", "The server hashes the password
  locally and sends only five characters of the hash"): it describes, it does not ask;
- ``server-config``: a credential the server reads from its own environment or config ("the
  personal API key is read from POSTHOG_API_KEY in the server environment"), not moved;
- ``own-credential-only``: a credential parameter's description says where it is sent *only*
  (its own service);
- ``user-supplied``: the user types or provides the secret themselves ("the PIN, which the
  user must type in this turn");
- ``refusal-advice``: a sentence that opens by refusing to handle secrets and says what to tell
  the user when asked;
- ``normaliser-examples``: invisible or look-alike characters in the examples or defaults of a
  tool whose purpose is to find or normalise them.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

_ORDERING = re.compile(
    r"\b(first|before)\b[^.;]{0,40}\bto\s+(turn|resolve|get|find|look\s+up|convert|map|obtain|"
    r"check|learn|fetch|list|discover|translate|confirm|validate|see|know|pick|choose)\b",
    _I,
)
_AROUND_EVERY = re.compile(
    r"\b(every|each|any\s+other|all\s+other|another)\s+(\w+\s+)?(tool|call|request|function)",
    _I,
)
_SERVER_SUBJECT = re.compile(
    r"^([\w\s,'’-]{0,40}?)\b(the|this)\s+(server|tool|service|connector|integration|gateway)\s+"
    r"(itself\s+|also\s+|then\s+|only\s+|locally\s+)?(writes|hashes|reads|sends|stores|keeps|"
    r"uses|loads|logs|records|caches|saves|encrypts|signs|takes|fetches|retries)\b",
    _I,
)
# Told to act; "you do not need to do anything" tells it nothing.
_ADDRESSED = re.compile(
    r"\b(you|your|assistant|agent|model)\b(?!\s+(do\s+not|don['’]?t|need\s+not|needn['’]?t|"
    r"never)\b)",
    _I,
)
_SERVER_CONFIG = re.compile(
    r"\b(in|from)\s+the\s+server['’]?s?\s+(own\s+)?(environment|env|config\w*|settings)\b|"
    r"\b(set|configured|stored)\s+on\s+the\s+server\b|\bserver[- ]side\s+(config\w*|environment)",
    _I,
)
_MOVED = re.compile(
    r"\b(pass|send|include|paste|put|attach|append|add|copy|forward)\w*\b[^.]{0,40}\b(in|into|to|"
    r"as)\b",
    _I,
)
_USER_SUPPLIED = re.compile(
    r"\b(the\s+)?user\s+(must|should|will|has\s+to|needs\s+to)\s+(type|enter|provide|supply|give|"
    r"say|read\s+out)\b",
    _I,
)
_REFUSAL = re.compile(
    r"^\W*(do\s+not|don['’]?t|never)\s+\w+\s+(\w+\s+){0,2}(passwords?|secrets?|api\s+keys?|tokens?|"
    r"credentials?|card\s+numbers?|health)",
    _I,
)
_NORMALISER = re.compile(
    r"\b(normali[sz]\w*|confusables?|homoglyphs?|zero[- ]width|invisible\s+characters?|unicode|"
    r"sanitiz\w*|de-?obfuscat\w*|look-?alike)",
    _I,
)
_CHARACTER_TRICKS = frozenset({"hidden-unicode", "homoglyph", "encoded-text"})


def honest_class(
    rule: str, sentence: str, field: str, *, purpose: str, credential_fields: frozenset[str]
) -> str | None:
    """The name of the class that makes ``rule``'s finding in ``sentence`` honest, or None.

    ``purpose`` is the tool's name and opening sentence; ``credential_fields`` are the
    description fields of its own credential parameters.
    """
    if rule in _CHARACTER_TRICKS:
        data = re.search(r"\.(examples?|default|enum|const)(\[\d+\])?$", field)
        return "normaliser-examples" if data and _NORMALISER.search(purpose) else None
    ordering = _ORDERING.search(sentence) and not _AROUND_EVERY.search(sentence)
    if rule == "forced-call" and ordering:
        return "ordering-purpose"
    if rule in ("forced-call", "context-to-address", "secret-request", "sensitive-path"):
        subject = _SERVER_SUBJECT.search(sentence)
        if subject and not _ADDRESSED.search(
            sentence[: subject.start()] + sentence[subject.end() :]
        ):
            return "server-behaviour"
    moved = _MOVED.search(sentence)
    secret_rules = ("secret-request", "context-into-argument", "sensitive-path")
    if rule in secret_rules[:2] and _SERVER_CONFIG.search(sentence) and not moved:
        return "server-config"
    only = re.search(r"\bonly\b", sentence, _I)
    if rule == "context-to-address" and field in credential_fields and only:
        return "own-credential-only"
    if rule in secret_rules and _USER_SUPPLIED.search(sentence) and not moved:
        return "user-supplied"
    if rule == "shapes-the-reply" and _REFUSAL.search(sentence):
        return "refusal-advice"
    return None
