"""The servability probe ("not found" learned from labelled needs): fitted on tune, read held out.

Fits :func:`workset.discovery.probe.fit_probe` on the tuning halves of the three need sets
(``needs.jsonl``, ``blind_needs2.jsonl``, ``blind_needs3.jsonl``; in that order, each need
searched as stated on the index ``tool_catalog.py`` builds) and prints the tune totals (in
sample: the fit saw them) and the LiveMCPBench check (hand-written off-catalog needs refused,
annotated task steps answered); with ``--held-out``, also each set's held-out totals with and
without the probe ("not found" counts only: no need is printed), for MiniLM alone and the
cascade, and for the cascade behind a probe fitted on its second (MPNet) index. The search
medians are printed beside each row but the query vectors are memoised,
so they are not a latency measurement.

``--latency`` times searches with a live embedder instead, the index alone and behind the
probe side by side (run it with ``OMP_NUM_THREADS=1``).

Run: ``python benchmarks/discovery_probe.py [--held-out | --latency] [--store FILE]``. Numbers:
docs/results/discovery.md (2026-12-07).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from tool_catalog import (
    DATA,
    EXPANSIONS,
    OFF_CATALOG,
    build_cascade,
    expanded_index,
    fitted_probe,
    load_catalog,
    load_tasks,
    need_sets,
)

from workset.discovery import ServabilityProbe, ToolIndex
from workset.discovery.expansions import requests_by_key
from workset.discovery.needs import Need
from workset.discovery.probe import ProbedIndex
from workset.discovery.results import Searchable
from workset.retrieval import Embedder


def refusals(index: Searchable, needs: Sequence[Need]) -> tuple[int, int, int, int, list[float]]:
    """Unservable refused, unservable, answerable refused, answerable; and each search's ms."""
    refused_u = refused_a = 0
    ms = []
    for need in needs:
        start = time.perf_counter()
        found = index.search(need.need).found
        ms.append((time.perf_counter() - start) * 1000)
        if not found:
            refused_u += not need.answerable
            refused_a += need.answerable
    unservable = sum(1 for n in needs if not n.answerable)
    return refused_u, unservable, refused_a, len(needs) - unservable, ms


def latency(probe: ServabilityProbe, needs: Sequence[str], store: Path | None) -> None:
    """Search time of the index alone and behind the probe, side by side, query by query,
    with a live embedder (no memoised query vectors): a first pass, where the probe embeds
    each closest tool's words the first time, and a second, where they are kept."""
    servers, descriptions = load_catalog(DATA)
    index = ToolIndex.build(
        servers,
        Embedder.load(),
        descriptions=descriptions,
        expansions=requests_by_key(EXPANSIONS),
        store=store,
    )
    probed = ProbedIndex(index, index, probe)
    index.search("a first query loads the model")
    for label, suffix in (("first pass", " "), ("second pass", "  ")):
        alone, behind = [], []
        for need in needs:
            start = time.perf_counter()
            index.search(need + suffix)
            alone.append(time.perf_counter() - start)
            start = time.perf_counter()
            probed.search(need + suffix + " ")
            behind.append(time.perf_counter() - start)
        a, b = statistics.median(alone) * 1000, statistics.median(behind) * 1000
        p99 = sorted(behind)[int(0.99 * (len(behind) - 1))] * 1000
        print(
            f"{label}: index p50 {a:.0f} ms; + probe p50 {b:.0f} ms (p99 {p99:.0f} ms); "
            f"ratio of medians {b / a:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held-out", action="store_true", help="also read the held-out halves")
    parser.add_argument("--store", type=Path, help="the vector file (as tool_catalog.py --store)")
    parser.add_argument(
        "--latency", action="store_true", help="only the search latency with and without it"
    )
    args = parser.parse_args()
    index = expanded_index(args.store)
    sets = need_sets()
    tune = [n for needs in sets.values() for n in needs if n.split == "tune"]
    start = time.perf_counter()
    probe = fitted_probe(index)
    if args.latency:
        latency(probe, [n.need for n in tune], args.store)
        return
    print(
        f"fitted on {len(tune)} tune needs ({sum(not n.answerable for n in tune)} unservable) "
        f"in {time.perf_counter() - start:.1f} s; threshold {probe.threshold:.3f}"
    )
    indexes: dict[str, Searchable] = {
        "MiniLM": index,
        "MiniLM + probe": ProbedIndex(index, index, probe),
    }
    if args.held_out:
        assert args.store is not None, "--held-out needs --store (the cascade keeps two files)"
        servers, descriptions = load_catalog(DATA)
        cascade = build_cascade(servers, descriptions, requests_by_key(EXPANSIONS), args.store)
        first: ToolIndex = cascade.first
        indexes["cascade"] = cascade
        indexes["cascade + probe"] = ProbedIndex(cascade, first, probe)
        # The probe fitted on the cascade's second index (all-mpnet-base-v2): its need vector
        # and word coverage read with the larger model (chosen on the tune halves split in two
        # by need hash: about as many unservable needs refused, fewer servable ones).
        indexes["cascade + MPNet probe"] = ProbedIndex(
            cascade, cascade.second, fitted_probe(cascade.second)
        )
    halves = ("tune", "held_out") if args.held_out else ("tune",)
    for half in halves:
        note = " (in-sample: the probe was fitted on these)" if half == "tune" else ""
        print(f'\n{half}: unservable refused, false "not found" (answerable refused){note}')
        for label, searchable in indexes.items():
            cells, times = [], []
            for name, needs in sets.items():
                u, nu, a, na, ms = refusals(searchable, [n for n in needs if n.split == half])
                cells.append(f"{name.removesuffix('.jsonl'):>13} {u:>3}/{nu:<3} {a:>2}/{na:<3}")
                times += ms
            p50 = statistics.median(times)
            print(f"  {label:<21} " + "  ".join(cells) + f"   p50 {p50:.0f} ms")
    servers, _ = load_catalog(DATA)
    tasks, _ = load_tasks(DATA, {s.name for specs in servers.values() for s in specs})
    steps = [step for task in tasks for step in task.steps]
    print("\nLiveMCPBench: off-catalog needs refused; annotated (in-catalog) steps answered")
    for label, searchable in indexes.items():
        off = sum(not searchable.search(q).found for q in OFF_CATALOG)
        on = sum(searchable.search(step).found for step in steps)
        print(f"  {label:<21} {off}/{len(OFF_CATALOG)}   {on}/{len(steps)}")


if __name__ == "__main__":
    main()
