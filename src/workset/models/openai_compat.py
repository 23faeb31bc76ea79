"""Any OpenAI-compatible chat endpoint: vLLM, llama.cpp server, Ollama, hosted APIs.

Requests go to ``POST {base}/chat/completions``, streamed so the time to the first token is
measured; a server that answers with plain JSON instead is handled the same way. Transient
failures (connection errors, read timeouts, 408, 429, 500, 502, 503, 504) are retried with
capped exponential backoff, honouring ``Retry-After``; everything else fails at once with an
error that says what to fix and, when retries are allowed, how many attempts were made.

The base URL rule: a URL with no path (``http://127.0.0.1:8080``) gets ``/v1`` appended; a
URL with a path (``http://host/v1``, ``https://openrouter.ai/api/v1``) is used as given. A
trailing ``/chat/completions`` is dropped, so pasting the full endpoint also works.

One model may serve several event loops in turn (one per ``anyio.run``): each loop gets its
own HTTP client, closed when that loop ends, because pooled connections belong to their loop.
"""

from __future__ import annotations

import email.utils
import json
import os
import time
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import anyio
import httpx

from workset.errors import ModelResponseError, ModelUnavailableError, UsageError
from workset.messages import to_wire
from workset.models.base import ModelInfo, ModelRequest, ModelResponse
from workset.models.chat_stream import Failure, Reply, error_detail, read_json, read_stream
from workset.models.engine_cache import Counters, PrefixCacheCounters, with_engine_counts
from workset.models.http_client import ClientPerLoop
from workset.models.toolcalls import second_call_began, through_first_call
from workset.tokens.counter import PartCounter
from workset.tokens.estimate import EstimateTokenizer
from workset.tokens.openai import OpenAIChatFormat, OpenAITokenizer

RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
MAX_BACKOFF_S = 8.0
MAX_RETRY_AFTER_S = 60.0  # a longer Retry-After is cut to this; the caller can retry later
TOKENIZERS = ("estimate", "openai:o200k_base", "openai:cl100k_base")


def resolve_base_url(base_url: str) -> str:
    """The API base that ``/chat/completions`` and ``/models`` hang off (see module doc)."""
    url = httpx.URL(base_url.strip())
    if url.scheme not in ("http", "https") or not url.host:
        raise UsageError(
            f"base URL {base_url!r} is not an http(s) URL; "
            "pass something like http://127.0.0.1:8080/v1"
        )
    path = url.path.rstrip("/")
    path = path.removesuffix("/chat/completions")
    if not path:
        path = "/v1"
    return str(url.copy_with(path=path, query=None, fragment=None))


