"""How often the first request's workspace evidence holds the answer to a question task.

No model runs: for every question task of the chosen sets and half, the evidence item is built
as ``benchmarks/agent_tasks.py`` builds it (:class:`agent_tasks.Evidence`, the same index
folder), and the task's expected answer (its ``expect`` regex) is looked for in it. Printed
per set: tasks whose evidence holds the answer, and the mean size of the evidence in tokens
(characters / 4). It bounds what answering from the evidence can reach; it is not a success
rate (a regex such as ``\\bone\\b`` can match unrelated text).

Run: ``python benchmarks/evidence_recall.py [--split tune] [--sets questions,repo2-questions]
[--code-first]`` (``--code-first``: ``EvidenceConfig.code_first``, a definition's docstring
given up before its code).
Sets in ``agent_tasks.HELD_OUT`` print their totals only, like ``agent_tasks.py``.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from agent_tasks import HELD_OUT, TASKS, Evidence, kind_of, load

QUESTION_SETS = ("questions", "fresh-questions", "repo2-questions", "more-questions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["tune", "report", "all"], default="tune")
    parser.add_argument("--sets", default=",".join(QUESTION_SETS))
    parser.add_argument("--show", action="store_true", help="one line per task (not held-out)")
    parser.add_argument("--code-first", action="store_true", help="EvidenceConfig.code_first")
    args = parser.parse_args()
    evidence = Evidence(True)
    held, total, tokens = 0, 0, 0
    try:
        for name in args.sets.split(","):
            found = count = size = 0
            for set_name, task in load(name, args.split):
                if kind_of(set_name, task) != "question":
                    continue
                workspace = (TASKS / task.get("workspace", "repo")).resolve()
                source = evidence.source(workspace)
                source.config = replace(source.config, code_first=args.code_first)
                text = "\n".join(evidence.texts(workspace, task["question"]))
                hit = re.search(task["expect"], text, re.IGNORECASE) is not None
                found, count, size = found + hit, count + 1, size + len(text) // 4
                if args.show and name not in HELD_OUT:
                    print(f"  {name} {task['id']}: {'in evidence' if hit else 'missing'}")
            mean = size // max(count, 1)
            print(f"{name:18} {args.split}: answer in the evidence {found}/{count}, "
                  f"mean evidence {mean} tokens")  # fmt: skip
            held, total, tokens = held + found, total + count, tokens + size
    finally:
        evidence.close()
    print(f"{'all':18} {args.split}: {held}/{total}, mean {tokens // max(total, 1)} tokens")


if __name__ == "__main__":
    main()
