"""Answers that copy what a tool showed instead of answering: numbered lines written back, a
tool's own line about its result, a passage of a result. Pure functions over the answer and
the run's results, for :mod:`workset.loop.outcome`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workset.messages import ToolMessage

# Tools whose results are files and names, with a line of their own about what they show.
PERCEPTION_TOOLS = frozenset({"read_file", "find_files", "grep", "list_dir"})
# Line numbers ("  12| code"), line ranges ("lines 72-85", "Showing lines 1-40 of 274").
_GUTTER = re.compile(r"(?m)^\s*\d+\|| lines? \d+(?:-\d+)?(?: of \d+)?")
# A line as read_file numbers it, copied into an answer: "   75| text", "db.py:75| text".
_NUMBERED_LINE = re.compile(r"^[ \t]*(?:[\w./-]+:)?[ \t]*\d+\|.*$", re.M)
_OWN_WORDS = 4  # words of its own beside copied lines that make an answer more than a copy
# A passage of a result copied as the answer: this many words in a row, and this share of it.
_PASSAGE_WORDS = 20
_PASSAGE_SHARE = 0.6


def ungutter(text: str) -> str:
    """``text`` without the numbers a tool or the evidence adds: line gutters and ranges."""
    return _GUTTER.sub(" ", text)


def copies_lines(answer: str) -> bool:
    """Whether ``answer`` is numbered lines of a file, copied, with hardly a word of its own
    (the 0.5B, shown lines and asked a question, sometimes wrote them back)."""
    if not _NUMBERED_LINE.search(answer):
        return False
    rest = _NUMBERED_LINE.sub(" ", answer)
    return len(re.findall(r"[A-Za-z]\w*", rest)) < _OWN_WORDS


def framing_line(answer: str, results: Sequence[ToolMessage]) -> str:
    """A line a perception tool wrote about its result ("1 names under '.' match 'x':",
    "Showing lines 1-40 of 274 total.") that makes up most of the answer: the 0.5B answered
    "How many names does the package export?" with find_files's own header."""
    said = " ".join(answer.split())
    for result in results:
        if result.is_error or result.name not in PERCEPTION_TOOLS:
            continue
        for line in result.content.splitlines():
            line = " ".join(line.split())
            framing = len(line.split()) >= 4 and not _GUTTER.match(line)
            if framing and line in said and 2 * len(line) >= len(said):
                return line
    return ""


def copied_passage(answer: str, results: Sequence[ToolMessage]) -> int:
    """The length in words of the passage of a successful result that ``answer`` copies,
    when it is most of the answer (:data:`_PASSAGE_WORDS` words or more, and
    :data:`_PASSAGE_SHARE` of its words); else 0. Asked "What happens when `fold` is called
    with chunksize=1?", the 0.5B wrote back the docstring of ``fold`` (66 of its 76 words),
    whose ``128`` the lexical rules then found in what it read."""
    said = _words(answer)
    if len(said) < _PASSAGE_WORDS:
        return 0
    at: dict[str, list[int]] = {}
    for i, word in enumerate(said):
        at.setdefault(word, []).append(i)
    best = 0
    for result in results:
        if result.is_error:
            continue
        shown = _words(result.content)
        for j, word in enumerate(shown):
            for i in at.get(word, ()):
                k = 0
                while i + k < len(said) and j + k < len(shown) and said[i + k] == shown[j + k]:
                    k += 1
                best = max(best, k)
    if best >= _PASSAGE_WORDS and best >= _PASSAGE_SHARE * len(said):
        return best
    return 0


def _words(text: str) -> list[str]:
    """The words of ``text``, lower-cased, without the line numbers of numbered lines."""
    return [w.lower() for w in re.findall(r"\w+", ungutter(text))]
