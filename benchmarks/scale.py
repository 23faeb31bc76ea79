"""Scale-out (SPEC C18): many sessions, a stream of events, one worker or several.

``--sessions`` sessions (200) each receive two events. Every event makes its session call a
non-idempotent tool (it appends ``session call-id`` to a shared effects file, after a short
wait) and answer: two model calls of a scripted model, so the numbers measure the runtime
(log, intake, leases, engine), not a model. First a **steady stream**: one event per session,
round-robin at ``--rate`` events per second (5); its events give the latency (publish → the
record that put the event into a model request), p50 and p99. Then a **burst**: one more
event per session, all published at once; the time to drain it gives events per second.

Four runs, in one invocation:

1. **sqlite, 1 process**: the embedded default, the publisher and one worker in one process
   with the in-process intake and a SQLite file;
2. **postgres+redis, 1 worker**: a worker process, events through Redis Streams;
3. **postgres+redis, 3 workers**;
4. **postgres+redis, 3 workers, one killed**: ``SIGKILL`` of a worker once 40% of the steady
   stream is published. Its sessions are taken over when their leases expire (3 s here) and
   its unacknowledged events are reclaimed.

Every run checks that no event was lost, none was consumed twice, no call of the
non-idempotent tool ran twice, and every session finished. Commits are durable on both
sides (SQLite ``synchronous=FULL``, PostgreSQL with ``fsync`` on). PostgreSQL and Redis are
throwaway servers started from Debian's binaries (``workset.testing.servers``), or
``$WORKSET_TEST_POSTGRES_URL`` / ``$WORKSET_TEST_REDIS_URL``.

Run: ``python -u benchmarks/scale.py`` (about five minutes on two cores).
"""

from __future__ import annotations

import argparse
import json
import math
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import anyio

from workset.events import EventReceived, InputAppended, new_event
from workset.intake import Intake, LocalIntake, RedisIntake
from workset.messages import AssistantMessage, ToolMessage
from workset.models.base import ModelRequest
from workset.session.agent import Agent, AgentConfig
from workset.stores import SessionStore, open_store
from workset.testing import FunctionModel, call
from workset.testing.servers import schema_url, test_postgres, test_redis
from workset.tools.base import Tool
from workset.tools.context import current_call
from workset.tools.registry import ToolRegistry
from workset.worker import Worker, WorkerSettings

SETTINGS = {"lease_s": 3.0, "poll_s": 0.25, "idle_close_s": 60.0, "reclaim_after_s": 3.0}


# -- the agent every worker runs ---------------------------------------------------------------


def answer(request: ModelRequest) -> AssistantMessage | str:
    """A batch of events → one call of ``record_effect``; its result → an answer."""
    last = request.messages[-1]
    if isinstance(last, ToolMessage):
        return "recorded"
    n = len(request.messages)
    return AssistantMessage(None, (call("record_effect", '{"what": "event"}', f"e{n}"),))


def agent_for(log: SessionStore, effects: Path) -> Agent:
    async def record_effect(what: str) -> str:
        """Record that an event was handled, outside the session (not idempotent).

        Args:
            what: What was handled.
        """
        await anyio.sleep(0.005)  # a window in which a worker may die mid-call
        context = current_call()
        with effects.open("a") as out:  # one short append: atomic on a local file
            out.write(f"{context.session_id} {context.call_id}\n")
        return "written"

    tool = Tool.from_function(record_effect, examples=({"what": "event"},))
    return Agent(FunctionModel(answer), ToolRegistry([tool]), log, AgentConfig(max_iterations=4))


# -- one worker process ----------------------------------------------------------------------


def worker_main(args: argparse.Namespace) -> None:
    async def go() -> None:
        with open_store(args.db) as stores:
            intake = await RedisIntake.connect(args.redis, args.name, stream=args.stream)
            settings = WorkerSettings(name=args.name, **SETTINGS)
            worker = Worker(
                agent_for(stores.log, Path(args.effects)),
                stores.leases,
                intake,
                settings,
                on_error=lambda m: None,
            )
            await anyio.Path(f"{args.effects}.{args.name}.ready").touch()
            try:
                await worker.run_until_signalled()
            finally:
                await intake.aclose()

    anyio.run(go)


# -- publishing and measuring ----------------------------------------------------------------


