"""What an intake is: events for sessions, delivered to workers, acknowledged once durable.

An :class:`Intake` hands a worker :class:`Delivery` values (an event, the session it is for,
how often it was delivered). The worker appends each to the session's inbox in the shared log
(durable, once per event id) and only then acknowledges it; a delivery a worker took but never
acknowledged (the worker died) is reclaimed by another after a while, and one that failed too
often goes to a dead-letter stream instead of being tried forever.

:class:`LocalIntake` is the in-process intake of the embedded default (one process, nothing to
reclaim); :class:`~workset.intake.redis_streams.RedisIntake` spans processes and machines.
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import anyio

from workset.errors import SessionLogError, UsageError
from workset.events.inputs import Event
from workset.events.records import EventReceived
from workset.log.codec import event_from_payload, event_to_payload


@dataclass(frozen=True, slots=True)
class Delivery:
    """One event handed to a worker; ``entry_id`` is what acknowledges it."""

    entry_id: str
    session_id: str
    event: Event
    sent_at: float  # when it was published (the publisher's clock, unix seconds)
    deliveries: int = 1  # how many times it was handed out, this time included


@runtime_checkable
class Intake(Protocol):
    async def publish(self, session_id: str, event: Event, *, sent_at: float) -> str:
        """Queue ``event`` for ``session_id``; returns the entry id."""
        ...

    async def read(self, count: int, block_s: float) -> list[Delivery]:
        """Up to ``count`` new deliveries for this worker, waiting up to ``block_s``."""
        ...

    async def ack(self, delivery: Delivery) -> None:
        """The event is durable in the log: never deliver it again."""
        ...

    async def reject(self, delivery: Delivery, reason: str) -> None:
        """Move a delivery that can never succeed to the dead letters, with why."""
        ...

    async def reclaim(self, min_idle_s: float, count: int) -> list[Delivery]:
        """Deliveries other workers took and left unacknowledged for ``min_idle_s``; those
        delivered too often are moved to the dead letters instead of being returned."""
        ...

    async def notify(self, holder: str, session_id: str) -> None:
        """Tell the worker ``holder`` that ``session_id`` has new events in its inbox."""
        ...

    def wakeups(self) -> AsyncIterator[str]:
        """Session ids other workers said have new events for this worker."""
        ...

    async def aclose(self) -> None: ...


def encode_event(session_id: str, event: Event) -> str:
    """An event as the JSON an intake carries (the log's own encoding of it)."""
    return json.dumps(
        event_to_payload(EventReceived(session_id, event, event.at)),
        ensure_ascii=True,
        separators=(",", ":"),
    )


def decode_event(text: str | bytes) -> tuple[str, Event]:
    """(session id, event) from :func:`encode_event`'s JSON; raises :class:`UsageError`."""
    try:
        received = event_from_payload("event_received", json.loads(text))
    except (ValueError, SessionLogError) as exc:
        raise UsageError(f"not a workset event entry: {exc}") from exc
    assert isinstance(received, EventReceived)
    return received.session_id, received.event


class LocalIntake:
    """The in-process intake: a memory queue, for one worker process and the embedded log."""

    def __init__(self) -> None:
        self._send, self._receive = anyio.create_memory_object_stream[Delivery](math.inf)
        self._count = 0
        self.rejected: list[tuple[Delivery, str]] = []

    async def publish(self, session_id: str, event: Event, *, sent_at: float) -> str:
        self._count += 1
        entry = f"local-{self._count}"
        await self._send.send(Delivery(entry, session_id, event, sent_at))
        return entry

    async def read(self, count: int, block_s: float) -> list[Delivery]:
        found: list[Delivery] = []
        with anyio.move_on_after(block_s):
            found.append(await self._receive.receive())
        while found and len(found) < count:
            try:
                found.append(self._receive.receive_nowait())
            except anyio.WouldBlock:
                break
        return found

    async def ack(self, delivery: Delivery) -> None:
        return None

    async def reject(self, delivery: Delivery, reason: str) -> None:
        self.rejected.append((delivery, reason))

    async def reclaim(self, min_idle_s: float, count: int) -> list[Delivery]:
        return []  # one process: nothing is left behind by another

    async def notify(self, holder: str, session_id: str) -> None:
        return None

    async def wakeups(self) -> AsyncIterator[str]:
        await anyio.sleep_forever()
        yield ""  # pragma: no cover - never reached

    async def aclose(self) -> None:
        self._send.close()
        self._receive.close()
