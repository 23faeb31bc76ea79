"""Archive summaries kept as a log, and the artifact trail kept outside any summary."""

from __future__ import annotations

import hashlib
import json

import anyio
from history_transcripts import context, session, summarizer, unit

from workset.history.archive import ArchiveLog
from workset.history.policies import LayeredPolicy, make_policy
from workset.history.trail import build_trail, render_trail
from workset.messages import AssistantMessage, Message, UserMessage
from workset.models.base import ModelRequest


def _entry(request: ModelRequest) -> str:
    text = request.messages[-1].content or ""
    return "entry for " + text.split("Round ", 1)[1].split(":", 1)[0]


def test_each_old_round_gets_its_own_entry_kept_as_a_log() -> None:
    model = summarizer([_entry] * 10)
    policy = LayeredPolicy([ArchiveLog(keep_turns=2)])
    first = anyio.run(policy.view, session(4), context(model))
    second = anyio.run(policy.view, session(6), context(model))
    assert len(model.requests) == 4  # one call per round, never redone
    logs = [m.content for m in second.messages if isinstance(m, AssistantMessage)][:4]
    assert logs == [
        "[COMPRESSED] Round 1 log (messages seq 1-3): entry for 1",
        "[COMPRESSED] Round 2 log (messages seq 5-7): entry for 2",
        "[COMPRESSED] Round 3 log (messages seq 9-11): entry for 3",
        "[COMPRESSED] Round 4 log (messages seq 13-15): entry for 4",
    ]
    assert second.messages[:4] == first.messages[:4]  # earlier entries are never rewritten
    users = [m for m in second.messages if isinstance(m, UserMessage)]
    assert users == [m for m in session(6) if isinstance(m, UserMessage)]  # verbatim


def _coding_session() -> list[Message]:
    return [
        UserMessage("fix the failing test"),
        *unit("r1", "read_file", json.dumps({"path": "src/app.py"}), "def f():\n    return 1\n"),
        *unit(
            "w1",
            "write_file",
            json.dumps({"path": "src/app.py", "content": "def f():\n    return 2\n"}),
            "wrote src/app.py",
        ),
        *unit(
            "t1",
            "shell",
            json.dumps({"command": "pytest -q"}),
            "..F\n=== 2 passed, 1 failed in 0.10s ===",
        ),
        *unit("e1", "edit_file", json.dumps({"path": "src/b.py"}), "Error: old text not found"),
        UserMessage("and now?"),
    ]


def test_the_trail_lists_reads_writes_hashes_and_test_results() -> None:
    text = render_trail(build_trail(_coding_session()))
    read = _sha("def f():\n    return 1\n")  # of what the read returned
    written = _sha("def f():\n    return 2\n")  # of what the write sent
    assert text.splitlines() == [
        "Artifact trail (built from the tool calls; kept outside any summary):",
        f"- turn 1, seq 2: read src/app.py sha256:{read}",
        f"- turn 1, seq 4: write src/app.py sha256:{written} - 22 chars written",
        "- turn 1, seq 6: test pytest -q - 2 passed, 1 failed",
        "- turn 1, seq 8: edit src/b.py (failed) - Error: old text not found",
    ]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def test_the_trail_is_pinned_as_its_own_block_beside_the_summary() -> None:
    history = [*_coding_session(), *session(3)]
    view = anyio.run(
        make_policy("compaction", turns=1, batch_turns=1).view, history, context(summarizer())
    )
    assert view.pinned[0].startswith("Artifact trail")
    assert "src/app.py" in view.pinned[0]
    assert view.messages[0].content.startswith("[COMPRESSED] Summary")
