"""Train the sentence classifier of the MCP audit's learned layer, on tune cohorts only.

Sentences come from :func:`workset.mcp.poison_learned.sentences` (every text of a definition,
made readable as the rules read it, split into sentences). Labels: every sentence of a benign
tune definition is 0; in a poisoned tune definition, the sentences where a rule finding sits
are 1 (the rules reach every tune definition, so they say *where* the poison is), and its other
sentences are left out (mostly the tool describing itself). Every sentence of LiveMCPBench's
527 real tools (``shared/data/livemcpbench/tools.json``, 70 servers, also used by the
tool-discovery benchmark) is 0 too: the cohorts' benign look-alikes are short and plain, and
without real prose beside them the classifier takes any long real sentence for an order.
Held-out halves, cohort 6g and cohort 7 are never read here, nor the 240 real definitions of
``benchmarks/data/mcp_defs/real_*.json`` (they stay a check of the benign side).

The model is an L2-regularised logistic regression over the 384 MiniLM dimensions (Newton
steps, numpy only), positives weighted to balance the classes. A definition's score is its
highest sentence score.

``--loco`` prints the leave-one-cohort-out estimate: each tune cohort scored by a model
trained on the others, for the learned layer alone and or-ed with the rules, at each fold's
LiveMCPBench-calibrated threshold and at the fixed thresholds of :data:`FIXED`, and names the
lowest fixed threshold that keeps the learned layer alone at or under :data:`BENIGN_CAP` of
the tune benign definitions and :data:`REAL_CAP` of LiveMCPBench's calibration half (a rule
fixed before any fold was scored). Without ``--loco`` it trains on all tune cohorts and
writes ``src/workset/mcp/data/poison_learned.json`` with ``--threshold`` (the LOCO choice)
or, without it, the threshold that flags ``--rate`` of LiveMCPBench's calibration half.

Run: ``PYTHONPATH=src python benchmarks/mcp_learned_train.py [--loco]``. Since round 12 the
shipped model is written by ``benchmarks/mcp_learned_cv.py --write`` (more tune data, features
beside the embedding, the combinations with the rules); this script is the rounds 5-8 recipe.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from mcp_audit import DATA, load, tool_of

from workset.mcp import RemoteTool, audit_tool
from workset.mcp.poison_learned import MODEL_FILE, embed, sentences

OUT = Path(__file__).parents[1] / "src" / "workset" / "mcp" / "data" / MODEL_FILE
Row = dict[str, Any]


def _livemcpbench() -> Path:
    """``shared/data/livemcpbench/tools.json`` beside the first ancestor that has it."""
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "shared" / "data" / "livemcpbench" / "tools.json"
        if candidate.is_file():
            return candidate
    raise SystemExit("shared/data/livemcpbench/tools.json not found (LiveMCPBench's tools)")


def livemcp_tools(*, skip_opening: bool = False, raw: bool = False) -> dict[bool, list[Any]]:
    """LiveMCPBench's real tools, all benign, as sentence lists (``raw``: as tools), by half:
    ``True`` (train: the servers whose sha256 of the name is even) and ``False``
    (calibration: the others)."""
    out: dict[bool, list[Any]] = {True: [], False: []}
    for entry in json.loads(_livemcpbench().read_text("utf-8")):
        for server, listing in (entry.get("tools") or {}).items():
            half = hashlib.sha256(server.encode()).digest()[0] % 2 == 0
            for tool in listing.get("tools", []):
                remote = RemoteTool(
                    server,
                    str(tool.get("name", "")),
                    str(tool.get("description") or ""),
                    tool.get("inputSchema") or {},
                )
                if raw:
                    out[half].append(remote)
                else:
                    out[half].append([s for _, s in sentences(remote, skip_opening=skip_opening)])
    return out


def calibrated(w: np.ndarray, tools: Sequence[list[str]], rate: float) -> float:
    """The lowest threshold that flags at most ``rate`` of ``tools`` (benign real ones)."""
    scores = np.sort([_max_score(found, w) for found in tools])[::-1]
    allowed = int(rate * len(scores))
    return float(min(0.999999, scores[allowed] + 1e-6))


def labelled(row: Row) -> list[tuple[str, int | None]]:
    """(sentence, label) for one definition: 0 benign, 1 where a rule finding sits, None."""
    tool = tool_of(row)
    found = sentences(tool)
    if row["label"] == "benign":
        return [(s, 0) for _, s in found]
    hits: set[str] = set()
    for finding in audit_tool(tool):
        field = [s for where, s in found if where == finding.field]
        excerpt = finding.excerpt.strip("…").strip()
        best = [s for s in field if _overlap(s, excerpt) >= min(20, max(8, len(excerpt) // 2))]
        if best:
            hits.update(best)
        elif len(field) == 1:
            hits.update(field)
    return [(s, 1 if s in hits else None) for _, s in found]


def _overlap(a: str, b: str) -> int:
    match = difflib.SequenceMatcher(None, a.lower(), b.lower(), autojunk=False)
    return match.find_longest_match(0, len(a), 0, len(b)).size


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 30) -> np.ndarray:
    """Weights (last one the bias) of a class-balanced, L2-regularised logistic regression."""
    xb = np.hstack([x, np.ones((len(x), 1))]).astype(np.float64)
    pos = max(1, int(y.sum()))
    sample = np.where(y == 1, len(y) / (2 * pos), len(y) / (2 * max(1, len(y) - pos)))
    w = np.zeros(xb.shape[1])
    reg = np.full(xb.shape[1], l2)
    reg[-1] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(xb @ w)))
        grad = xb.T @ (sample * (p - y)) + reg * w
        hess = (xb * (sample * p * (1 - p))[:, None]).T @ xb + np.diag(reg + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


def dataset(rows: Sequence[Row], negatives: Sequence[str] = ()) -> tuple[list[str], np.ndarray]:
    texts: list[str] = list(negatives)
    labels: list[int] = [0] * len(negatives)
    for row in rows:
        for sentence, label in labelled(row):
            if label is not None:
                texts.append(sentence)
                labels.append(label)
    return texts, np.asarray(labels, dtype=np.float64)


def definition_score(row: Row, w: np.ndarray, *, skip_opening: bool = False) -> float:
    return _max_score([s for _, s in sentences(tool_of(row), skip_opening=skip_opening)], w)


def _max_score(found: Sequence[str], w: np.ndarray) -> float:
    if not found:
        return 0.0
    logits = embed(found) @ w[:-1] + w[-1]
    return float((1 / (1 + np.exp(-logits))).max())


FIXED = (0.5, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999)
# The threshold rule, fixed before any fold was scored: the lowest fixed threshold at which the
# learned layer alone flags at most 2 % of the tune benign definitions, pooled over the folds,
# and at most 1 % of LiveMCPBench's calibration half (each fold's model on those tools).
BENIGN_CAP, REAL_CAP = 0.02, 0.01


def loco(
    rows: Sequence[Row], l2: float, rate: float, first_rules: bool
) -> tuple[int, float, bool] | None:
    """Print the leave-one-cohort-out estimate; return (poisoned caught by rules or learned,
    threshold, opening sentence skipped) for the lowest fixed threshold within the caps of the
    variant that catches more (``None`` when no fixed threshold meets them)."""
    tune = [r for r in rows if r["split"] == "tune"]
    cohorts = list(dict.fromkeys(r["corpus"] for r in tune))
    before = _first_rules(tune) if first_rules else {}
    real = livemcp_tools()
    rest = livemcp_tools(skip_opening=True)[False]
    negatives = list(dict.fromkeys(s for found in real[True] for s in found))
    scored: list[tuple[Row, bool, bool]] = []
    points: dict[bool, list[tuple[Row, float, bool]]] = {False: [], True: []}
    real_scores: dict[bool, list[float]] = {False: [], True: []}
    for cohort in cohorts:
        texts, y = dataset([r for r in tune if r["corpus"] != cohort], negatives)
        w = fit(embed(texts), y, l2)
        threshold = calibrated(w, real[False], rate)
        for skip, tools in ((False, real[False]), (True, rest)):
            real_scores[skip] += [_max_score(found, w) for found in tools]
        for row in (r for r in tune if r["corpus"] == cohort):
            rules = before.get(_key(row)) if first_rules else bool(audit_tool(tool_of(row)))
            if rules is not None:
                score = definition_score(row, w)
                scored.append((row, score >= threshold, rules))
                for skip in (False, True):
                    points[skip].append((row, definition_score(row, w, skip_opening=skip), rules))
    which = "the rules of each cohort's first score" if first_rules else "today's rules"
    print(
        f"leave-one-cohort-out over {len(cohorts)} tune cohorts, l2={l2}, threshold flagging "
        f"{rate:.0%} of LiveMCPBench's calibration half, with {which}: {len(scored)} definitions"
    )
    print(f"  rules alone:      {_rates(scored, lambda s: s[2])}")
    print(f"  learned alone:    {_rates(scored, lambda s: s[1])}")
    print(f"  rules or learned: {_rates(scored, lambda s: s[1] or s[2])}")
    best: tuple[int, float, bool] | None = None  # (poisoned caught, threshold, skip)
    for skip in (False, True):
        which = "opening sentence skipped" if skip else "every sentence"
        print(f"  fixed threshold ({which}): learned alone | rules or learned | LiveMCPBench")
        mine = points[skip]
        benign = [p for p in mine if p[0]["label"] == "benign"]
        chosen = None
        for t in FIXED:
            alone = _rates(mine, lambda p, t=t: p[1] >= t)
            either = _rates(mine, lambda p, t=t: p[1] >= t or p[2])
            on_real = sum(v >= t for v in real_scores[skip]) / max(1, len(real_scores[skip]))
            on_benign = sum(p[1] >= t for p in benign) / max(1, len(benign))
            ok = chosen is None and on_benign <= BENIGN_CAP and on_real <= REAL_CAP
            if ok:
                chosen = t
                caught = sum(p[1] >= t or p[2] for p in mine if p[0]["label"] == "poisoned")
                if best is None or caught > best[0]:
                    best = (caught, t, skip)
            mark = " <- lowest in caps" if ok else ""
            print(f"    {t:<6} {alone} | {either} | {on_real:5.1%}{mark}")
    if best is not None:
        print(f"  chosen: threshold {best[1]}, opening sentence skipped: {best[2]}")
    return best


def _key(row: Row) -> str:
    return json.dumps([row["server"], row["name"], row["description"], row["inputSchema"]])


_SCORE_WITH = """
import json, sys
from workset.mcp import RemoteTool, audit_tool
rows = json.load(sys.stdin)
print(json.dumps([bool(audit_tool(RemoteTool(*r))) for r in rows]))
"""


def _first_rules(tune: Sequence[Row]) -> dict[str, bool]:
    """Each cohort with a ``first_score`` flagged by the rules of that commit (git archive):
    the rules as they were before anyone tuned on the cohort, an honest partner for the
    learned layer's held-out cohort."""
    out: dict[str, bool] = {}
    commits = {"new3": "733817e"}  # cohort 3's first score: main before round 1
    for file in DATA.glob("definitions_cohort*.json"):
        note = json.loads(file.read_text("utf-8"))
        if "first_score" in note:
            commits[f"new{file.stem.removeprefix('definitions_cohort')}"] = note["first_score"][
                "rules_commit"
            ]
    root = Path(__file__).parents[1]
    for corpus, commit in commits.items():
        mine = [r for r in tune if r["corpus"] == corpus]
        if not mine:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(
                ["git", "-C", str(root), "archive", commit, "src"], capture_output=True, check=True
            )
            subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
            flags = subprocess.run(
                [sys.executable, "-c", _SCORE_WITH],
                input=json.dumps(
                    [[r["server"], r["name"], r["description"], r["inputSchema"]] for r in mine]
                ),
                capture_output=True,
                text=True,
                check=True,
                env={**os.environ, "PYTHONPATH": str(Path(tmp) / "src")},
            )
        out.update(zip(map(_key, mine), json.loads(flags.stdout), strict=True))
    return out


