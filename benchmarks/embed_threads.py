"""One query embedded with OpenBLAS's default threads against one thread, side by side.

`workset.retrieval.embedder.embed_in_batches` runs a few texts (a search query) on one BLAS
thread. On this 2-core machine, shared with other jobs, the default threads made a one-line
MiniLM query take about 20 times longer. This prints both medians and their ratio, measured
in turns in one run (`--embedder mpnet` for the larger model, if its packages are installed).

    python3 benchmarks/embed_threads.py [--embedder minilm|mpnet] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

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
    for n in range(args.rounds):
        default, one = median_ms(None), median_ms(1)
        print(f"round {n + 1}: default threads {default:7.1f} ms, one thread {one:6.1f} ms, "
              f"ratio {default / one:5.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
