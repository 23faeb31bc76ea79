"""Talking to a running ``workset serve``, and queueing for a session when none runs.

:class:`ServeClient` is the HTTP API as Python calls (``workset send``, the email example and
the tests use it): a refusal raises :class:`~workset.serve.service.Refused` with the
server's status and message. :meth:`ServeClient.records` reads a session's record stream
(Server-Sent Events) from a sequence number, so a client that reconnects loses nothing.

:func:`post_offline` is what ``workset send`` does when no server runs: the event is appended
to the session's inbox in the log, durably, and taken at the session's next run
(``workset resume SESSION``, or the next ``workset serve``, which opens sessions that have
events waiting).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import replace
from types import TracebackType
from typing import Any

import anyio
import httpx

from workset.events import Event, EventReceived
from workset.serve.service import Delivery, Refused, accepts_events
from workset.stores.protocols import SessionStore
from workset.triggers.webhook import signed_headers

STREAM_READ_TIMEOUT_S = 60.0  # the server sends a heartbeat every 15 s


class ServeClient:
    """An async client of one server; use as ``async with ServeClient(url, token) as c``."""

    def __init__(self, url: str, token: str = "", *, timeout_s: float = 30.0) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.url = url
        self._http = httpx.AsyncClient(base_url=url, headers=headers, timeout=timeout_s)

    async def __aenter__(self) -> ServeClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self._http.aclose()

    async def _call(self, method: str, path: str, **options: Any) -> Any:
        try:
            response = await self._http.request(method, path, **options)
        except httpx.HTTPError as exc:
            raise Refused(
                503, f"workset serve at {self.url} cannot be reached ({exc}); is it running?"
            ) from exc
        return _answer(response)

    async def create_session(self, session_id: str | None = None, title: str = "") -> str:
        body: dict[str, str] = {"title": title}
        if session_id is not None:
            body["id"] = session_id
        created = await self._call("POST", "/sessions", json=body)
        return str(created["id"])

    async def send(self, session: str, event: dict[str, Any]) -> Delivery:
        """Deliver an event (the JSON shape ``event_from_json`` takes)."""
        return _delivery(await self._call("POST", f"/sessions/{session}/events", json=event))

    async def status(self, session: str) -> dict[str, Any]:
        found: dict[str, Any] = await self._call("GET", f"/sessions/{session}")
        return found

    async def tasks(self, session: str) -> dict[str, Any]:
        found: dict[str, Any] = await self._call("GET", f"/sessions/{session}/tasks")
        return found

    async def wait_idle(self, session: str, timeout_s: float = 300.0) -> dict[str, Any]:
        """The session's status once it is idle; asks again while the server answers that
        it is still working (each ask waits at most 5 minutes), until ``timeout_s``."""
        deadline = anyio.current_time() + timeout_s
        while True:
            left = max(1, int(deadline - anyio.current_time()))
            try:
                found: dict[str, Any] = await self._call(
                    "GET", f"/sessions/{session}/idle", params={"timeout": left},
                    timeout=left + 10,
                )  # fmt: skip
                return found
            except Refused as exc:
                if exc.status != 504 or anyio.current_time() >= deadline:
                    raise

    async def hook(
        self, channel: str, payload: dict[str, Any], secret: str, *, event_id: str = ""
    ) -> Delivery:
        """POST ``payload`` to a webhook channel, signed with its secret."""
        body = json.dumps(payload).encode()
        headers = signed_headers(secret, body, event_id=event_id)
        return _delivery(
            await self._call("POST", f"/hooks/{channel}", content=body, headers=headers)
        )

    async def records(self, session: str, after: int = 0) -> AsyncIterator[dict[str, Any]]:
        """The session's records after seq ``after``, as the server appends them (each a
        dict with ``seq``, ``kind``, ``at`` and ``record``), until the server closes."""
        timeout = httpx.Timeout(30.0, read=STREAM_READ_TIMEOUT_S)
        path = f"/sessions/{session}/stream"
        async with self._http.stream(
            "GET", path, params={"after": after}, timeout=timeout
        ) as response:
            if response.status_code != 200:
                await response.aread()
                _answer(response)
            data: list[str] = []
            async for line in response.aiter_lines():
                if line.startswith("data:"):
                    data.append(line[5:].removeprefix(" "))
                elif not line and data:
                    yield json.loads("\n".join(data))
                    data = []


def _answer(response: httpx.Response) -> Any:
    try:
        body = response.json()
    except ValueError:
        body = {"error": response.text[:500]}
    if response.status_code >= 400:
        message = body.get("error") if isinstance(body, dict) else None
        raise Refused(response.status_code, str(message or body))
    return body


def _delivery(body: dict[str, Any]) -> Delivery:
    return Delivery(str(body["session"]), str(body["event_id"]), str(body["strategy"]))


def post_offline(log: SessionStore, session: str, event: Event) -> Delivery:
    """Append ``event`` to the inbox of ``session`` (an id or a unique prefix) when no server
    runs: recorded durably, consumed at the session's next run. ``queue`` (nothing runs, so
    nothing is interrupted), or ``duplicate`` when the log had that event id already."""
    session_id = log.resolve(session)
    accepts_events(log.get_session(session_id))
    before = log.last_seq(session_id)
    now = event.at
    seq = log.append(EventReceived(session_id, replace(event, at=now), now, "queue"))
    return Delivery(session_id, event.id, "queue" if seq > before else "duplicate")
