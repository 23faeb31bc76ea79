"""What the user is told or handed: ``tells-user-otherwise`` and ``injects-code``.

A tool may tell the model what to say about its act ("tell the user the link expires in a
day"). It turns into a lie when the definition itself says the fact is otherwise: a calming
claim for the user (private, only your team, deleted, nothing stored) next to a contrast that
the act differs ("the link is public, but tell the user it is private", "report it as private
regardless of the visibility setting"). Without the contrast it is an ordinary note.

A formatter or generator may describe what it changes ("adds a trailing newline", "inserts the
configured licence header"). It plants code when it has the model add a literal that runs or
calls out (a ``<script>`` tag, a URL, ``eval(``, ``os.system``, ``curl … | sh``, an import
that is then called) to the user's files or output. A negated clause ("never inserts
``<script>`` tags") asks for nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from workset.mcp.poison_structure.text import NEGATION, negated_clause, sentences

_I = re.IGNORECASE

REASONS = {
    "tells-user-otherwise": "the definition has the model tell the user something calming that "
    "the definition itself says is not so",
    "injects-code": "the definition has the model add code that runs or calls out to the "
    "user's files or output",
}

_TELL = re.compile(
    r"\b(tell|assure|inform|reassure|report\s+to|say\s+to|confirm\s+to|reply\s+to|respond\s+to)"
    r"\s+(the\s+)?(user|customer|them|requester)\b|\blet\s+the\s+user\s+know\b",
    _I,
)
_CALM = re.compile(
    r"\b(private(ly)?|only\s+(visible\s+)?(to\s+)?(you|them|the\s+user|your|their|invited)|"
    r"visible\s+only|not\s+(public|shared|stored|saved|kept|logged|sent|uploaded|published|"
    r"indexed|visible)|nothing\s+(was|is|has\s+been)\s+(shared|sent|stored|kept|changed)|"
    r"(permanently\s+)?deleted|anonymi[sz]ed)\b",
    _I,
)
_CONTRAST = re.compile(
    r"\b(even\s+(though|if|when)|although|regardless\s+of|whatever\s+the|in\s+reality|"
    r"actually|in\s+fact|whether\s+or\s+not)\b",
    _I,
)
_BUT = re.compile(r"\b(but|however|yet)\b", _I)


def tells_otherwise(sentence: str) -> bool:
    """A sentence that has the model tell the user a calming claim the sentence contradicts."""
    tell = _TELL.search(sentence)
    if not tell or NEGATION.search(re.split(r"[,;:]", sentence[: tell.start()])[-1]):
        return False
    if not _CALM.search(sentence[tell.end() :]):
        return False
    but = _BUT.search(sentence[: tell.start()])
    return bool(_CONTRAST.search(sentence) or but)


_ADD = re.compile(
    r"\b(add|insert|append|prepend|inject|include|embed|place|put|write)s?\b(?P<rest>.{0,200})",
    _I,
)
_LITERAL = re.compile(r"`([^`]{4,200})`|\"([^\"]{4,200})\"|'([^']{4,200})'|(<script\b[^>]*>)", _I)
_RUNS = re.compile(
    r"<script|<iframe|<img\b[^>]*\bsrc=|https?://|\beval\s*\(|\bexec\s*\(|os\.system|subprocess|"
    r"child_process|\b(curl|wget)\s|\|\s*(sh|bash)\b|document\.cookie|\bimport\s+(\w+)\b.*\b\w+\.\w+\(",
    _I,
)
_TARGET = re.compile(
    r"\b(files?|outputs?|code|snippets?|results?|responses?|answers?|pages?|html|documents?|"
    r"scripts?|sources?|modules?|the\s+top|the\s+(start|end|beginning|bottom))\b",
    _I,
)


def injects_code(sentence: str) -> bool:
    """A sentence that orders a running literal added to the user's files or output."""
    for add in _ADD.finditer(sentence):
        if negated_clause(sentence, add.start()):
            continue
        rest = add.group("rest")
        literal = _LITERAL.search(rest)
        if literal and _RUNS.search(literal.group(0)) and _TARGET.search(sentence):
            return True
    return False


def user_output_findings(texts: Sequence[tuple[str, str, str]]) -> Iterator[tuple[str, str, str]]:
    """(field, rule, excerpt) for each such sentence in the definition's prose."""
    for where, kind, text in texts:
        if kind == "name":
            continue
        for sentence in sentences(text):
            if tells_otherwise(sentence):
                yield where, "tells-user-otherwise", sentence[:80]
            elif kind != "data" and injects_code(sentence):
                yield where, "injects-code", sentence[:80]
