"""The model protocol: one request in, one assistant message and its usage out.

Every backend (embedded llama.cpp, any OpenAI-compatible endpoint, the scripted test model)
implements :class:`Model`. Requests are typed; the wire format exists only inside backends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from workset.messages import AssistantMessage, Message, ToolSpec
from workset.tokens.counter import PartCounter


@dataclass(frozen=True, slots=True)
class ModelRequest:
    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] = ()
    max_tokens: int | None = None
    temperature: float | None = None
    # A JSON schema the output must follow, where the backend can enforce it (llama.cpp can).
    json_schema: Mapping[str, Any] | None = None
    timeout_s: float | None = None
    seed: int | None = None  # the sampler's seed, where the backend takes one (reproducible)
    # Ask for each generated token's log-probability (and its runner-up's), where the backend
    # reports them: :attr:`ModelResponse.tokens` (workset.loop.confidence scores answers).
    logprobs: bool = False


@dataclass(frozen=True, slots=True)
class Usage:
    """What one call cost, as the backend reported it.

    ``cached_prompt_tokens`` is None when the backend does not say (not the same as 0).
    ``engine_prefix_queries``/``engine_prefix_hits`` are a serving engine's own prefix-cache
    counters over this call (vLLM's ``/metrics``; see :mod:`workset.models.engine_cache`).
    """

    prompt_tokens: int
    completion_tokens: int
    cached_prompt_tokens: int | None = None
    latency_s: float = 0.0
    time_to_first_token_s: float | None = None
    engine_prefix_queries: int | None = None
    engine_prefix_hits: int | None = None

    @property
    def uncached_prompt_tokens(self) -> int:
        return self.prompt_tokens - (self.cached_prompt_tokens or 0)


@dataclass(frozen=True, slots=True)
class TokenLogprob:
    """One generated token: its text, its log-probability, and the other tokens the backend
    listed as likely there (text and log-probability)."""

    text: str
    logprob: float
    alternatives: tuple[tuple[str, float], ...] = ()

    @property
    def runner_up(self) -> float | None:
        """The best other token's log-probability."""
        return max((p for _, p in self.alternatives), default=None)


@dataclass(frozen=True, slots=True)
class ModelResponse:
    message: AssistantMessage
    usage: Usage
    finish_reason: str | None = None
    model: str = ""
    # Backend-specific numbers worth keeping (llama.cpp timings, request ids).
    extra: Mapping[str, Any] = field(default_factory=dict)
    # The generated tokens with their log-probabilities, when the request asked for them and
    # the backend reports them (empty otherwise).
    tokens: tuple[TokenLogprob, ...] = ()


@dataclass(frozen=True, slots=True)
class ModelInfo:
    name: str
    backend: str
    context_window: int
    # Whether the chat template understands the tools field; if not, tools go in the prompt.
    supports_tools: bool = True
    # Whether the backend reports token log-probabilities (ModelRequest.logprobs).
    reports_logprobs: bool = False


@runtime_checkable
class Model(Protocol):
    """A chat model backend."""

    @property
    def info(self) -> ModelInfo: ...

    def token_counter(self) -> PartCounter:
        """A counter that measures requests the way this backend will see them."""
        ...

    async def complete(self, request: ModelRequest) -> ModelResponse: ...

    async def aclose(self) -> None: ...
