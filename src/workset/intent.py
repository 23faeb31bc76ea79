"""What a task asks for, read from its words: a change, only an answer, or a text search.

The evidence shows the functions of a task that asks for a change whole (the change is made
to the whole of one), and the outcome rules call a run that was asked for a change and made
none unverified, whatever it answered. A question that asks which files (under a folder)
mention a word is a search the evidence does before the first call (:func:`mention_query`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# An imperative at the start of a sentence or after "and", "then", "please" ("Fix it.",
# "Find the bug and fix it", "Add a keyword parameter ...").
_ASKS_CHANGE = re.compile(
    r"(?:^|[.!?;:]\s+|\b(?:and|then|please)\s+)(?:fix|change|add|make|set|rename|remove|"
    r"delete|update|replace|implement|correct|refactor|bump)\b",
    re.IGNORECASE | re.MULTILINE,
)


def asks_for_change(task: str) -> bool:
    """Whether ``task`` asks for a change (an imperative such as "Fix it." or "Add a keyword
    parameter ..."), not only for an answer."""
    return _ASKS_CHANGE.search(task) is not None


# A defect reported without an imperative ("gives the IDs 1, 3, 4 instead of 1, 2, 3. The
# problem is in Table._get_next_id").
_REPORTS_DEFECT = re.compile(
    r"\b(?:bug|problem is|instead of|is wrong|are wrong|broken|does not work|doesn't work)\b",
    re.IGNORECASE,
)


def wants_change(task: str) -> bool:
    """Whether ``task`` asks for a change or reports a defect to be fixed (the functions it
    points at are shown, and chosen, whole)."""
    return asks_for_change(task) or _REPORTS_DEFECT.search(task) is not None


# "Which files (under F) mention W?": a text search, done before the first call
# (workset.evidence.mentions); the item it makes says NO_FILE_FOUND when nothing matched,
# and the outcome rules take "none" as the answer then.
NO_FILE_FOUND = "files searched; none mentions"
_ASKS = re.compile(
    r"\b(?:which|what)\s+(?:(?!(?:does|do|did|is|are|was|were)\b)[\w-]+\s+){0,2}?"
    r"(?:files?|modules?|scripts?)\b(?P<where>.*?)"
    r"\b(?:mention|contain|import|reference|refer\s+to|use|include)s?\b\s+"
    r"(?:the\s+)?(?:(?:word|string|name|term|module|package|text)\s+)?"
    r"[`'\"]?(?P<term>[\w][\w.\-/]*?)[`'\"]?\s*(?:[?.!]\s*)?$",
    re.I,
)
_NOT_TERMS = frozenset({"about", "it", "this", "that", "them", "any", "all", "both", "its", "to"})
_FOLDER = re.compile(
    r"\b(?:under|in|inside|within|below|of)\s+(?:the\s+)?[`'\"]?([\w.\-/]+)[`'\"]?"
)


@dataclass(frozen=True, slots=True)
class Mention:
    term: str
    folder: str  # "" for the whole workspace


def mention_query(question: str) -> Mention | None:
    """The word and the folder of a "which files (under F) mention W" question, else None.
    A folder is a path-like word (with a ``/``, or ending in one) after "under", "in"…"""
    match = _ASKS.search(question.strip())
    if match is None:
        return None
    term = match.group("term").strip(".-/")
    if len(term) < 2 or term.lower() in _NOT_TERMS:
        return None
    folder = ""
    for found in _FOLDER.finditer(match.group("where")):
        if "/" in found.group(1):
            folder = found.group(1).strip("/").removeprefix("./")
    return Mention(term, folder)
