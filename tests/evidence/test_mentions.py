"""Which files mention X? The search done before the first call, and the answer it allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from workset.evidence.mentions import Mention, mention_query, mentions_item
from workset.evidence.workspace import WorkspaceEvidence
from workset.loop.outcome import classify
from workset.messages import AssistantMessage, UserMessage

ISSUE = "Which files under src/workset/safety mention bubblewrap?"


@pytest.mark.parametrize(
    ("question", "mention"),
    [
        (ISSUE, Mention("bubblewrap", "src/workset/safety")),
        ("Which files mention JSONStorage?", Mention("JSONStorage", "")),
        ("Which modules in pkg/tools import `subprocess`?", Mention("subprocess", "pkg/tools")),
        ("Which test files use the tmp_path fixture", None),  # not the last word
        ("What does the file mention about caching?", None),
        ("What file contains the default settings?", None),
        ("Which file defines the Query class?", None),
        ("Which files mention it?", None),
    ],
)
def test_the_word_and_folder_are_read_only_from_a_which_files_mention_question(
    question: str, mention: Mention | None
) -> None:
    assert mention_query(question) == mention


def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src" / "safety").mkdir(parents=True)
    (root / "src" / "tools").mkdir(parents=True)
    (root / "src" / "safety" / "gate.py").write_text("def check(call):\n    return True\n")
    (root / "src" / "tools" / "sandbox.py").write_text(
        '"""Runs commands under Bubblewrap."""\n\nBWRAP = "bwrap"  # bubblewrap\nbubblewraps = 1\n'
    )
    (root / "src" / "tools" / "notes.log").write_text("bubblewrap here too\n")
    (root / ".gitignore").write_text("*.log\n")
    return root


def test_the_search_lists_the_files_with_their_lines_or_says_none_or_no_folder(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    found = mentions_item(root, Mention("bubblewrap", "src")).text
    assert "1 of 2 files mention it" in found
    assert "src/tools/sandbox.py (line 1: " in found and "line 3: " in found
    assert "notes.log" not in found  # ignored by .gitignore
    none = mentions_item(root, Mention("bubblewrap", "src/safety")).text
    assert "no file under src/safety mentions 'bubblewrap' (1 files searched" in none
    gone = mentions_item(root, Mention("bubblewrap", "src/sandbox")).text
    assert "there is no file under src/sandbox" in gone


def test_the_issue_question_gets_the_search_first_and_none_is_an_answer_it_supports(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    question = "Which files under src/safety mention bubblewrap?"
    source = WorkspaceEvidence(root, tmp_path / "i.sqlite", None)
    items = source.items_for(question)
    source.close()
    assert items[0].item_id.startswith("evidence:mentions:")
    # excerpts from outside the folder (sandbox.py, the word's file) are left out
    assert all("src/tools/" not in i.text for i in items)
    assert "no file under src/safety mentions" in items[0].text
    evidence = [i.text for i in items]
    said = [UserMessage(question), AssistantMessage("No file under src/safety mentions it.")]
    assert classify(said, evidence=evidence).outcome == "answered"
    assert classify(said, evidence=evidence[1:]).outcome != "answered"  # without the search
    for elsewhere in ("src/tools/sandbox.py", 'The file "src/tools/sandbox.py" under src/safety.'):
        wrong = [UserMessage(question), AssistantMessage(elsewhere)]
        verdict = classify(wrong, evidence=[*evidence, "src/tools/sandbox.py: bubblewrap"])
        assert verdict.outcome == "answered_unverified", verdict
        assert "outside it" in verdict.reason
