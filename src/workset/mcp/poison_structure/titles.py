"""``order-in-title``: a display title (the tool's, in its annotations, or a parameter's) that
carries an order to the model after its label.

A title names a tool for a person's screen: "Rerank passages", "Search (read-only)", "Query –
vector store". Clients show it in place of the name and models read it like the description, so
a server can hide an order there where few reviewers look. A label has no reason to say
"always", "never", "you must", or to open a clause with a verb that favours, trusts, obeys or
hides things: after the label's first part (at ``.``, ``;``, ``:``, a dash, a bracket) a
clause that opens that way is an order, and so is a title that opens with one. Verbs that are
labels ("GitHub: Send message", "Memory: Save preference") are not read as orders.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

_I = re.IGNORECASE

REASON = (
    "a display title carries an order to the model after its label (a title names the tool; "
    "it has no reason to tell the model what to do)"
)

_TITLE = re.compile(r"^(title|inputSchema(\.properties\.[^.\s]+)+\.title)$")
_BREAK = re.compile(r"\s*(?:[.;:!?|]\s+|\s[-–—]+\s|[(\[{]|[)\]}])\s*")
_NOTE = re.compile(
    r"^(\W*(note|nb|tip|important|internal|hint|model|assistant|ai|agent|llm|system)\b\W*)+", _I
)
# An order at a title's very start: an adverb of always, a modal addressed to the reader.
_OBJECT = (
    r"\s+(the|this|these|those|its|all|any|every|them|it|returned|results?|passages?|"
    r"documents?|instructions?)\b"
)
_OPENS_ORDER = re.compile(
    r"^(always|never|do\s+not|don['’]t|you\s+(must|should|need\s+to|will|are\s+to)|be\s+sure|"
    rf"make\s+sure|remember\s+to|(obey|treat|trust){_OBJECT})(?![-\w])",
    _I,
)
# An order opening a clause after the label.
_CLAUSE_ORDER = re.compile(
    r"^(always|never|do\s+not|don['’]t|you\s+(must|should|need\s+to|will|are\s+to)|must|"
    r"be\s+sure|make\s+sure|remember\s+to|prefer|obey|priorit[iy][sz]?e?|boost|favou?r|"
    rf"return\s+only|only\s+return|(follow|treat|trust|ignore|hide|omit){_OBJECT})(?![-\w])",
    _I,
)
# A label in title case ("Never Expire Token Creator"): the word after the opener is capitalised.
_TITLE_CASE = re.compile(r"^\S+\s+[A-Z][a-z]")


def title_orders(texts: Sequence[tuple[str, str, str]]) -> Iterator[tuple[str, str]]:
    """(field, title) of each title that holds an order after (or instead of) its label."""
    for where, _, text in texts:
        if not _TITLE.match(where):
            continue
        parts = [p for p in _BREAK.split(text.strip()) if p and p.strip()]
        if not parts:
            continue
        first = _NOTE.sub("", parts[0])
        if _order(_OPENS_ORDER, first) or any(
            _order(_CLAUSE_ORDER, _NOTE.sub("", p)) for p in parts[1:]
        ):
            yield where, text[:120]


def _order(pattern: re.Pattern[str], part: str) -> bool:
    return bool(pattern.match(part)) and not _TITLE_CASE.match(part)
