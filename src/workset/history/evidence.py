"""Evidence priors for recall: what a need asks for, and whether a piece can answer it.

Similarity alone ranks highest the pieces that *talk about* the need: the user's own earlier
question on the same subject, the assistant's narration ("the reward team left a note about
the premium code"). What answers is the piece that holds the value. Three cheap priors,
no model, reorder the ranking (:func:`evidence_weights`):

* **answer type**: a question asking who, where something goes, which code or id, when or
  how much wants a person's name, an address, an identifier, a time or an amount; a piece
  holding one is raised;
* **the asked thing's identifier**: a question that names what it asks for ("which
  freezer", "what permit number") wants an identifier said *of that thing*: a piece is
  raised for an identifier only when it follows a mention of the thing (its key in a JSON
  record, its column, its word in a sentence), not for any identifier it happens to hold;
* **exact identifiers**: an identifier the need names (``TS-4be2a9``, ``part-00017``) raises
  every piece that names it, character for character;
* **echoes**: an earlier user question, or a short request with no value in it, restates a
  need and answers nothing; it is lowered.

A need that is not a question (a request such as "Pull the invoices") asks for no type, so
only the identifier and echo priors apply.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_I = re.IGNORECASE

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# an identifier: letters and digits in one token (PAY-9d04b7, part-00017, v2.3.1, CC-4471)
# or a run of four digits or more (4417, the last four of a card); not 22:00 nor 1,199.52
IDENTIFIER = re.compile(
    r"(?<![\w@.-])(?:(?=[\w.-]*[A-Za-z])(?=[\w.-]*\d)[A-Za-z0-9][\w.-]*[A-Za-z0-9]|\d{4,})"
    r"(?![\w@-])"
)
TIME = re.compile(
    r"\b\d{1,2}:\d{2}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep"
    r"|oct|nov|dec)[a-z]*\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b",
    _I,
)
AMOUNT = re.compile(r"\b\d[\d,]*(?:\.\d+)?\b")
_NOT_NAMES = frozenset(
    re.split(
        r"\s+",
        "the a an this that these those yes no ok okay and but or so if then i we you he she "
        "they it my our your his her their its mr mrs ms dr january february march april may "
        "june july august september october november december monday tuesday wednesday "
        "thursday friday saturday sunday",
    )
)
_CAPITALISED = re.compile(r"\b[A-Z][a-z'’]+(?:[ -][A-Z][a-z'’]+)+\b")

_PERSON_NOUN = (
    r"(?:person|people|manager|approver|owner|lead|engineer|colleague|contact|employee"
    r"|customer|reviewer|assignee|on-?call|author|signatory)\b"
)
# where an imperative or question word opens a clause: the need's start, or after a comma,
# colon or semicolon ("Before keying the premium, state its pay code")
_CLAUSE = r"(?:^|[,:;]\s+)"
_ASKS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, _I))
    for kind, pattern in (
        (
            "email",
            r"\b(?:e-?mail|address|mailbox|inbox)\b|\bwhere (?:\w+ ){0,6}(?:go|sent|send)\b",
        ),
        (
            "person",
            r"\b(?:who|whom|whose|signature|signed)\b"
            r"|\b(?:which|what|name (?:of )?the) (?:\w+ )?" + _PERSON_NOUN,
        ),
        ("time", r"\b(?:when|what time|deadline|by what time|which (?:date|day|time))\b"),
        ("amount", r"\b(?:how (?:much|many)|amount|total|count)\b"),
        ("identifier", r"\b(?:which|what)\b|" + _CLAUSE + r"(?:give|state|name|fill in)\b"),
    )
)
_QUESTION = re.compile(
    r"\?|"
    + _CLAUSE
    + r"(?:which|what|who|whose|where|when|how|why|state|name|give|fill in|remind|tell)\b",
    _I,
)


def asked_types(need: str) -> frozenset[str]:
    """The kinds of value a need asks for (empty for a request or a "why" question)."""
    if not is_question(need) or re.search(r"\bwhy\b", need, _I):
        return frozenset()
    found = {kind for kind, pattern in _ASKS if pattern.search(need)}
    if found - {"identifier"}:
        found.discard("identifier")  # "which address" wants the address, not any id
    return frozenset(found)


_ASKED_THING = re.compile(
    r"(?:\b(?:which|what)|" + _CLAUSE + r"(?:give|state|name|fill in))"
    r"\s+((?:[\w'’-]+\s+){0,4}[\w'’-]+)",
    _I,
)
# after "which"/"what": words that end the name of the thing asked for ("which freezer
# is", "what did"), and generic words that are no thing of their own ("which id")
_ENDS_THING = frozenset(
    re.split(
        r"\s+",
        "is are was were does do did has have had must should will would can could goes go "
        "of for to in on at by from with we i you it they never always not now still already "
        "every each all",
    )
)
_DETERMINERS = frozenset(
    re.split(r"\s+", "the a an this that these those its her his their our my your")
)
_GENERIC = _DETERMINERS | frozenset(
    re.split(r"\s+", "one ones id ids value values name names number numbers code codes field")
)


def asked_things(need: str) -> tuple[str, ...]:
    """The (at most two) words that name what a which/what question, or a "give / state /
    name / fill in" request, asks for ("which import permit number", "state the receiving
    site's import permit" → ``("import", "permit")``); none when its head noun is generic
    ("which code replaced it", "which id"). The first phrase that names a thing counts
    ("Fill in the freezer to pull it from. Which one?" → ``("freezer",)``)."""
    for match in _ASKED_THING.finditer(need):
        found = _thing(match.group(1))
        if found:
            return found
    return ()


def _thing(phrase: str) -> tuple[str, ...]:
    found: list[str] = []
    for word in phrase.lower().split():
        if word in _ENDS_THING:
            break
        if re.search(r"['’]s?$", word):
            found = []  # a possessor ("the receiving site's permit") is not the thing
            continue
        if word in _GENERIC:
            if found or word not in _DETERMINERS:
                break  # the phrase's head noun ("which code replaced it": no thing)
            continue
        found.append(word.rstrip("s") if len(word) > 4 else word)
    return tuple(found[:2])


def holds_identifier_of(text: str, things: Sequence[str]) -> bool:
    """Whether ``text`` names an identifier within a short reach after a mention of one of
    ``things`` (a key and its value, a column and its cell, a noun and what follows)."""
    lowered = text.lower()
    for thing in things:
        for mention in re.finditer(rf"\b{re.escape(thing)}", lowered):
            reach = text[mention.end() : mention.end() + 80]
            if IDENTIFIER.search(reach) or EMAIL.search(reach):
                return True
    return False


def asks_for_value(need: str) -> bool:
    """Whether a need asks for a value (which, who, when, how much, "give the id"…, or one
    naming an identifier) rather than making a request ("Pull the manifest") or asking why."""
    return bool(asked_types(need) or identifiers(need))


def is_question(need: str) -> bool:
    """Whether a need is a question or asks to be told something ("…?", "how is it
    classified", "remind me why", "state the code"), not a request to act ("Pull the
    manifest"): its answer may lie anywhere in the history."""
    return bool(_QUESTION.search(need.strip()))


def holds(text: str, kind: str) -> bool:
    """Whether ``text`` holds a value of ``kind``."""
    if kind == "email":
        return bool(EMAIL.search(text))
    if kind == "person":
        return any(_is_name(m.group()) for m in _CAPITALISED.finditer(text))
    if kind == "time":
        return bool(TIME.search(text))
    if kind == "amount":
        return bool(AMOUNT.search(text))
    return bool(IDENTIFIER.search(text) or EMAIL.search(text))


def _is_name(words: str) -> bool:
    parts = re.split(r"[ -]", words)
    return not any(p.lower() in _NOT_NAMES for p in parts)


def identifiers(text: str) -> set[str]:
    """The identifiers ``text`` names (with a digit and a letter), for exact matching."""
    return {
        m.group()
        for m in IDENTIFIER.finditer(text)
        if re.search(r"[A-Za-z]", m.group()) and len(m.group()) >= 4
    }


def is_echo(text: str, who: str) -> bool:
    """A user's question, or a short request with no value in it: it restates a need."""
    if who != "user":
        return False
    if any(holds(text, kind) for kind in ("identifier", "email", "person", "time")):
        return False
    return text.rstrip().endswith("?") or len(text.split()) < 12


def evidence_weights(
    texts: Sequence[str], whos: Sequence[str], need: str, *, answer: float, echo: float
) -> list[float]:
    """One multiplier per piece: ``1 + answer`` for a piece holding the asked kind of value
    or an identifier the need names, ``echo`` (below 1) for an echo, else 1."""
    asked = asked_types(need)
    named = identifiers(need)
    things = asked_things(need) if asked == {"identifier"} else ()
    weights = []
    for text, who in zip(texts, whos, strict=True):
        weight = 1.0
        if things:
            evidence = holds_identifier_of(text, things)
        else:
            evidence = bool(asked) and any(holds(text, kind) for kind in asked)
        if evidence or any(i in text for i in named):
            weight += answer
        if is_echo(text, who):
            weight *= echo
        weights.append(weight)
    return weights