def _rates(scored: Sequence[tuple[Row, bool, bool]], flagged: Any) -> str:
    poisoned = [s for s in scored if s[0]["label"] == "poisoned"]
    benign = [s for s in scored if s[0]["label"] == "benign"]
    hit, false = sum(map(flagged, poisoned)), sum(map(flagged, benign))
    return f"{hit:>3}/{len(poisoned)} {hit / len(poisoned):4.0%} {false:>3}/{len(benign)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loco", action="store_true")
    parser.add_argument(
        "--first-rules",
        action="store_true",
        help="with --loco: pair each cohort with the rules of its first score (git archive)",
    )
    parser.add_argument("--l2", type=float, nargs="+", default=[0.03])
    parser.add_argument(
        "--rate", type=float, default=0.01, help="share of the calibration half's tools flagged"
    )
    parser.add_argument(
        "--skip-opening",
        action="store_true",
        help="the shipped model leaves out the description's first sentence (as --loco chose)",
    )
    parser.add_argument(
        "--threshold",
        type=float,
        help="the shipped threshold (as chosen by --loco); without it, --rate sets it",
    )
    args = parser.parse_args()
    rows = load()
    if args.loco:
        for l2 in args.l2:
            chosen = loco(rows, l2, args.rate, args.first_rules)
            print(f"  l2={l2}: (poisoned caught, threshold, opening skipped) = {chosen}")
        return
    tune = [r for r in rows if r["split"] == "tune"]
    real = livemcp_tools()
    negatives = list(dict.fromkeys(s for found in real[True] for s in found))
    texts, y = dataset(tune, negatives)
    w = fit(embed(texts), y, args.l2[0])
    calibration = livemcp_tools(skip_opening=args.skip_opening)[False]
    threshold = args.threshold or calibrated(w, calibration, args.rate)
    how = (
        f"{threshold} chosen by leave-one-cohort-out (benign <= {BENIGN_CAP:.0%} of tune benign, "
        f"<= {REAL_CAP:.0%} of LiveMCPBench's calibration half)"
        if args.threshold
        else f"{args.rate:.0%} of the {len(real[False])} tools of LiveMCPBench's other half"
    )
    model = {
        "about": "Sentence classifier of the MCP audit's learned layer (poison_learned.py)",
        "embedder": "all-MiniLM-L6-v2",
        "trained_on": f"tune halves and tune cohorts: {len(tune)} definitions; LiveMCPBench "
        f"train half: {len(negatives)} real sentences; {len(y)} sentences "
        f"({int(y.sum())} poisoned); threshold: {how}; benchmarks/mcp_learned_train.py",
        "l2": args.l2[0],
        "threshold": round(threshold, 6),
        "skip_opening": args.skip_opening,
        "bias": round(float(w[-1]), 6),
        "weights": [round(float(v), 6) for v in w[:-1]],
    }
    OUT.write_text(json.dumps(model, indent=0) + "\n", "utf-8")
    print(f"wrote {OUT}: {model['trained_on']}")


if __name__ == "__main__":
    main()
