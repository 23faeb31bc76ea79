"""The agent end to end on the embedded model: a question that needs a tool."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from workset import Agent, AgentConfig, SessionLog, ToolRegistry, Workspace, perception_tools
from workset.events import LoopEvent, ModelCalled, ToolFinished
from workset.models.embedded import EmbeddedModel

DEMO = Path(__file__).parents[2] / "examples" / "demo"


@pytest.mark.real_model
def test_the_embedded_agent_reads_a_file_to_answer_and_counts_every_request_exactly(
    qwen: EmbeddedModel, tmp_path: Path
) -> None:
    seen: list[LoopEvent] = []
    tools = ToolRegistry(perception_tools(Workspace(DEMO)))
    agent = Agent(
        qwen,
        tools,
        SessionLog(tmp_path / "log.db"),
        AgentConfig(max_iterations=8),  # the default: a search, a read, an answer and slack
        subscribers=[seen.append],
    )
    result = anyio.run(agent.run, "Which port does the server in service.toml listen on?")

    assert result.status == "finished", result.error
    assert "8471" in result.answer
    reads = [e for e in seen if isinstance(e, ToolFinished) and e.call.name == "read_file"]
    assert reads and "port = 8471" in reads[0].result.content
    calls = [e for e in seen if isinstance(e, ModelCalled)]
    for call in calls:  # the manifest's exact count is what the server billed
        assert call.manifest.total_tokens == call.usage.prompt_tokens
        assert sum(call.manifest.buckets.values()) == call.usage.prompt_tokens
    second = calls[1]
    assert second.usage.cached_prompt_tokens is not None
    assert second.usage.cached_prompt_tokens >= second.manifest.prefix.tokens
    assert second.manifest.prefix.reused_tokens >= calls[0].manifest.total_tokens - 3
