"""Time for a session: what time it is, and waiting until a moment (timers).

:class:`SystemClock` is wall time. Tests pass :class:`workset.testing.FakeClock`, which moves
only when told to and wakes the timers that become due, so no test sleeps for real. A plain
callable (``time.time``, a lambda) is accepted too: waiting then follows wall time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol, runtime_checkable

import anyio


@runtime_checkable
class Clock(Protocol):
    def __call__(self) -> float: ...

    async def sleep_until(self, when: float) -> None: ...


class SystemClock:
    def __call__(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        await anyio.sleep(max(0.0, when - time.time()))


class _WallWait:
    """A callable clock; waits follow the wall clock from what it says now."""

    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now

    def __call__(self) -> float:
        return self._now()

    async def sleep_until(self, when: float) -> None:
        await anyio.sleep(max(0.0, when - self._now()))


def as_clock(clock: Callable[[], float] | Clock) -> Clock:
    return clock if isinstance(clock, Clock) else _WallWait(clock)
