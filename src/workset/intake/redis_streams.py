"""Events across processes through Redis Streams: one stream, one consumer group of workers.

- :meth:`RedisIntake.publish` is ``XADD`` of ``session``, ``event`` (the log's JSON encoding of
  it) and ``sent_at``;
- every worker reads with ``XREADGROUP`` as its own consumer, so each entry goes to one
  worker; the worker acknowledges (``XACK``) only after the event is durable in the session's
  inbox, so a worker that dies before that leaves the entry pending;
- :meth:`RedisIntake.reclaim` takes over entries pending longer than ``min_idle_s`` with
  ``XAUTOCLAIM`` (a dead worker's); each claim counts as a delivery, and an entry delivered
  ``max_deliveries`` times goes to the dead-letter stream (``<stream>:dead``, with the reason
  and the count) and is acknowledged, in one ``MULTI``;
- consumption is idempotent by event id in any case: the log keeps an event id once;
- a worker that recorded an event for a session another worker owns tells that worker with
  ``PUBLISH <stream>:wake:<worker>``.

``pip install 'workset[redis]'`` brings the client.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from workset.errors import BrokerError, UsageError
from workset.events.inputs import Event
from workset.intake.base import Delivery, decode_event, encode_event
from workset.stores.url import redacted

DEFAULT_STREAM = "workset:events"
DEFAULT_GROUP = "workers"
MAX_DELIVERIES = 5


class RedisIntake:
    """One worker's (or a publisher's) connection to the event stream.

    Open it with :meth:`connect`, which checks that Redis answers and creates the consumer
    group when missing.
    """

    def __init__(
        self,
        client: Any,
        url: str,
        consumer: str,
        *,
        stream: str = DEFAULT_STREAM,
        group: str = DEFAULT_GROUP,
        max_deliveries: int = MAX_DELIVERIES,
    ) -> None:
        self._redis = client
        self.where = redacted(url)
        self.consumer = consumer
        self.stream = stream
        self.group = group
        self.dead_stream = f"{stream}:dead"
        self.max_deliveries = max_deliveries
        self._claim_cursor = "0-0"
        self._errors = _redis_errors()

    @classmethod
    async def connect(
        cls,
        url: str,
        consumer: str,
        *,
        stream: str = DEFAULT_STREAM,
        group: str = DEFAULT_GROUP,
        max_deliveries: int = MAX_DELIVERIES,
    ) -> RedisIntake:
        if not url.startswith(("redis://", "rediss://", "unix://")):
            raise UsageError(
                f"{redacted(url)!r} is not a Redis URL; write it like redis://127.0.0.1:6379/0"
            )
        if max_deliveries < 1:
            raise UsageError(f"max_deliveries={max_deliveries}: allow at least 1 delivery")
        try:
            import redis.asyncio as aioredis
        except ImportError as exc:
            raise UsageError(
                "the Redis intake needs the redis client: pip install 'workset[redis]'"
            ) from exc
        client = aioredis.Redis.from_url(
            url, decode_responses=True, socket_connect_timeout=5, health_check_interval=30
        )
        intake = cls(
            client, url, consumer, stream=stream, group=group, max_deliveries=max_deliveries
        )
        try:
            await client.ping()
            await client.xgroup_create(stream, group, id="0", mkstream=True)
        except aioredis.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                await client.aclose()
                raise BrokerError(
                    f"Redis at {intake.where} refused to set up {stream}: {exc}"
                ) from exc
        except aioredis.RedisError as exc:
            await client.aclose()
            raise BrokerError(
                f"cannot reach Redis at {intake.where}: {exc}. Start redis-server there, or "
                "point --redis (or $WORKSET_REDIS) at a running one."
            ) from exc
        return intake

    async def publish(self, session_id: str, event: Event, *, sent_at: float) -> str:
        fields = {"session": session_id, "event": encode_event(session_id, event)}
        fields["sent_at"] = repr(sent_at)
        entry: str = await self._call("publish an event", self._redis.xadd, self.stream, fields)
        return entry

    async def read(self, count: int, block_s: float) -> list[Delivery]:
        found = await self._call(
            "read events",
            self._redis.xreadgroup,
            self.group,
            self.consumer,
            {self.stream: ">"},
            count=count,
            block=max(1, int(block_s * 1000)),
        )
        deliveries: list[Delivery] = []
        for _, entries in found or ():
            deliveries += await self._decoded(entries, {})
        return deliveries

    async def ack(self, delivery: Delivery) -> None:
        await self._call("acknowledge an event", self._redis.xack, self.stream, self.group,
                         delivery.entry_id)  # fmt: skip

    async def reject(self, delivery: Delivery, reason: str) -> None:
        fields = {
            "session": delivery.session_id,
            "event": encode_event(delivery.session_id, delivery.event),
            "entry": delivery.entry_id,
            "reason": reason,
            "deliveries": str(delivery.deliveries),
        }
        await self._dead_letter(delivery.entry_id, fields)

    async def reclaim(self, min_idle_s: float, count: int) -> list[Delivery]:
        reply = await self._call(
            "reclaim events",
            self._redis.xautoclaim,
            self.stream,
            self.group,
            self.consumer,
            max(0, int(min_idle_s * 1000)),
            start_id=self._claim_cursor,
            count=count,
        )
        self._claim_cursor, entries = reply[0], reply[1]
        if not entries:
            return []
        counts = await self._delivery_counts([e[0] for e in entries])
        return await self._decoded(entries, counts)

    async def notify(self, holder: str, session_id: str) -> None:
        await self._call("wake a worker", self._redis.publish,
                         f"{self.stream}:wake:{holder}", session_id)  # fmt: skip

    async def wakeups(self) -> AsyncIterator[str]:
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await self._call("listen for wake-ups", pubsub.subscribe,
                         f"{self.stream}:wake:{self.consumer}")  # fmt: skip
        try:
            async for message in pubsub.listen():
                if message.get("type") == "message":
                    yield str(message["data"])
        except self._errors as exc:
            raise BrokerError(f"lost the wake-ups from Redis at {self.where}: {exc}") from exc
        finally:
            await pubsub.aclose()

    async def dead_letters(self, count: int = 100) -> list[dict[str, str]]:
        """The entries given up on, oldest first (their fields, with the entry id as ``id``)."""
        entries = await self._call("read dead letters", self._redis.xrange, self.dead_stream,
                                   count=count)  # fmt: skip
        return [{"id": entry_id, **fields} for entry_id, fields in entries]

    async def pending_count(self) -> int:
        """Entries handed out and not acknowledged yet, over all workers."""
        summary = await self._call("count pending events", self._redis.xpending, self.stream,
                                   self.group)  # fmt: skip
        return int(summary["pending"])

    async def aclose(self) -> None:
        await self._redis.aclose()

    # -- helpers ------------------------------------------------------------------------------

    async def _decoded(self, entries: list[Any], counts: dict[str, int]) -> list[Delivery]:
        deliveries = []
        for entry_id, fields in entries:
            if fields is None:  # trimmed from the stream while pending: nothing to deliver
                await self._call("acknowledge an event", self._redis.xack, self.stream,
                                 self.group, entry_id)  # fmt: skip
                continue
            delivered = counts.get(entry_id, 1)
            try:
                session_id, event = decode_event(fields.get("event", ""))
                sent_at = float(fields.get("sent_at", "0"))
            except (UsageError, ValueError) as exc:
                await self._dead_letter(
                    entry_id, {**fields, "entry": entry_id, "reason": f"malformed entry: {exc}"}
                )
                continue
            delivery = Delivery(entry_id, session_id, event, sent_at, delivered)
            if delivered > self.max_deliveries:
                await self.reject(
                    delivery,
                    f"delivered {delivered - 1} times without being recorded (the last error "
                    "is in the worker's output); given up",
                )
                continue
            deliveries.append(delivery)
        return deliveries

    async def _delivery_counts(self, entry_ids: list[str]) -> dict[str, int]:
        rows = await self._call(
            "read delivery counts",
            self._redis.xpending_range,
            self.stream,
            self.group,
            min=min(entry_ids, key=_entry_key),
            max=max(entry_ids, key=_entry_key),
            count=len(entry_ids) * 4 + 16,
            consumername=self.consumer,
        )
        wanted = set(entry_ids)
        return {
            r["message_id"]: int(r["times_delivered"]) for r in rows if r["message_id"] in wanted
        }

    async def _dead_letter(self, entry_id: str, fields: dict[str, str]) -> None:
        async def move() -> None:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.xadd(self.dead_stream, fields)
                pipe.xack(self.stream, self.group, entry_id)
                await pipe.execute()

        await self._call("move an event to the dead letters", move)

    async def _call(self, doing: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return await fn(*args, **kwargs)
        except self._errors as exc:
            raise BrokerError(f"could not {doing} on Redis at {self.where}: {exc}") from exc


def _entry_key(entry_id: str) -> tuple[int, int]:
    millis, _, seq = entry_id.partition("-")
    return int(millis), int(seq or 0)


def _redis_errors() -> type[Exception]:
    import redis

    return redis.RedisError