@dataclass
class Outcome:
    label: str
    capacity: float  # events per second while draining the burst
    latencies: list[float]  # of the steady events: publish -> into a model request
    checks: dict[str, bool]

    def quantile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def publish(
    intake: Intake,
    plan: list[tuple[str, int]],
    rate: float,
    on_progress: Callable[[int], Awaitable[None]] | None = None,
) -> None:
    """Publish ``plan`` at ``rate`` events per second (``inf``: all at once)."""
    start = time.time()
    for i, (sid, k) in enumerate(plan):
        due = start + i / rate
        if due > time.time():
            await anyio.sleep(due - time.time())
        sent = time.time()
        event = new_event(
            "user.input", content={"text": f"event {k}", "sent_at": sent}, id=f"ev-{sid}-{k}"
        )
        await intake.publish(sid, event, sent_at=sent)
        if on_progress is not None:
            await on_progress(i + 1)


async def drive(
    intake: Intake,
    log: SessionStore,
    sids: list[str],
    args: argparse.Namespace,
    on_progress: Callable[[int], Awaitable[None]] | None = None,
) -> float:
    """The steady stream (event 0 of every session), then the burst (event 1); returns when
    the burst was published."""
    await publish(intake, [(sid, 0) for sid in sids], args.rate, on_progress)
    await wait_done(log, sids, 1, args.limit)
    burst = time.time()
    await publish(intake, [(sid, 1) for sid in sids], math.inf)
    await wait_done(log, sids, 2, args.limit)
    return burst


def all_done(log: SessionStore, sids: list[str], per_session: int) -> bool:
    for sid in sids:
        if len(log.consumed(sid)) < per_session or log.get_session(sid).status != "finished":
            return False
    return True


def measure(label: str, log: SessionStore, sids: list[str], burst: float, effects: Path) -> Outcome:
    latencies: list[float] = []
    received: Counter[str] = Counter()
    consumed: Counter[str] = Counter()
    drained = burst
    unfinished = 0
    for sid in sids:
        sent_at: dict[str, float] = {}
        for stored in log.events(sid, kinds=["event_received", "input_appended"]):
            event = stored.event
            if isinstance(event, EventReceived):
                received[event.event.id] += 1
                sent_at[event.event.id] = float(event.event.content["sent_at"])
            elif isinstance(event, InputAppended):
                for event_id in event.event_ids:
                    consumed[event_id] += 1
                    if event_id.endswith("-0"):
                        latencies.append(event.at - sent_at[event_id])
                    else:
                        drained = max(drained, event.at)
        info = log.get_session(sid)
        unfinished += info.status != "finished" or bool(log.pending_events(sid))
    expected = {f"ev-{sid}-{k}" for sid in sids for k in (0, 1)}
    runs = Counter(effects.read_text().split("\n")[:-1]) if effects.exists() else Counter()
    checks = {
        "no event lost": set(consumed) == expected and set(received) == expected,
        "none consumed twice": all(n == 1 for n in consumed.values()),
        "no non-idempotent call ran twice": all(n == 1 for n in runs.values()),
        "every session finished": unfinished == 0,
    }
    return Outcome(label, len(sids) / (drained - burst), latencies, checks)


def create_sessions(log: SessionStore, n: int) -> list[str]:
    return [log.create_session(title=f"load {i}", workspace="", model="function") for i in range(n)]


async def wait_done(log: SessionStore, sids: list[str], per_session: int, limit_s: float) -> None:
    deadline = time.time() + limit_s
    while not all_done(log, sids, per_session):
        if time.time() > deadline:
            raise SystemExit(f"not finished within {limit_s:g} s")
        await anyio.sleep(0.25)


# -- the four runs -----------------------------------------------------------------------------


def run_sqlite(args: argparse.Namespace, folder: Path) -> Outcome:
    effects = folder / "sqlite-effects.txt"

    async def go() -> Outcome:
        with open_store(folder / "sqlite.db") as stores:
            sids = create_sessions(stores.log, args.sessions)
            intake = LocalIntake()
            settings = WorkerSettings(name="solo", **SETTINGS)
            worker = Worker(agent_for(stores.log, effects), stores.leases, intake, settings)
            async with anyio.create_task_group() as group:
                group.start_soon(worker.run)
                burst = await drive(intake, stores.log, sids, args)
                group.cancel_scope.cancel()
            await intake.aclose()
            return measure("sqlite, 1 process", stores.log, sids, burst, effects)

    return anyio.run(go)