class OpenAICompatibleModel:
    """A chat model served over the OpenAI chat-completions API.

    ``api_key`` defaults to the ``api_key_env`` environment variable; without either no
    ``Authorization`` header is sent (local servers need none). ``tokenizer`` picks how
    :meth:`token_counter` counts: ``"openai:o200k_base"`` or ``"openai:cl100k_base"`` for
    hosted OpenAI models, ``"estimate"`` (characters / 4, labelled as an estimate) otherwise.
    ``max_retries`` counts retries after the first attempt. ``Usage.latency_s`` and
    ``time_to_first_token_s`` run from the start of :meth:`complete`, retries included, as the
    caller waited; ``extra["attempts"]`` says how many attempts that took.

    ``extra_body`` is merged into every request body last, so it can add server-specific
    fields (llama.cpp's ``cache_prompt``) or override the built ones. ``default_temperature``
    is sent when a request sets none (otherwise the server's default applies).
    ``connect_hint`` ends the message when the server cannot be reached. ``metrics_url``
    (vLLM's ``/metrics``) has each call's prefix-cache counters read before and after it into
    ``Usage.engine_prefix_queries``/``engine_prefix_hits`` (exact when the server serves
    nothing else meanwhile; see :mod:`workset.models.engine_cache`). ``stop_after_call``
    ends a reply to a request with tools once it holds one whole call written as text and a
    second begins (:func:`~workset.models.toolcalls.second_call_began`), its content kept
    through the first call: the server stops generating when the stream closes, and the
    reply's usage is then missing (``extra["cut_after_call"]``).

    The timeout (``timeout_s``, or a request's own ``timeout_s``) bounds the wait for each
    piece of the streamed reply, not the whole call: a long answer that keeps streaming is
    not cut. ``retry_stalls`` False fails a stalled call at once instead of sending it again
    (a local server that stalled is busy; a second attempt starts the prompt over).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        api_key_env: str = "WORKSET_API_KEY",
        context_window: int = 8192,
        timeout_s: float = 60.0,
        max_retries: int = 3,
        backoff_s: float = 0.5,
        tokenizer: str = "estimate",
        extra_body: Mapping[str, Any] | None = None,
        default_temperature: float | None = None,
        connect_hint: str = "Is the server running? Check --base-url.",
        retry_stalls: bool = True,
        transport: httpx.AsyncBaseTransport | None = None,
        metrics_url: str | None = None,
        stop_after_call: bool = False,
    ) -> None:
        if tokenizer != "estimate" and not tokenizer.startswith("openai:"):
            raise UsageError(f"unknown tokenizer {tokenizer!r}; use one of {', '.join(TOKENIZERS)}")
        if max_retries < 0 or backoff_s < 0 or timeout_s <= 0:
            raise UsageError("max_retries and backoff_s must be >= 0 and timeout_s > 0")
        self.base_url = resolve_base_url(base_url)
        self.model = model
        self.api_key_env = api_key_env
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.tokenizer = tokenizer
        self.extra_body: dict[str, Any] = _plain_json(extra_body or {})
        self.default_temperature = default_temperature
        self.connect_hint = connect_hint
        self.retry_stalls = retry_stalls
        self.stop_after_call = stop_after_call
        self._api_key = api_key if api_key is not None else os.environ.get(api_key_env) or None
        self._info = ModelInfo(
            name=model, backend="openai-compatible", context_window=context_window
        )
        self._counter: PartCounter | None = None
        self._metrics = PrefixCacheCounters(metrics_url) if metrics_url else None
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        self._clients = ClientPerLoop(
            lambda: httpx.AsyncClient(transport=transport, headers=headers)
        )

    @property
    def info(self) -> ModelInfo:
        return self._info

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}/chat/completions"

    def token_counter(self) -> PartCounter:
        """One shared caching counter; its method string says ``estimate`` for estimates."""
        if self._counter is None:
            if self.tokenizer == "estimate":
                self._counter = PartCounter(OpenAIChatFormat(), EstimateTokenizer())
            else:
                encoding = self.tokenizer.removeprefix("openai:")
                self._counter = PartCounter(OpenAIChatFormat(), OpenAITokenizer(encoding))
        return self._counter

    async def complete(self, request: ModelRequest) -> ModelResponse:
        payload = self._payload(request)
        timeout = request.timeout_s or self.timeout_s
        started = time.perf_counter()
        attempts = 0
        before = await self._counters()
        while True:
            attempts += 1
            outcome = await self._attempt(payload, timeout, started)
            if isinstance(outcome, Reply):
                extra = {**outcome.extra, "attempts": attempts}
                response = outcome.response(self.model, time.perf_counter() - started, extra)
                if self._metrics is None:
                    return response
                usage = with_engine_counts(response.usage, before, await self._counters())
                return replace(response, usage=usage)
            if not outcome.retryable or attempts > self.max_retries:
                if self.max_retries == 0:
                    raise outcome.error(outcome.message)
                tries = "1 attempt" if attempts == 1 else f"{attempts} attempts"
                raise outcome.error(f"{outcome.message} [after {tries}]")
            await anyio.sleep(self._delay(attempts, outcome.retry_after_s))

    async def _counters(self) -> Counters | None:
        if self._metrics is None:
            return None
        return await self._metrics.read(await self._clients.get())

    async def aclose(self) -> None:
        """Close the HTTP client of the running event loop (others close with their loop)."""
        await self._clients.aclose()

    async def __aenter__(self) -> OpenAICompatibleModel:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _payload(self, request: ModelRequest) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": [to_wire(m) for m in request.messages],
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if request.tools:
            payload["tools"] = [t.to_wire() for t in request.tools]
        if request.max_tokens is not None:
            payload["max_tokens"] = request.max_tokens
        temperature = request.temperature
        if temperature is None:
            temperature = self.default_temperature
        if temperature is not None:
            payload["temperature"] = temperature
        if request.seed is not None:
            payload["seed"] = request.seed
        if request.logprobs:
            # One body, not a stream: llama.cpp's server refuses logprobs with tools streamed.
            payload["logprobs"], payload["top_logprobs"] = True, 5
            payload["stream"] = False
            payload.pop("stream_options")
        if request.json_schema is not None:
            schema = _plain_json(request.json_schema)
            payload["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "output", "schema": schema, "strict": True},
            }
        return {**payload, **self.extra_body}

    def _delay(self, attempt: int, retry_after_s: float | None) -> float:
        if retry_after_s is not None:
            return min(max(retry_after_s, 0.0), MAX_RETRY_AFTER_S)
        return float(min(self.backoff_s * 2 ** (attempt - 1), MAX_BACKOFF_S))

    async def _attempt(
        self, payload: dict[str, Any], timeout_s: float, started: float
    ) -> Reply | Failure:
        client = await self._clients.get()
        try:
            async with client.stream(
                "POST", self.endpoint, json=payload, timeout=timeout_s
            ) as response:
                if response.status_code != 200:
                    await response.aread()
                    return self._http_failure(response)
                if response.headers.get("content-type", "").startswith("text/event-stream"):
                    stop = None
                    if self.stop_after_call and payload.get("tools"):
                        stop = None if "response_format" in payload else second_call_began
                    reply = await read_stream(response, started, stop)
                    if isinstance(reply, Reply) and reply.cut:  # the first call, as it was written
                        reply.content = [through_first_call("".join(reply.content))]
                    return reply
                return read_json(await response.aread())
        except httpx.RequestError as exc:
            return self._transport_failure(exc, timeout_s)

    def _transport_failure(self, exc: httpx.RequestError, timeout_s: float) -> Failure:
        if isinstance(exc, httpx.ConnectTimeout | httpx.ConnectError):
            reason = _os_reason(exc)
            if isinstance(exc, httpx.ConnectTimeout):
                reason = f"no answer within {timeout_s:g} s"
            message = f"could not connect to {self.base_url} ({reason}). {self.connect_hint}"
        elif isinstance(exc, httpx.TimeoutException):
            message = (
                f"the model sent nothing for {timeout_s:g} s (no token, no progress report) "
                f"from {self.endpoint}; raise the model timeout (--model-timeout, or [model] "
                "timeout in the config) or check the machine's load"
            )
            return Failure(ModelUnavailableError, message, retryable=self.retry_stalls)
        elif isinstance(exc, httpx.ReadError | httpx.WriteError | httpx.RemoteProtocolError):
            message = f"the connection to {self.base_url} broke mid-request ({_os_reason(exc)})"
        else:  # a bad proxy, a broken content encoding: retrying will not help
            return Failure(
                ModelUnavailableError, f"the request to {self.endpoint} failed: {exc}", False
            )
        return Failure(ModelUnavailableError, message, retryable=True)

    def _http_failure(self, response: httpx.Response) -> Failure:
        status, detail = response.status_code, _error_text(response)
        if status in (401, 403):
            key_state = (
                "The API key sent was rejected"
                if self._api_key
                else f"No API key was sent ({self.api_key_env} is unset)"
            )
            return Failure(
                ModelUnavailableError,
                f"{self.endpoint} answered HTTP {status}: {detail}. {key_state}; set the "
                f"{self.api_key_env} environment variable (or pass api_key) to a valid key",
                retryable=False,
            )
        if status == 404:
            return Failure(
                ModelUnavailableError,
                f"{self.endpoint} answered HTTP 404: {detail}. Either the path is wrong "
                f"(check --base-url; requests go to {self.endpoint}) or the server does not "
                f"serve model {self.model!r}; GET {self.base_url}/models lists what it serves",
                retryable=False,
            )
        if status in RETRY_STATUSES:
            return Failure(
                ModelResponseError,
                f"{self.endpoint} answered HTTP {status}: {detail}",
                retryable=True,
                retry_after_s=_retry_after(response.headers.get("retry-after")),
            )
        overflow = _context_overflow(response)
        if overflow is not None:
            return Failure(ModelResponseError, overflow, retryable=False)
        return Failure(
            ModelResponseError,
            f"{self.endpoint} rejected the request with HTTP {status}: {detail}",
            retryable=False,
        )


def _context_overflow(response: httpx.Response) -> str | None:
    """llama.cpp's ``exceed_context_size_error`` as advice, or None for any other error."""
    try:
        error = response.json().get("error")
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
        return None
    if not isinstance(error, Mapping) or error.get("type") != "exceed_context_size_error":
        return None
    return (
        f"the request has {error.get('n_prompt_tokens')} tokens but the context window is "
        f"{error.get('n_ctx')}; shrink the request or start the model with a larger "
        "context_window"
    )


