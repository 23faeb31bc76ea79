"""Query rewriting: the need without the filler an agent wraps it in.

"Could you help me find out whether I need an umbrella in Amsterdam tomorrow, please?" is
matched as stated *and* as "whether I need an umbrella in Amsterdam tomorrow": the index takes
the better cosine of the two (one embedding call for both). Only leading request phrases and
trailing politeness are dropped, never content words, so a rewrite cannot change what is asked.
"""

from __future__ import annotations

import re

from workset.retrieval.ranking import tokenize

_LEADING = re.compile(
    r"^(?:(?:ok(?:ay)?|so|now|next|hey|hi|please|also|then|first)[,\s]+)*"
    r"(?:(?:can|could|would|will) you(?: please)?\s+)?"
    r"(?:(?:please|kindly)\s+)?"
    r"(?:help me(?: to)?\s+|let me\s+|i(?:'d| would) like(?: you)? to\s+|i want(?: you)? to\s+|"
    r"i need(?: you)? to\s+|i have to\s+|i must\s+|i'm trying to\s+|i am trying to\s+|"
    r"i(?:'m| am) looking for\s+|looking for\s+|is there (?:a|any) (?:tool|way) (?:to|that|for)\s+|"
    r"i need (?:a (?:tool|way) (?:to|that|for)|something (?:to|that))\s+|"
    r"i need\s+|i want\s+)?"
    r"(?:(?:find|tell|show|give|get) me\s+)?",
    re.IGNORECASE,
)
_TRAILING = re.compile(r"(?:[\s,]+(?:please|for me|thanks|thank you))+[\s.!?]*$", re.IGNORECASE)


def rewrite_need(need: str) -> str:
    """``need`` without leading request phrases and trailing politeness (or as it was)."""
    text = " ".join(need.split())
    shorter = _TRAILING.sub("", _LEADING.sub("", text, count=1)).strip(" ,")
    return shorter if len(shorter.split()) >= 2 else text


_QUESTION_TEXT = """what how which who whom whose when where why is are was were do does did can
could will would should shall has have had any am"""
_QUESTION = frozenset(_QUESTION_TEXT.split())
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def action_word(need: str) -> str | None:
    """The word a command starts with ("book", "convert"), as :func:`tokenize` writes it.

    None for a question ("what is ...", "do I need ...") or when the first word is a stopword:
    a question asks for information, a command names the action a tool must be able to do.
    """
    words = _WORD.findall(rewrite_need(need).lower())
    first = words[0].split("'")[0] if words else ""  # "what's" is "what"
    if not first or first in _QUESTION:
        return None
    lead = tokenize(first)
    return lead[0] if lead else None
