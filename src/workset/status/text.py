"""Small text helpers shared by the status block and the result annotations."""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo

MAX_VALUE_CHARS = 60
_STATUS_TAG = re.compile(r"<(?=/?\s*agent_status)", re.IGNORECASE)


def format_time(now: float, tz: tzinfo = UTC) -> str:
    """Unix seconds as ``2025-09-14 10:30:45`` in ``tz`` (UTC unless told otherwise)."""
    return datetime.fromtimestamp(now, tz).strftime("%Y-%m-%d %H:%M:%S")


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``12th``, ``13th``, ``21st``, ``112th``…"""
    teens = 10 <= n % 100 <= 20
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 error``, ``2 errors`` (``many`` for irregular plurals)."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def shorten(text: str, limit: int = MAX_VALUE_CHARS) -> str:
    """``text`` on one line, cut to ``limit`` characters with a trailing ellipsis.

    Status tags inside are defused (``<agent_status>`` becomes ``‹agent_status>``), so a value
    taken from a tool result or from the model cannot open or close a status block.
    """
    flat = _STATUS_TAG.sub("‹", " ".join(text.split()))
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
