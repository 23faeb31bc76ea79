"""What a task asks for: a change, a defect to fix, or only an answer."""

from __future__ import annotations

import pytest

from workset.intent import asks_for_change, wants_change


@pytest.mark.parametrize(
    "task",
    [
        "LRUCache keeps one entry fewer than its capacity. Fix it.",
        "Find the bug and fix it",
        "Add a keyword parameter missing_ok=False to delete",
        "please rename the helper",
    ],
)
def test_an_imperative_asks_for_a_change(task: str) -> None:
    assert asks_for_change(task) and wants_change(task)


@pytest.mark.parametrize(
    "task",
    [
        "Inserting documents gives the IDs 1, 3, 4 instead of 1, 2, 3. The problem is in next_id.",
        "There is a bug in the retry loop",
    ],
)
def test_a_reported_defect_wants_a_change_without_asking_for_one(task: str) -> None:
    assert wants_change(task) and not asks_for_change(task)


@pytest.mark.parametrize(
    "task",
    ["Which file defines the class Agent?", "What does the fix_paths helper return?"],
)
def test_a_question_wants_no_change(task: str) -> None:
    assert not wants_change(task)
