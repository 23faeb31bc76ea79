"""One query embedded with OpenBLAS's default threads against one thread, side by side.

`workset.retrieval.embedder.embed_in_batches` runs a few texts (a search query) on one BLAS
thread. On this 2-core machine, shared with other jobs, the default threads made a one-line
MiniLM query take about 20 times longer. This prints both medians and their ratio, measured
in turns in one run (`--embedder mpnet` for the larger model, if its packages are installed).

    python3 benchmarks/embed_threads.py [--embedder minilm|mpnet] [--rounds 3]
    python3 benchmarks/embed_threads.py --search --store /tmp/vectors.npz   # whole searches

``--search`` times ``ToolIndex.search`` over the LiveMCPBench catalog (as
``tool_catalog.py`` builds it; the vector file keeps the catalog's vectors) for the first 60
needs of ``needs.jsonl`` (each made unique per round so no query vector is reused), with the
one-thread rule on and off.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import workset.retrieval.embedder as embedder_module
from workset.retrieval import Embedder, MPNetEmbedder
from workset.retrieval.embedder import _blas_threads

QUERIES = [
    "do I need a warm coat in Reykjavik tonight?",
    "how much is one Apple share worth right now?",
    "convert the Word document to PDF",
    "find open issues about memory leaks in the parser",
    "what does this link say about the new release?",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=("minilm", "mpnet"), default="minilm")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--search", action="store_true", help="time whole catalog searches")
    parser.add_argument("--store", type=Path, default=None, help="vector file (--search)")
    args = parser.parse_args()
    embedder = MPNetEmbedder.load() if args.embedder == "mpnet" else Embedder.load()
    embedder._embed_batch([QUERIES[0]])  # warm up

    def median_ms(limit: int | None) -> float:
        times = []
        for query in QUERIES * 4:
            started = time.perf_counter()
            with _blas_threads(limit):
                embedder._embed_batch([query])
            times.append(time.perf_counter() - started)
        return statistics.median(times) * 1000

    print(f"{embedder.name}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
    if args.search:
        search_rounds(args.rounds, args.store)
        return
    for n in range(args.rounds):
        default, one = median_ms(None), median_ms(1)
        print(f"round {n + 1}: default threads {default:7.1f} ms, one thread {one:6.1f} ms, "
              f"ratio {default / one:5.1f}")  # fmt: skip


def search_rounds(rounds: int, store: Path | None) -> None:
    import tool_catalog  # benchmarks/ is on the path when this file runs

    index = tool_catalog.expanded_index(store)
    lines = (Path(__file__).parent / "data" / "needs" / "needs.jsonl").read_text().splitlines()
    needs = [json.loads(line)["need"] for line in lines[:60]]

    def percentiles(tag: str) -> tuple[float, float]:
        times = []
        for need in needs:
            started = time.perf_counter()
            index.search(f"{need} ({tag})", k=5)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        return statistics.median(times), times[int(len(times) * 0.99) - 1]

    for n in range(rounds):
        embedder_module.FEW_TEXTS = 8
        one = percentiles(f"one {n}")
        embedder_module.FEW_TEXTS = 0
        default = percentiles(f"default {n}")
        embedder_module.FEW_TEXTS = 8
        print(f"round {n + 1}: search p50 / p99 with default threads {default[0]:.0f} / "
              f"{default[1]:.0f} ms, one thread {one[0]:.0f} / {one[1]:.0f} ms, p50 ratio "
              f"{default[0] / one[0]:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
