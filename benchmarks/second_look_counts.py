"""What the second look changed in agent_tasks runs, counted from their session logs.

``python3 benchmarks/second_look_counts.py LABEL [LABEL ...]`` (checkpoints of
``benchmarks/agent_tasks.py`` under ``.cache/agent_tasks``). A run whose answer the outcome
rules would not call ``answered`` is asked once more over the lines that share the question's
words (:mod:`workset.loop.second_look`), and so is one about to end without an answer; the
trajectory keeps the first answer (or the last tool result), then the harness's note, then
the reply. So one run gives both arms, paired: the first answer is what
the run would have ended with without the second look. Per label: the runs asked again, the
first answers and the replies that are right (the task's ``expect``, as agent_tasks judges),
right → wrong and wrong → right, and the replies that only copy numbered lines. Neither arm
can be ``answered`` (the first by construction, the reply by rule), so wrong-but-confident
counts do not move. No model; prints counts only, so held-out runs stay unread.

A run whose answer was checked (:mod:`workset.loop.answer_check`: the answer the rules call
``answered`` asked again the same way) keeps that answer; counted are the checks, and the
answers they kept ``answered`` or flagged ``answered_unverified``, right and wrong.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from agent_tasks import SETS, TASKS, Evidence, right

from workset import SessionLog
from workset.loop import answer_check
from workset.loop.outcome import classify
from workset.loop.second_look import is_note
from workset.messages import AssistantMessage, UserMessage

CACHE = Path(__file__).parents[1] / ".cache" / "agent_tasks"


def tasks_by_question() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for file, _ in SETS.values():
        for task in json.loads((TASKS / file).read_text()):
            if "question" in task and "expect" in task:
                out.setdefault(task["question"], task)
    return out


def counts(label: str, tasks: dict[str, dict[str, Any]]) -> dict[str, int]:
    log = SessionLog(CACHE / f"{label}.db")
    keys = ("runs", "asked_again", "first_right", "reply_right", "right_to_wrong")
    rest = ("wrong_to_right", "reply_copies_lines", "reply_gave_up", "without_answer")
    checks = ("checked", "kept_right", "kept_wrong", "flagged_right", "flagged_wrong")
    c = dict.fromkeys((*keys, *rest, *checks), 0)
    evidence = Evidence(True)  # opened once: checks are judged with the evidence runs had
    try:
        count_runs(c, log, tasks, evidence)
    finally:
        evidence.close()
    return c


def count_runs(
    c: dict[str, int], log: SessionLog, tasks: dict[str, dict[str, Any]], evidence: Evidence
) -> None:
    for info in log.sessions(limit=None):
        messages = log.messages(info.id)
        c["runs"] += sum(isinstance(m, UserMessage) and m.origin == "user" for m in messages)
        for at, message in enumerate(messages):
            if answer_check.is_note(message) and 0 < at < len(messages) - 1:
                count_check(c, messages[: at + 2], tasks, evidence)
                continue
            if not is_note(message) or at == 0:
                continue
            first, after = messages[at - 1], messages[at + 1 :]
            reply = next((m for m in after if isinstance(m, AssistantMessage)), None)
            question = next(
                (
                    m.content
                    for m in reversed(messages[:at])
                    if isinstance(m, UserMessage) and m.origin == "user"
                ),
                "",
            )
            task = tasks.get(question)
            if task is None or reply is None:
                continue
            c["asked_again"] += 1
            # The run was about to end without an answer (the call limit, failing calls):
            # the note follows a tool result, and the first arm is no answer.
            answered = isinstance(first, AssistantMessage) and not first.tool_calls
            c["without_answer"] += not answered
            said = (first.content or "") if answered and isinstance(first, AssistantMessage) else ""
            was, now = answered and right(task, said), right(task, reply.content or "")
            c["first_right"] += was
            c["reply_right"] += now
            c["right_to_wrong"] += was and not now
            c["wrong_to_right"] += now and not was
            verdict = classify([*messages[: at + 1], reply])
            c["reply_copies_lines"] += "copies numbered lines" in verdict.reason
            c["reply_gave_up"] += verdict.outcome == "gave_up"


def count_check(
    c: dict[str, int],
    history: list[Any],
    tasks: dict[str, dict[str, Any]],
    evidence: Evidence,
) -> None:
    """Count one check (:mod:`workset.loop.answer_check`): ``history`` ends with the answer
    checked, the note and the reply. The answer stays the run's answer; the check only
    decides whether it is ``answered`` (kept) or ``answered_unverified`` (flagged)."""
    first = history[-3]
    question = next(
        (m.content for m in reversed(history) if isinstance(m, UserMessage) and m.origin == "user"),
        "",
    )
    task = tasks.get(question)
    if task is None or not isinstance(first, AssistantMessage):
        return
    was = right(task, first.content or "")
    # as the run judged it: with the workspace evidence it was given
    given = evidence.texts((TASKS / task.get("workspace", "repo")).resolve(), question)
    kept = classify(history, evidence=given).outcome == "answered"
    c["checked"] += 1
    c[("kept_" if kept else "flagged_") + ("right" if was else "wrong")] += 1


def main(labels: list[str]) -> None:
    if not labels:
        sys.exit("usage: python3 benchmarks/second_look_counts.py LABEL [LABEL ...]")
    tasks = tasks_by_question()
    for label in labels:
        c = counts(label, tasks)
        print(
            f"{label}: {c['runs']} runs; asked again in {c['asked_again']} ("
            f"{c['without_answer']} about to end without an answer): first answer right "
            f"{c['first_right']}, reply right {c['reply_right']} (wrong → right "
            f"{c['wrong_to_right']}, right → wrong {c['right_to_wrong']}); replies that copy "
            f"numbered lines {c['reply_copies_lines']}, that give up {c['reply_gave_up']}"
        )
        if c["checked"]:
            print(
                f"  answers checked {c['checked']}: kept answered {c['kept_right']} right, "
                f"{c['kept_wrong']} wrong; flagged unverified {c['flagged_right']} right, "
                f"{c['flagged_wrong']} wrong"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
