"""Runs, model calls and tool calls become OpenTelemetry spans with the GenAI semantic
conventions, from the records on the agent's bus; without an exporter asked for, nothing
subscribes and OpenTelemetry is not even imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from workset.errors import UsageError
from workset.log.store import SessionLog
from workset.messages import AssistantMessage
from workset.session.agent import Agent
from workset.telemetry import span_subscriber, subscriber_from_env
from workset.testing import ScriptedModel, call
from workset.tools.base import Tool
from workset.tools.registry import ToolRegistry


async def lookup(port: str) -> str:
    """Look up which service listens on a port. Use for port questions.

    Args:
        port: The port number.
    """
    return f"port {port}: the web server"


def test_a_run_traces_as_an_agent_span_with_its_model_and_tool_calls(tmp_path: Path) -> None:
    exporter = InMemorySpanExporter()
    model = ScriptedModel(
        [AssistantMessage(None, (call("lookup", '{"port": "8080"}', "c1"),)), "The web server."]
    )
    tools = ToolRegistry([Tool.from_function(lookup, read_only=True, examples=({"port": "1"},))])
    with SessionLog(tmp_path / "log.db") as log:
        agent = Agent(model, tools, log, subscribers=[span_subscriber(exporter=exporter)])
        result = anyio.run(agent.run, "Which service is on 8080?")

    spans = {s.name: s for s in exporter.get_finished_spans()}
    assert set(spans) == {"invoke_agent", "chat scripted", "execute_tool lookup"}
    run, chat, tool = spans["invoke_agent"], spans["chat scripted"], spans["execute_tool lookup"]
    assert run.attributes is not None and chat.attributes is not None
    assert tool.attributes is not None
    assert run.attributes["gen_ai.conversation.id"] == result.session_id
    assert chat.parent is not None and chat.parent.span_id == run.context.span_id
    assert tool.parent is not None and tool.parent.span_id == run.context.span_id
    assert chat.attributes["gen_ai.operation.name"] == "chat"
    assert chat.attributes["gen_ai.request.model"] == "scripted"
    assert chat.attributes["gen_ai.usage.input_tokens"] > 0
    assert chat.attributes["gen_ai.usage.output_tokens"] > 0
    assert "gen_ai.usage.cache_read.input_tokens" in chat.attributes
    assert tool.attributes["gen_ai.tool.name"] == "lookup"
    assert tool.attributes["gen_ai.tool.call.id"] == "c1"
    assert run.start_time is not None and run.end_time is not None
    assert tool.start_time is not None and run.start_time <= tool.start_time <= run.end_time
    chats = [s for s in exporter.get_finished_spans() if s.name.startswith("chat")]
    assert len(chats) == 2  # the call that asked for the tool, and the answer


def test_a_failed_run_and_a_failed_tool_are_spans_with_error_status(tmp_path: Path) -> None:
    exporter = InMemorySpanExporter()
    model = ScriptedModel([AssistantMessage(None, (call("missing_tool", "{}", "c1"),))])
    with SessionLog(tmp_path / "log.db") as log:
        agent = Agent(model, ToolRegistry([]), log,
                      subscribers=[span_subscriber(exporter=exporter)])  # fmt: skip
        result = anyio.run(agent.run, "do it")

    assert result.status == "failed"  # the script ran out after the refused call
    spans = {s.name: s for s in exporter.get_finished_spans()}
    assert spans["execute_tool missing_tool"].status.is_ok is False
    assert spans["invoke_agent"].status.is_ok is False


def test_tracing_is_off_without_an_exporter_and_costs_no_import() -> None:
    assert subscriber_from_env({}) is None
    assert subscriber_from_env({"OTEL_TRACES_EXPORTER": "none"}) is None
    code = (
        "import sys, workset, workset.telemetry, workset.session.agent, workset.cli.main;"
        "print(any(m.startswith('opentelemetry') for m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)  # fmt: skip
    assert done.stdout.strip() == "False"


def test_an_unknown_exporter_is_refused_with_the_ones_that_work() -> None:
    with pytest.raises(UsageError, match="console, otlp"):
        subscriber_from_env({"OTEL_TRACES_EXPORTER": "jaeger"})
    assert subscriber_from_env({"OTEL_TRACES_EXPORTER": "console"}) is not None
