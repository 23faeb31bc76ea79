"""What the first request's workspace evidence holds for each agent task (no model).

For every question of ``benchmarks/tasks/questions.json`` (and the issue's quoted questions)
the workspace evidence of its folder is searched as the agent's first request searches it,
and two things are checked on the packed item: whether it quotes the file that answers the
question (the task's ``file``), and whether the text shown matches the task's ``expect``
regex (a weak check: ``\\b10\\b`` matches many lines, but a miss means the model cannot answer
from the evidence alone). Printed per split, with the item's size in tokens, for the default
:class:`~workset.evidence.workspace.EvidenceConfig` and, with ``--sweep``, a grid of settings
side by side (tune on the ``tune`` split, read the ``report`` split once).

Run: ``python benchmarks/evidence_tasks.py [--sweep] [--show SPLIT]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from workset.evidence.ingest import approx_tokens
from workset.evidence.workspace import EvidenceConfig, WorkspaceEvidence, open_workspace_evidence
from workset.loop.definitions import evidence_files

TASKS = Path(__file__).parent / "tasks"


@dataclass(frozen=True, slots=True)
class Check:
    task_id: str
    split: str
    has_file: bool
    has_answer: bool
    tokens: int
    files: tuple[str, ...]


def load_tasks() -> list[tuple[Path, dict[str, Any]]]:
    """(workspace, task) for every question with an ``expect`` regex and a ``file``."""
    out = []
    for task in json.loads((TASKS / "questions.json").read_text()):
        out.append((TASKS / "repo", task))
    return out


def check(source: WorkspaceEvidence, task: dict[str, Any]) -> Check:
    items = source.items_for(task["question"])
    text = "\n".join(i.text for i in items)
    files = tuple(evidence_files(items))
    return Check(
        task_id=task["id"],
        split=task["split"],
        has_file=task.get("file", "") in files,
        has_answer=bool(re.search(task["expect"], text, re.IGNORECASE)),
        tokens=approx_tokens(text),
        files=files,
    )


def run(
    config: EvidenceConfig, tasks: Sequence[tuple[Path, dict[str, Any]]], index: Path
) -> list[Check]:
    sources: dict[Path, WorkspaceEvidence] = {}
    try:
        out = []
        for workspace, task in tasks:
            if workspace not in sources:
                sources[workspace] = open_workspace_evidence(workspace, index, config)[0]
            out.append(check(sources[workspace], task))
        return out
    finally:
        for source in sources.values():
            source.close()


def row(label: str, checks: Sequence[Check]) -> str:
    cells = [label]
    for split in ("tune", "report"):
        part = [c for c in checks if c.split == split]
        n = len(part)
        f = sum(c.has_file for c in part)
        a = sum(c.has_answer for c in part)
        t = sorted(c.tokens for c in part)[n // 2] if part else 0
        cells.append(f"{f}/{n} file, {a}/{n} answer, {t} tok")
    return " | ".join(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sweep", action="store_true", help="a grid of settings side by side")
    parser.add_argument("--show", choices=("tune", "report"), help="list one split's misses")
    args = parser.parse_args()
    tasks = load_tasks()
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp)
        base = EvidenceConfig()
        checks = run(base, tasks, index)
        print("setting | tune | report")
        print(row("default " + _describe(base), checks))
        if args.show:
            for c in checks:
                if c.split == args.show and not (c.has_file and c.has_answer):
                    print(f"  {c.task_id}: file {c.has_file}, answer {c.has_answer}: {c.files}")
        if args.sweep:
            grid = itertools.product((2, 3, 4), (0.3, 0.5, 0.7), (16, 32), (150, 250))
            for k, w, cand, tokens in grid:
                config = replace(base, k=k, bm25_weight=w, candidates=cand, chunk_tokens=tokens)
                if config == base:
                    continue
                print(row(_describe(config), run(config, tasks, index)), flush=True)


def _describe(c: EvidenceConfig) -> str:
    return f"k={c.k} w={c.bm25_weight} cand={c.candidates} tok={c.chunk_tokens}"


if __name__ == "__main__":
    main()
