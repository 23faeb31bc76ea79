"""Whether the facts an answer names were read where the question's subject is.

A fact "seen anywhere in the run" is weak support: the 0.5B reads three files, and a wrong
value, name or file it answers with is usually among what it read, just not where the
question's subject is (a look-alike constant of another class, a file it opened on the way).
:func:`grounded` keeps, of the facts an answer names that the run saw, those seen within
:data:`WINDOW` lines of a line that shares words with the question (its distinctive words:
identifiers split, common question words left out), or, for a file, those whose own text
the run read and holds such a word. An answer none of whose facts is grounded is not
``answered``: its outcome says what was read and where.

Lexical, like every outcome rule: it cannot tell a right answer from a wrong one next to it;
it only refuses to call an answer checked when nothing ties its facts to what was asked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from workset.loop.definitions import same_file
from workset.loop.words import distinctive_words

WINDOW = 3  # lines either side of a fact's line that count as "near" it
MIN_ASKED = 2  # a question with fewer distinctive words is not judged here
_NUMBER = re.compile(r"\d+(?:\.\d+)*")


def grounded(
    task: str,
    facts: Sequence[str],
    texts: Iterable[str],
    files: Sequence[tuple[str, str]],
    acted: Iterable[str] = (),
    neutral: Iterable[str] = (),
) -> tuple[str, ...] | None:
    """The facts of ``facts`` seen near the question's words in ``texts`` (what the run
    observed), or whose file in ``files`` (``(path, text)`` the run read) holds one of them,
    or that the arguments of the run's own successful actions hold (``acted``: "I wrote
    setup.cfg" is about what it did, not what it read); None when ``task`` has too few
    distinctive words to say what "near" means. Words in ``neutral`` (the folders of the paths
    the run read: the package's own name is on every line that imports it) are not the
    question's."""
    asked = distinctive_words(task) - {w for n in neutral for w in distinctive_words(n)}
    if len(asked) < MIN_ASKED:
        return None
    windows = [_near_lines(text.splitlines(), asked) for text in texts]
    windows += [text.lower() for text in acted]
    found: list[str] = []
    for fact in facts:
        pattern = fact_pattern(fact)
        if any(pattern.search(near) for near in windows if near) or _file_holds(fact, files, asked):
            found.append(fact)
    return tuple(found)


def _near_lines(lines: Sequence[str], asked: set[str]) -> str:
    """The lines within :data:`WINDOW` of a line that shares a word with ``asked``, joined."""
    keep = [False] * len(lines)
    for index, line in enumerate(lines):
        if distinctive_words(line) & asked:
            for near in range(max(0, index - WINDOW), min(len(lines), index + WINDOW + 1)):
                keep[near] = True
    return "\n".join(line for line, kept in zip(lines, keep, strict=True) if kept).lower()


def fact_pattern(fact: str) -> re.Pattern[str]:
    """How ``fact`` is found in lower-cased text: a number as a whole token, a path by its
    file name, anything else as it is."""
    text = fact.lower().removesuffix("()")
    if _NUMBER.fullmatch(text):  # a whole number token, not part of another one
        return re.compile(rf"(?<![\w.]){re.escape(text)}(?![\w]|\.\d)")
    if "/" in text:  # a path: its file name is what a listing or a hit shows
        text = text.rstrip("/").rsplit("/", 1)[-1]
    return re.compile(re.escape(text))


def _file_holds(fact: str, files: Sequence[tuple[str, str]], asked: set[str]) -> bool:
    """Whether ``fact`` names a file the run read whose text holds a word of the question."""
    name = fact.strip("`'\"./").lower()
    if "/" not in name and "." not in name:
        return False
    return any(same_file(name, path) and distinctive_words(text) & asked for path, text in files)
