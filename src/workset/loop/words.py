"""Words of questions and answers about code: which say nothing specific, and how an
identifier reads as words (``WRITE_CACHE_SIZE`` as *write cache size*). Shared by the outcome
rules, the focus lines and the grounding check."""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z][a-z0-9]{2,}")

# Words too common in questions and answers about code to say anything specific.
COMMON_WORDS = frozenset(
    {
        "about",
        "and",
        "answer",
        "class",
        "could",
        "default",
        "define",
        "defined",
        "does",
        "file",
        "files",
        "find",
        "from",
        "function",
        "have",
        "into",
        "line",
        "lines",
        "list",
        "mention",
        "mentions",
        "method",
        "return",
        "returns",
        "should",
        "show",
        "tell",
        "that",
        "the",
        "their",
        "them",
        "there",
        "this",
        "under",
        "value",
        "what",
        "when",
        "where",
        "which",
        "with",
        "would",
    }
)

# Words of questions that say nothing about which line answers them.
_PLAIN = COMMON_WORDS | {
    "how",
    "many",
    "much",
    "kind",
    "used",
    "uses",
    "use",
    "given",
    "gives",
    "make",
    "makes",
    "does",
    "done",
    "work",
    "works",
}


def split_key(key: str) -> str:
    """``WRITE_CACHE_SIZE``, ``writeCacheSize`` and ``write-cache-size`` as ``write cache size``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key)
    return re.sub(r"[_\-]+", " ", spaced).lower()


def stem(word: str) -> str:
    """A crude plural fold, enough to pair "operations" with ``OPERATION``."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def distinctive_words(text: str) -> set[str]:
    """Distinctive words of ``text``: identifiers split at ``_`` and case changes, lower
    case, a plural ``s`` folded, common question words left out."""
    return {stem(w) for w in _WORD.findall(split_key(text)) if w not in _PLAIN}
