"""The query adapter and "not found" features on the tune side: what docs/results/discovery.md
(2026-12-04) reports, reproducible without a model and without reading the held-out half.

Needs: the tune half of ``benchmarks/data/needs/needs.jsonl`` and, with ``--extra``, the 92
``t2-`` tune needs of the reverted disc7 branch (43 hard, 49 unservable; never part of the
held-out half), used as a second tune-side check::

    git show fc7d59a:benchmarks/data/needs/needs.jsonl | grep '"t2-' > /tmp/t2.jsonl

``rank`` prints Hit@1/5/10 per band for the hierarchical ranking alone and fused with the
adapter's ranking (reciprocal rank), for a grid of adapter settings, plus the adapter alone
and added into the meaning score instead. ``nf`` fits the "not found" model on feature sets
that include the adapter's cosines, with the act rule in front, and prints in-sample refusals,
7-fold cross-validated ones, and those of a model fitted on the tune half and applied to the
``t2-`` needs (the check that shows how a 3 % budget on tune overfits).

Run: ``python benchmarks/discovery_adapter.py rank|nf [--extra /tmp/t2.jsonl] [--store F]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from tool_catalog import NEEDS, expanded_index, split
from tool_needs import MemoEmbedder

from workset.discovery import SearchConfig, ToolIndex
from workset.discovery.adapter import AdapterSettings, adapted_cosines, fit_adapter, prototypes
from workset.discovery.decision import FEATURES, STATED, features
from workset.discovery.needs import Need, read_needs
from workset.retrieval import Embedder
from workset.retrieval.ranking import fuse_ranks, fuse_weighted

Scorer = Callable[[Need], np.ndarray]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("rank", "nf"))
    parser.add_argument("--extra", type=Path, help="more tune needs, e.g. the t2- needs")
    parser.add_argument("--store", type=Path, help="the index's vector file")
    args = parser.parse_args()
    embedder = MemoEmbedder(Embedder.load())
    index = expanded_index(args.store, embedder)
    tune = split(read_needs(NEEDS))["tune"]
    extra = read_needs(args.extra) if args.extra else []
    lab = Lab(index, embedder)
    if args.what == "rank":
        rank(lab, tune, extra)
    else:
        not_found(lab, tune, extra)


class Lab:
    """The index's own scores, and the adapter's, for one need at a time (internals on purpose)."""

    def __init__(self, index: ToolIndex, embedder: MemoEmbedder) -> None:
        self.index = index
        self.embedder = embedder
        dense = index._dense
        assert dense is not None
        entries = index._entries
        self.n = len(entries)
        self.owners = np.array([i for i, e in enumerate(entries) for _ in e.examples])
        self.examples = dense.vectors[dense.example_rows]
        self.targets = prototypes(dense.vectors[dense.full], self.examples, self.owners)
        self.key = {(e.server, e.spec.name): i for i, e in enumerate(entries)}

    def fit(self, settings: AdapterSettings) -> np.ndarray:
        return fit_adapter(self.examples, self.owners, self.targets, settings)

    def hierarchical(self, need: Need) -> np.ndarray:
        return self.index._score(need.need, "hierarchical").ranked

    def adapter(self, matrix: np.ndarray) -> Scorer:
        return lambda need: adapted_cosines(self.vector(need), matrix, self.targets)

    def vector(self, need: Need) -> np.ndarray:
        return self.embedder.embed([need.need])[0]

    def wanted(self, need: Need) -> set[int]:
        return {self.key[r.server, r.tool] for r in need.expected}


def hits(lab: Lab, needs: Sequence[Need], scorer: Scorer) -> dict[str, dict[int, float]]:
    table: dict[str, dict[int, list[bool]]] = {}
    for need in needs:
        if not need.answerable:
            continue
        order = np.argsort(-scorer(need), kind="stable")[:10].tolist()
        for k in (1, 5, 10):
            table.setdefault(need.band, {}).setdefault(k, []).append(
                bool(lab.wanted(need) & set(order[:k]))
            )
    return {b: {k: float(np.mean(v)) for k, v in ks.items()} for b, ks in table.items()}


def rank(lab: Lab, tune: Sequence[Need], extra: Sequence[Need]) -> None:
    def show(label: str, scorer: Scorer) -> None:
        r = hits(lab, tune, scorer)
        cells = " ".join(
            f"{b[:4]} {r[b][1]:.2f}/{r[b][5]:.2f}/{r[b][10]:.2f}"
            for b in ("name", "paraphrase", "hard")
        )
        mean5 = sum(r[b][5] for b in ("name", "paraphrase", "hard")) / 3
        line = f"{label:<44} {cells}  mean@5 {mean5:.3f}"
        if extra:
            h = hits(lab, extra, scorer)["hard"]
            line += f" | t2 hard {h[1]:.2f}/{h[5]:.2f}/{h[10]:.2f}"
        print(line, flush=True)

    show("hierarchical (main)", lab.hierarchical)
    index = lab.index
    for temperature, l2 in ((0.05, 0.003), (0.1, 0.003), (0.2, 0.003), (0.2, 0.001), (0.1, 0.03)):
        settings = AdapterSettings(temperature=temperature, l2=l2, rate=2.0 * temperature / 0.05)
        started = time.perf_counter()
        adapter = lab.adapter(lab.fit(settings))
        label = f"t={temperature} l2={l2}"
        print(f"{label}: fitted in {time.perf_counter() - started:.1f} s", flush=True)
        show(f"{label} adapter alone", adapter)
        show(
            f"{label} rank fusion",
            lambda need, a=adapter: fuse_ranks([lab.hierarchical(need), a(need)]),
        )

        def summed(need: Need, a: Scorer = adapter) -> np.ndarray:
            scored = index._score(need.need, "hierarchical")
            assert scored.dense is not None
            meaning = 0.5 * scored.dense + 0.5 * a(need)
            w = index.config.bm25_weight
            fused = fuse_weighted([scored.lexical, meaning], (w, 1 - w))
            return index._boost(fused, scored.server_scores)

        show(f"{label} half of the meaning score", summed)


def not_found(lab: Lab, tune: Sequence[Need], extra: Sequence[Need]) -> None:
    index = lab.index
    index.config = replace(SearchConfig(), adapter=False)
    adapter = lab.adapter(lab.fit(AdapterSettings()))
    names = (*FEATURES, "adapter_best", "adapter_top")

    def rows(needs: Sequence[Need]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        x, y, vetoed = [], [], []
        for need in needs:
            found = index.rank(need.need, k=5)
            evidence = [m.evidence for m in found if m.evidence is not None]
            a = adapter(need)
            top = lab.key[found[0].server, found[0].tool]
            x.append((*features(evidence), float(a.max()), float(a[top])))
            y.append(1.0 if need.answerable else 0.0)
            vetoed.append(bool(evidence[0].unoffered))
        return np.array(x), np.array(y), np.array(vetoed)

    parts = {"tune": rows(tune)}
    if extra:
        parts["t2"] = rows(extra)
        x, y, v = (np.concatenate(z) for z in zip(*parts.values(), strict=True))
        parts["tune+t2"] = (x, y, v)
    for name, (x, y, vetoed) in parts.items():
        ok = np.array([STATED.probability(list(r[: len(FEATURES)])) >= STATED.threshold for r in x])
        print(f"main's STATED on {name}: {_tally(ok & ~vetoed, y)}")
    sets = [
        ("cosine", "server_cosine"),
        ("cosine",),
        ("adapter_best",),
        ("adapter_best", "server_cosine"),
        ("adapter_top", "server_cosine"),
        ("cosine", "server_cosine", "adapter_best"),
    ]
    fit_on = "tune+t2" if extra else "tune"
    x, y, vetoed = parts[fit_on]
    for budget in (0.005, 0.01, 0.02, 0.03):
        for use in sets:
            cols = [names.index(u) for u in use]
            model = _fit(x[:, cols], y, vetoed, budget)
            line = (
                f"{budget:.3f} {'+'.join(use):<36} on {fit_on}: in-sample "
                f"{_tally(_apply(model, x[:, cols], vetoed), y)}; 7-fold "
                f"{_tally(_cv(x[:, cols], y, vetoed, budget), y)}"
            )
            if extra:
                xt, yt, vt = parts["tune"]
                xe, ye, ve = parts["t2"]
                fitted = _fit(xt[:, cols], yt, vt, budget)
                line += f" | fitted on tune, on t2: {_tally(_apply(fitted, xe[:, cols], ve), ye)}"
            print(line, flush=True)


Model = tuple[np.ndarray, np.ndarray, np.ndarray, float]


def _fit(x: np.ndarray, y: np.ndarray, vetoed: np.ndarray, budget: float, l2: float = 3.0) -> Model:
    """Class-balanced L2 logistic regression; threshold at ``budget`` of answerable refused
    (the act rule's refusals counted), as ``decision.fit_calibration`` does."""
    allowed = math.floor(budget * int((y > 0.5).sum())) - int((vetoed & (y > 0.5)).sum())
    x, y = x[~vetoed], y[~vetoed]
    mean, scale = x.mean(0), np.maximum(x.std(0), 1e-6)
    a = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    weight = np.where(y > 0.5, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    beta = np.zeros(a.shape[1])
    penalty = np.eye(a.shape[1]) * l2
    penalty[0, 0] = 0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(a @ beta)))
        step = np.linalg.solve(
            (a.T * (weight * p * (1 - p))) @ a + penalty, a.T @ (weight * (p - y)) + penalty @ beta
        )
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    servable = np.sort((1 / (1 + np.exp(-(a @ beta))))[y > 0.5])
    cut = max(allowed, 0)
    threshold = float(servable[cut]) - 1e-4 if cut < len(servable) else 0.5
    return mean, scale, beta, threshold


def _apply(model: Model, x: np.ndarray, vetoed: np.ndarray) -> np.ndarray:
    mean, scale, beta, threshold = model
    a = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    return (1 / (1 + np.exp(-(a @ beta))) >= threshold) & ~vetoed


def _cv(x: np.ndarray, y: np.ndarray, vetoed: np.ndarray, budget: float) -> np.ndarray:
    order = np.random.default_rng(0).permutation(len(y))
    found = np.zeros(len(y), dtype=bool)
    for fold in range(7):
        test = order[fold::7]
        train = np.setdiff1d(order, test)
        model = _fit(x[train], y[train], vetoed[train], budget)
        found[test] = _apply(model, x[test], vetoed[test])
    return found


def _tally(found: np.ndarray, y: np.ndarray) -> str:
    return (
        f"{int((~found[y == 0]).sum())}/{int((y == 0).sum())} unservable refused, "
        f"{int((~found[y == 1]).sum())}/{int((y == 1).sum())} answerable refused"
    )


if __name__ == "__main__":
    main()
