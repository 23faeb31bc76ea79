"""Traces: OpenTelemetry spans for runs, model calls and tool calls, from the record union.

:class:`~workset.telemetry.spans.SpanSubscriber` is a subscriber of the agent's event bus,
like the CLI printer: it turns the records a session appends into spans named and attributed
by the OpenTelemetry GenAI semantic conventions (``invoke_agent``, ``chat {model}``,
``execute_tool {tool}``; model, input/output/cached tokens, tool name and call id, the session
as ``gen_ai.conversation.id``). Nothing in the engine knows about it.

Off by default, and then free: nothing subscribes and OpenTelemetry is never imported.
:func:`subscriber_from_env` turns it on from the standard ``OTEL_TRACES_EXPORTER``
(``console``, or ``otlp`` with ``opentelemetry-exporter-otlp`` installed); a library user may
pass any tracer provider or span exporter instead. ``pip install 'workset[otel]'``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from workset.errors import UsageError

if TYPE_CHECKING:
    from workset.telemetry.spans import SpanSubscriber

EXPORTERS = ("none", "console", "otlp")

__all__ = ["EXPORTERS", "span_subscriber", "subscriber_from_env"]


def span_subscriber(*, exporter: Any = None, tracer_provider: Any = None) -> SpanSubscriber:
    """A bus subscriber exporting spans through ``exporter`` (an OpenTelemetry
    ``SpanExporter``) or ``tracer_provider`` (default: the global one)."""
    from workset.telemetry.spans import SpanSubscriber, provider_for

    if exporter is not None:
        tracer_provider = provider_for(exporter)
    return SpanSubscriber(tracer_provider)


def subscriber_from_env(env: Mapping[str, str] | None = None) -> SpanSubscriber | None:
    """The subscriber ``$OTEL_TRACES_EXPORTER`` asks for; None when unset or ``none``."""
    env = os.environ if env is None else env
    name = env.get("OTEL_TRACES_EXPORTER", "none").strip().lower() or "none"
    if name == "none":
        return None
    if name not in EXPORTERS:
        raise UsageError(
            f"OTEL_TRACES_EXPORTER={name!r} is not an exporter workset knows; use one of "
            f"{', '.join(EXPORTERS)}"
        )
    try:
        if name == "console":
            from opentelemetry.sdk.trace.export import ConsoleSpanExporter

            return span_subscriber(exporter=ConsoleSpanExporter())
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    except ImportError as exc:
        raise UsageError(
            f"OTEL_TRACES_EXPORTER={name} needs OpenTelemetry: pip install 'workset[otel]'"
            + (" opentelemetry-exporter-otlp" if name == "otlp" else "")
        ) from exc
    return span_subscriber(exporter=OTLPSpanExporter())
