"""Reading chat-completions replies: server-sent event streams or one JSON body.

Deltas (content, reasoning, indexed tool-call fragments, usage, llama.cpp ``timings``) are
assembled into one :class:`Reply`; anything malformed becomes a :class:`Failure` that says what
the server sent.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncGenerator, Callable, Mapping
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any, cast

import httpx

from workset.errors import ModelError, ModelResponseError
from workset.messages import AssistantMessage, ToolCall
from workset.models.base import ModelResponse, TokenLogprob, Usage


@dataclass(frozen=True, slots=True)
class Failure:
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
class Reply:
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
    cut: bool = False  # the reader stopped the stream (see read_stream's ``stop``)
    tokens: list[TokenLogprob] = field(default_factory=list)  # when logprobs were asked for

    @property
    def extra(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.response_id:
            extra["id"] = self.response_id
        if self.timings is not None:
            extra["timings"] = dict(self.timings)
        if self.usage is None:
            extra["usage_missing"] = True
        if self.cut:
            extra["cut_after_call"] = True
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
            self._add_logprobs(choice.get("logprobs"))
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

    def _add_logprobs(self, logprobs: Any) -> None:
        """``{"content": [{"token", "logprob", "top_logprobs": [...]}, ...]}`` (OpenAI's form,
        which llama.cpp's server follows)."""
        if not isinstance(logprobs, Mapping):
            return
        for item in logprobs.get("content") or ():
            if not isinstance(item, Mapping) or not isinstance(item.get("logprob"), int | float):
                continue
            token = str(item.get("token", ""))
            others = tuple(
                (str(t.get("token", "")), float(t["logprob"]))
                for t in item.get("top_logprobs") or ()
                if isinstance(t, Mapping)
                and t.get("token") != token
                and isinstance(t.get("logprob"), int | float)
            )
            self.tokens.append(TokenLogprob(token, float(item["logprob"]), others))

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
            tokens=tuple(self.tokens),
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


async def read_stream(
    response: httpx.Response, started: float, stop: Callable[[str], bool] | None = None
) -> Reply | Failure:
    """Fold server-sent events into a reply.

    ``stop``, given the content so far after each event, ends the reply early when it says so
    (the connection closes and llama.cpp stops generating): :attr:`Reply.cut` is set and the
    usage the server would have sent last is missing. Otherwise the stream is read to its end,
    even after ``[DONE]`` or a bad chunk.
    """
    reply, failure = Reply(), None
    data: list[str] = []
    # httpx's line iterator is an async generator: closed here when the reader stops early,
    # so trio does not warn about an unfinished one.
    lines_iter = cast("AsyncGenerator[str, None]", response.aiter_lines())
    async with aclosing(lines_iter) as lines:
        async for line in lines:
            if line.startswith("data:"):
                value = line[5:]
                data.append(value[1:] if value.startswith(" ") else value)
            elif not line and data and failure is None:
                failure = _add_event(reply, "\n".join(data), started)
                data = []
                if failure is None and stop is not None and stop("".join(reply.content)):
                    reply.cut, reply.finish_reason = True, "stop"
                    return reply
    if data and failure is None:
        failure = _add_event(reply, "\n".join(data), started)
    return failure or reply


def _add_event(reply: Reply, data: str, started: float) -> Failure | None:
    if data == "[DONE]":
        return None
    try:
        chunk = json.loads(data)
    except json.JSONDecodeError:
        return Failure(
            ModelResponseError, f"the server streamed a malformed chunk: {data[:200]!r}", False
        )
    if not isinstance(chunk, Mapping):
        return Failure(ModelResponseError, f"the server streamed {data[:200]!r}", False)
    if "error" in chunk:
        return Failure(
            ModelResponseError, f"the server failed mid-stream: {error_detail(chunk)}", False
        )
    had_output = bool(reply.content or reply.reasoning or reply.calls)
    reply.add_chunk(chunk)
    if not had_output and (reply.content or reply.reasoning or reply.calls):
        reply.first_token_s = time.perf_counter() - started
    return None


def read_json(body: bytes) -> Reply | Failure:
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        snippet = body[:200].decode("utf-8", "replace")
        return Failure(
            ModelResponseError, f"the server answered malformed JSON: {snippet!r}", False
        )
    if not isinstance(data, Mapping) or not isinstance(data.get("choices"), list):
        return Failure(
            ModelResponseError,
            f"the server answered JSON without 'choices': {json.dumps(data)[:200]}",
            False,
        )
    reply = Reply()
    reply.add_chunk(data)
    return reply


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def error_detail(data: Mapping[str, Any]) -> str:
    """The server's own error message from the shapes OpenAI, vLLM and llama.cpp use."""
    error = data.get("error")
    if isinstance(error, Mapping) and error.get("message"):
        return str(error["message"])[:500]
    for value in (error, data.get("message"), data.get("detail")):
        if value:
            return str(value)[:500]
    return json.dumps(data)[:500]
