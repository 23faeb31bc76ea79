"""A real HTTP server on 127.0.0.1 that answers chat-completions requests from a script.

Each test scripts the replies in order (``server.script(reply, reply, ...)``); every request
is recorded. Replies are functions of the request handler, built by the helpers below.
By default every connection closes after one reply (HTTP/1.0); ``keep_alive=True`` speaks
HTTP/1.1 and keeps connections open for the client to reuse, as real servers do (use it
only with replies that end their body: JSON and event streams).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = Callable[["_Handler"], None]


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: Mapping[str, str]
    body: Any


class FakeOpenAIServer:
    def __init__(self, *, keep_alive: bool = False) -> None:
        self.requests: list[RecordedRequest] = []
        self.release = threading.Event()  # hanging replies wait on this until teardown
        self.connections_opened = 0
        self.connections_closed = 0
        self._replies: list[Reply] = []
        self._lock = threading.Lock()
        self._connections = threading.Condition()
        handler = _KeepAliveHandler if keep_alive else _Handler
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._httpd.fake = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._replies.extend(replies)

    def _next(self, request: RecordedRequest) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self._replies:
                return self._replies.pop(0)
        return json_reply({"error": {"message": "the test script has no reply left"}}, 500)

    def wait_for_closed_connections(self, count: int, timeout_s: float = 10.0) -> bool:
        """Wait until clients have closed ``count`` connections; False if they did not."""
        with self._connections:
            return self._connections.wait_for(
                lambda: self.connections_closed >= count, timeout=timeout_s
            )

    def _connection(self, opened: bool) -> None:
        with self._connections:
            if opened:
                self.connections_opened += 1
            else:
                self.connections_closed += 1
            self._connections.notify_all()

    def _serve(self) -> None:
        self._httpd.serve_forever(poll_interval=0.02)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.release.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


@contextmanager
def running_server(*, keep_alive: bool = False) -> Iterator[FakeOpenAIServer]:
    server = FakeOpenAIServer(keep_alive=keep_alive)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class _Handler(BaseHTTPRequestHandler):
    def setup(self) -> None:
        super().setup()
        self.server.fake._connection(opened=True)  # type: ignore[attr-defined]

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.fake._connection(opened=False)  # type: ignore[attr-defined]

    def do_POST(self) -> None:
        self._serve()

    def do_GET(self) -> None:
        self._serve()

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        request = RecordedRequest(self.command, self.path, dict(self.headers.items()), body)
        fake: FakeOpenAIServer = self.server.fake  # type: ignore[attr-defined]
        fake._next(request)(self)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _KeepAliveHandler(_Handler):
    protocol_version = "HTTP/1.1"


def raw_reply(
    body: bytes | str,
    status: int = 200,
    content_type: str = "application/json",
    headers: Mapping[str, str] | None = None,
) -> Reply:
    data = body.encode() if isinstance(body, str) else body

    def reply(handler: _Handler) -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(data)

    return reply


def json_reply(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Reply:
    return raw_reply(json.dumps(body), status, headers=headers)


def sse_reply(chunks: Sequence[Mapping[str, Any] | str], *, done: bool = True) -> Reply:
    """Stream each chunk as one server-sent event (dicts as JSON), then ``[DONE]``.

    On a kept-alive connection the events go chunk-encoded, so the body has a known end.
    """

    def reply(handler: _Handler) -> None:
        chunked = handler.protocol_version == "HTTP/1.1"
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        if chunked:
            handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()

        def send(data: bytes) -> None:
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(data), data) if chunked else data)
            handler.wfile.flush()

        for chunk in chunks:
            text = chunk if isinstance(chunk, str) else json.dumps(chunk)
            send(f"data: {text}\n\n".encode())
        if done:
            send(b"data: [DONE]\n\n")
        if chunked:
            send(b"")  # the last, empty chunk

    return reply


def truncated_reply() -> Reply:
    """Promise a longer body than is sent, then close: the connection breaks mid-response."""

    def reply(handler: _Handler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", "1000")
        handler.end_headers()
        handler.wfile.write(b'{"choices": [')

    return reply


def hang_reply() -> Reply:
    """Never answer: wait until the server is stopped, then close the connection."""

    def reply(handler: _Handler) -> None:
        handler.server.fake.release.wait()  # type: ignore[attr-defined]

    return reply


def completion_json(content: str = "ok", **usage: Any) -> dict[str, Any]:
    """A whole non-streamed chat completion."""
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "served-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 2, **usage},
    }
