"""The cascade index on a need set, for ``benchmarks/tool_catalog.py``: MiniLM answers, and
all-mpnet-base-v2 answers instead when MiniLM's decision is unsure
(:class:`workset.discovery.CascadeIndex`).

Reported per half: Hit@1/5/10 by band, "not found", the share of needs sent to the second
index, search latency p50/p99 (query embeddings computed live), and the LiveMCPBench task
numbers from the task text, as the single index's are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tool_needs import KS, MemoEmbedder, hit_rates, hit_table, latency, not_found

from workset.discovery import CascadeIndex
from workset.discovery.needs import Need
from workset.errors import UsageError
from workset.messages import ToolSpec
from workset.retrieval import Embedder, MPNetEmbedder


def stores(store: Path) -> tuple[Path, Path]:
    """The two vector files of a cascade kept beside ``store`` (MiniLM's is ``store``)."""
    return store, store.with_name(f"{store.stem}-mpnet{store.suffix}")


def build(
    servers: Mapping[str, Sequence[ToolSpec]],
    descriptions: Mapping[str, str],
    expansions: Mapping[str, Sequence[str]],
    store: Path,
    *,
    memo: bool = True,
) -> CascadeIndex:
    """The catalog's cascade, its vectors read from and kept in :func:`stores` of ``store``;
    ``memo`` remembers query vectors (scoring), without it every query is embedded live
    (latency)."""
    first: Any = Embedder.load()
    try:
        second: Any = MPNetEmbedder.load()
    except UsageError as exc:
        raise SystemExit(f"{exc}\n(or score MiniLM alone: --embedder minilm)") from exc
    if memo:
        first, second = MemoEmbedder(first), MemoEmbedder(second)
    return CascadeIndex.build(
        servers,
        first,
        second,
        descriptions=descriptions,
        expansions=expansions,
        stores=stores(store),
    )


def escalated(index: CascadeIndex, needs: Sequence[Need]) -> float:
    """The share of ``needs`` whose search the second index answered."""
    return sum(index.search(n.need).escalated for n in needs) / (len(needs) or 1)


def report(
    index: CascadeIndex,
    live: CascadeIndex,
    halves: Mapping[str, Sequence[Need]],
    report_half: str,
    select: Callable[[Callable[[str], list[str]]], dict[str, float]],
    checks: tuple[Sequence[str], Sequence[str]] = ((), ()),
) -> dict[str, Any]:
    """Print the cascade's section; return its numbers on ``report_half`` for the summary.

    ``checks``: needs no catalog tool serves and needs every answer should find a tool for
    (the hand-written off-catalog needs and LiveMCPBench's annotated steps), as for MiniLM."""
    print()
    print(
        f"(6) the cascade: MiniLM, then all-mpnet-base-v2 when MiniLM's decision is below "
        f"{index.escalate_below} (workset.discovery.CascadeIndex)"
    )
    rows = {"cascade": {name: hit_rates(index, half) for name, half in halves.items()}}
    print("\n".join(hit_table("index", rows)))
    found = {name: not_found(index, half) for name, half in halves.items()}
    for name, half in halves.items():
        line = found[name].line()
        print(f"  {name:<9} sent to the second index {escalated(index, half):.0%}; {line}")
    off, on = checks
    if off or on:
        refused = sum(not index.search(q).found for q in off)
        answered = [index.search(q) for q in on]
        print(
            f"  LiveMCPBench check: off-catalog needs answered 'not found' {refused}/{len(off)}; "
            f"annotated steps answered with tools {sum(r.found for r in answered)}/{len(on)} "
            f"({sum(r.escalated for r in answered)} sent to the second index)"
        )
    p50, p99 = latency(live.search, [n.need for n in halves[report_half]])
    print(f"  search latency over the {report_half} needs: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    tasks = select(lambda q: [m.tool for m in index.rank(q, k=max(KS))])
    print(
        "  LiveMCPBench tasks from the task text: " + " ".join(f"{c} {tasks[c]:.3f}" for c in tasks)
    )
    return {
        "rates": rows["cascade"][report_half],
        "not_found": found[report_half],
        "latency": (p50, p99),
        "tasks": tasks,
    }
