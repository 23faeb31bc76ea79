"""The tool-result budget: large results saved, previews exact and frozen across resumes."""

from __future__ import annotations

from pathlib import Path

import anyio
from history_transcripts import context, counter, unit

from workset.history.base import PolicyContext
from workset.history.budget import ToolResultBudget
from workset.history.policies import LayeredPolicy
from workset.messages import Message, UserMessage
from workset.tools.output import ArtifactStore
from workset.tools.workspace import Workspace

BIG = "\n".join(f"log line {i:04d} status=ok" for i in range(1, 501))


def _history(text: str = BIG) -> list[Message]:
    return [
        UserMessage("what does the log say?"),
        *unit("call_big", "shell", '{"command": "cat app.log"}', text),
        UserMessage("and now?"),
    ]


def _budget(root: Path, **params: int) -> ToolResultBudget:
    return ToolResultBudget(ArtifactStore(Workspace(root)), session_id="session-1", **params)


def _result(budget: ToolResultBudget, ctx: PolicyContext, history: list[Message]) -> str:
    view = anyio.run(LayeredPolicy([budget]).view, history, ctx)
    return view.messages[2].content or ""


def test_a_large_result_is_saved_and_previewed_with_exact_counts_and_how_to_read_the_rest(
    tmp_path: Path,
) -> None:
    preview = _result(_budget(tmp_path), context(), _history())
    tokens = counter().count_text(BIG)
    assert f"has 500 lines, {len(BIG):,} chars, {tokens:,} tokens (exact:" in preview
    saved = next((tmp_path / ".workset" / "artifacts").glob("shell-*.txt"))
    assert saved.read_text() == BIG
    assert f"saved at .workset/artifacts/{saved.name}" in preview
    assert "log line 0001 status=ok" in preview  # head
    assert "log line 0500 status=ok" in preview  # tail
    assert "log line 0250 status=ok" not in preview
    assert "400 lines omitted" in preview
    assert f"call read_file with path='.workset/artifacts/{saved.name}' and offset=51" in preview


def test_a_resumed_session_gets_the_identical_preview_bytes_from_a_new_store(
    tmp_path: Path,
) -> None:
    first = _result(_budget(tmp_path), context(), _history())
    # A new process: new store and budget objects on the same directory, other settings and
    # no exact counter. The stored preview wins, byte for byte.
    resumed = _budget(tmp_path, max_lines=20, head=3, tail=3)
    second = _result(resumed, PolicyContext(window=1_000), _history())
    assert second.encode() == first.encode()


def test_a_result_within_the_budget_is_left_as_it_is(tmp_path: Path) -> None:
    small = "just a few lines\nof output"
    assert _result(_budget(tmp_path), context(), _history(small)) == small
    assert not (tmp_path / ".workset" / "artifacts").exists()


def test_the_budget_previews_a_large_result_of_the_current_turn_too(tmp_path: Path) -> None:
    history = _history()[:-1]  # the big result follows the last user message
    view = anyio.run(LayeredPolicy([_budget(tmp_path)]).view, history, context())
    assert view.messages[-1].content.startswith("[tool result budget:")
    assert view.seqs == (0, 1, 2)
