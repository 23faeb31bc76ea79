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
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import anyio
import httpx
from anyio.lowlevel import RunVar

from workset.errors import ModelError, ModelResponseError, ModelUnavailableError, UsageError
from workset.messages import AssistantMessage, ToolCall, to_wire
from workset.models.base import ModelInfo, ModelRequest, ModelResponse, Usage
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
    ``connect_hint`` ends the message when the server cannot be reached.
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
        transport: httpx.AsyncBaseTransport | None = None,
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
        self._api_key = api_key if api_key is not None else os.environ.get(api_key_env) or None
        self._info = ModelInfo(
            name=model, backend="openai-compatible", context_window=context_window
        )
        self._counter: PartCounter | None = None
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        self._clients = _ClientPerLoop(
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
        while True:
            attempts += 1
            outcome = await self._attempt(payload, timeout, started)
            if isinstance(outcome, _Reply):
                extra = {**outcome.extra, "attempts": attempts}
                return outcome.response(self.model, time.perf_counter() - started, extra)
            if not outcome.retryable or attempts > self.max_retries:
                if self.max_retries == 0:
                    raise outcome.error(outcome.message)
                tries = "1 attempt" if attempts == 1 else f"{attempts} attempts"
                raise outcome.error(f"{outcome.message} [after {tries}]")
            await anyio.sleep(self._delay(attempts, outcome.retry_after_s))

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
    ) -> _Reply | _Failure:
        client = await self._clients.get()
        try:
            async with client.stream(
                "POST", self.endpoint, json=payload, timeout=timeout_s
            ) as response:
                if response.status_code != 200:
                    await response.aread()
                    return self._http_failure(response)
                if response.headers.get("content-type", "").startswith("text/event-stream"):
                    return await _read_stream(response, started)
                return _read_json(await response.aread())
        except httpx.RequestError as exc:
            return self._transport_failure(exc, timeout_s)

    def _transport_failure(self, exc: httpx.RequestError, timeout_s: float) -> _Failure:
        if isinstance(exc, httpx.ConnectTimeout | httpx.ConnectError):
            reason = _os_reason(exc)
            if isinstance(exc, httpx.ConnectTimeout):
                reason = f"no answer within {timeout_s:g} s"
            message = f"could not connect to {self.base_url} ({reason}). {self.connect_hint}"
        elif isinstance(exc, httpx.TimeoutException):
            message = (
                f"no response from {self.endpoint} within {timeout_s:g} s; "
                "raise timeout_s or check server load"
            )
        elif isinstance(exc, httpx.ReadError | httpx.WriteError | httpx.RemoteProtocolError):
            message = f"the connection to {self.base_url} broke mid-request ({_os_reason(exc)})"
        else:  # a bad proxy, a broken content encoding: retrying will not help
            return _Failure(
                ModelUnavailableError, f"the request to {self.endpoint} failed: {exc}", False
            )
        return _Failure(ModelUnavailableError, message, retryable=True)

    def _http_failure(self, response: httpx.Response) -> _Failure:
        status, detail = response.status_code, _error_text(response)
        if status in (401, 403):
            key_state = (
                "The API key sent was rejected"
                if self._api_key
                else f"No API key was sent ({self.api_key_env} is unset)"
            )
            return _Failure(
                ModelUnavailableError,
                f"{self.endpoint} answered HTTP {status}: {detail}. {key_state}; set the "
                f"{self.api_key_env} environment variable (or pass api_key) to a valid key",
                retryable=False,
            )
        if status == 404:
            return _Failure(
                ModelUnavailableError,
                f"{self.endpoint} answered HTTP 404: {detail}. Either the path is wrong "
                f"(check --base-url; requests go to {self.endpoint}) or the server does not "
                f"serve model {self.model!r}; GET {self.base_url}/models lists what it serves",
                retryable=False,
            )
        if status in RETRY_STATUSES:
            return _Failure(
                ModelResponseError,
                f"{self.endpoint} answered HTTP {status}: {detail}",
                retryable=True,
                retry_after_s=_retry_after(response.headers.get("retry-after")),
            )
        overflow = _context_overflow(response)
        if overflow is not None:
            return _Failure(ModelResponseError, overflow, retryable=False)
        return _Failure(
            ModelResponseError,
            f"{self.endpoint} rejected the request with HTTP {status}: {detail}",
            retryable=False,
        )


class _ClientPerLoop:
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


@dataclass(frozen=True, slots=True)
class _Failure:
    """Why one attempt failed, and whether another attempt may succeed."""

    error: type[ModelError]
    message: str
    retryable: bool
    retry_after_s: float | None = None


@dataclass(slots=True)
class _ToolCallDraft:
    id: str = ""
    name: str = ""
    arguments: str = ""


