"""How question runs read files in agent_tasks runs, counted from their session logs.

``python3 benchmarks/read_counts.py LABEL [LABEL ...]`` (checkpoints of
``benchmarks/agent_tasks.py`` under ``.cache/agent_tasks``): per run label, the runs in which
the model repeated a ``read_file`` call whose first result showed only part of the file (as
recorded: before session 32 the repeat itself, since then the step that read the unseen part
instead), the runs in which the unseen-part read ran (:mod:`workset.loop.rereads`) and those
in which a call under a code name read its definition (:mod:`workset.loop.code_names`). No
model; prints counts only, so held-out runs stay unread.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from workset import SessionLog
from workset.messages import AssistantMessage, ToolMessage

CACHE = Path(__file__).parents[1] / ".cache" / "agent_tasks"
REREAD = "again: "  # the step's decision when a repeated partial read reads the unseen part
DEFINITION = "a name the code defines"  # the step's decision when a call reads a definition


def counts(label: str) -> dict[str, int]:
    log = SessionLog(CACHE / f"{label}.db")
    c = dict.fromkeys(("runs", "repeated_partial_read", "unseen_part_read", "definition_read"), 0)
    for info in log.sessions(limit=None):
        c["runs"] += 1
        messages = log.messages(info.id)
        results = {m.tool_call_id: m.content for m in messages if isinstance(m, ToolMessage)}
        first: dict[str, str] = {}  # canonical arguments -> the first call's id
        repeated = False
        for m in messages:
            if not isinstance(m, AssistantMessage):
                continue
            for call in m.tool_calls:
                if call.name != "read_file":
                    continue
                key = json.dumps(json.loads(call.arguments or "{}"), sort_keys=True)
                earlier = first.setdefault(key, call.id)
                repeated |= earlier != call.id and "To continue" in results.get(earlier, "")
        decisions = " ".join(str(getattr(e.event, "decision", "")) for e in log.events(info.id))
        reread = REREAD in decisions
        c["repeated_partial_read"] += repeated or reread
        c["unseen_part_read"] += reread
        c["definition_read"] += DEFINITION in decisions
    return c


def main(labels: list[str]) -> None:
    if not labels:
        sys.exit("usage: python3 benchmarks/read_counts.py LABEL [LABEL ...]")
    for label in labels:
        c = counts(label)
        print(
            f"{label}: {c['runs']} runs; a partial read repeated in {c['repeated_partial_read']},"
            f" the unseen part read in {c['unseen_part_read']}, a definition read in "
            f"{c['definition_read']}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
