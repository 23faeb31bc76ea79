"""Text that changes per call or per user: dates, times, ids, template placeholders.

Pure pattern matching over a string. Version numbers (``1.4.2``), line references (``12|``)
and JSON examples (``{"name": …}``) are not volatile and are not matched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "timestamp",
        re.compile(
            r"\b\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
        ),
    ),
    ("date", re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b")),
    (
        "date",
        re.compile(
            rf"\b{_MONTH}\.? \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}}\b|\b\d{{1,2}} {_MONTH} \d{{4}}\b"
        ),
    ),
    ("time", re.compile(r"\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s?[AaPp][Mm])?\b")),
    ("unix timestamp", re.compile(r"\b1[5-9]\d{8}(?:\.\d+)?\b")),
    (
        "uuid",
        re.compile(
            r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"
        ),
    ),
    (
        "placeholder",
        re.compile(
            r"\{\{\s*[A-Za-z_][\w.]*\s*\}\}"  # {{now}}
            r"|\$\{[A-Za-z_]\w*\}"  # ${NOW}
            r"|%\([A-Za-z_]\w*\)[sdr]"  # %(now)s
            r"|(?<![{\w])\{[A-Za-z_][\w.]*(?:![rsa])?(?::[^{}\s]*)?\}(?!\})"  # {now}, {now:%H}
        ),
    ),
    (
        "current-date phrase",
        re.compile(
            r"\b(?:today is|today's date|current (?:date|time|datetime)|the (?:date|time) is|"
            r"it is now|as of now)\b",
            re.IGNORECASE,
        ),
    ),
)


@dataclass(frozen=True, slots=True)
class VolatileText:
    kind: str  # "timestamp", "date", "time", "unix timestamp", "uuid", "placeholder", …
    text: str  # what matched
    offset: int  # character offset in the checked text
    line: int  # 1-based line of the match


def find_volatile_text(text: str) -> list[VolatileText]:
    """Every volatile-looking span of ``text``, in order; overlapping matches reported once."""
    found: list[VolatileText] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < e and s < end for s, e in taken):
                continue
            taken.append((start, end))
            line = text.count("\n", 0, start) + 1
            found.append(VolatileText(kind, match.group(), start, line))
    return sorted(found, key=lambda v: v.offset)
