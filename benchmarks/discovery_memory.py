"""Needs a tool served before (``NeedMemory``): chosen by leave-one-out on tune, read held out.

The index is ``tool_catalog.py``'s MiniLM index. ``--tune`` prints the leave-one-out grid on
the tuning halves of the three need sets (each tune need ranked with every *other* tune need
remembered): Hit@1/@5 per band for each (k, floor, weight). Without it, the tune needs are
remembered (each with its expected tools) and the held-out halves are ranked with and without
the memory, per set and band (totals only: no need is printed), then LiveMCPBench's task
texts (Hit@1/5/10), which must not regress.

With ``--cascade`` the held-out halves are ranked by the cascade index (MiniLM, then
all-mpnet-base-v2: ``tool_cascade.py``) with and without the memory (the memory embeds with
the cascade's MiniLM index).

Run: ``python benchmarks/discovery_memory.py [--tune] [--cascade] [--store FILE]``. Numbers:
docs/results/discovery.md (2026-12-07).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from tool_cascade import build as build_cascade
from tool_catalog import DATA, EXPANSIONS, expanded_index, load_catalog, load_tasks, need_sets
from tool_catalog import selection as task_selection

from workset.discovery.expansions import requests_by_key
from workset.discovery.memory import NeedMemory, Recollection, Remembered, RememberingIndex
from workset.discovery.needs import Need
from workset.discovery.results import Searchable

BANDS = ("name", "paraphrase", "hard")


def remembered(needs: Sequence[Need]) -> list[Remembered]:
    return [Remembered(n.need, e.server, e.tool) for n in needs for e in n.expected]


def rates(index: Searchable, needs: Sequence[Need]) -> dict[str, tuple[float, float, int]]:
    """Hit@1 and Hit@5 per band."""
    out = {}
    for band in BANDS:
        mine = [n for n in needs if n.band == band]
        if not mine:
            continue
        one = five = 0
        for need in mine:
            expected = {(e.server, e.tool) for e in need.expected}
            ranked = [(m.server, m.tool) for m in index.rank(need.need, k=5)]
            one += bool(expected & set(ranked[:1]))
            five += bool(expected & set(ranked))
        out[band] = (one / len(mine), five / len(mine), len(mine))
    return out


def leave_one_out(
    index: Searchable, memory: NeedMemory, how: Recollection, needs: Sequence[Need]
) -> dict[str, tuple[float, float, int]]:
    """Each need ranked with every other need remembered (its own left out)."""
    totals: dict[str, list[tuple[bool, bool]]] = {b: [] for b in BANDS}
    for need in needs:
        alone = NeedMemory(memory.index, [r for r in memory.remembered() if r.need != need.need])
        ranked = [
            (m.server, m.tool) for m in RememberingIndex(index, alone, how).rank(need.need, k=5)
        ]
        expected = {(e.server, e.tool) for e in need.expected}
        totals[need.band].append((bool(expected & set(ranked[:1])), bool(expected & set(ranked))))
    return {
        b: (sum(a for a, _ in v) / len(v), sum(c for _, c in v) / len(v), len(v))
        for b, v in totals.items()
        if v
    }


def line(label: str, result: dict[str, tuple[float, float, int]]) -> str:
    cells = [f"{b} @1 {one:.2f} @5 {five:.2f} (n={n})" for b, (one, five, n) in result.items()]
    return f"  {label:<28} " + "  ".join(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tune", action="store_true", help="the leave-one-out grid on tune")
    parser.add_argument("--store", type=Path, help="the vector file (as tool_catalog.py --store)")
    parser.add_argument("--cascade", action="store_true", help="rank with the cascade index")
    args = parser.parse_args()
    if args.cascade:
        cascade_halves(args.store)
        return
    index = expanded_index(args.store)
    sets = need_sets()
    tune = [n for needs in sets.values() for n in needs if n.split == "tune" and n.answerable]
    memory = NeedMemory(index, remembered(tune))
    if args.tune:
        print(f"leave-one-out on {len(tune)} answerable tune needs")
        print(line("no memory", rates(index, tune)))
        for k, floor, weight in itertools.product((3,), (0.55, 0.6, 0.65, 0.7), (0.5, 1.0, 1.5)):
            how = Recollection(k=k, floor=floor, weight=weight)
            print(
                line(
                    f"k {k} floor {floor} weight {weight}", leave_one_out(index, memory, how, tune)
                )
            )
        return
    remembering = RememberingIndex(index, memory)
    print(f"remembered: {len(memory)} answerable tune needs; {remembering.how}")
    for name, needs in sets.items():
        held = [n for n in needs if n.split == "held_out" and n.answerable]
        print(f"{name} held-out ({len(held)} answerable needs)")
        print(line("index", rates(index, held)))
        print(line("index + memory", rates(remembering, held)))
    servers, _ = load_catalog(DATA)
    tasks, _ = load_tasks(DATA, {s.name for specs in servers.values() for s in specs})
    print("LiveMCPBench tasks from the task text")
    searchables: dict[str, Searchable] = {"index": index, "index + memory": remembering}
    for label, searchable in searchables.items():

        def ranker(question: str, s: Searchable = searchable) -> list[str]:
            return [m.tool for m in s.rank(question, k=10)]

        got = task_selection(tasks, ranker)
        print(f"  {label:<16} " + " ".join(f"hit@{k} {got[f'hit@{k}']:.3f}" for k in (1, 5, 10)))


def cascade_halves(store: Path | None) -> None:
    """The held-out halves ranked by the cascade, with and without the tune needs remembered."""
    if store is None:
        raise SystemExit("--cascade keeps the MPNet vectors beside --store FILE: pass one")
    servers, descriptions = load_catalog(DATA)
    cascade = build_cascade(servers, descriptions, requests_by_key(EXPANSIONS), store)
    sets = need_sets()
    tune = [n for needs in sets.values() for n in needs if n.split == "tune" and n.answerable]
    remembering = RememberingIndex(cascade, NeedMemory(cascade.first, remembered(tune)))
    for name, needs in sets.items():
        held = [n for n in needs if n.split == "held_out" and n.answerable]
        print(f"{name} held-out ({len(held)} answerable needs)")
        print(line("cascade", rates(cascade, held)))
        print(line("cascade + memory", rates(remembering, held)))


if __name__ == "__main__":
    main()
