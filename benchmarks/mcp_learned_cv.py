"""Leave-one-cohort-out for the learned layer and how it combines with the rules (round 12).

Data: every definition that is tune data now. That is every cohort's ``tune`` half and the
held-out halves already read (``old``, 1-3, 6g, 7 in round 9; the own cohorts 12t and 13t),
but never the held-out halves of the blind cohorts 12-20 and the own cohorts 13-15
(:data:`BLIND`), which this script does not train on. The 240 real definitions
(``real_*.json``) are one more fold, all benign; LiveMCPBench's even-hash half is benign
training data in every fold and its other half (258 tools) is scored by every fold's model,
never trained on.

Each fold trains the sentence classifier (:func:`mcp_learned_train.fit`) on every other fold
and scores the definitions of the one left out; a definition's learned score is its highest
unit score. Units (``--unit``): ``sentence`` (as shipped) or ``field`` (each text of the
definition whole). ``--extras`` appends features beyond the embedding: the field kind (name,
data, parameter prose, description), the description's opening sentence, a hiding trick found
by ``readable()`` (look-alikes, zero-width, comments, decoded text) and a text mostly outside
ASCII (another language).

The rules beside the learned score are each cohort's *first-score* rules (the commit in its
``first_score``, ``git archive``; 733817e for cohort 3), the rules before anyone tuned on that
cohort: today's rules are 100 % on every tune cohort only because they were tuned on them.
Cohorts without a recorded commit (``old``, 1, 2, 9t, 10p, real) are trained on and scored
for the learned layer alone. Printed, pooled over the folds with first-score rules, for each
threshold of :data:`GRID`:

- (a) rules or learned >= t;
- (b) veto: a definition flagged only by rules it holds (rules and learned >= v);
- (c) veto at v, and learned alone at a high t: (rules and learned >= v) or learned >= t.

with LiveMCPBench's calibration half and the real fold (the learned layer alone at t), and
the blind cohorts' tune halves (12, 13, 14) apart, the writers most like the next one.

Run: ``PYTHONPATH=src python3 benchmarks/mcp_learned_cv.py [--unit field] [--extras]``.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from mcp_audit import load, real_tools, tool_of
from mcp_learned_train import OUT, _first_rules, _key, fit, livemcp_tools

from workset.mcp import audit_tool
from workset.mcp.poison_learned import EXTRAS, Unit, embed, extras, units

# Held-out halves never trained on: blind cohorts 12-20 and the own cohorts 13-15 (the
# shipped round-12 model left out 12, 13 and 14, the only ones written by then).
BLIND = frozenset({f"new{n}" for n in range(12, 21)} | {"newown13", "newown14", "newown15"})
CACHE = Path(__file__).parents[1] / ".cache" / "mcp_learned_cv.pkl"
GRID = (0.5, 0.7, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999)
VETO = (0.0, 0.001, 0.003, 0.01, 0.03, 0.1, 0.2)
Row = dict[str, Any]


def pool(rows: Sequence[Row]) -> list[Row]:
    """Everything read so far: tune halves, and held-out halves but the blind cohorts'."""
    return [r for r in rows if r["split"] == "tune" or r["corpus"] not in BLIND]


def first_rules(rows: Sequence[Row]) -> dict[str, bool]:
    """:func:`mcp_learned_train._first_rules`, kept in ``.cache/`` between runs."""
    path = CACHE.with_name("mcp_learned_cv_rules.json")
    if path.is_file():
        return dict(json.loads(path.read_text("utf-8")))
    out = _first_rules(rows)
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(out), "utf-8")
    return out


def real_rows() -> list[Row]:
    """The 240 real definitions (``mcp_audit.real_tools``) as benign rows of one fold."""
    return [
        {
            "server": t.server,
            "name": t.name,
            "description": t.description,
            "inputSchema": t.input_schema,
            "label": "benign",
            "split": "tune",
            "corpus": "real",
        }
        for tools in real_tools().values()
        for t in tools
    ]