@dataclass(slots=True)
class _Reply:
    """A completion being assembled from deltas (or from one whole message)."""

    content: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    calls: dict[int, _ToolCallDraft] = field(default_factory=dict)
    finish_reason: str | None = None
    model: str = ""
    usage: Mapping[str, Any] | None = None
    timings: Mapping[str, Any] | None = None
    response_id: str | None = None
    first_token_s: float | None = None

    @property
    def extra(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.response_id:
            extra["id"] = self.response_id
        if self.timings is not None:
            extra["timings"] = dict(self.timings)
        if self.usage is None:
            extra["usage_missing"] = True
        return extra

    def add_chunk(self, chunk: Mapping[str, Any]) -> None:
        """Fold one streamed chunk (or one whole non-streamed response) into the reply."""
        if isinstance(chunk.get("id"), str):
            self.response_id = chunk["id"]
        if isinstance(chunk.get("model"), str):
            self.model = chunk["model"]
        if isinstance(chunk.get("usage"), Mapping):
            self.usage = chunk["usage"]
        if isinstance(chunk.get("timings"), Mapping):
            self.timings = chunk["timings"]
        for choice in chunk.get("choices") or ():
            if not isinstance(choice, Mapping) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or choice.get("message") or {}
            self._add_delta(delta)
            if choice.get("finish_reason"):
                self.finish_reason = str(choice["finish_reason"])

    def _add_delta(self, delta: Any) -> None:
        if not isinstance(delta, Mapping):
            return
        if isinstance(delta.get("content"), str):
            self.content.append(delta["content"])
        reasoning = delta.get("reasoning_content") or delta.get("reasoning")
        if isinstance(reasoning, str):
            self.reasoning.append(reasoning)
        for position, call in enumerate(delta.get("tool_calls") or ()):
            if not isinstance(call, Mapping):
                continue
            index = call.get("index", position)
            draft = self.calls.setdefault(index, _ToolCallDraft())
            if call.get("id"):
                draft.id = call["id"]
            function = call.get("function") or {}
            name = function.get("name")
            if name and name != draft.name:
                draft.name += name
            arguments = function.get("arguments")
            if isinstance(arguments, str):
                draft.arguments += arguments
            elif arguments is not None:  # some servers send an object, not JSON text
                draft.arguments += json.dumps(arguments, ensure_ascii=False)

    def response(self, model: str, latency_s: float, extra: Mapping[str, Any]) -> ModelResponse:
        calls = tuple(
            ToolCall(id=d.id or f"call_{i}", name=d.name, arguments=d.arguments or "{}")
            for i, d in sorted(self.calls.items())
        )
        message = AssistantMessage(
            content="".join(self.content) if self.content else None,
            tool_calls=calls,
            reasoning_content="".join(self.reasoning) if self.reasoning else None,
        )
        return ModelResponse(
            message=message,
            usage=self._usage(latency_s),
            finish_reason=self.finish_reason,
            model=self.model or model,
            extra=extra,
        )

    def _usage(self, latency_s: float) -> Usage:
        usage, timings = self.usage or {}, self.timings or {}
        details = usage.get("prompt_tokens_details") or {}
        cached = details.get("cached_tokens") if isinstance(details, Mapping) else None
        if not isinstance(cached, int):
            cached = timings.get("cache_n") if isinstance(timings.get("cache_n"), int) else None
        prompt = usage.get("prompt_tokens")
        if not isinstance(prompt, int):  # llama.cpp timings count cached and new tokens apart
            prompt = _int(timings.get("prompt_n")) + (cached or 0)
        completion = usage.get("completion_tokens")
        if not isinstance(completion, int):
            completion = _int(timings.get("predicted_n"))
        return Usage(
            prompt_tokens=prompt,
            completion_tokens=completion,
            cached_prompt_tokens=cached,
            latency_s=latency_s,
            time_to_first_token_s=self.first_token_s,
        )


async def _read_stream(response: httpx.Response, started: float) -> _Reply | _Failure:
    """Fold server-sent events into a reply.

    The stream is always read to its end, even after ``[DONE]`` or a bad chunk: leaving
    httpx's line iterators unfinished makes trio warn about unclosed async generators.
    """
    reply, failure = _Reply(), None
    data: list[str] = []
    async for line in response.aiter_lines():
        if line.startswith("data:"):
            value = line[5:]
            data.append(value[1:] if value.startswith(" ") else value)
        elif not line and data and failure is None:
            failure = _add_event(reply, "\n".join(data), started)
            data = []
    if data and failure is None:
        failure = _add_event(reply, "\n".join(data), started)
    return failure or reply


def _add_event(reply: _Reply, data: str, started: float) -> _Failure | None:
    if data == "[DONE]":
        return None
    try:
        chunk = json.loads(data)
    except json.JSONDecodeError:
        return _Failure(
            ModelResponseError, f"the server streamed a malformed chunk: {data[:200]!r}", False
        )
    if not isinstance(chunk, Mapping):
        return _Failure(ModelResponseError, f"the server streamed {data[:200]!r}", False)
    if "error" in chunk:
        return _Failure(
            ModelResponseError, f"the server failed mid-stream: {_detail(chunk)}", False
        )
    had_output = bool(reply.content or reply.reasoning or reply.calls)
    reply.add_chunk(chunk)
    if not had_output and (reply.content or reply.reasoning or reply.calls):
        reply.first_token_s = time.perf_counter() - started
    return None


def _read_json(body: bytes) -> _Reply | _Failure:
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        snippet = body[:200].decode("utf-8", "replace")
        return _Failure(
            ModelResponseError, f"the server answered malformed JSON: {snippet!r}", False
        )
    if not isinstance(data, Mapping) or not isinstance(data.get("choices"), list):
        return _Failure(
            ModelResponseError,
            f"the server answered JSON without 'choices': {json.dumps(data)[:200]}",
            False,
        )
    reply = _Reply()
    reply.add_chunk(data)
    return reply


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
    return _detail(data) if isinstance(data, Mapping) else str(data)[:500]


def _detail(data: Mapping[str, Any]) -> str:
    """The server's own error message from the shapes OpenAI, vLLM and llama.cpp use."""
    error = data.get("error")
    if isinstance(error, Mapping) and error.get("message"):
        return str(error["message"])[:500]
    for value in (error, data.get("message"), data.get("detail")):
        if value:
            return str(value)[:500]
    return json.dumps(data)[:500]


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


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


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
