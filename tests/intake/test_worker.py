"""Workers: an event taken from the intake is durable in the session's inbox before it is
acknowledged, the session is served by the one worker holding its lease, and a dead worker's
sessions are taken over once its lease expires, without re-running a call with side effects."""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import pytest

from workset.events import (
    EventReceived,
    InputAppended,
    LoopEvent,
    ModelCalled,
    RunFinished,
    RunStarted,
    ToolFinished,
    ToolStarted,
    new_event,
)
from workset.intake import Intake, LocalIntake, RedisIntake
from workset.messages import AssistantMessage, ToolMessage
from workset.models.base import ModelRequest, Usage
from workset.session.agent import Agent
from workset.stores import Stores, open_store
from workset.testing import FunctionModel, call
from workset.tools.base import Tool
from workset.tools.registry import ToolRegistry
from workset.worker import Worker, WorkerSettings

FAST = {"lease_s": 0.6, "poll_s": 0.05, "idle_close_s": 0.2, "reclaim_after_s": 0.5}


class Seen:
    """A bus subscriber that lets a test wait until the records it wants have appeared."""

    def __init__(self) -> None:
        self.records: list[LoopEvent] = []
        self._changed = anyio.Event()

    def __call__(self, event: LoopEvent) -> None:
        self.records.append(event)
        self._changed.set()
        self._changed = anyio.Event()

    async def until(self, check: Callable[[list[LoopEvent]], bool]) -> None:
        while not check(self.records):
            await self._changed.wait()


def answer(request: ModelRequest) -> AssistantMessage | str:
    last = request.messages[-1]
    if isinstance(last, ToolMessage):
        return "noted"
    if "effect" in (last.content or ""):
        n = len(request.messages)
        return AssistantMessage(None, (call("note", '{"what": "x"}', call_id=f"c{n}"),))
    return f"answered {last.content}"


def note_tool(effects: list[str]) -> Tool:
    async def note(what: str) -> str:
        """Write a note somewhere outside (a side effect). Use when asked to.

        Args:
            what: The note.
        """
        effects.append(what)
        return "written"

    return Tool.from_function(note, examples=({"what": "x"},))


def agent_on(stores: Stores, seen: Seen, effects: list[str] | None = None) -> Agent:
    tools = [note_tool(effects if effects is not None else [])]
    return Agent(FunctionModel(answer), ToolRegistry(tools), stores.log, subscribers=[seen])


def run(main: Callable[[], Awaitable[None]], timeout: float = 30) -> None:
    async def bounded() -> None:
        with anyio.fail_after(timeout):
            await main()

    anyio.run(bounded)


def finished_runs(records: list[LoopEvent]) -> int:
    return sum(isinstance(r, RunFinished) for r in records)


def test_a_worker_records_an_event_before_acknowledging_it_and_answers(tmp_path: Path) -> None:
    with open_store(tmp_path / "log.db") as stores:
        sid = stores.log.create_session(title="t", workspace="", model="m")
        seen, intake = Seen(), LocalIntake()
        worker = Worker(agent_on(stores, seen), stores.leases, intake,
                        WorkerSettings(name="w1", **FAST))  # fmt: skip

        async def main() -> None:
            async with anyio.create_task_group() as group:
                group.start_soon(worker.run)
                await intake.publish(sid, new_event("user.input", "hello", id="ev-1"), sent_at=1)
                await seen.until(lambda r: finished_runs(r) == 1)
                while worker.owned:  # idle: closed and released
                    await worker.wait_for_change()
                group.cancel_scope.cancel()
            await intake.aclose()

        run(main)
        kinds = [s.kind for s in stores.log.events(sid)]
        assert kinds.index("event_received") < kinds.index("input_appended")
        assert stores.log.consumed(sid) == frozenset({"ev-1"})
        assert stores.log.messages(sid)[-1].content == "answered hello"
        assert stores.leases.holder(f"session:{sid}", time.time()) is None


def test_a_delivery_for_an_unknown_session_goes_to_the_dead_letters(tmp_path: Path) -> None:
    with open_store(tmp_path / "log.db") as stores:
        intake = LocalIntake()
        worker = Worker(agent_on(stores, Seen()), stores.leases, intake,
                        WorkerSettings(name="w1", **FAST))  # fmt: skip

        async def main() -> None:
            await intake.publish("s-missing", new_event("user.input", "hi"), sent_at=1)
            (delivery,) = await intake.read(1, 0.1)
            assert not await worker.receive(delivery)
            await intake.aclose()

        run(main)
        assert len(intake.rejected) == 1 and "no session 's-missing'" in intake.rejected[0][1]


