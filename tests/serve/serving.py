"""The service and its HTTP API on a real loopback socket, for tests: ``async with
served(agent) as api`` gives a :class:`ServeClient` of a running server."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio

from workset.serve.app import loopback_socket, run_api
from workset.serve.client import ServeClient
from workset.serve.service import Service
from workset.session.agent import Agent
from workset.triggers.webhook import Channel

TOKEN = "test-token-0123456789"


@dataclass
class Served:
    client: ServeClient
    service: Service
    url: str


@asynccontextmanager
async def served(
    agent: Agent,
    *,
    channels: Sequence[Channel] = (),
    clock: Callable[[], float] | None = None,
    token: str = TOKEN,
) -> AsyncIterator[Served]:
    options: dict[str, Any] = {"channels": channels}
    if clock is not None:
        options["clock"] = clock
    service = Service(agent, **options)
    sock = loopback_socket()
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    stop = anyio.Event()
    async with anyio.create_task_group() as group:
        group.start_soon(functools.partial(run_api, service, sock, stop=stop, token=token))
        async with ServeClient(url, token) as client:
            yield Served(client, service, url)
        stop.set()


def until_kind(kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda record: record["kind"] == kind
