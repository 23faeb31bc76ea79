"""``workset worker``: serve sessions from a shared store and a Redis stream (run several)."""

from __future__ import annotations

import anyio
import click

from workset.cli.runtime import RuntimeOptions, err, model_options, open_runtime
from workset.intake.redis_streams import DEFAULT_STREAM, MAX_DELIVERIES, RedisIntake
from workset.loop.settings import RunResult
from workset.stores import open_store
from workset.stores.url import default_store
from workset.worker import Worker, WorkerSettings, default_worker_name


@click.command(
    "worker",
    help="Serve sessions from the shared store (--db, e.g. postgresql://…) and the Redis "
    "event stream; run one per core or machine. Each session is served by one worker at a "
    "time (a lease); a dead worker's sessions and events are taken over. Ctrl-C stops.",
)
@click.option(
    "--redis",
    "redis_url",
    envvar="WORKSET_REDIS",
    required=True,
    metavar="URL",
    help="The Redis server of the event stream, e.g. redis://127.0.0.1:6379/0 (or $WORKSET_REDIS).",
)
@click.option(
    "--stream",
    default=DEFAULT_STREAM,
    show_default=True,
    help="The stream events are published to (its dead letters: STREAM:dead).",
)
@click.option("--name", default=None, help="This worker's name (default: HOST-PID).")
@click.option(
    "--lease",
    "lease_s",
    type=float,
    default=15.0,
    show_default=True,
    help="Seconds a session stays with a worker that stopped answering.",
)
@click.option(
    "--max-deliveries",
    type=int,
    default=MAX_DELIVERIES,
    show_default=True,
    help="Deliveries of one event before it goes to the dead letters.",
)
@model_options
def worker_command(
    redis_url: str,
    stream: str,
    name: str | None,
    lease_s: float,
    max_deliveries: int,
    opts: RuntimeOptions,
) -> None:  # fmt: skip
    if lease_s <= 0:
        raise click.UsageError("--lease must be more than 0 seconds")
    settings = WorkerSettings(name=name or default_worker_name(), lease_s=lease_s)
    stores = open_store(opts.db or default_store())
    try:
        rt = open_runtime(opts, log=stores.log)

        async def serve() -> None:
            intake = await RedisIntake.connect(
                redis_url, settings.name, stream=stream, max_deliveries=max_deliveries
            )
            worker = Worker(rt.agent, stores.leases, intake, settings, on_result=_result)
            ready = (
                f"worker {settings.name}: sessions in {stores.where}, events from "
                f"{intake.where} ({stream})"
            )
            try:
                await worker.run_until_signalled(on_ready=lambda: err.print(ready))
            finally:
                await intake.aclose()
                rt.setup.close()
                await rt.aclose()

        anyio.run(serve)
    finally:
        stores.close()
    err.print(f"worker {settings.name} stopped; its sessions are free for other workers")


def _result(result: RunResult) -> None:
    err.print(f"session {result.session_id}: run {result.run_id} {result.status}")
