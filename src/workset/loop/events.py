"""The one event union the agent loop emits.

The CLI, the session log, the inspect view and the eval harness subscribe to these events;
none of them reaches into the loop. Events are frozen and carry everything a subscriber needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from workset.context.manifest import Manifest
from workset.messages import AssistantMessage, ToolCall, ToolMessage
from workset.models.base import Usage


@dataclass(frozen=True, slots=True)
class RunStarted:
    run_id: str
    session_id: str
    task: str  # the user message that starts the run ("" when resuming)
    model: str
    at: float
    resumed: bool = False
    kind: Literal["run_started"] = "run_started"


@dataclass(frozen=True, slots=True)
class ModelCalled:
    run_id: str
    session_id: str
    iteration: int
    manifest: Manifest
    message: AssistantMessage  # the assistant message as the loop records it (calls parsed)
    usage: Usage
    at: float
    finish_reason: str | None = None
    kind: Literal["model_called"] = "model_called"


@dataclass(frozen=True, slots=True)
class ToolStarted:
    run_id: str
    session_id: str
    call: ToolCall
    at: float
    kind: Literal["tool_started"] = "tool_started"


@dataclass(frozen=True, slots=True)
class ToolFinished:
    run_id: str
    session_id: str
    call: ToolCall
    result: ToolMessage
    duration_s: float
    at: float
    # The audit trail: who asked (the agent, a resume) and what the safety gate decided.
    actor: str = "agent"
    decision: str = "allowed"
    kind: Literal["tool_finished"] = "tool_finished"


@dataclass(frozen=True, slots=True)
class RunFinished:
    run_id: str
    session_id: str
    answer: str
    iterations: int
    at: float
    kind: Literal["run_finished"] = "run_finished"


@dataclass(frozen=True, slots=True)
class RunFailed:
    run_id: str
    session_id: str
    error: str  # what happened and what to do next
    error_type: str  # the exception class name, e.g. "ModelUnavailableError"
    at: float
    kind: Literal["run_failed"] = "run_failed"


LoopEvent: TypeAlias = (
    RunStarted | ModelCalled | ToolStarted | ToolFinished | RunFinished | RunFailed
)
