"""Transcripts and a scripted summarizer for the history tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from workset.history.base import PolicyContext
from workset.history.notes import NOTE_TAKER_PROMPT
from workset.history.summary import SECTIONS
from workset.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolMessage,
    UserMessage,
)
from workset.models.base import ModelRequest
from workset.testing import ScriptedModel, WordTokenizer
from workset.tokens.chatml import ChatMLFormat
from workset.tokens.counter import PartCounter


def anchored_text(tag: str = "") -> str:
    return "\n".join(f"## {s}\n- {s.lower()} {tag}".rstrip() for s in SECTIONS)


def writer(request: ModelRequest) -> str:
    """Answers every kind of summarizer request with a well-formed text."""
    system = request.messages[0]
    prompt = system.content if isinstance(system, SystemMessage) else ""
    if prompt == NOTE_TAKER_PROMPT:
        user = request.messages[-1].content or ""
        return user.split(": ", 1)[1] if "rule" in user else "NONE"
    if "## Session intent" in prompt:
        return anchored_text()
    return "short compressed text"


def summarizer(
    entries: Sequence[str | BaseException | Callable[[ModelRequest], str]] | None = None,
) -> ScriptedModel:
    """A scripted summarizer: the given entries, or :func:`writer` for as long as asked."""
    return ScriptedModel(list(entries) if entries is not None else [writer] * 5_000)


def counter() -> PartCounter:
    return PartCounter(ChatMLFormat(), WordTokenizer())


def context(
    model: ScriptedModel | None = None, *, window: int = 100_000, query: str = ""
) -> PolicyContext:
    return PolicyContext(window=window, summarizer=model, query=query, counter=counter())


def unit(call_id: str, name: str, arguments: str, result: str, **extra: bool) -> list[Message]:
    call = AssistantMessage(tool_calls=(ToolCall(call_id, name, arguments),))
    return [call, ToolMessage(call_id, result, name=name, **extra)]


def session(turns: int, *, result_chars: int = 200) -> list[Message]:
    """``turns`` turns, each: a user message, one read_file unit, an assistant answer."""
    history: list[Message] = []
    for t in range(1, turns + 1):
        history.append(UserMessage(f"question {t}: what is in file{t}.txt?"))
        body = f"file{t} " + "x" * max(result_chars - 6, 0)
        history.extend(unit(f"c{t}", "read_file", f'{{"path": "file{t}.txt"}}', body))
        history.append(AssistantMessage(f"file{t}.txt holds {len(body)} chars"))
    return history
