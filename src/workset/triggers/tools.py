"""``set_timer``, ``cancel_timer`` and ``list_timers``: the agent wakes itself up later.

A timer fires as a ``timer.trigger`` event carrying its message, which enters the session at
the next safe point (or wakes an idle one). One-shot timers take ``in_seconds`` or an ISO 8601
time ``at``; periodic ones a five-field ``cron`` expression. Times are shown in the timer's
time zone.
"""

from __future__ import annotations

from datetime import datetime

from workset.errors import ToolError
from workset.tools.base import Tool
from workset.tools.context import SessionHost, TimerView, current_call
from workset.triggers.schedule import check_cron, zone

MAX_DELAY_S = 366 * 24 * 3600


def _host() -> SessionHost:
    host = current_call().host
    if host is None:
        raise ToolError(
            "timers need a running session",
            hint="run the agent through its session engine (workset run, chat or serve)",
        )
    return host


def _when(timer: TimerView) -> str:
    return datetime.fromtimestamp(timer.due, zone(timer.timezone)).isoformat(timespec="seconds")


def timer_tools() -> list[Tool]:
    """``set_timer``, ``cancel_timer`` and ``list_timers`` for the running session."""

    def set_timer(
        message: str, in_seconds: int = 0, at: str = "", cron: str = "", timezone: str = "UTC"
    ) -> str:
        """Wake yourself later with a message: once (in_seconds or at) or periodically (cron).

        Use when: something must happen at a time — follow up on an email in two days,
        call back on Monday at 10:00, check a server every hour.
        Do not use when: you wait for a background task — its result arrives as an event.
        Give exactly one of in_seconds, at or cron. When the timer fires you receive an
        event "Timer timer-N fired: <message>"; write the message so that it says what to
        do then. The timer survives restarts and fires once per occurrence. Output: the timer
        id and when it fires next. Examples: {"message": "Ask Ana whether she replied",
        "in_seconds": 3600}; {"message": "Call the DMV", "at": "2026-12-07T10:00:00",
        "timezone": "America/Los_Angeles"}; {"message": "Weekly report", "cron": "0 9 * * 5"}.

        Args:
            message: What to do when the timer fires.
            in_seconds: Fire once, this many seconds from now.
            at: Fire once at this ISO 8601 time, e.g. "2026-12-07T10:00:00".
            cron: Fire periodically: minute hour day-of-month month day-of-week.
            timezone: IANA time zone for at and cron, e.g. "Europe/Madrid" (default UTC).
        """
        given = [bool(in_seconds), bool(at.strip()), bool(cron.strip())]
        if sum(given) != 1:
            raise ToolError(
                "give exactly one of in_seconds, at or cron",
                hint='e.g. {"message": "...", "in_seconds": 600}',
            )
        host = _host()
        tz = zone(timezone)
        due = 0.0
        if in_seconds:
            if not 0 < in_seconds <= MAX_DELAY_S:
                raise ToolError(f"in_seconds must be between 1 and {MAX_DELAY_S}")
            due = host.now() + in_seconds
        elif at.strip():
            try:
                moment = datetime.fromisoformat(at.strip())
            except ValueError:
                raise ToolError(
                    f"at={at!r} is not an ISO 8601 time", hint='e.g. "2026-12-07T10:00:00"'
                ) from None
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=tz)
            due = moment.timestamp()
            if due <= host.now():
                raise ToolError(f"at={at!r} is in the past", hint="give a future time")
        else:
            check_cron(cron.strip())
        timer = host.set_timer(message, due, cron.strip(), timezone or "UTC")
        kind = f"cron {timer.cron!r}" if timer.cron else "once"
        return f"set {timer.timer_id} ({kind}); fires next at {_when(timer)}: {timer.message}"

    def cancel_timer(timer_id: str) -> str:
        """Cancel a timer so it never fires again.

        Use when: what a timer was for is done or no longer wanted.
        Output: which timer was cancelled. Example: {"timer_id": "timer-1"}.

        Args:
            timer_id: The id set_timer returned, e.g. "timer-1".
        """
        timer = _host().cancel_timer(timer_id)
        return f"cancelled {timer.timer_id}: {timer.message}"

    def list_timers() -> str:
        """The active timers of this session and when each fires next.

        Use when: you need to know what you have scheduled.
        Output: one line per timer. Example: {}.
        """
        timers = _host().list_timers()
        if not timers:
            return "no active timers"
        return "\n".join(
            f"{t.timer_id}: next {_when(t)}{f' (cron {t.cron!r})' if t.cron else ''}: {t.message}"
            for t in timers
        )

    return [
        Tool.from_function(
            set_timer,
            idempotent=False,
            wrap_output=False,
            examples=({"message": "Check the build", "in_seconds": 600},),
        ),
        Tool.from_function(
            cancel_timer, idempotent=True, wrap_output=False, examples=({"timer_id": "timer-1"},)
        ),
        Tool.from_function(list_timers, read_only=True, wrap_output=False, examples=({},)),
    ]
