"""search_fix alone (no model) on the edit task sets: how many planted bugs it fixes.

For each edit task of a set (``benchmarks/tasks/edits*.json``), the task's workspace is copied
to a scratch folder with its bug planted (``mutate``), :func:`workset.repair.search.search`
runs there with the task's text as its hint, the change it finds (if any) is applied, and the
task's own ``checks`` judge the result:

* **fixed**: a change was found and the task's checks pass;
* **wrong fix**: a change was found (the workspace's tests pass with it) but the task's checks
  fail. This is what a run that applied it would claim wrongly;
* **not found** / **no failing test** (the workspace's tests pass with the bug: requested
  features, or bugs only the task's own check sees).

Tune halves print one line per task; ``report`` halves (and ``blind-edits``, all ``report``)
print totals only unless ``--show-tasks``.

Run: ``python benchmarks/fix_search.py --set fresh-edits --split tune`` (no model; a few
minutes: the tests run once per change tried).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent_tasks import TASKS, _check  # the edit tasks' own checks, run as agent_tasks runs them

from workset.repair.search import search
from workset.tools.testing import PYTEST

SETS = {
    "edits": "edits.json",
    "fresh-edits": "edits_fresh.json",
    "repo2-edits": "edits_repo2.json",
    "blind-edits": "edits_blind.json",
}
BASE = PYTEST.replace("python", sys.executable, 1)


@dataclass
class Row:
    set: str
    id: str
    split: str
    result: str  # fixed | wrong fix | not found | no failing test
    tried: int
    candidates: int
    seconds: float
    what: str


def run_task(set_name: str, task: dict[str, Any], scratch: Path, budget: float) -> Row:
    work = scratch / task["id"]
    shutil.copytree(TASKS / task.get("workspace", "repo"), work)
    mutate = task.get("mutate")
    if mutate:
        target = work / mutate["file"]
        target.write_text(target.read_text().replace(mutate["old"], mutate["new"], 1))
    started = time.monotonic()
    outcome = search(work, BASE, task=task.get("task") or task["question"], budget_s=budget)
    seconds = time.monotonic() - started
    found = outcome.found
    if found is None:
        result = "no failing test" if not outcome.failing else "not found"
        what = outcome.note
    else:
        target = work / found.path
        target.write_text(target.read_text().replace(found.old, found.new, 1))
        passed = all(_check(command, work) for command in task["checks"])
        result = "fixed" if passed else "wrong fix"
        what = f"{found.path}:{found.line} {found.what}"
    shutil.rmtree(work, ignore_errors=True)
    row = Row(set_name, task["id"], task["split"], result, outcome.tried, outcome.candidates,
              seconds, what)  # fmt: skip
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--set", choices=sorted(SETS), action="append", required=True)
    parser.add_argument("--split", choices=("tune", "report", "all"), default="tune")
    parser.add_argument("--budget", type=float, default=120.0, help="seconds of trying per task")
    parser.add_argument("--show-tasks", action="store_true", help="list held-out tasks too")
    parser.add_argument("--json", type=Path, help="write the rows here as JSON lines")
    args = parser.parse_args()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="fix-search-") as tmp:
        for set_name in args.set:
            tasks = json.loads((TASKS / SETS[set_name]).read_text())
            for task in tasks:
                if args.split != "all" and task["split"] != args.split:
                    continue
                row = run_task(set_name, task, Path(tmp), args.budget)
                rows.append(row)
                shown = args.show_tasks or row.split == "tune"
                if shown:
                    tried = f"tried {row.tried:>3}/{row.candidates:<3}"
                    line = f"{row.id:28} {row.result:15} {tried} {row.seconds:6.1f}s  {row.what}"
                    print(f"{set_name:12} {line}", flush=True)
                else:
                    print(f"{set_name:12} (task {len(rows)}) done", flush=True)
    if args.json:
        args.json.write_text("".join(json.dumps(r.__dict__) + "\n" for r in rows))
    for set_name in args.set:
        mine = [r for r in rows if r.set == set_name]
        if not mine:
            continue
        counts = {k: sum(r.result == k for r in mine) for k in
                  ("fixed", "wrong fix", "not found", "no failing test")}  # fmt: skip
        median = statistics.median(r.seconds for r in mine)
        print(f"{set_name} ({args.split}, {len(mine)} tasks): "
              + ", ".join(f"{k} {v}" for k, v in counts.items())
              + f"; median {median:.0f} s per task")  # fmt: skip


if __name__ == "__main__":
    main()
