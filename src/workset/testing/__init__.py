"""Test doubles that ship with workset: a scripted model, a fake clock, a tokenizer double.

Use them to test agents and context policies without a real model. The scripted model replays
the responses it was given, records every request, and reports usage the way a llama.cpp
server would (prompt tokens from its counter, cached tokens from the prefix it shares with the
previous request), so manifests and prefix metrics can be asserted exactly.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from zlib import crc32

import anyio
import anyio.lowlevel

from workset.errors import ModelResponseError
from workset.messages import AssistantMessage, ToolCall, split_system
from workset.models.base import ModelInfo, ModelRequest, ModelResponse, Usage
from workset.tokens.base import RequestCount
from workset.tokens.chatml import ChatMLFormat
from workset.tokens.counter import PartCounter, common_prefix_tokens

if TYPE_CHECKING:
    from workset.stores.protocols import SessionStore

__all__ = [
    "FakeClock",
    "FunctionModel",
    "ScriptedModel",
    "WordTokenizer",
    "call",
    "current_store",
    "stored_bytes",
]

_PIECES = re.compile(r"<\|[a-z_]+\|>|\w+|[^\w\s]|\s+")


class WordTokenizer:
    """A deterministic tokenizer double: special tags, words, punctuation and runs of space."""

    name = "word-double"
    exact = True

    def tokenize(self, text: str) -> list[int]:
        return [crc32(piece.encode()) for piece in _PIECES.findall(text)]

    def count(self, text: str) -> int:
        return len(_PIECES.findall(text))


@dataclass
class FakeClock:
    """A clock that moves only when told to; timers waiting on it wake when it passes them."""

    now: float = 1_780_000_000.0
    _sleepers: list[tuple[float, anyio.Event]] = field(default_factory=list, repr=False)

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
        due = [(w, e) for w, e in self._sleepers if w <= self.now]
        self._sleepers = [(w, e) for w, e in self._sleepers if w > self.now]
        for _, event in due:
            event.set()

    async def sleep_until(self, when: float) -> None:
        if when <= self.now:
            await anyio.lowlevel.checkpoint()
            return
        event = anyio.Event()
        self._sleepers.append((when, event))
        await event.wait()

    @property
    def sleeping(self) -> int:
        """How many waits are pending (a test can wait until a timer is armed)."""
        return len(self._sleepers)


Reply = AssistantMessage | str | ModelResponse
Script = (
    str
    | AssistantMessage
    | ModelResponse
    | BaseException
    | Callable[[ModelRequest], Reply]
    | Callable[[ModelRequest], Awaitable[Reply]]
)


def call(name: str, arguments: str = "{}", call_id: str | None = None) -> ToolCall:
    """A tool call for scripts: ``call("read_file", '{"path": "a.txt"}')``."""
    return ToolCall(
        id=call_id or f"call_{name}_{crc32(arguments.encode()):08x}", name=name, arguments=arguments
    )


@dataclass
class ScriptedModel:
    """Replays scripted responses in order and records the requests it received.

    A script entry is a string (the assistant's content), an :class:`AssistantMessage`, a whole
    :class:`ModelResponse` (a reply cut at its token limit: ``finish_reason="length"``), an
    exception to raise (to test failures), or a function of the request returning one.
    Running out of entries raises :class:`ModelResponseError`.
    """

    script: Sequence[Script]
    context_window: int = 8192
    name: str = "scripted"
    chat_format: ChatMLFormat = field(default_factory=ChatMLFormat)
    requests: list[ModelRequest] = field(default_factory=list)
    logprobs: bool = False  # whether it says it reports token log-probabilities (scripted)
    _counter: PartCounter | None = None
    _previous: RequestCount | None = None

    @property
    def info(self) -> ModelInfo:
        return ModelInfo(
            name=self.name,
            backend="scripted",
            context_window=self.context_window,
            reports_logprobs=self.logprobs,
        )

    def token_counter(self) -> PartCounter:
        if self._counter is None:
            self._counter = PartCounter(self.chat_format, WordTokenizer())
        return self._counter

    async def complete(self, request: ModelRequest) -> ModelResponse:
        index = len(self.requests)
        self.requests.append(request)
        if index >= len(self.script):
            raise ModelResponseError(
                f"ScriptedModel ran out of responses after {len(self.script)} calls; "
                "add more entries to its script"
            )
        entry = self.script[index]
        if isinstance(entry, BaseException):
            raise entry
        produced = entry(request) if callable(entry) else entry
        if inspect.isawaitable(produced):
            produced = await produced
        if isinstance(produced, ModelResponse):  # a reply with its own finish reason and usage
            return produced
        message = AssistantMessage(content=produced) if isinstance(produced, str) else produced
        counter = self.token_counter()
        system, messages = split_system(request.messages)
        count = counter.count_request(system, request.tools, messages)
        cached = (
            0 if self._previous is None else common_prefix_tokens(self._previous, count, counter)
        )
        self._previous = count
        completion = counter.count_text(message.content or "") + sum(
            counter.count_text(c.arguments) for c in message.tool_calls
        )
        usage = Usage(count.total, completion, cached_prompt_tokens=cached)
        return ModelResponse(message=message, usage=usage, finish_reason="stop", model=self.name)

    async def aclose(self) -> None:
        return None


class FunctionModel(ScriptedModel):
    """A model that answers every request with ``fn(request)`` (sync or async), as often as
    it is called: for tests where the order of calls is not fixed (side sessions, events).
    An async ``fn`` may wait (on an ``anyio.Event``) to stand for a long generation."""

    def __init__(
        self,
        fn: Callable[[ModelRequest], Reply] | Callable[[ModelRequest], Awaitable[Reply]],
        *,
        context_window: int = 8192,
        name: str = "function",
    ) -> None:
        super().__init__([], context_window=context_window, name=name)
        self.fn = fn

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.script = [*self.script, self.fn]
        return await super().complete(request)


def current_store() -> SessionStore:
    """The session store ``$WORKSET_DB`` names: in workset's own suite, a fresh SQLite file or
    (``WORKSET_TEST_STORE=postgresql``) a fresh PostgreSQL schema per test."""
    from workset.stores import open_log
    from workset.stores.url import default_store

    return open_log(default_store())


def stored_bytes() -> bytes:
    """Everything :func:`current_store` holds, as bytes: the SQLite file and its WAL, or every
    record and blob of the PostgreSQL schema. For tests that something never reached disk."""
    from pathlib import Path

    from workset.stores.url import default_store, parse_store_url

    url = parse_store_url(default_store())
    if url.path is not None:
        files = sorted(Path(url.path).parent.glob(Path(url.path).name + "*"))
        return b"".join(f.read_bytes() for f in files)
    import psycopg

    with psycopg.connect(url.dsn) as conn:
        rows = conn.execute(
            "SELECT payload FROM events UNION ALL SELECT text FROM blobs"
        ).fetchall()
    return "\n".join(r[0] for r in rows).encode()
