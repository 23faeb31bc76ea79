"""Records in, spans out: the GenAI semantic conventions over workset's record union.

- ``RunStarted`` opens an ``invoke_agent`` span (the session is ``gen_ai.conversation.id``),
  closed by ``RunFinished`` or ``RunFailed`` (status error, the message as description);
- ``ModelCalled`` is a ``chat {model}`` span from the call's start (its recorded latency
  before the record) to the record, with ``gen_ai.usage.input_tokens``, ``output_tokens`` and
  ``cache_read.input_tokens`` (what the server reported reusing), and workset's own
  prediction beside it (``workset.prefix.reused_tokens``);
- ``ToolStarted`` opens an ``execute_tool {tool}`` span, ``ToolFinished`` closes it (a call
  refused before it started gets a span of its recorded duration); an error result sets the
  status to error.

Spans of one run are children of its ``invoke_agent`` span. Times are the records' own (the
agent's clock), so a replayed or fake-clocked session traces as it happened.
"""

from __future__ import annotations

from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter
from opentelemetry.trace import Span, SpanKind, Status, StatusCode

from workset.events.records import (
    LoopEvent,
    ModelCalled,
    RunFailed,
    RunFinished,
    RunStarted,
    ToolFinished,
    ToolStarted,
)

SYSTEM = "workset"


def provider_for(exporter: SpanExporter) -> TracerProvider:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider


class SpanSubscriber:
    """Subscribe it to an agent's bus (``Agent(..., subscribers=[...])``)."""

    def __init__(self, tracer_provider: Any = None) -> None:
        self.tracer = trace.get_tracer("workset", tracer_provider=tracer_provider)
        self._runs: dict[str, Span] = {}  # run id -> its invoke_agent span
        self._models: dict[str, str] = {}  # run id -> the model it runs on
        self._tools: dict[tuple[str, str], Span] = {}  # (session, call id) -> span

    def __call__(self, event: LoopEvent) -> None:
        match event:
            case RunStarted():
                self._models[event.run_id] = event.model
                self._runs[event.run_id] = self.tracer.start_span(
                    "invoke_agent",
                    kind=SpanKind.INTERNAL,
                    start_time=_ns(event.at),
                    attributes={
                        "gen_ai.operation.name": "invoke_agent",
                        "gen_ai.system": SYSTEM,
                        "gen_ai.request.model": event.model,
                        "gen_ai.conversation.id": event.session_id,
                        "workset.run.id": event.run_id,
                        "workset.run.resumed": event.resumed,
                    },
                )
            case ModelCalled():
                self._model_call(event)
            case ToolStarted():
                self._tools[(event.session_id, event.call.id)] = self._tool_span(
                    event.run_id, event.session_id, event.call.name, event.call.id, event.at
                )
            case ToolFinished():
                self._tool_finished(event)
            case RunFinished():
                self._end_run(event.run_id, event.at, None)
            case RunFailed():
                self._end_run(event.run_id, event.at, f"{event.error_type}: {event.error}")

    def _model_call(self, event: ModelCalled) -> None:
        usage, model = event.usage, self._models.get(event.run_id) or "model"
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "chat",
            "gen_ai.system": SYSTEM,
            "gen_ai.request.model": model,
            "gen_ai.conversation.id": event.session_id,
            "gen_ai.usage.input_tokens": usage.prompt_tokens,
            "gen_ai.usage.output_tokens": usage.completion_tokens,
            "workset.request.id": event.manifest.request_id,
            "workset.prefix.reused_tokens": event.manifest.prefix.reused_tokens,
        }
        if usage.cached_prompt_tokens is not None:
            attributes["gen_ai.usage.cache_read.input_tokens"] = usage.cached_prompt_tokens
        if event.finish_reason:
            attributes["gen_ai.response.finish_reasons"] = (event.finish_reason,)
        span = self.tracer.start_span(
            f"chat {model}",
            context=self._parent(event.run_id),
            kind=SpanKind.CLIENT,
            start_time=_ns(event.at - usage.latency_s),
            attributes=attributes,
        )
        span.end(end_time=_ns(event.at))

    def _tool_span(self, run_id: str, session_id: str, name: str, call_id: str, at: float) -> Span:
        return self.tracer.start_span(
            f"execute_tool {name}",
            context=self._parent(run_id),
            kind=SpanKind.INTERNAL,
            start_time=_ns(at),
            attributes={
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.system": SYSTEM,
                "gen_ai.tool.name": name,
                "gen_ai.tool.call.id": call_id,
                "gen_ai.conversation.id": session_id,
            },
        )

    def _tool_finished(self, event: ToolFinished) -> None:
        span = self._tools.pop((event.session_id, event.call.id), None)
        if span is None:  # refused or interrupted before it started
            span = self._tool_span(event.run_id, event.session_id, event.call.name,
                                   event.call.id, event.at - event.duration_s)  # fmt: skip
        span.set_attribute("workset.tool.decision", event.decision)
        if event.result.is_error:
            span.set_status(Status(StatusCode.ERROR, event.result.content[:200]))
        span.end(end_time=_ns(event.at))

    def _end_run(self, run_id: str, at: float, error: str | None) -> None:
        span = self._runs.pop(run_id, None)
        self._models.pop(run_id, None)
        if span is None:
            return
        if error is not None:
            span.set_status(Status(StatusCode.ERROR, error[:200]))
        span.end(end_time=_ns(at))

    def _parent(self, run_id: str) -> Any:
        run = self._runs.get(run_id)
        return trace.set_span_in_context(run) if run is not None else None


def _ns(seconds: float) -> int:
    return int(seconds * 1_000_000_000)