def _plain_json(value: Any) -> Any:
    """``value`` with every mapping a dict and every sequence a list, ready for ``json``."""
    if isinstance(value, Mapping):
        return {str(k): _plain_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain_json(v) for v in value]
    return value


def _error_text(response: httpx.Response) -> str:
    try:
        data = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return response.text.strip()[:500] or response.reason_phrase
    return error_detail(data) if isinstance(data, Mapping) else str(data)[:500]


def _os_reason(exc: BaseException) -> str:
    """The operating system's reason behind an httpx error ("connection refused")."""
    causes = list(_causes(exc))
    if any(isinstance(c, ConnectionRefusedError) for c in causes):
        return "connection refused"
    for cause in causes:
        if isinstance(cause, OSError) and cause.strerror:
            return cause.strerror.lower()
    return str(exc) or type(exc).__name__


def _causes(exc: BaseException, depth: int = 0) -> list[BaseException]:
    """``exc``, its causes and contexts, and the members of exception groups among them."""
    if depth > 8:
        return []
    found = [exc]
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found += _causes(inner, depth + 1)
    cause = exc.__cause__ or exc.__context__
    if cause is not None:
        found += _causes(cause, depth + 1)
    return found


def _retry_after(value: str | None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date)."""
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return (when - datetime.now(UTC)).total_seconds()
