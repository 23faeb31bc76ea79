"""The lines of a file just read that share words with the task, pointed out in the next turn.

A 0.5B model that reads 80 or 200 numbered lines often does not find the one line that answers
the question in them: it pages on through the file, or answers about something else it saw.
:func:`focus_notice` picks, from the successful ``read_file`` results of the last turn, the
few lines that share the most distinctive words with the task (identifiers split at ``_`` and
at case changes: ``default_table_name`` shares *table* and *name* with "What is the name of the
default table?"; a word on many lines of the file weighs less, and a line that defines such a
name, ``default_table_name = '_default'``, more than prose about it) and quotes them in a
notice for the next request only (never recorded, so the prefix stays cached). The model still
decides: the notice says to answer from them if they answer the question and to call a tool
otherwise.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from workset.loop.words import distinctive_words
from workset.messages import ToolMessage

FOCUS_LINES = 3  # the most lines quoted
MIN_SHARED = 2  # distinct task words a line must share to be quoted
MAX_LINE_CHARS = 160  # a quoted line is cut after this many characters
_GUTTER_LINE = re.compile(r"^\s*(\d+)\| (.*)$", re.M)  # "   75| text", as read_file numbers
# A line that defines a name: an assignment or annotated field, a key of a config or dict,
# a def or class. The name it defines is group 1.
_DEFINES = re.compile(
    r"""^\s*(?:(?:async\s+)?def\s+|class\s+)?["']?([A-Za-z_][\w.-]*)["']?\s*(?:[:=(]|:\s*\w)"""
)
DEFINITION_BONUS = 1.5  # a line defining a name that shares a task word weighs this much more


def focus_notice(task: str, results: Sequence[ToolMessage]) -> str | None:
    """A notice quoting the lines of the last turn's ``read_file`` results that share the
    most words with ``task`` (at least :data:`MIN_SHARED`; rarer words weigh more), in file
    order, or None when no line does."""
    read = [("", r.content) for r in results if r.name == "read_file" and not r.is_error]
    quoted = _best_lines(task, read)
    if quoted is None:
        return None
    return (
        "These lines of what you just read share words with the question:\n"
        f"{quoted}\n"
        "If they answer it, reply now in one or two sentences that name the file, with no tool "
        "call; if not, make another call."
    )


def answer_focus(task: str, seen: Sequence[tuple[str, str]]) -> str | None:
    """For the turn that asks for the answer: the lines of every read and excerpt of the run,
    ``(path, numbered text)``, that share the most words with ``task``, each with its file.
    The 0.5B pages past the line that answers ("163| def drop_tables" on its first page) and
    then answers from the last page it read ("drop_tables does not do anything"); the
    excerpts of the first request are no longer in the request by then. A line must share
    half the question's distinctive words (two at least): one that shares two of six
    ("TinyDB(path, storage=ReadOnlyMiddleware(JSONStorage))" for "What does JSONStorage.read
    return when the database file is empty?") misled the 0.5B."""
    quoted = _best_lines(task, seen, least=max(MIN_SHARED, -(-len(distinctive_words(task)) // 2)))
    if quoted is None:
        return None
    return f"Lines of the files you read that share words with the question:\n{quoted}"


def _best_lines(task: str, seen: Sequence[tuple[str, str]], least: int = MIN_SHARED) -> str | None:
    """The :data:`FOCUS_LINES` best numbered lines of the texts in ``seen`` for ``task`` that
    share at least ``least`` of its words, in the order seen, each after ``path:`` when its
    path is known."""
    scored: list[tuple[float, int, str]] = []  # (-weight, order, quoted line)
    for path, text in seen:
        for weight, number, line in scored_lines(task, text, least):
            quoted = f"{path + ':' if path else ''}{number}| {line[:MAX_LINE_CHARS]}"
            if all(quoted != line for _, _, line in scored):
                scored.append((-weight, len(scored), quoted))
    if not scored:
        return None
    best = sorted(scored)[:FOCUS_LINES]
    return "\n".join(line for _, _, line in sorted(best, key=lambda s: s[1]))


def scored_lines(task: str, text: str, least: int = MIN_SHARED) -> list[tuple[float, int, str]]:
    """(weight, number, line) of each numbered line of ``text`` (as ``read_file`` shows it)
    that shares at least ``least`` distinctive words with ``task``, in file order. Each shared
    word weighs its rarity among the lines of ``text``; a line that defines a name sharing a
    task word weighs :data:`DEFINITION_BONUS` times more."""
    asked = distinctive_words(task)
    if len(asked) < MIN_SHARED:
        return []
    lines = [(int(m.group(1)), m.group(2).strip()) for m in _GUTTER_LINE.finditer(text)]
    words = [distinctive_words(line) for _, line in lines]
    # A word on many lines of this file (the package's name, "table" in table.py) says
    # less about which line answers than one on few: each shared word weighs its rarity.
    counts = Counter(w for line in words for w in line & asked)
    out: list[tuple[float, int, str]] = []
    for (number, line), mine in zip(lines, words, strict=True):
        shared = mine & asked
        if len(shared) >= least:
            weight = sum(math.log(1 + len(lines) / counts[w]) for w in shared)
            defined = _DEFINES.match(line)
            if defined and distinctive_words(defined.group(1)) & asked:
                weight *= DEFINITION_BONUS
            out.append((weight, number, line))
    return out
