"""The HTTP API of ``workset serve``: a starlette app over a :class:`~.service.Service`.

============================  =====================================================  ========
route                         what                                                   auth
============================  =====================================================  ========
GET  /health                  ``{"ok", "pid"}``: is this the server the state says    none
GET  /sessions                the recent sessions                                     token
POST /sessions                create one: ``{"id"?, "title"?}`` → 201                 token
GET  /sessions/{id}           its status (busy, idle, pending events, last result)    token
POST /sessions/{id}/events    deliver an event (``event_from_json``'s shape) → 202    token
                              with the strategy and event id; 200 for a duplicate id
GET  /sessions/{id}/stream    its records as Server-Sent Events from ``?after=SEQ``   token
                              (or ``Last-Event-ID``); ``id:`` is each record's seq
GET  /sessions/{id}/tasks     background tasks and timers                             token
GET  /sessions/{id}/idle      wait until it has nothing left to do; its status        token
POST /hooks/{channel}         a signed webhook (:mod:`workset.triggers.webhook`)      HMAC
============================  =====================================================  ========

The token (``Authorization: Bearer …``) is written to the server's state file, readable by
its owner only: any local process or web page could otherwise reach a loopback port. Every
error is a JSON object ``{"error": "..."}`` saying what to do.

It is served by uvicorn on a socket the caller bound (:func:`serve_http`); uvicorn's own
signal handling is off, because ``workset serve`` shuts down on SIGINT/SIGTERM itself and
must exit 0 rather than re-raise the signal.
"""

from __future__ import annotations

import contextlib
import functools
import hmac
import json
import os
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from workset.errors import UsageError, WorksetError
from workset.events import event_from_json
from workset.events.inputs import MAX_EVENT_BYTES
from workset.serve.service import Refused, Service, record_json

IDLE_TIMEOUT_S = 300.0
MAX_BODY_BYTES = 2 * MAX_EVENT_BYTES  # an event's content, with room for its JSON envelope
ROUTES = (
    "GET /health",
    "GET /sessions",
    "POST /sessions",
    "GET /sessions/{id}",
    "POST /sessions/{id}/events",
    "GET /sessions/{id}/stream?after=SEQ",
    "GET /sessions/{id}/tasks",
    "GET /sessions/{id}/idle?timeout=S",
    "POST /hooks/{channel}",
)