class Vectors:
    """Embeddings kept on disk between runs (``.cache/``, ignored by git)."""

    def __init__(self) -> None:
        self.known: dict[str, np.ndarray] = {}
        if CACHE.is_file():
            self.known = pickle.loads(CACHE.read_bytes())

    def warm(self, texts: Sequence[str]) -> None:
        """Embed every text not on disk yet, in batches, and save once."""
        missing = list(dict.fromkeys(t for t in texts if t not in self.known))
        if missing:
            start = time.perf_counter()
            for i in range(0, len(missing), 256):
                batch = missing[i : i + 256]
                self.known.update(zip(batch, embed(batch), strict=True))
            print(f"  embedded {len(missing)} texts in {time.perf_counter() - start:.0f} s")
            CACHE.parent.mkdir(exist_ok=True)
            CACHE.write_bytes(pickle.dumps(self.known))

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return np.stack([self.known[t] for t in texts])


def unit_labels(row: Row, found: list[Unit]) -> list[int | None]:
    """0 for every unit of a benign definition; in a poisoned one 1 where a finding of
    today's rules sits, None elsewhere (as ``mcp_learned_train.labelled``)."""
    if row["label"] == "benign":
        return [0] * len(found)
    import difflib

    hits: set[int] = set()
    for finding in audit_tool(tool_of(row)):
        excerpt = finding.excerpt.strip("…").strip()
        mine = [i for i, u in enumerate(found) if u[0] == finding.field]
        best = [
            i
            for i in mine
            if difflib.SequenceMatcher(None, found[i][2].lower(), excerpt.lower(), autojunk=False)
            .find_longest_match(0, len(found[i][2]), 0, len(excerpt))
            .size
            >= min(20, max(8, len(excerpt) // 2))
        ]
        hits.update(best or (mine if len(mine) == 1 else []))
    return [1 if i in hits else None for i in range(len(found))]


def features(vectors: Vectors, found: list[Unit], use_extras: bool) -> np.ndarray:
    x = vectors([u[2] for u in found])
    if not use_extras:
        return x
    if not found:
        return np.zeros((0, x.shape[1] + len(EXTRAS)), dtype=np.float32)
    more = np.asarray([extras(*u) for u in found])
    return np.hstack([x, more.reshape(len(found), -1)]).astype(np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--unit", choices=("sentence", "field"), default="sentence")
    parser.add_argument("--extras", action="store_true")
    parser.add_argument("--skip-opening", action="store_true")
    parser.add_argument("--l2", type=float, nargs="+", default=[0.03])
    parser.add_argument(
        "--write",
        type=float,
        metavar="THRESHOLD",
        help="train on every fold (the first --l2) and write the shipped model with this "
        "threshold, as chosen by the leave-one-cohort-out table",
    )
    args = parser.parse_args()
    rows = pool(load())
    vectors = Vectors()
    data = rows + real_rows()
    units_of = [units(tool_of(r), unit=args.unit, skip_opening=args.skip_opening) for r in data]
    live = livemcp_tools_units(args.unit, args.skip_opening)
    vectors.warm([u[2] for found in (*units_of, *live[True], *live[False]) for u in found])
    labels = [unit_labels(r, u) for r, u in zip(data, units_of, strict=True)]
    folds = list(dict.fromkeys(r["corpus"] for r in data))
    if args.write is not None:
        write(args, data, units_of, labels, live, vectors)
        return
    first = first_rules(rows)
    for use_extras, l2 in [
        (e, l2) for e in ((False, True) if args.extras else (False,)) for l2 in args.l2
    ]:
        args.use_extras = use_extras
        x_rows = [features(vectors, u, use_extras) for u in units_of]
        x_live = {h: [features(vectors, u, use_extras) for u in tools] for h, tools in live.items()}
        neg = np.vstack([x for x in x_live[True] if len(x)])
        scores = np.zeros(len(data))
        live_scores: list[np.ndarray] = []
        for fold in folds:
            train = [i for i, r in enumerate(data) if r["corpus"] != fold]
            xs = [neg] + [
                x_rows[i][[j for j, y in enumerate(labels[i]) if y is not None]] for i in train
            ]
            ys = [np.zeros(len(neg))] + [
                np.asarray([y for y in labels[i] if y is not None], dtype=np.float64) for i in train
            ]
            w = fit(np.vstack(xs), np.concatenate(ys), l2)
            for i, r in enumerate(data):
                if r["corpus"] == fold:
                    scores[i] = _max(x_rows[i], w)
            live_scores.append(np.asarray([_max(x, w) for x in x_live[False]]))
        report(data, scores, first, np.asarray(live_scores), l2, args)


def write(
    args: Any,
    data: list[Row],
    units_of: list[list[Unit]],
    labels: list[list[int | None]],
    live: dict[bool, list[list[Unit]]],
    vectors: Vectors,
) -> None:
    """Train on every fold and LiveMCPBench's train half; write ``poison_learned.json``."""
    xs = [features(vectors, u, args.extras) for u in live[True]]
    ys = [np.zeros(len(x)) for x in xs]
    for found, label in zip(units_of, labels, strict=True):
        keep = [j for j, y in enumerate(label) if y is not None]
        xs.append(features(vectors, found, args.extras)[keep])
        ys.append(np.asarray([label[j] for j in keep], dtype=np.float64))
    x, y = np.vstack(xs), np.concatenate(ys)
    w = fit(x, y, args.l2[0])
    model = {
        "about": "Sentence classifier of the MCP audit's learned layer (poison_learned.py)",
        "embedder": "all-MiniLM-L6-v2",
        "trained_on": f"every cohort's tune half, the held-out halves already read and the "
        f"240 real definitions ({len(data)} definitions, not the held-out halves of "
        f"{', '.join(sorted(BLIND))}), LiveMCPBench's train half; {len(y)} units "
        f"({int(y.sum())} poisoned); threshold {args.write}; benchmarks/mcp_learned_cv.py",
        "l2": args.l2[0],
        "threshold": args.write,
        "skip_opening": args.skip_opening,
        "unit": args.unit,
        "extras": list(EXTRAS) if args.extras else [],
        "bias": round(float(w[-1]), 6),
        "weights": [round(float(v), 6) for v in w[:-1]],
    }
    OUT.write_text(json.dumps(model, indent=0) + "\n", "utf-8")
    print(f"wrote {OUT}: {model['trained_on']}")


def livemcp_tools_units(unit: str, skip_opening: bool) -> dict[bool, list[list[Any]]]:
    tools = livemcp_tools(raw=True)
    return {
        half: [units(t, unit=unit, skip_opening=skip_opening) for t in listing]
        for half, listing in tools.items()
    }


def _max(x: np.ndarray, w: np.ndarray) -> float:
    if not len(x):
        return 0.0
    return float((1 / (1 + np.exp(-(x @ w[:-1] + w[-1])))).max())


def report(
    data: list[Row],
    scores: np.ndarray,
    first: dict[str, bool],
    live: np.ndarray,
    l2: float,
    args: Any,
) -> None:
    rules = np.asarray([first.get(_key(r), False) for r in data])
    has = np.asarray([_key(r) in first for r in data])
    poisoned = np.asarray([r["label"] == "poisoned" for r in data])
    real = np.asarray([r["corpus"] == "real" for r in data])
    blind = np.asarray([r["corpus"] in BLIND for r in data])
    cohort = ~real
    print(
        f"\nunit={args.unit} extras={args.use_extras} skip_opening={args.skip_opening} l2={l2}: "
        f"{int(cohort.sum())} cohort definitions in {len(set(r['corpus'] for r in data)) - 1} "
        f"folds + 240 real; {int(has.sum())} with first-score rules; blind tune halves "
        f"{int(blind.sum())}"
    )

    def rate(flag: np.ndarray, mask: np.ndarray) -> str:
        p, b = mask & poisoned, mask & ~poisoned
        return (
            f"{int((flag & p).sum()):>3}/{int(p.sum())} {int((flag & b).sum()):>3}/{int(b.sum())}"
        )

    print(
        f"  rules (first score):          {rate(rules, has)}   "
        f"blind tune {rate(rules, has & blind)}"
    )
    print(
        "  t      | learned alone (all cohorts) | (a) rules or learned, first-score "
        "| blind tune (a) | live cal | real"
    )
    for t in GRID:
        learned = scores >= t
        print(
            f"  {t:<6} | {rate(learned, cohort)} | {rate(rules | learned, has)} | "
            f"{rate(rules | learned, has & blind)} | {(live >= t).mean():5.1%} | "
            f"{int((learned & real).sum())}/240"
        )
    print("  (b) veto v: rules and learned >= v | blind tune")
    for v in VETO:
        kept = rules & (scores >= v)
        print(f"  {v:<6} | {rate(kept, has)} | {rate(kept, has & blind)}")
    print("  (c) (rules and learned >= v) or learned >= t")
    for v in (0.001, 0.01, 0.03):
        for t in (0.99, 0.995, 0.998):
            flag = (rules & (scores >= v)) | (scores >= t)
            print(f"  v={v:<6} t={t:<6} | {rate(flag, has)} | {rate(flag, has & blind)}")


if __name__ == "__main__":
    main()
