"""The policy's own model calls, recorded in the checkpoint, so a replay resumes mid-way.

Compaction and the note taker call the model between call points. :class:`RecordingModel`
stands in for that model during a replay: each request is keyed by a hash of its content;
a request already answered in the checkpoint gets the recorded answer at once, a new one goes
to the model and its answer is written to the checkpoint before it is returned. Because a
policy's view depends only on the history and its model's answers, replaying an interrupted
run from the start re-derives every summary from the checkpoint and calls the model only
from the call point where the run stopped.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from workset.messages import AssistantMessage, ToolCall, to_wire
from workset.models.base import Model, ModelInfo, ModelRequest, ModelResponse, Usage
from workset.tokens.counter import PartCounter

from .checkpoint import Checkpoint


def request_key(request: ModelRequest) -> str:
    data = [
        [to_wire(m) for m in request.messages],
        [t.to_wire() for t in request.tools],
        request.max_tokens,
        request.temperature,
        request.json_schema,
    ]
    digest = hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode())
    return "model/" + digest.hexdigest()[:24]


class RecordingModel:
    """``model`` with every answer kept in ``checkpoint`` and replayed from it when asked again."""

    def __init__(self, model: Model, checkpoint: Checkpoint) -> None:
        self.model = model
        self.checkpoint = checkpoint
        self.replayed = 0  # answers served from the checkpoint
        self.called = 0  # answers the model had to give

    @property
    def info(self) -> ModelInfo:
        return self.model.info

    def token_counter(self) -> PartCounter:
        return self.model.token_counter()

    async def complete(self, request: ModelRequest) -> ModelResponse:
        key = request_key(request)
        stored = self.checkpoint.get(key)
        if stored is not None:
            self.replayed += 1
            return _response(stored)
        response = await self.model.complete(request)
        self.called += 1
        message = response.message
        self.checkpoint.put(
            key,
            {
                "content": message.content,
                "tool_calls": [[c.id, c.name, c.arguments] for c in message.tool_calls],
                "prompt_tokens": response.usage.prompt_tokens,
                "completion_tokens": response.usage.completion_tokens,
                "finish_reason": response.finish_reason,
            },
        )
        return response

    async def aclose(self) -> None:
        """The wrapped model belongs to the caller, who closes it."""


def _response(stored: dict[str, Any]) -> ModelResponse:
    calls = tuple(ToolCall(str(i), str(n), str(a)) for i, n, a in stored["tool_calls"])
    content = stored["content"]
    message = AssistantMessage(content if isinstance(content, str) else None, calls)
    usage = Usage(int(stored["prompt_tokens"]), int(stored["completion_tokens"]))
    finish = stored.get("finish_reason")
    return ModelResponse(message, usage, finish if isinstance(finish, str) else None)
