"""One ``httpx.AsyncClient`` per event loop, closed with its loop.

A model object may serve several event loops in turn (one per ``anyio.run``); pooled
connections belong to the loop that opened them.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass

import httpx
from anyio.lowlevel import RunVar


class ClientPerLoop:
    """One ``httpx.AsyncClient`` per event loop, closed when that loop finishes.

    Pooled connections belong to the loop that opened them: reused from another loop they
    fail ("Event loop is closed"), and a client dropped with its loop leaks their sockets. So
    each loop gets its own client, owned by a parked async generator: event loops close the
    async generators still alive when they finish (asyncio's ``shutdown_asyncgens``, trio
    likewise), and closing this one closes the client while its loop still runs.
    """

    def __init__(self, make: Callable[[], httpx.AsyncClient]) -> None:
        self._make = make
        self._current: RunVar[_OwnedClient | None] = RunVar("workset_http_client", None)

    async def get(self) -> httpx.AsyncClient:
        owned = self._current.get()
        if owned is None:
            client = self._make()
            owner = _close_with_the_loop(client)
            await owner.asend(None)
            owned = _OwnedClient(client, owner)
            self._current.set(owned)
        return owned.client

    async def aclose(self) -> None:
        owned = self._current.get()
        if owned is not None:
            self._current.set(None)
            await owned.owner.aclose()


@dataclass(frozen=True, slots=True)
class _OwnedClient:
    client: httpx.AsyncClient
    owner: AsyncGenerator[None, None]


async def _close_with_the_loop(client: httpx.AsyncClient) -> AsyncGenerator[None, None]:
    try:
        yield
    finally:
        await client.aclose()
