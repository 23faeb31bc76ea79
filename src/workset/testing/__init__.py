"""Test doubles that ship with workset: a scripted model, a fake clock, a tokenizer double.

Use them to test agents and context policies without a real model. The scripted model replays
the responses it was given, records every request, and reports usage the way a llama.cpp
server would (prompt tokens from its counter, cached tokens from the prefix it shares with the
previous request), so manifests and prefix metrics can be asserted exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from zlib import crc32

from workset.errors import ModelResponseError
from workset.messages import AssistantMessage, ToolCall, split_system
from workset.models.base import ModelInfo, ModelRequest, ModelResponse, Usage
from workset.tokens.base import RequestCount
from workset.tokens.chatml import ChatMLFormat
from workset.tokens.counter import PartCounter, common_prefix_tokens

__all__ = ["FakeClock", "ScriptedModel", "WordTokenizer", "call"]

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
    """A clock that moves only when told to."""

    now: float = 1_780_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


Script = str | AssistantMessage | BaseException | Callable[[ModelRequest], AssistantMessage | str]


def call(name: str, arguments: str = "{}", call_id: str | None = None) -> ToolCall:
    """A tool call for scripts: ``call("read_file", '{"path": "a.txt"}')``."""
    return ToolCall(
        id=call_id or f"call_{name}_{crc32(arguments.encode()):08x}", name=name, arguments=arguments
    )


@dataclass
class ScriptedModel:
    """Replays scripted responses in order and records the requests it received.

    A script entry is a string (the assistant's content), an :class:`AssistantMessage`, an
    exception to raise (to test failures), or a function of the request returning either.
    Running out of entries raises :class:`ModelResponseError`.
    """

    script: Sequence[Script]
    context_window: int = 8192
    name: str = "scripted"
    chat_format: ChatMLFormat = field(default_factory=ChatMLFormat)
    requests: list[ModelRequest] = field(default_factory=list)
    _counter: PartCounter | None = None
    _previous: RequestCount | None = None

    @property
    def info(self) -> ModelInfo:
        return ModelInfo(name=self.name, backend="scripted", context_window=self.context_window)

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
