"""Why needs miss: where the expected tool ranks, by channel and by server (tune halves only).

For every answerable need of the tuning half of each need file whose expected tools are all
outside the top ``k`` (the default index of ``tool_catalog.py``): the best expected tool's
rank overall, its server's rank among the servers, and its rank by each channel alone (BM25,
the meaning score, the full document's cosine, the pooled example cosine), with the tool that
came first. Then the misses counted by class (the expected server among the three that get the
server bonus, 4th-10th, farther; the example channel ranking the tool better than the
document), and for "not found" how well each decision feature separates the unservable needs
the act rule lets through from the answerable ones (AUC, 0.5 = no information).

Held-out needs are dropped before anything is computed: there is no flag to list them.

Run: ``python benchmarks/discovery_misses.py [--needs FILE ...] [--band hard] [--k 5]
[--store FILE]``. Numbers: docs/results/discovery.md (disc14).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from tool_catalog import NEEDS, expanded_index
from tool_needs import feature_rows

from workset.discovery import ToolIndex
from workset.discovery.decision import FEATURES
from workset.discovery.needs import Need, read_needs

BLIND = NEEDS.parent / "blind_needs2.jsonl"


def tune_only(needs: Sequence[Need]) -> list[Need]:
    """The needs of the tuning half (the held-out half is never read here)."""
    return [n for n in needs if n.split == "tune"]


def rank_of(scores: np.ndarray, i: int) -> int:
    """0-based rank of item ``i`` (ties count in its favour)."""
    return int((scores > scores[i]).sum())


def misses(index: ToolIndex, needs: Sequence[Need], band: str, k: int) -> list[dict[str, object]]:
    position = {(server, spec.name): i for i, (server, spec) in enumerate(index.specs())}
    names = [f"{server}/{spec.name}" for server, spec in index.specs()]
    server_of = index._server_of
    out = []
    for need in needs:
        if need.band != band:
            continue
        scored = index._score(need.need, "hierarchical")
        assert scored.dense is not None and scored.whole is not None
        assert scored.examples is not None
        wanted = [position[r.server, r.tool] for r in need.expected]
        best = min(wanted, key=lambda i: rank_of(scored.ranked, i))
        overall = rank_of(scored.ranked, best)
        if overall < k:
            continue
        out.append(
            {
                "need": need,
                "tool": names[best],
                "rank": overall,
                "server_rank": rank_of(scored.server_scores, int(server_of[best])),
                "lexical": rank_of(scored.lexical, best),
                "meaning": rank_of(scored.dense, best),
                "document": rank_of(scored.whole, best),
                "examples": rank_of(scored.examples, best),
                "first": names[int(np.argmax(scored.ranked))],
            }
        )
    return out


def classes(rows: Sequence[dict[str, object]], top_servers: int) -> Counter[str]:
    counts: Counter[str] = Counter()
    for row in rows:
        server = int(str(row["server_rank"]))
        if server < top_servers:
            counts["server among the boosted; a sibling or other tool wins"] += 1
        elif server < 10:
            counts["server 4th-10th"] += 1
        else:
            counts["server beyond 10th"] += 1
        if int(str(row["examples"])) < int(str(row["document"])):
            counts["examples rank it better than its document"] += 1
    return counts


def separation(index: ToolIndex, needs: Sequence[Need]) -> dict[str, float]:
    """AUC of each decision feature (answerable above unservable) on the needs the act rule
    lets through."""
    x, y, vetoed = feature_rows(index, needs)
    x, y = x[~vetoed], y[~vetoed]
    positive, negative = x[y == 1], x[y == 0]
    if not len(positive) or not len(negative):
        return {}
    out = {}
    for j, name in enumerate(FEATURES):
        above = positive[:, j][:, None] > negative[:, j][None, :]
        ties = positive[:, j][:, None] == negative[:, j][None, :]
        out[name] = float(np.mean(above + 0.5 * ties))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--needs", type=Path, nargs="+", default=[NEEDS, BLIND])
    parser.add_argument("--band", default="hard", choices=("name", "paraphrase", "hard"))
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--store", type=Path, help="the vector file (kept between runs)")
    args = parser.parse_args()
    index = expanded_index(args.store)
    for path in args.needs:
        needs = tune_only(read_needs(path))
        rows = misses(index, needs, args.band, args.k)
        total = sum(1 for n in needs if n.band == args.band)
        print(f"{path.name}, tune: {len(rows)}/{total} {args.band} needs miss at {args.k}")
        for row in rows:
            need = row["need"]
            assert isinstance(need, Need)
            print(
                f"  {need.id}: {need.need!r}\n    want {row['tool']} rank {row['rank']}, server "
                f"rank {row['server_rank']}; alone: BM25 {row['lexical']}, meaning "
                f"{row['meaning']}, document {row['document']}, examples {row['examples']}; "
                f"first {row['first']}"
            )
        for label, count in classes(rows, index.config.top_servers).most_common():
            print(f"  {label}: {count}")
        auc = separation(index, needs)
        print("  not found, AUC per feature (needs the act rule lets through):")
        print("   " + " ".join(f"{name} {value:.2f}" for name, value in auc.items()))


if __name__ == "__main__":
    main()
