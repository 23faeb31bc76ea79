"""What a run is configured with and what it returns: settings, usage, result."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from workset.models.base import Usage

DEFAULT_SYSTEM_PROMPT = (
    "You answer questions about the files in a workspace. To see a file, call a tool; never "
    "guess file contents. When a tool result gives you the answer, reply with a short "
    "plain-text answer and no tool call.\n\n"
    "Example:\nUser: What version is set in setup.cfg?\n"
    'Assistant: {"name": "read_file", "arguments": {"path": "setup.cfg"}}\n'
    "Tool: 1| [metadata]\\n2| version = 1.4.2\n"
    "Assistant: The version in setup.cfg is 1.4.2."
)
# Appended at the end of the context (never recorded) when a repeated call ends tool use.
ANSWER_NOW = (
    "Answer the question now, in one or two sentences, using the tool results above. "
    "Do not call any tool."
)


@dataclass(frozen=True, slots=True)
class AgentConfig:
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    max_iterations: int = 8
    model_timeout_s: float = 300.0
    tool_timeout_s: float = 60.0
    max_tokens: int = 512
    temperature: float = 0.0
    output_reserve: int = 512
    margin: int = 64
    # Constrain each model output to one tool call or {"answer": ...} with a JSON schema,
    # where the backend can enforce one (llama.cpp can): no malformed calls from small models.
    constrained_decisions: bool = False
    # At most this many calls of one message run; the rest get an error.
    max_calls_per_message: int = 8
    # When the model repeats a call already made in this run, ask it to answer next turn with
    # no tools offered (small models otherwise loop on the same call).
    answer_on_repeat: bool = True
    # Tool results are data, not instructions: wrap them in <external_content> with their
    # source (reserved tags inside are neutralised either way). Tools marked
    # ``wrap_output=False`` (workset's own bookkeeping tools, MCP) are not wrapped again.
    wrap_tool_results: bool = True
    # The most of the room left after required parts that memory/evidence items may take.
    items_share: float = 0.5


@dataclass(frozen=True, slots=True)
class RunUsage:
    calls: int = 0
    prompt_tokens: int = 0
    cached_prompt_tokens: int = 0
    completion_tokens: int = 0
    # What history policies billed for their own model calls (summaries, notes).
    compression_prompt_tokens: int = 0
    compression_completion_tokens: int = 0

    def add(self, usage: Usage) -> RunUsage:
        return replace(
            self,
            calls=self.calls + 1,
            prompt_tokens=self.prompt_tokens + usage.prompt_tokens,
            cached_prompt_tokens=self.cached_prompt_tokens + (usage.cached_prompt_tokens or 0),
            completion_tokens=self.completion_tokens + usage.completion_tokens,
        )

    def add_compression(self, usage: Usage) -> RunUsage:
        return replace(
            self,
            compression_prompt_tokens=self.compression_prompt_tokens + usage.prompt_tokens,
            compression_completion_tokens=self.compression_completion_tokens
            + usage.completion_tokens,
        )


@dataclass(frozen=True, slots=True)
class RunResult:
    session_id: str
    run_id: str
    status: Literal["finished", "failed", "nothing_to_do"]
    answer: str = ""
    error: str = ""
    iterations: int = 0
    usage: RunUsage = field(default_factory=RunUsage)
