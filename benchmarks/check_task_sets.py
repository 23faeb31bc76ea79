"""Mechanical checks of task sets for ``agent_tasks.py``, without a model.

Questions: ids unique; ``expect`` (and ``forbid``) compile; ``expect`` matches the text of the
file named as answering the question; neither ``expect`` nor ``forbid`` matches the question
itself. Edits: ids unique; on a fresh copy of the task's workspace every check passes unmutated;
with the mutation (its ``old`` text found exactly once) some check fails; a requested change
(``mutate`` null) has some check that fails on the original.

A task's workspace is the folder under ``tasks/`` named by its ``workspace`` key, ``repo`` (the
TinyDB copy) when it has none, as in ``agent_tasks.py``.

Run: ``python benchmarks/check_task_sets.py`` (the blind sets) or name the files:
``python benchmarks/check_task_sets.py questions_blind.json edits_blind.json``.
Exit status 1 when any task fails a check.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

TASKS = Path(__file__).parent / "tasks"


def workspace(task: dict[str, Any]) -> Path:
    """The folder the task runs in: its ``workspace`` key under ``tasks/``, ``repo`` by default."""
    return TASKS / task.get("workspace", "repo")


def question_problems(tasks: list[dict[str, Any]]) -> list[str]:
    problems = _duplicate_ids(tasks)
    for task in tasks:
        where = task["id"]
        try:
            expect = re.compile(task["expect"], re.IGNORECASE)
            forbid = re.compile(task["forbid"], re.IGNORECASE) if task.get("forbid") else None
        except re.error as error:
            problems.append(f"{where}: regex does not compile: {error}")
            continue
        path = workspace(task) / task["file"]
        if not path.is_file():
            problems.append(f"{where}: no file {task['file']} in {workspace(task).name}")
        elif not expect.search(path.read_text()):
            problems.append(f"{where}: expect does not match {task['file']}")
        if expect.search(task["question"]):
            problems.append(f"{where}: expect matches the question itself")
        if forbid and forbid.search(task["question"]):
            problems.append(f"{where}: forbid matches the question itself")
    return problems


def edit_problems(tasks: list[dict[str, Any]]) -> list[str]:
    problems = _duplicate_ids(tasks)
    for task in tasks:
        where, mutate = task["id"], task.get("mutate")
        with tempfile.TemporaryDirectory() as tmp:
            # named like the benchmark's workspace (``work/<task id>``): a ``-k`` selection
            # that matches the folder name selects every test there
            work = Path(tmp) / "work" / task["id"]
            shutil.copytree(workspace(task), work, ignore=shutil.ignore_patterns("__pycache__"))
            original = _passes(task["checks"], work)
            if mutate:
                if not original:
                    problems.append(f"{where}: checks fail on the unmutated repo")
                target = work / mutate["file"]
                text = target.read_text()
                found = text.count(mutate["old"])
                if found != 1:
                    problems.append(f"{where}: mutate.old found {found} times, not once")
                    continue
                target.write_text(text.replace(mutate["old"], mutate["new"], 1))
                if _passes(task["checks"], work):
                    problems.append(f"{where}: checks still pass with the mutation")
            elif original:
                problems.append(f"{where}: requested change, but checks pass on the original")
    return problems


def _passes(checks: list[str], cwd: Path) -> bool:
    """Whether every check passes, each run as agent_tasks.py runs it."""
    for command in checks:
        line = re.sub(r"^python\b", sys.executable, command)
        done = subprocess.run(line, shell=True, cwd=cwd, capture_output=True, check=False)
        if done.returncode != 0:
            return False
    return True


def _duplicate_ids(tasks: list[dict[str, Any]]) -> list[str]:
    ids = [task["id"] for task in tasks]
    return [f"{i}: id used {ids.count(i)} times" for i in sorted(set(ids)) if ids.count(i) > 1]


def main(names: list[str]) -> int:
    failed = 0
    for name in names or ["questions_blind.json", "edits_blind.json"]:
        tasks = json.loads((TASKS / name).read_text())
        kind = "edit" if all("checks" in task for task in tasks) else "question"
        problems = (edit_problems if kind == "edit" else question_problems)(tasks)
        for problem in problems:
            print(f"{name}: {problem}")
        print(f"{name}: {len(tasks)} {kind} tasks, {len(problems)} problems")
        failed += len(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
