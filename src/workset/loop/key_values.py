"""Values read as ``key = value`` that an answer contradicts: the lexical check behind
"``port = 8471`` read, 'port 8080' answered" and "``WRITE_CACHE_SIZE = 1000`` read for *How
many writes does it cache?*, '3' answered" (:func:`contradicted`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from workset.loop.words import split_key, stem

_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)*(?![\w])")
_KEY_WORD = re.compile(r"[a-z][a-z0-9]{2,}")
# Words too common in keys to say which value the task asks about.
_GENERIC_KEY_WORDS = frozenset(
    {"the", "and", "for", "how", "many", "much", "what", "which", "this", "that", "does", "default"}
)
_PAIR = re.compile(r"\b([A-Za-z_][\w-]{2,})\"?\s*[:=]\s*\"?(\d+(?:\.\d+)*)\b")
# key = 'text' (a quoted string value): default_table_name = '_default'
_TEXT_PAIR = re.compile(r"\b([A-Za-z_][\w-]{2,})\s*[:=]\s*(['\"])([^'\"\n]{1,80})\2")


def contradicted(answer: str, task: str, observed: Sequence[str]) -> str:
    """Why a ``key = value`` in ``observed`` (what the run read) contradicts ``answer`` to
    ``task``; "" when none does."""
    pairs = [pair for text in observed for pair in _PAIR.findall(text)]  # (key, number) read
    texts = [(k, v) for text in observed for k, _q, v in _TEXT_PAIR.findall(text)]
    return (
        _contradiction(answer, pairs)
        or _asked_value(answer, task, pairs)
        or _asked_text(answer, task, texts)
    )


# Words that may stand between a key and its value in an answer: "the port is 8080".
_JOINERS = frozenset(
    {"is", "was", "are", "were", "be", "of", "to", "at", "equals", "set", "default", "defaults"}
    | {"its", "value", "the", "a", "an", "s", "now", "still", "by"}
)


def _contradiction(answer: str, pairs: Sequence[tuple[str, str]]) -> str:
    """A ``key = number`` read in a result whose key the answer pairs with another number."""
    values: dict[str, set[str]] = {}
    for key, value in pairs:
        values.setdefault(key.lower(), set()).add(value)
    lowered = answer.lower()
    numbers = set(_NUMBER.findall(answer))
    for key, seen in values.items():
        if re.search(rf"\b{re.escape(key)}\b", lowered) is None or seen & numbers:
            continue
        for near in re.finditer(rf"\b{re.escape(key)}\b(\D{{0,40}}?)(\d+(?:\.\d+)*)", lowered):
            # Only words that join a key to its value between them ("port is 8080", "port:
            # 8080"): "a table's query cache in TinyDB is 10" gives no value of `table`.
            between = set(re.findall(r"[a-z]+", near.group(1)))
            if between <= _JOINERS and near.group(2) not in seen:
                told = " or ".join(sorted(seen)[:3])
                return f"a tool result says {key} = {told}, the answer says {near.group(2)}"
    return ""


def _asked_value(answer: str, task: str, pairs: Sequence[tuple[str, str]]) -> str:
    """A ``key = number`` read whose key the task asks about, answered with another number.

    ``WRITE_CACHE_SIZE = 1000`` read for "How many write operations does it cache?" makes an
    answer of "3" contradicted: the key's words (write, cache, size) are the task's words. The
    keys sharing the most words with the task (two at least: the package's ``version = 4.9.0``
    is not what "Which Python versions…" asks) are the ones asked about; an answer none of
    whose numbers is one of their values is contradicted. When they were read with several
    values (a default and a test's override), an answer must name the key to say which it
    means. An answer with no number is not judged here.
    """
    numbers = set(_NUMBER.findall(answer))
    if not numbers:
        return ""
    keys = _asked_keys(task, [key for key, _ in pairs])
    values = {value for key, value in pairs if key in keys}
    if not values:
        return ""
    key, told = sorted(keys)[0], " or ".join(sorted(values)[:3])
    if not numbers & values:
        return f"a tool result says {key} = {told}, the answer says {sorted(numbers)[0]}"
    named = any(split_key(k) in split_key(answer) for k in keys)
    if len(values) > 1 and not named:
        return f"tool results give {key} = {told}; the answer does not say which one it means"
    return ""


def _asked_text(answer: str, task: str, pairs: Sequence[tuple[str, str]]) -> str:
    """A ``key = 'text'`` read whose key the task asks about (as :func:`_asked_value` picks
    keys), answered without any of its values: ``default_table_name = '_default'`` read for
    "What is the name of the default table?" and "default_table_documents_count=0" answered."""
    keys = _asked_keys(task, [key for key, _ in pairs])
    values = {value for key, value in pairs if key in keys}
    if not values or any(value.lower() in answer.lower() for value in values):
        return ""
    told = " or ".join(repr(v) for v in sorted(values)[:3])
    return f"a tool result says {sorted(keys)[0]} = {told}, which the answer does not say"


def _asked_keys(task: str, keys: Sequence[str]) -> set[str]:
    """The keys sharing the most words with the task, two words at least."""
    asked = {stem(w) for w in _KEY_WORD.findall(task.lower())} - _GENERIC_KEY_WORDS
    best, chosen = 0, set[str]()
    for key in keys:
        words = {stem(w) for w in _KEY_WORD.findall(split_key(key))} - _GENERIC_KEY_WORDS
        shared = len(words & asked)
        if shared < 2:  # one word ("version" for "Python versions") says too little
            continue
        if shared > best:
            best, chosen = shared, set[str]()
        if shared == best:
            chosen.add(key)
    return chosen
