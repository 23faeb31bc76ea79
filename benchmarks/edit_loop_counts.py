"""What the tests around an edit did in agent_tasks runs, counted from their session logs.

``python3 benchmarks/edit_loop_counts.py LABEL [LABEL ...]`` (checkpoints of
``benchmarks/agent_tasks.py`` under ``.cache/agent_tasks``): per run label, the rewrites
refused (written back unchanged, or no function in the reply), the edits applied, the test
runs after an edit and how many passed, the edits undone, and the runs whose first test run
failed. No model; prints counts only, so held-out runs stay unread.
"""

from __future__ import annotations

import sys
from pathlib import Path

from workset import SessionLog
from workset.messages import ToolMessage

CACHE = Path(__file__).parents[1] / ".cache" / "agent_tasks"


def counts(label: str) -> dict[str, int]:
    log = SessionLog(CACHE / f"{label}.db")
    c = dict.fromkeys(
        ("runs", "unchanged", "no_function", "applied", "tests_after", "passed_after", "undone",
         "first_run_failed"), 0,
    )  # fmt: skip
    for info in log.sessions(limit=None):
        c["runs"] += 1
        edited, first = False, True
        for m in log.messages(info.id):
            if not isinstance(m, ToolMessage):
                continue
            text = m.content
            if m.name == "edit_file":
                c["unchanged"] += "already does" in text
                c["no_function"] += "holds no complete" in text
                if not m.is_error and "edited " in text:
                    c["applied"] += 1
                    edited = True
            elif m.name == "run_tests":
                if first and not edited:
                    c["first_run_failed"] += "exit code 0" not in text
                first = False
                if edited:
                    c["tests_after"] += 1
                    c["passed_after"] += "exit code 0" in text
            elif m.name == "undo_edit" and not m.is_error:
                c["undone"] += 1
                edited = False
    return c


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(name, counts(name))
