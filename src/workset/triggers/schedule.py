"""Time arithmetic for timers: time zones, cron expressions (parsed by ``croniter``)."""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croniter import CroniterBadCronError, croniter

from workset.errors import ToolError

MAX_CATCH_UP = 100_000  # occurrences skipped while looking for the latest missed one


def zone(name: str) -> tzinfo:
    if name in ("", "UTC"):
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ToolError(
            f"unknown time zone {name!r}", hint="use an IANA name such as 'Europe/Madrid' or 'UTC'"
        ) from None


def check_cron(expression: str) -> None:
    """Raise a :class:`ToolError` that shows the format when ``expression`` does not parse."""
    if not croniter.is_valid(expression):
        raise ToolError(
            f"the cron expression {expression!r} does not parse",
            hint="use five fields: minute hour day-of-month month day-of-week, e.g. '0 9 * * 5' "
            "for Fridays at 09:00 or '*/15 * * * *' for every 15 minutes",
        )


def next_after(expression: str, after: float, timezone: str) -> float:
    """The first occurrence of ``expression`` strictly after ``after`` (unix seconds)."""
    check_cron(expression)
    start = datetime.fromtimestamp(after, zone(timezone))
    try:
        return float(croniter(expression, start).get_next(float))
    except CroniterBadCronError as exc:
        raise ToolError(f"the cron expression {expression!r} does not parse: {exc}") from exc
