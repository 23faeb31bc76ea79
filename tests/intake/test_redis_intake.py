"""The Redis Streams intake: each entry to one worker of the group, acknowledged entries never
again, a dead worker's entries reclaimed, an entry that keeps failing moved to the dead letters,
and an unreachable server or a wrong URL reported with what to do."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

import anyio
import pytest

from workset.errors import BrokerError, UsageError
from workset.events import new_event
from workset.intake import RedisIntake
from workset.testing.servers import free_port


def run(main: Callable[[], Awaitable[None]]) -> None:
    async def bounded() -> None:
        with anyio.fail_after(30):
            await main()

    anyio.run(bounded)


def stream() -> str:
    return f"test:{secrets.token_hex(4)}"


def test_each_entry_goes_to_one_worker_and_an_acknowledged_one_never_comes_back(
    redis_url: str,
) -> None:
    name = stream()

    async def main() -> None:
        a = await RedisIntake.connect(redis_url, "a", stream=name)
        b = await RedisIntake.connect(redis_url, "b", stream=name)
        sent = [new_event("user.input", f"n{i}") for i in range(6)]
        for event in sent:
            await a.publish("s1", event, sent_at=1.5)
        got_a = await a.read(3, 0.1)
        got_b = await b.read(10, 0.1)
        ids = [d.event.id for d in got_a + got_b]
        assert sorted(ids) == sorted(e.id for e in sent)
        assert {d.session_id for d in got_a + got_b} == {"s1"} and got_a[0].sent_at == 1.5
        assert got_a[0].event == sent[0]
        for delivery in got_a + got_b:
            await a.ack(delivery)
        assert await a.pending_count() == 0
        assert await a.reclaim(0, 10) == [] and await b.read(10, 0.05) == []
        await a.aclose()
        await b.aclose()

    run(main)


def test_entries_a_dead_worker_took_are_reclaimed_by_another(redis_url: str) -> None:
    name = stream()

    async def main() -> None:
        dead = await RedisIntake.connect(redis_url, "dead", stream=name)
        alive = await RedisIntake.connect(redis_url, "alive", stream=name)
        event = new_event("user.input", "important")
        await dead.publish("s1", event, sent_at=1.0)
        assert [d.event.id for d in await dead.read(10, 0.1)] == [event.id]
        await dead.aclose()  # it dies without acknowledging

        reclaimed = await alive.reclaim(0, 10)

        assert [(d.event.id, d.deliveries) for d in reclaimed] == [(event.id, 2)]
        await alive.ack(reclaimed[0])
        assert await alive.pending_count() == 0
        await alive.aclose()

    run(main)


def test_an_entry_delivered_too_often_goes_to_the_dead_letters_with_why(redis_url: str) -> None:
    name = stream()

    async def main() -> None:
        intake = await RedisIntake.connect(redis_url, "w", stream=name, max_deliveries=3)
        event = new_event("user.input", "poison")
        await intake.publish("s1", event, sent_at=1.0)
        assert len(await intake.read(10, 0.1)) == 1  # delivery 1, never acknowledged
        assert len(await intake.reclaim(0, 10)) == 1  # 2
        assert len(await intake.reclaim(0, 10)) == 1  # 3

        assert await intake.reclaim(0, 10) == []  # a 4th is not handed out

        dead = await intake.dead_letters()
        assert [d["session"] for d in dead] == ["s1"]
        assert "delivered 3 times" in dead[0]["reason"] and dead[0]["deliveries"] == "4"
        assert event.id in dead[0]["event"]
        assert await intake.pending_count() == 0
        await intake.aclose()

    run(main)


def test_a_malformed_entry_goes_to_the_dead_letters_at_once(redis_url: str) -> None:
    name = stream()

    async def main() -> None:
        intake = await RedisIntake.connect(redis_url, "w", stream=name)
        await intake._redis.xadd(name, {"session": "s1", "event": "{not json"})
        assert await intake.read(10, 0.1) == []
        dead = await intake.dead_letters()
        assert len(dead) == 1 and "malformed entry" in dead[0]["reason"]
        await intake.aclose()

    run(main)


def test_an_unreachable_redis_is_an_error_that_names_the_url() -> None:
    url = f"redis://:secret@127.0.0.1:{free_port()}/0"

    async def main() -> None:
        with pytest.raises(BrokerError, match=r"cannot reach Redis at redis://:\*\*\*@127") as e:
            await RedisIntake.connect(url, "w")
        assert "secret" not in str(e.value) and "redis-server" in str(e.value)

    run(main)


def test_a_url_that_is_not_redis_is_refused_with_an_example() -> None:
    async def main() -> None:
        with pytest.raises(UsageError, match=r"redis://127\.0\.0\.1:6379/0"):
            await RedisIntake.connect("http://127.0.0.1:6379", "w")

    run(main)