def run_distributed(
    args: argparse.Namespace,
    folder: Path,
    pg_url: str,
    redis_url: str,
    workers: int,
    kill: bool,
) -> Outcome:
    tag = f"{workers}w{'k' if kill else ''}"
    db = schema_url(pg_url, f"scale_{tag}_{secrets.token_hex(3)}")
    stream = f"scale:{tag}:{secrets.token_hex(3)}"
    effects = folder / f"effects-{tag}.txt"
    with open_store(db) as stores:
        sids = create_sessions(stores.log, args.sessions)
        command = [sys.executable, __file__, "worker", "--db", db, "--redis", redis_url,
                   "--stream", stream, "--effects", str(effects)]  # fmt: skip
        procs = [subprocess.Popen([*command, "--name", f"w{n}"]) for n in range(workers)]
        killed: list[int] = []
        while not all(Path(f"{effects}.w{n}.ready").exists() for n in range(workers)):
            time.sleep(0.05)  # the workers are starting (imports, connections)

        async def progress(published: int) -> None:
            if kill and not killed and published >= 0.4 * len(sids):
                procs[0].send_signal(signal.SIGKILL)
                killed.append(published)

        async def go() -> Outcome:
            publisher = await RedisIntake.connect(redis_url, "publisher", stream=stream)
            burst = await drive(publisher, stores.log, sids, args, progress)
            await publisher.aclose()
            label = f"postgres+redis, {workers} worker{'s' if workers > 1 else ''}"
            label += ", one killed" if kill else ""
            return measure(label, stores.log, sids, burst, effects)

        try:
            return anyio.run(go)
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.terminate()
            for proc in procs:
                proc.wait()


def report(outcomes: list[Outcome], rate: float) -> None:
    base = outcomes[0]
    print(f"\n{'run':<40} {'burst ev/s':>10} {'vs sqlite':>9}   latency at {rate:g} ev/s: p50, p99")
    for o in outcomes:
        print(
            f"{o.label:<40} {o.capacity:>10.1f} {o.capacity / base.capacity:>8.2f}x   "
            f"{1000 * o.quantile(0.5):>8.0f} ms {1000 * o.quantile(0.99):>8.0f} ms"
        )
    print()
    for o in outcomes:
        failed = [name for name, ok in o.checks.items() if not ok]
        verdict = "all checks passed" if not failed else "FAILED " + ", ".join(failed)
        print(f"{o.label}: {verdict} ({', '.join(o.checks)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="role")
    w = sub.add_parser("worker")
    for name in ("--db", "--redis", "--stream", "--name", "--effects"):
        w.add_argument(name, required=True)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--rate", type=float, default=5.0, help="the steady stream, events/s")
    parser.add_argument("--limit", type=float, default=300.0, help="seconds a run may take")
    args = parser.parse_args()
    if args.role == "worker":
        worker_main(args)
        return
    folder = Path(tempfile.mkdtemp(prefix="workset-scale-"))
    print(f"{args.sessions} sessions: one event each at {args.rate:g}/s, then one each at once")
    outcomes = [run_sqlite(args, folder)]
    print(f"done: {outcomes[-1].label}", flush=True)
    with test_postgres(durable=True) as pg, test_redis() as redis_url:
        database = pg.create_database(f"scale_{secrets.token_hex(3)}")
        for workers, kill in ((1, False), (3, False), (3, True)):
            outcomes.append(run_distributed(args, folder, database, redis_url, workers, kill))
            print(f"done: {outcomes[-1].label}", flush=True)
    report(outcomes, args.rate)
    print(
        json.dumps(
            {
                o.label: {
                    "burst_events_per_s": round(o.capacity, 1),
                    "p50_ms": round(1000 * o.quantile(0.5), 1),
                    "p99_ms": round(1000 * o.quantile(0.99), 1),
                    "checks": o.checks,
                }
                for o in outcomes
            }
        )
    )
    if not all(all(o.checks.values()) for o in outcomes):
        sys.exit(1)


if __name__ == "__main__":
    main()
