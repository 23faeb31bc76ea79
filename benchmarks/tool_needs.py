"""Scoring tool discovery on a need set: Hit@k per band, "not found" quality, latency.

Used by ``benchmarks/tool_catalog.py``; the need set is ``benchmarks/data/needs/needs.jsonl``
(see its README). A need counts as a hit at k when any expected (server, tool) is in the top k
of the ranking (``ToolIndex.rank``, no "not found"); the "not found" numbers come from
``ToolIndex.search`` (the calibrated decision).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from workset.discovery import Searchable, ToolIndex
from workset.discovery.decision import FEATURES, Calibration, features, fit_calibration
from workset.discovery.needs import Need
from workset.retrieval.embedder import TextEmbedder, Vectors

KS = (1, 5, 10)
ANSWERABLE_BANDS = ("name", "paraphrase", "hard")


class MemoEmbedder:
    """An embedder that remembers every text it embedded and counts the texts it computed.

    Tuning asks the same needs many times; remembering their vectors makes a grid search cost
    matrix products, not forward passes. ``seen`` lists every text actually embedded.
    """

    def __init__(self, inner: TextEmbedder, *, memo: bool = True) -> None:
        self.inner = inner
        self.memo = memo
        self.seen: list[str] = []
        self._cache: dict[str, Vectors] = {}

    @property
    def name(self) -> str:
        return self.inner.name

    def embed(self, texts: Sequence[str]) -> Vectors:
        if not self.memo:
            self.seen += list(texts)
            return self.inner.embed(texts)
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            self.seen += missing
            for text, row in zip(missing, self.inner.embed(missing), strict=True):
                self._cache[text] = row
        return np.stack([self._cache[t] for t in texts]).astype(np.float32, copy=False)


Also = Callable[[str], Sequence[str]]  # a need's other phrasings (a model's restatement)


def _none(need: str) -> Sequence[str]:
    return ()


def hits(
    index: Searchable, needs: Iterable[Need], also: Also = _none
) -> dict[str, dict[int, list[bool]]]:
    """Per band, per k: one bool per answerable need (an expected tool in the top k)."""
    out: dict[str, dict[int, list[bool]]] = {b: {k: [] for k in KS} for b in ANSWERABLE_BANDS}
    for need in needs:
        if not need.answerable:
            continue
        found = index.rank(need.need, k=max(KS), also=also(need.need))
        ranked = [(m.server, m.tool) for m in found]
        wanted = {(r.server, r.tool) for r in need.expected}
        for k in KS:
            out[need.band][k].append(bool(wanted & set(ranked[:k])))
    return out


def hit_rates(
    index: Searchable, needs: Iterable[Need], also: Also = _none
) -> dict[str, dict[int, float]]:
    table = hits(index, needs, also)
    rates = {b: {k: _mean(v) for k, v in ks.items()} for b, ks in table.items()}
    rates["all"] = {k: _mean([x for ks in table.values() for x in ks[k]]) for k in KS}
    return rates


def hit_table(label: str, rows: dict[str, dict[str, dict[str, dict[int, float]]]]) -> list[str]:
    """Lines: one per (variant, split), Hit@1/5/10 per band."""
    bands = (*ANSWERABLE_BANDS, "all")
    head = f"  {label:<30} {'split':<9}" + "".join(f" {b[:5]:>5}@1 @5  @10" for b in bands)
    lines = [head]
    for name, per_split in rows.items():
        for split, rates in per_split.items():
            cells = "".join(
                f"  {rates[b][1]:.2f} {rates[b][5]:.2f} {rates[b][10]:.2f}" for b in bands
            )
            lines.append(f"  {name:<30} {split:<9}{cells}")
    return lines


@dataclass(frozen=True)
class NotFound:
    answerable: int
    unservable: int
    refused_answerable: int  # false "not found"
    refused_unservable: int  # near misses correctly refused
    wrong_found: tuple[str, ...]  # unservable needs answered with tools: "need -> tool"
    wrongly_refused: tuple[str, ...]

    @property
    def precision(self) -> float:
        refused = self.refused_answerable + self.refused_unservable
        return self.refused_unservable / refused if refused else 1.0

    @property
    def recall(self) -> float:
        return self.refused_unservable / self.unservable if self.unservable else 1.0

    @property
    def false_not_found(self) -> float:
        return self.refused_answerable / self.answerable if self.answerable else 0.0

    def line(self) -> str:
        """Precision, recall and false "not found" in one line of a report."""
        return (
            f"not-found precision {self.precision:.2f} recall {self.recall:.2f} "
            f"({self.refused_unservable}/{self.unservable} unservable refused); false not-found "
            f"{self.refused_answerable}/{self.answerable} = {self.false_not_found:.1%}"
        )


def not_found(index: Searchable, needs: Iterable[Need], also: Also = _none) -> NotFound:
    answerable = unservable = refused_a = refused_u = 0
    wrong, refused = [], []
    for need in needs:
        result = index.search(need.need, also=also(need.need))
        if need.answerable:
            answerable += 1
            if not result.found:
                refused_a += 1
                refused.append(f"{need.id}: {need.need!r}")
        else:
            unservable += 1
            if result.found:
                best = result.matches[0]
                wrong.append(f"{need.id}: {need.need!r} -> {best.tool} ({best.server})")
            else:
                refused_u += 1
    return NotFound(answerable, unservable, refused_a, refused_u, tuple(wrong), tuple(refused))


def feature_rows(
    index: ToolIndex, needs: Sequence[Need], also: Also = _none
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The decision features of each need's search, 1 for answerable needs (else 0), and
    whether the act rule refuses it (its closest tool cannot do the act commanded)."""
    rows, labels, vetoed = [], [], []
    for need in needs:
        found = index.rank(need.need, k=5, also=also(need.need))
        evidence = [m.evidence for m in found if m.evidence is not None]
        rows.append(features(evidence))
        labels.append(1.0 if need.answerable else 0.0)
        vetoed.append(bool(evidence[0].unoffered))
    return (
        np.array(rows, dtype=np.float64),
        np.array(labels, dtype=np.float64),
        np.array(vetoed, dtype=bool),
    )


def fit(
    index: ToolIndex,
    needs: Sequence[Need],
    use: Sequence[str],
    refuse_at_most: float,
    also: Also = _none,
) -> Calibration:
    """The "not found" model fitted on ``needs`` (the tuning half), the act rule's refusals
    counted against ``refuse_at_most``."""
    x, y, vetoed = feature_rows(index, needs, also)
    return fit_calibration(x, y, use=use, refuse_at_most=refuse_at_most, vetoed=vetoed)


def latency(search: Callable[[str], object], queries: Sequence[str]) -> tuple[float, float]:
    """Median and p99 in milliseconds of ``search`` over ``queries`` (each run once)."""
    times = []
    for query in queries:
        started = time.perf_counter()
        search(query)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    return statistics.median(times), p99


def _mean(values: Sequence[bool]) -> float:
    return sum(values) / len(values) if values else float("nan")


__all__ = ["FEATURES", "KS"]
