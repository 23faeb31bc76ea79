"""Does an answer name a value? Matching that survives the forms a model writes values in.

A value and an answer are both brought to one canonical text before they are compared:

* numbers lose thousands separators and trailing zero decimals (``5,000.00`` → ``5000``) and
  a ``k`` multiplier (``5k`` → ``5000``);
* currencies become a code after the amount (``$5,000``, ``USD 5000``, ``5000 dollars`` →
  ``5000 usd``); common units get one spelling (``250 milliseconds`` → ``250 ms``);
* dates become ISO (``14 March 2026``, ``March 14, 2026``, ``2026/03/14``,
  ``2026-03-14T09:12:00Z`` → ``2026-03-14``, the time kept after it); a date written without
  a year (``March 14``) becomes ``--03-14`` and matches a full date on that day;
* case is ignored and runs of spaces, ``-`` and ``_`` count as one separator, so
  ``PAY_SHARD_7`` names ``pay-shard-7``.

A value names itself only as a whole token: ``4417`` is not in ``44170``. A *composite* value
(a tuple of parts, e.g. ``("orders", "2026-03-13")`` for a wrong partition of the right
table) is named when every part is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeAlias

Value: TypeAlias = str | tuple[str, ...]

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_MONTH = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_CURRENCIES = {
    "$": "usd",
    "us$": "usd",
    "usd": "usd",
    "dollar": "usd",
    "dollars": "usd",
    "€": "eur",
    "eur": "eur",
    "euro": "eur",
    "euros": "eur",
    "£": "gbp",
    "gbp": "gbp",
    "pound": "gbp",
    "pounds": "gbp",
}
_UNITS = {
    "milliseconds": "ms",
    "millisecond": "ms",
    "msec": "ms",
    "ms": "ms",
    "seconds": "s",
    "second": "s",
    "secs": "s",
    "sec": "s",
    "minutes": "min",
    "minute": "min",
    "mins": "min",
    "hours": "h",
    "hour": "h",
    "hrs": "h",
    "days": "d",
    "day": "d",
    "gigabytes": "gb",
    "gib": "gb",
    "megabytes": "mb",
    "mib": "mb",
    "percent": "%",
    "pct": "%",
    "s": "s",
    "h": "h",
    "d": "d",
    "rows": "rows",
}

_ISO = re.compile(
    r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})"
    r"(?:[t ](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(?:z|utc|[+-]\d{2}:?\d{2})?)?\b"
)
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})\b")
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b")
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b")
_MONTH_DAY = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!:)")
_THOUSANDS = re.compile(r"(?<![\d.])(\d{1,3})((?:,\d{3})+)(?![\d,]*\d)")
_DECIMAL_ZEROS = re.compile(r"(?<![\d.])(\d+)\.0+(?![\d.])")
_MULTIPLIER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?k\b")  # not m: 30m is minutes
_CURRENCY_BEFORE = re.compile(r"(us\$|\$|€|£|\busd\b|\beur\b|\bgbp\b)\s?(\d+(?:\.\d+)?)")
_CURRENCY_WORD_AFTER = re.compile(
    r"(\d)\s?(us\$|\$|€|£|usd|eur|gbp|dollars?|euros?|pounds?)(?![a-z])"
)
_UNIT_AFTER = re.compile(
    r"(\d)\s?(" + "|".join(sorted(_UNITS, key=len, reverse=True)) + r")(?![a-z])"
)
_SEPARATORS = re.compile(r"[\s_\-]+")


def canonical(text: str) -> str:
    """``text`` in the canonical form both sides of a comparison are brought to."""
    text = text.lower()
    text = _ISO.sub(_iso, text)
    text = _DAY_MONTH_YEAR.sub(lambda m: _date(m[3], _MONTHS[m[2]], m[1]), text)
    text = _MONTH_DAY_YEAR.sub(lambda m: _date(m[3], _MONTHS[m[1]], m[2]), text)
    text = _DAY_MONTH.sub(lambda m: _date(None, _MONTHS[m[2]], m[1]), text)
    text = _MONTH_DAY.sub(lambda m: _date(None, _MONTHS[m[1]], m[2]), text)
    text = _THOUSANDS.sub(lambda m: m[1] + m[2].replace(",", ""), text)
    text = _DECIMAL_ZEROS.sub(r"\1", text)
    text = _MULTIPLIER.sub(_multiply, text)
    text = _CURRENCY_BEFORE.sub(lambda m: f"{m[2]} {_CURRENCIES[m[1].strip()]}", text)
    text = _CURRENCY_WORD_AFTER.sub(lambda m: f"{m[1]} {_CURRENCIES[m[2]]}", text)
    text = _UNIT_AFTER.sub(lambda m: f"{m[1]} {_UNITS[m[2]]}", text)
    return _SEPARATORS.sub("-", text).strip("-")


def mentions(text: str, value: Value) -> bool:
    """Whether ``text`` names ``value`` (every part of a composite) as whole tokens."""
    if isinstance(value, tuple):
        return bool(value) and all(mentions(text, part) for part in value)
    needle = canonical(value.strip())
    if not needle:
        return False
    haystack = canonical(text)
    if _contains(haystack, needle):
        return True
    day = re.fullmatch(r"\d{4}(-\d\d-\d\d)(?:-.*)?", needle)  # a full date: also its day alone
    return day is not None and _contains(haystack, day[1])


def mentions_any(text: str, values: Sequence[Value]) -> bool:
    return any(mentions(text, value) for value in values if value)


def _contains(haystack: str, needle: str) -> bool:
    pattern = r"(?<![0-9a-z])" + re.escape(needle) + r"(?![0-9a-z])"
    if needle.startswith("-"):  # a day without a year: no year may stand right before it
        pattern = r"(?<![0-9])" + re.escape(needle) + r"(?![0-9a-z])"
    return re.search(pattern, haystack) is not None


def _iso(match: re.Match[str]) -> str:
    date = _date(match[1], int(match[2]), match[3])
    if match[4] is None:
        return date
    return f"{date} {int(match[4]):02d}:{match[5]}:{match[6] or '00'}"


def _date(year: str | None, month: int, day: str) -> str:
    if not 1 <= month <= 12 or not 1 <= int(day) <= 31:
        return f"{year or ''} {month} {day}"
    return f"{year if year else '-'}-{month:02d}-{int(day):02d}"


def _multiply(match: re.Match[str]) -> str:
    amount = float(match[1]) * 1_000
    return str(int(amount)) if amount.is_integer() else str(amount)
