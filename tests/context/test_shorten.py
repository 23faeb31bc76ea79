"""A current turn too large for the window: its oldest long tool results are shortened in
the request (never in the log), and the manifest says which; only what cannot be shortened
raises the budget error."""

from __future__ import annotations

import pytest
from context_support import TOOLS, counter

from workset.context.assemble import Assembler, BudgetConfig
from workset.errors import ContextBudgetError
from workset.messages import AssistantMessage, Message, ToolCall, ToolMessage, UserMessage


def file_text(name: str, lines: int) -> str:
    return "\n".join(f"{n:>4}| {name} line {n} of the file, with words" for n in range(lines))


def turn_with_reads(*sizes: int) -> list[Message]:
    history: list[Message] = [UserMessage("Which file defines the retry limit?")]
    for k, size in enumerate(sizes):
        call = ToolCall(f"c{k}", "read_file", f'{{"path": "f{k}.py"}}')
        history.append(AssistantMessage(None, (call,)))
        history.append(ToolMessage(call.id, file_text(f"f{k}", size), "read_file"))
    return history


def build(history: list[Message], window: int):  # type: ignore[no-untyped-def]
    assembler = Assembler(counter(), BudgetConfig(window, output_reserve=100, margin=10))
    return assembler.assemble(
        session_id="s1", system="You are terse.", tools=TOOLS, history=history
    )


def test_a_turn_over_the_window_is_sent_with_its_oldest_results_shortened() -> None:
    history = turn_with_reads(120, 120, 30)
    whole = [m.content for m in history if isinstance(m, ToolMessage)]
    result = build(history, 2000)
    sent = [m for m in result.request.messages if isinstance(m, ToolMessage)]
    assert [m.tool_call_id for m in sent] == ["c0", "c1", "c2"]  # every unit kept
    assert "shortened to fit the context window" in sent[0].content
    assert sent[0].content.startswith("   0| f0 line 0")
    assert sent[-1].content == whole[-1]  # short enough: untouched
    assert "c0" in result.manifest.notes["budget"]
    assert [m.content for m in history if isinstance(m, ToolMessage)] == whole  # input intact
    assert result.manifest.total_tokens <= 2000 - 100 - 10


def test_a_turn_that_fits_is_sent_whole_and_noted_nowhere() -> None:
    result = build(turn_with_reads(30, 30), 8192)
    sent = [m for m in result.request.messages if isinstance(m, ToolMessage)]
    assert not any("shortened" in m.content for m in sent)
    assert "budget" not in result.manifest.notes


def test_a_task_too_long_even_with_its_results_shortened_still_raises() -> None:
    history = turn_with_reads(120)
    history[0] = UserMessage(" ".join(["long"] * 900))
    with pytest.raises(ContextBudgetError, match="the required context does not fit"):
        build(history, 600)
