"""A stand-in for a serving engine with a prefix cache, speaking what vLLM and SGLang speak.

:class:`StandInEngine` is a real HTTP server on a free loopback port (a thread) answering
``POST /v1/chat/completions`` (plain JSON or server-sent events with usage in the last chunk)
and ``GET /metrics``. It tokenizes a request's messages into words, keeps a prefix cache and
reports what it reused the way the engine it stands for does:

- ``flavor="vllm"``: the cache holds whole blocks of ``block`` tokens (16), so a request reuses
  the longest cached prefix rounded down to a block; ``usage.prompt_tokens_details.
  cached_tokens`` says so, and ``/metrics`` has the counters ``vllm:prefix_cache_queries_total``
  and ``vllm:prefix_cache_hits_total``;
- ``flavor="sglang"``: a radix cache, token-exact; ``cached_tokens`` in the usage details, no
  counters.

Every answer is ``reply`` (default "ok"). For tests of workset's serving-engine metrics.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

_WORD = re.compile(r"\S+")


class StandInEngine:
    def __init__(
        self, *, flavor: Literal["vllm", "sglang"] = "vllm", block: int = 16, reply: str = "ok"
    ) -> None:
        self.flavor, self.block, self.reply = flavor, block, reply
        self.queries = self.hits = 0
        self._cache: set[str] = set()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.port = self._server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def metrics_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/metrics"

    def prompt_tokens(self, body: dict[str, Any]) -> list[str]:
        words: list[str] = []
        for tool in body.get("tools") or ():
            words += _WORD.findall(json.dumps(tool, sort_keys=True))
        for message in body.get("messages") or ():
            words.append(f"<{message.get('role')}>")
            words += _WORD.findall(str(message.get("content") or ""))
            for call in message.get("tool_calls") or ():
                words += _WORD.findall(json.dumps(call, sort_keys=True))
        return words

    def serve(self, body: dict[str, Any]) -> dict[str, Any]:
        """The usage of one request, the cache updated by it."""
        tokens = self.prompt_tokens(body)
        step = self.block if self.flavor == "vllm" else 1
        keys = [_key(tokens[:end]) for end in range(step, len(tokens) + 1, step)]
        with self._lock:
            reused = 0
            for n, key in enumerate(keys):
                if key not in self._cache:
                    break
                reused = (n + 1) * step
            self._cache.update(keys)
            self.queries += len(tokens)
            self.hits += reused
        completion = len(_WORD.findall(self.reply))
        return {
            "prompt_tokens": len(tokens),
            "completion_tokens": completion,
            "total_tokens": len(tokens) + completion,
            "prompt_tokens_details": {"cached_tokens": reused},
        }

    def metrics(self) -> str:
        if self.flavor != "vllm":
            return "# no prefix-cache counters\n"
        labels = '{engine="0",model_name="stand-in"}'
        return (
            "# HELP vllm:prefix_cache_queries_total Prefix cache queries, in terms of tokens.\n"
            "# TYPE vllm:prefix_cache_queries_total counter\n"
            f"vllm:prefix_cache_queries_total{labels} {float(self.queries)}\n"
            "# HELP vllm:prefix_cache_hits_total Prefix cache hits, in terms of tokens.\n"
            "# TYPE vllm:prefix_cache_hits_total counter\n"
            f"vllm:prefix_cache_hits_total{labels} {float(self.hits)}\n"
        )

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@contextmanager
def stand_in_engine(**options: Any) -> Iterator[StandInEngine]:
    """A running :class:`StandInEngine`, stopped on exit."""
    engine = StandInEngine(**options)
    thread = threading.Thread(target=engine._server.serve_forever, daemon=True)
    thread.start()
    try:
        yield engine
    finally:
        engine.close()
        thread.join()


def _key(tokens: list[str]) -> str:
    return hashlib.sha256("\x00".join(tokens).encode()).hexdigest()


def _handler(engine: StandInEngine) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return None

        def do_GET(self) -> None:
            if self.path != "/metrics":
                self._send(404, "application/json", b'{"error": {"message": "not found"}}')
                return
            self._send(200, "text/plain; version=0.0.4", engine.metrics().encode())

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            body = json.loads(self.rfile.read(length))
            usage = engine.serve(body)
            message = {"role": "assistant", "content": engine.reply}
            if not body.get("stream"):
                reply = {
                    "id": "r1",
                    "model": body.get("model"),
                    "usage": usage,
                    "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                }
                self._send(200, "application/json", json.dumps(reply).encode())
                return
            chunks = [
                {"choices": [{"index": 0, "delta": message}]},
                {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                {"choices": [], "usage": usage},
            ]
            data = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
            self._send(200, "text/event-stream", data.encode())

        def _send(self, status: int, kind: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