def create_app(service: Service, *, token: str | None = None) -> Starlette:
    """The API over ``service``; ``token`` None leaves the session routes open (tests,
    in-process use on a socket nobody else reaches)."""

    async def health(request: Request) -> Response:
        return JSONResponse(
            {"ok": True, "pid": os.getpid(), "db": service.log.where, "routes": ROUTES}
        )

    async def list_sessions(request: Request) -> Response:
        limit = _int(request.query_params.get("limit", "50"), "limit")
        return JSONResponse({"sessions": service.sessions(limit)})

    async def create_session(request: Request) -> Response:
        body = await _json(request, allow_empty=True)
        if not isinstance(body, dict) or set(body) - {"id", "title"}:
            raise Refused(400, 'create a session with {"id": "optional-name", "title": "…"}')
        session_id, title = body.get("id"), body.get("title", "")
        if not isinstance(session_id, str | None) or not isinstance(title, str):
            raise Refused(400, "a session's 'id' and 'title' must be strings")
        created = service.create_session(session_id=session_id, title=title)
        return JSONResponse(service.status(created), status_code=201)

    async def status(request: Request) -> Response:
        return JSONResponse(service.status(request.path_params["session"]))

    async def post_event(request: Request) -> Response:
        session = request.path_params["session"]
        service.resolve(session)  # an unknown session is a 404 before the body is judged
        event = event_from_json(await _json(request), channel="api", trusted=True)
        delivered = await service.deliver(session, event)
        code = 200 if delivered.strategy == "duplicate" else 202
        return JSONResponse(delivered.to_json(), status_code=code)

    async def tasks(request: Request) -> Response:
        return JSONResponse(service.tasks(request.path_params["session"]))

    async def idle(request: Request) -> Response:
        session = request.path_params["session"]
        service.resolve(session)
        timeout = min(float(_int(request.query_params.get("timeout", "300"), "timeout")),
                      IDLE_TIMEOUT_S)  # fmt: skip
        with anyio.move_on_after(timeout):
            return JSONResponse(await service.wait_idle(session))
        raise Refused(504, f"session {session} was still working after {timeout:g} s; ask again")

    async def stream(request: Request) -> Response:
        session = request.path_params["session"]
        service.resolve(session)
        start = request.query_params.get("after") or request.headers.get("last-event-id") or "0"
        after = _int(start, "after")

        async def events() -> AsyncIterator[str]:
            async for stored in service.records(session, after):
                if stored is None:
                    yield ": still here\n\n"
                    continue
                data = json.dumps(record_json(stored), ensure_ascii=False)
                yield f"id: {stored.seq}\nevent: {stored.kind}\ndata: {data}\n\n"

        return StreamingResponse(
            events(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    async def hook(request: Request) -> Response:
        body = await _body(request)
        delivered = await service.hook(request.path_params["channel"], request.headers, body)
        code = 200 if delivered.strategy == "duplicate" else 202
        return JSONResponse(delivered.to_json(), status_code=code)

    routes = [
        Route("/health", health),
        Route("/sessions", list_sessions, methods=["GET"]),
        Route("/sessions", create_session, methods=["POST"]),
        Route("/sessions/{session}", status),
        Route("/sessions/{session}/events", post_event, methods=["POST"]),
        Route("/sessions/{session}/stream", stream),
        Route("/sessions/{session}/tasks", tasks),
        Route("/sessions/{session}/idle", idle),
        Route("/hooks/{channel}", hook, methods=["POST"]),
    ]
    middleware = [Middleware(_Auth, token=token)] if token else []
    return Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={
            Refused: _refused,
            UsageError: _usage,
            WorksetError: _failure,
            HTTPException: _http,
        },
    )


class _Auth:
    """ASGI middleware: the session routes need the bearer token (compared in constant time)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and path != "/health" and not path.startswith("/hooks/"):
            given = Headers(scope=scope).get("authorization", "").encode()
            if not hmac.compare_digest(given, self.expected):
                refusal = _error(
                    401,
                    "missing or wrong token: send 'Authorization: Bearer <token>' with the "
                    "token from the server's state file (<session db>.serve.json)",
                )
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _body(request: Request) -> bytes:
    """The request body, refused unread when it says it is too large."""
    declared = request.headers.get("content-length", "0")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise Refused(
            413,
            f"the body is {declared} bytes, over the {MAX_BODY_BYTES} limit; send less and "
            "point to the rest (a path or URL)",
        )
    return await request.body()


async def _json(request: Request, *, allow_empty: bool = False) -> Any:
    raw = await _body(request)
    if not raw.strip() and allow_empty:
        return {}
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise Refused(
            400,
            f"the body is not JSON ({exc}); send an object like "
            '{"type": "user.input", "content": {"text": "…"}}',
        ) from None


def _int(value: str, name: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise Refused(400, f"{name} must be a whole number, not {value[:40]!r}") from None


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    return _error(exc.status, str(exc))


async def _usage(request: Request, exc: Exception) -> Response:
    return _error(400, f"{exc}; nothing was recorded")


async def _failure(request: Request, exc: Exception) -> Response:
    return _error(500, f"{type(exc).__name__}: {exc}")


async def _http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        return _error(404, f"no route {request.url.path}; the routes are listed in GET /health")
    if exc.status_code == 405:
        return _error(405, f"{request.method} is not allowed on {request.url.path}")
    return _error(exc.status_code, str(exc.detail))


# -- serving ------------------------------------------------------------------------------


class _Server(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield  # the caller handles SIGINT/SIGTERM (and must not have them re-raised)


def loopback_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening TCP socket; connections queue on it until the server accepts them."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise UsageError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}; pick another --port "
            "(0 takes a free one)"
        ) from exc
    sock.setblocking(False)
    return sock


async def serve_http(app: Starlette, sock: socket.socket, *, stop: anyio.Event) -> None:
    """Serve ``app`` on ``sock`` until ``stop`` is set; then finish open requests (streams
    end when the service closes), close ``sock`` and return."""
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=5
    )
    server = _Server(config)
    async with anyio.create_task_group() as group:

        async def stopper() -> None:
            await stop.wait()
            server.should_exit = True

        group.start_soon(stopper)
        try:
            await server.serve(sockets=[sock])
        finally:  # also when stopped before the server took the socket over
            sock.close()
        group.cancel_scope.cancel()


async def run_api(
    service: Service,
    sock: socket.socket,
    *,
    stop: anyio.Event,
    token: str | None = None,
    on_ready: Callable[[], None] | None = None,
    resume: bool = True,
) -> None:
    """Serve ``service`` and its API on ``sock`` until ``stop`` is set, then shut down in
    order: take nothing more, end the streams and cancel running steps, finish open requests.
    ``on_ready`` is called once sessions with waiting work are open and the socket serves."""
    async with service.running(resume=resume):
        http_stop = anyio.Event()
        async with anyio.create_task_group() as group:
            group.start_soon(
                functools.partial(
                    serve_http, create_app(service, token=token), sock, stop=http_stop
                )
            )
            if on_ready is not None:
                on_ready()
            await stop.wait()
            service.close()
            http_stop.set()
