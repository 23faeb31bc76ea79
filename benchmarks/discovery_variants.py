"""Ranking variants and "not found" features for tool discovery, measured on one half.

An exploration harness for issue 11 (docs/results/discovery.md, "2026-12-02: the not-found
refit and the hard band"): it reaches into ``ToolIndex`` internals on purpose, to try ideas
without changing the library. ``rank`` prints Hit@1/5/10 per band, as stated and with the
1.5B's restatement, for ways of pooling a tool's example cosines (max, max without the
synonyms line, mean of the top two, log-sum-exp, mean), example weights, BM25 over the
examples apart from the document, the restatement's share and the server weight. ``nf``
fits the "not found" model (class-balanced logistic, threshold at a share of answerable needs
refused, the act rule's refusals counted) on feature sets that include signals the example
requests make possible, and prints in-sample and 7-fold cross-validated refusals.

Run: ``python benchmarks/discovery_variants.py rank|nf [--split tune] [--extra NEEDS.jsonl]
[--restated FILE] [--store vectors.npz]``. ``--extra`` adds needs (e.g. the 92 ``t2-`` tune
needs of the reverted disc7 branch: ``git show fc7d59a:benchmarks/data/needs/needs.jsonl``).
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from tool_catalog import NEEDS, expanded_index, split
from tool_needs import MemoEmbedder, hit_rates

from workset.discovery import SearchConfig, ToolIndex
from workset.discovery.decision import FEATURES, features
from workset.discovery.documents import tool_document
from workset.discovery.needs import read_needs
from workset.discovery.restate import read_restatements, restatement_key
from workset.retrieval import Embedder
from workset.retrieval.ranking import BM25Ranker, normalise

HERE = Path(__file__).resolve().parent
parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("what", choices=("rank", "nf"))
parser.add_argument("--split", choices=("tune", "held_out"), default="tune")
parser.add_argument("--extra", type=Path, help="more needs (JSON lines) added to the half")
parser.add_argument(
    "--restated", type=Path, default=HERE / "data/needs/restated-qwen2.5-coder-1.5b.jsonl"
)
parser.add_argument("--store", type=Path, help="the index's vector file (kept between runs)")
args = parser.parse_args()
WHAT = args.what
embedder = MemoEmbedder(Embedder.load())
index = expanded_index(args.store, embedder)
halves = split(read_needs(NEEDS))
needs = halves[args.split] + (read_needs(args.extra) if args.extra else [])
known = read_restatements(args.restated)
restated = {n.need: known.get(restatement_key("qwen2.5-coder-1.5b", n.need)) for n in needs}


def also(need: str):
    t = restated.get(need)
    return (t,) if t else ()


def none(need: str):
    return ()


original_meaning = ToolIndex._meaning
dense = index._dense
n_tools = len(index)
# per tool: list of example rows
tool_rows: list[list[int]] = [[] for _ in range(n_tools)]
for start_i, tool in enumerate(dense.example_tools):
    start = dense.example_starts[start_i]
    count = len(index._entries[tool].examples)
    tool_rows[tool] = list(dense.example_rows[start : start + count])


def make_meaning(agg: str, drop_synonyms: bool = False, t: float = 0.05):
    def _meaning(self, cosines, pooling="max"):
        whole = cosines[dense.full]
        ex = whole.copy()
        for i, rows in enumerate(tool_rows):
            if not rows:
                continue
            r = rows[:-1] if drop_synonyms and len(rows) > 1 else rows
            c = cosines[r]
            if agg == "max":
                ex[i] = c.max()
            elif agg == "top2":
                s = np.sort(c)[::-1]
                ex[i] = s[:2].mean()
            elif agg == "lse":
                ex[i] = t * math.log(np.exp((c - c.max()) / t).sum()) + c.max()
            elif agg == "mean":
                ex[i] = c.mean()
        w = np.float32(self.config.expansion_weight)
        return np.asarray((1 - w) * whole + w * ex, dtype=np.float32), whole, ex

    return _meaning


class SplitBM25:
    def __init__(self, share: float):
        self.doc = BM25Ranker([_doc(e) for e in index._entries])
        self.ex = BM25Ranker(["\n".join(e.examples) for e in index._entries])
        self.share = share

    def scores(self, q):
        return np.asarray(
            (1 - self.share) * normalise(self.doc.scores(q))
            + self.share * normalise(self.ex.scores(q)),
            dtype=np.float32,
        )


def _doc(e):
    return tool_document(e.server, e.spec)


original_bm25 = index._tool_bm25


def show(label, al=none):
    r = hit_rates(index, needs, al)
    cells = " ".join(
        f"{b[:4]} {r[b][1]:.2f}/{r[b][5]:.2f}/{r[b][10]:.2f}"
        for b in ("name", "paraphrase", "hard", "all")
    )
    mean5 = sum(r[b][5] for b in ("name", "paraphrase", "hard")) / 3
    print(f"{label:<44} {cells}  mean@5 {mean5:.3f}", flush=True)
    return r


if WHAT == "rank":
    base = SearchConfig()
    for al_label, al in (("stated", none), ("+restated", also)):
        for agg, drop in (
            ("max", False),
            ("max", True),
            ("top2", False),
            ("lse", False),
            ("mean", False),
        ):
            ToolIndex._meaning = make_meaning(agg, drop)
            for ew in (0.3, 0.5, 0.7):
                index.config = replace(base, expansion_weight=ew)
                show(f"{al_label} agg={agg}{'-nosyn' if drop else ''} ew={ew}", al)
        ToolIndex._meaning = original_meaning
        for share in (0.3, 0.5):
            index._tool_bm25 = SplitBM25(share)
            for bw in (0.2, 0.3):
                index.config = replace(base, bm25_weight=bw)
                show(f"{al_label} splitbm25 share={share} bm25={bw}", al)
        index._tool_bm25 = original_bm25
        index.config = base
    for aw in (0.2, 0.3, 0.4, 0.5):
        index.config = replace(base, also_weight=aw)
        show(f"+restated also_weight={aw}", also)
    for sw in (0.0, 0.1, 0.25):
        for ew in (0.3, 0.4, 0.5):
            index.config = replace(base, server_weight=sw, expansion_weight=ew)
            show(f"stated server={sw} ew={ew}", none)
            show(f"+restated server={sw} ew={ew}", also)


# ---------------------------------------------------------------- not found
EXTRA = (
    "ex_margin",
    "ex_best_margin",
    "doc_margin",
    "agree_ex_doc",
    "agree_top_ex",
    "ex_minus_doc",
    "ex_max",
    "bm25_max",
    "top_in_both5",
)
NAMES = (*FEATURES, *EXTRA)


def rows_for(needs_, al):
    X, y, veto, ids = [], [], [], []
    for need in needs_:
        others = tuple(al(need.need))
        scored = index._score(need.need, "hierarchical", others)
        matches = index._matches(need.need, scored, 5)
        ev = [m.evidence for m in matches]
        base = features(ev)
        top = index._entries.index(
            next(
                e
                for e in index._entries
                if e.server == matches[0].server and e.spec.name == matches[0].tool
            )
        )
        ex, whole = scored.examples, scored.whole
        ex_o = np.delete(ex, top)
        wh_o = np.delete(whole, top)
        se = np.sort(ex)[::-1]
        top5_ex = set(np.argsort(-ex)[:5].tolist())
        top5_doc = set(np.argsort(-whole)[:5].tolist())
        extra = (
            float(ex[top] - ex_o.max()),
            float(se[0] - se[1]),
            float(whole[top] - wh_o.max()),
            1.0 if int(np.argmax(ex)) == int(np.argmax(whole)) else 0.0,
            1.0 if int(np.argmax(ex)) == top else 0.0,
            float(ex[top] - whole[top]),
            float(se[0]),
            float(scored.lexical.max()),
            1.0 if (top in top5_ex and top in top5_doc) else 0.0,
        )
        X.append((*base, *extra))
        y.append(1.0 if need.answerable else 0.0)
        veto.append(bool(ev[0].unoffered))
        ids.append(need.id)
    return np.array(X), np.array(y), np.array(veto), ids


def fit(X, y, veto, use, budget_share=0.03, l2=3.0):
    total = int((y > 0.5).sum())
    budget = math.floor(budget_share * total) - int((veto & (y > 0.5)).sum())
    X, y = X[~veto], y[~veto]
    cols = [NAMES.index(u) for u in use]
    Z = X[:, cols]
    m, s = Z.mean(0), Z.std(0)
    s[s < 1e-6] = 1.0
    A = np.hstack([np.ones((len(Z), 1)), (Z - m) / s])
    pos = y.mean()
    w = np.where(y > 0.5, 0.5 / pos, 0.5 / (1 - pos))
    beta = np.zeros(A.shape[1])
    P = np.eye(A.shape[1]) * l2
    P[0, 0] = 0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(A @ beta)))
        g = A.T @ (w * (p - y)) + P @ beta
        H = (A.T * (w * p * (1 - p))) @ A + P
        step = np.linalg.solve(H, g)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    probs = 1 / (1 + np.exp(-(A @ beta)))
    sp = np.sort(probs[y > 0.5])
    cut = max(budget, 0)
    thr = float(sp[cut]) - 1e-4 if cut < len(sp) else 0.5
    return cols, m, s, beta, thr


def apply(model, X, veto):
    cols, m, s, beta, thr = model
    A = np.hstack([np.ones((len(X), 1)), (X[:, cols] - m) / s])
    p = 1 / (1 + np.exp(-(A @ beta)))
    return (p >= thr) & ~veto


def score(found, y):
    return (
        int((~found[y == 0]).sum()),
        int((y == 0).sum()),
        int((~found[y == 1]).sum()),
        int((y == 1).sum()),
    )


def cv(X, y, veto, use, folds=7, budget=0.03):
    rng = np.random.default_rng(0)
    order = rng.permutation(len(y))
    found = np.zeros(len(y), dtype=bool)
    for f in range(folds):
        test = order[f::folds]
        train = np.setdiff1d(order, test)
        model = fit(X[train], y[train], veto[train], use, budget)
        found[test] = apply(model, X[test], veto[test])
    return score(found, y)


if WHAT == "nf":
    candidates = [
        ("cosine", "server_cosine"),
        ("cosine",),
        ("document_cosine", "example_cosine", "server_cosine"),
        ("cosine", "server_cosine", "ex_margin"),
        ("cosine", "server_cosine", "ex_best_margin"),
        ("cosine", "server_cosine", "doc_margin"),
        ("cosine", "server_cosine", "agree_ex_doc"),
        ("cosine", "server_cosine", "agree_top_ex"),
        ("cosine", "server_cosine", "ex_minus_doc"),
        ("cosine", "server_cosine", "ex_max"),
        ("cosine", "server_cosine", "bm25_max"),
        ("cosine", "server_cosine", "lexical"),
        ("cosine", "server_cosine", "top_in_both5"),
        ("cosine", "server_cosine", "margin"),
        ("example_cosine", "server_cosine"),
        ("document_cosine", "server_cosine"),
        ("example_cosine", "document_cosine", "server_cosine", "agree_ex_doc"),
        ("cosine", "server_cosine", "agree_ex_doc", "ex_minus_doc"),
        ("cosine", "server_cosine", "restated_cosine"),
        ("cosine", "server_cosine", "bm25_max", "agree_ex_doc"),
    ]
    for label, al in (("stated", none), ("restated", also)):
        X, y, veto, ids = rows_for(needs, al)
        print(
            f"== {label} ({args.split}) vetoed: unservable {int(veto[y == 0].sum())}, "
            f"answerable {int(veto[y == 1].sum())}"
        )
        for use in candidates:
            for budget in (0.03, 0.05):
                model = fit(X, y, veto, use, budget)
                ins = score(apply(model, X, veto), y)
                c = cv(X, y, veto, use, 7, budget)
                print(
                    f"  {budget:.2f} {'+'.join(use):<60} in-sample {ins[0]}/{ins[1]} refused, "
                    f"false {ins[2]}/{ins[3]}; cv {c[0]}/{c[1]}, false {c[2]}/{c[3]}  "
                    f"w={np.round(model[3][1:], 2)}",
                    flush=True,
                )