def test_two_workers_share_sessions_and_consume_every_event_once(
    postgres_url: str, redis_url: str
) -> None:
    stream = f"test:{secrets.token_hex(4)}"
    with open_store(postgres_url) as a_stores, open_store(postgres_url) as b_stores:
        sids = [a_stores.log.create_session(title=f"s{i}", workspace="", model="m")
                for i in range(6)]  # fmt: skip
        seen = Seen()  # both workers' records
        sent = {sid: [new_event("user.input", f"q{n}") for n in range(4)] for sid in sids}

        async def main() -> None:
            intakes: list[Intake] = [
                await RedisIntake.connect(redis_url, name, stream=stream) for name in ("a", "b")
            ]
            publisher = await RedisIntake.connect(redis_url, "publisher", stream=stream)
            workers = [
                Worker(agent_on(s, seen), s.leases, intake, WorkerSettings(name=n, **FAST))
                for s, seen, intake, n in (
                    (a_stores, seen, intakes[0], "a"), (b_stores, seen, intakes[1], "b"),
                )
            ]  # fmt: skip
            async with anyio.create_task_group() as group:
                for worker in workers:
                    group.start_soon(worker.run)
                for n in range(4):
                    for sid in sids:
                        await publisher.publish(sid, sent[sid][n], sent_at=time.time())

                await seen.until(
                    lambda _: (
                        all(len(a_stores.log.consumed(s)) == 4 for s in sids)
                        and all(a_stores.log.get_session(s).status == "finished" for s in sids)
                    )
                )
                group.cancel_scope.cancel()
            for intake in [*intakes, publisher]:
                await intake.aclose()

        run(main, timeout=60)
        for sid in sids:
            consumed = [
                e for s in a_stores.log.events(sid, kinds=["input_appended"])
                if isinstance(s.event, InputAppended) for e in s.event.event_ids
            ]  # fmt: skip
            assert sorted(consumed) == sorted(e.id for e in sent[sid])  # each exactly once
            assert len(a_stores.log.events(sid, kinds=["event_received"])) == 4
        assert finished_runs(seen.records) >= len(sids)


def test_a_dead_workers_session_is_taken_over_without_rerunning_its_side_effect(
    tmp_path: Path,
) -> None:
    with open_store(tmp_path / "log.db") as stores:
        log = stores.log
        sid = log.create_session(title="t", workspace="", model="m")
        effects: list[str] = []
        # What a worker that died mid-call left: its lease, a started call, a waiting event.
        stale = call("note", '{"what": "x"}', call_id="c-dead")
        log.append(RunStarted("r0", sid, "", "m", 1.0))
        log.append(InputAppended(sid, "r0", "write the effect", 1.0))
        log.append(ModelCalled("r0", sid, 1, _manifest(sid), AssistantMessage(None, (stale,)),
                               Usage(1, 1), 1.0))  # fmt: skip
        log.append(ToolStarted("r0", sid, stale, 1.1))
        log.append(EventReceived(sid, new_event("user.input", "and then?", id="ev-late"), 1.2))
        assert stores.leases.acquire(f"session:{sid}", "dead", 0.3, time.time())
        seen, intake = Seen(), LocalIntake()
        worker = Worker(agent_on(stores, seen, effects), stores.leases, intake,
                        WorkerSettings(name="alive", **FAST))  # fmt: skip

        async def main() -> None:
            async with anyio.create_task_group() as group:
                group.start_soon(worker.run)
                await seen.until(lambda r: finished_runs(r) >= 1 and "ev-late" in log.consumed(sid))
                group.cancel_scope.cancel()
            await intake.aclose()

        run(main)
        results = [s.event for s in log.events(sid, kinds=["tool_finished"])]
        assert isinstance(results[0], ToolFinished) and results[0].call.id == "c-dead"
        assert results[0].interrupted and "not run again" in results[0].result.content
        assert effects == []  # the call that may have had effects was not run a second time
        assert log.messages(sid)[-1].content == "answered and then?"


def _manifest(sid: str) -> Manifest:
    return Manifest(
        "r", sid, 1, 1, "exact", BudgetNumbers(100, 10, 1, 1, 88, 1), {}, PrefixInfo("h", 1, 0, 0)
    )


from workset.context.manifest import BudgetNumbers, Manifest, PrefixInfo  # noqa: E402

pytestmark = pytest.mark.timeout(120)


def test_a_session_whose_run_failed_waits_for_the_next_event_instead_of_retrying(
    tmp_path: Path,
) -> None:
    from workset.errors import ModelUnavailableError
    from workset.events import RunFailed
    from workset.testing import ScriptedModel

    with open_store(tmp_path / "log.db") as stores:
        sid = stores.log.create_session(title="t", workspace="", model="m")
        seen, intake = Seen(), LocalIntake()
        model = ScriptedModel([ModelUnavailableError("the endpoint is down"), "back again"])
        agent = Agent(model, ToolRegistry([]), stores.log, subscribers=[seen])
        worker = Worker(agent, stores.leases, intake, WorkerSettings(name="w1", **FAST))

        async def main() -> None:
            async with anyio.create_task_group() as group:
                group.start_soon(worker.run)
                await intake.publish(sid, new_event("user.input", "one", id="ev-1"), sent_at=1)
                await seen.until(lambda r: any(isinstance(e, RunFailed) for e in r))
                while worker.owned:  # it waits, then closes the session: no retry loop
                    await worker.wait_for_change()
                await intake.publish(sid, new_event("user.input", "two", id="ev-2"), sent_at=2)
                await seen.until(lambda r: finished_runs(r) == 1)
                group.cancel_scope.cancel()
            await intake.aclose()

        run(main)
        assert sum(isinstance(e, RunFailed) for e in seen.records) == 1
        assert len(model.requests) == 2
        assert stores.log.messages(sid)[-1].content == "back again"
