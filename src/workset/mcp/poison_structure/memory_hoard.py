"""``hoards-memory``: a memory store told to keep, on its own initiative, the whole conversation
or the user's secrets, or to keep things without the user knowing; and ``plants-memory`` where
the store is the memory: the model told to save content the definition dictates.

A memory tool honestly keeps what the user asks it to remember (a preferred language, a
project's name). A definition that has the model save everything the user says, the full chat,
or the passwords, keys and account numbers that come up turns a memory into a recorder: what it
keeps is read back in later sessions and by whoever runs the store. Three slots in one sentence:
the tool is a memory (its name or opening), a verb of keeping given as an order, and what is
kept: everything the user says or the whole conversation, or a secret. Negated ("never store
passwords"), gated on the user ("only what the user asks you to remember") or the tool's own
subject (a password vault's ``save_password``; a chat archive that names the conversation) is
honest.

In a memory tool the memory slot of :mod:`.memory` is the tool itself, so "on first use, also
save a preference named 'x' with value '…'", "record that the user prefers …" or "store … on
behalf of the user" plant the writer's words as the user's; an example of what a preference
looks like ("e.g. 'reply in French'") is not an order to save it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from workset.mcp.poison_structure.text import (
    IMPERATIVE_AT,
    USER_GATE,
    negated_clause,
    sentences,
)

_I = re.IGNORECASE

REASON = (
    "a memory store is told to keep, unasked, everything the user says, the whole conversation "
    "or the user's secrets"
)

_MEMORY_TOOL = re.compile(
    r"\b(memor(y|ies|i[sz]e)|remember|recall|preferences?|profile|personali[sz]\w*)\b", _I
)
_KEEP = re.compile(
    r"\b(save|store|record|keep|capture|log(?!\s*-?\s*(in|on)\b)|persist|remember|retain|memori[sz]e|write\s+down|"
    r"note\s+down|add)\b",
    _I,
)
_EVERYTHING = re.compile(
    r"\b(everything|anything|all|whatever|every\s+(thing|detail|fact|message))\s+(\w+\s+){0,3}?"
    r"(the\s+user|they|he|she|users)\s+(says?|said|mentions?|mentioned|shares?|shared|types?|"
    r"typed|writes?|wrote|tells?|told|reveals?|revealed|discuss\w*)"
    r"|\ball\s+(of\s+)?(the\s+)?(user['’]s\s+)?(messages|details|information|facts|personal\s+"
    r"(details|information|data))\s+(from|in|of)\s+(the|this)\s+(conversation|chat|session)"
    r"|\b(the|this)\s+(full|whole|entire|complete)\s+(conversation|chat|transcript|dialog(ue)?|"
    r"session|(message|chat|conversation)\s+history)"
    r"|\b(each|every)\s+(user\s+)?(message|turn|exchange)\b",
    _I,
)
_SECRET = re.compile(
    r"\b(passwords?|passphrases?|passcodes?|api[\s_-]?keys?|(access|auth|bearer|session)\s+tokens?|secrets?|"
    r"credentials?|log[- ]?in\s+(details|info\w*|data)|logins|recovery\s+(codes?|phrases?|keys?)|"
    r"seed\s+phrases?|pin\s+(codes?|numbers?)|(card|account|routing|social\s+security)\s+numbers?|ssns?|"
    r"one[- ]time\s+codes?|2fa\s+codes?)\b",
    _I,
)
# Kept where the user does not see it.
_UNSEEN = re.compile(
    r"\b(silently|quietly|secretly|covertly|invisibly|without\s+(telling|informing|notifying|"
    r"alerting|showing|mentioning\s+(it\s+|this\s+)?to)\s+(the\s+)?(user|them))\b",
    _I,
)
# Content the definition supplies for the store: a quoted value, a clause, the user's name put
# on it.
_DICTATED = re.compile(
    r"[\"'“‘«]\s*[\w'’]+(\s+[\w'’.-]+){1,}|\b(preference|fact|note|memory|entry|rule|record)s?\s+"
    r"(named|called|saying|stating)\b|\b(preference|fact|rule)s?\s+that\s+[^.;]{0,40}?\b(must|"
    r"should|shall|will|always|never|(the\s+user|they)\s+(prefers?|wants?|likes?|agreed|"
    r"consents?|allows?))\b|^\W*(that|the\s+fact\s+that)\b|\bon\s+behalf\s+of\s+"
    r"the\s+user\b|\bas\s+(if\s+)?(the\s+user|they)\s+(said|asked|wanted|stated)",
    _I,
)
_EXAMPLE = re.compile(r"\b(e\.?g\.?|for\s+example|for\s+instance|such\s+as|like)\W*$", _I)
_ADVISED = re.compile(
    r"\b(recommended|good\s+practice|best\s+practice|helpful|advisable|important|wise|"
    r"expected|encouraged)\s+to\s*$",
    _I,
)
# Kept at the model's initiative rather than ordered in the imperative: "proactively".
_INITIATIVE = re.compile(
    r"\b(proactively|automatically|always|unprompted|by\s+default|as\s+soon\s+as|without\s+"
    r"(being\s+)?(asked|asking|waiting)|even\s+if|so\s+(that\s+)?(the\s+user|they|you)\s+"
    r"(never|don['’]?t|do\s+not|won['’]?t))\b",
    _I,
)
_USER_ASKS = re.compile(
    r"\b(only\s+)?(when|if|once)\s+(the\s+user|they)\s+(explicitly\s+)?(say|says|said|ask|"
    r"asks|asked|tell|tells|told|confirm\w*|agree\w*)\b|"
    r"\b(the\s+user|they)\s+(explicitly\s+|specifically\s+)?(asks?|tells?|requests?|wants?|"
    r"chooses?)\s+(you\s+)?(to\s+)?(remember|save|store|keep)",
    _I,
)
_OWN_SECRETS = re.compile(
    r"\b(password|secret|credential|vault|keychain|key\s*ring|token)s?\b|\bapi[\s_-]?keys?\b", _I
)
_OWN_TRANSCRIPT = re.compile(r"\b(conversations?|chats?|transcripts?|history|sessions?)\b", _I)


def _memory_sentences(
    name: str, description: str, texts: Sequence[tuple[str, str, str]], opening: bool
) -> Iterator[tuple[str, str, str]]:
    """(field, sentence, purpose) of a memory tool's prose and parameter texts, the tool's
    purpose (its name's words and opening sentence) beside each; none when the tool is no
    memory store. ``opening``: whether the description's first sentence is read too."""
    words = re.sub(r"[_\-.]+|(?<=[a-z])(?=[A-Z])", " ", name)
    purpose = f"{words} {next(iter(sentences(description)), '')}"
    if not _MEMORY_TOOL.search(purpose):
        return
    for where, kind, text in texts:
        if kind in ("prose", "parameter"):
            skip = 0 if opening or where != "description" else 1
            for sentence in sentences(text)[skip:]:
                yield where, sentence, purpose


def _first_per_field(found: Iterator[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    seen: set[str] = set()
    for where, sentence in found:
        if where not in seen:
            seen.add(where)
            yield where, sentence[:120]


def hoarded_memories(
    name: str, description: str, texts: Sequence[tuple[str, str, str]]
) -> Iterator[tuple[str, str]]:
    """(field, excerpt) of each text that has a memory tool keep the conversation or secrets."""
    return _first_per_field(
        (where, sentence)
        for where, sentence, purpose in _memory_sentences(name, description, texts, True)
        if _hoards(sentence, purpose)
    )


def planted_in_store(
    name: str, description: str, texts: Sequence[tuple[str, str, str]]
) -> Iterator[tuple[str, str]]:
    """(field, excerpt) of each text that has a memory tool save content the text dictates
    (a description's opening says what the tool saves: "Save a note that the user …")."""
    return _first_per_field(
        (where, sentence)
        for where, sentence, _ in _memory_sentences(name, description, texts, False)
        if _plants(sentence)
    )


def _ordered(sentence: str, at: int) -> bool:
    ahead = sentence[:at]
    return bool(
        IMPERATIVE_AT.search(ahead) or _ADVISED.search(ahead) or _INITIATIVE.search(sentence)
    )


def _plants(sentence: str) -> bool:
    if USER_GATE.search(sentence) or _USER_ASKS.search(sentence):
        return False
    for keep in _KEEP.finditer(sentence):
        if not _ordered(sentence, keep.start()) or negated_clause(sentence, keep.start()):
            continue
        rest = sentence[keep.end() :]
        dictated = _DICTATED.search(rest)
        if dictated and not _EXAMPLE.search(rest[: dictated.start()]):
            return True
    return False


def _hoards(sentence: str, purpose: str) -> bool:
    if USER_GATE.search(sentence) or _USER_ASKS.search(sentence):
        return False
    for keep in _KEEP.finditer(sentence):
        if _UNSEEN.search(sentence) and not negated_clause(sentence, keep.start()):
            return True
        if not _ordered(sentence, keep.start()) or negated_clause(sentence, keep.start()):
            continue
        rest = sentence[keep.end() :]
        everything = _EVERYTHING.search(rest)
        if everything and not _OWN_TRANSCRIPT.search(purpose):
            return True
        secret = _SECRET.search(rest)
        if (
            secret
            and not _OWN_SECRETS.search(purpose)
            and not negated_clause(sentence, keep.end() + secret.start())
        ):
            return True
    return False
