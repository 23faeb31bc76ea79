"""A servability probe: "not found" learned from a catalog's labelled needs (opt-in).

The calibrated decision (:mod:`workset.discovery.decision`) reads cosines, and a near miss
scores like a match: "what's the balance of my savings account?" is as close to a cash-flow
tool as a real cash-flow question. What gives such a need away is the need itself (a private
account, a device, a booking, a reminder) and how much of it the closest tool's words cover.
:class:`ServabilityProbe` is a logistic model over

- the need's own vector (from the index's embedder),
- the best candidate's meaning score and its server's (as in the decision), and
- word coverage: for each content word of the need, its best cosine to any word of the
  closest tool's document (and of everything the index reads for it, examples included);
  the lowest, the mean of the two lowest, and the mean.

Its probability is blended half and half with the labels of the 3 labelled needs nearest
to the need (their share that no tool serves, weighted by cosine): needs the catalog cannot
serve come in kinds (a private account, a device, a booking), and a new one is often near one
of its kind. It is fitted by :func:`fit_probe` on needs of one catalog labelled servable or
not (the needs the act rule already refuses left out of the logistic fit), its threshold
taken from out-of-fold scores so that at most ``refuse_at_most`` of the servable needs are
refused. The need vector (and the neighbours) make it a prior about *this* catalog: fit it on
needs written for the catalog it searches, never reuse it for another. :class:`ProbedIndex`
wraps any index (:class:`~workset.discovery.results.Searchable`) and turns a found result into
"not found" when the probe is sure enough.

Measured on the LiveMCPBench catalog (``benchmarks/discovery_probe.py``; fitted on the tune
halves of the three need sets, read on their held-out halves): see docs/results/discovery.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from workset.discovery.decision import FEATURES
from workset.discovery.index import ToolIndex
from workset.discovery.needs import STOPWORDS
from workset.discovery.results import Match, Searchable, SearchResult
from workset.errors import UsageError

Array = npt.NDArray[np.float64]

_WORD = re.compile(r"[a-z][a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
# Words that say how a need is asked, not what it is about.
_FILLER_TEXT = """want need please tell know would like get find show give let make use using
someone something current currently right now today whats"""
_FILLER = frozenset(_FILLER_TEXT.split())
_DECISION = (FEATURES.index("cosine"), FEATURES.index("server_cosine"))


def content_words(text: str) -> list[str]:
    """Lower-case words of ``text`` that carry its meaning (camelCase split), in order, once."""
    words = _WORD.findall(_CAMEL.sub(" ", text).lower())
    kept = (w for w in words if len(w) > 2 and w not in STOPWORDS and w not in _FILLER)
    return list(dict.fromkeys(kept))


@dataclass(frozen=True, slots=True)
class ServabilityProbe:
    """A logistic model of "no tool in this catalog serves the need", blended with the labels
    of the labelled needs nearest to it, and its threshold."""

    embedder: str  # the name of the embedder its need vectors come from
    weights: tuple[float, ...]
    bias: float
    means: tuple[float, ...]
    scales: tuple[float, ...]
    threshold: float  # refuse above this score
    # The labelled needs' unit vectors (one row each) and labels (1.0: unservable); empty:
    # the logistic model alone.
    neighbours: Array = field(default_factory=lambda: np.zeros((0, 0)), compare=False)
    labels: Array = field(default_factory=lambda: np.zeros(0), compare=False)
    k: int = 3  # nearest labelled needs read
    blend: float = 1.0  # the logistic model's share of the score; the rest is the neighbours'
    # The key of the tools it was fitted on (workset.discovery.labelled.catalog_key); "" when
    # not recorded (fitted on a benchmark catalog, or saved before keys were kept).
    catalog: str = ""

    def unservable(self, features: Array) -> float:
        """How sure the probe is that no tool serves the need (0–1), from
        :func:`probe_features`: the logistic model's probability, blended with the
        similarity-weighted share of unservable needs among the ``k`` nearest labelled ones."""
        if features.shape != (len(self.weights),):
            raise UsageError(
                f"the probe takes {len(self.weights)} features, got {features.shape}; "
                "was it fitted with another embedder?"
            )
        z = (features - np.asarray(self.means)) / np.asarray(self.scales)
        p = float(_sigmoid(float(z @ np.asarray(self.weights)) + self.bias))
        if self.blend >= 1.0 or not len(self.labels):
            return p
        near = float(_neighbour_votes(self.neighbours, self.labels, _unit(_need_part(features)),
                                      self.k)[0])  # fmt: skip
        return self.blend * p + (1.0 - self.blend) * near

    def save(self, path: Path) -> None:
        """Write the probe to ``path`` (``.npz``); read it back with :meth:`load`."""
        np.savez(
            path,
            embedder=np.array(self.embedder),
            weights=np.asarray(self.weights),
            bias=np.array(self.bias),
            means=np.asarray(self.means),
            scales=np.asarray(self.scales),
            threshold=np.array(self.threshold),
            neighbours=self.neighbours,
            labels=self.labels,
            k=np.array(self.k),
            blend=np.array(self.blend),
            catalog=np.array(self.catalog),
        )

    @classmethod
    def load(cls, path: Path) -> ServabilityProbe:
        """A probe saved by :meth:`save` (one saved before the neighbours were added is the
        logistic model alone)."""
        if not path.is_file():
            raise UsageError(f"no probe file at {path}; fit one with fit_probe and save it")
        with np.load(path) as saved:
            older = "neighbours" not in saved.files
            return cls(
                str(saved["embedder"]),
                tuple(float(w) for w in saved["weights"]),
                float(saved["bias"]),
                tuple(float(m) for m in saved["means"]),
                tuple(float(s) for s in saved["scales"]),
                float(saved["threshold"]),
                np.zeros((0, 0)) if older else np.asarray(saved["neighbours"]),
                np.zeros(0) if older else np.asarray(saved["labels"]),
                3 if older else int(saved["k"]),
                1.0 if older else float(saved["blend"]),
                str(saved["catalog"]) if "catalog" in saved.files else "",
            )


_TAIL = len(_DECISION) + 6  # the features after the need's vector: decision, coverage ×2


def _need_part(features: Array) -> Array:
    """The need's own vector, at the head of :func:`probe_features`."""
    return features[..., : features.shape[-1] - _TAIL]


def _unit(vectors: Array) -> Array:
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return np.asarray(vectors / np.where(norms > 0, norms, 1.0))


def _neighbour_votes(neighbours: Array, labels: Array, queries: Array, k: int) -> Array:
    """For each query (unit vectors, one per row or a single one): the labels of its ``k``
    nearest neighbours, averaged with their (non-negative) cosines as weights."""
    sims = np.atleast_2d(queries) @ neighbours.T
    nearest = np.argsort(-sims, axis=1)[:, :k]
    weights = np.take_along_axis(sims, nearest, axis=1).clip(0.0)
    return np.asarray((labels[nearest] * weights).sum(axis=1) / (weights.sum(axis=1) + 1e-9))


def probe_features(index: ToolIndex, result: SearchResult) -> Array:
    """What the probe reads of one search of ``index`` (the need as stated, with a decision).

    The need, its words and the closest tool's words are embedded in one call; the index's
    vectors keep the tool's words (embedded the first time only), not the need's."""
    candidates = result.matches or result.suggestions
    if result.decision is None or not candidates:
        raise UsageError("the probe needs a search by meaning with at least one candidate")
    document, everything = index.texts_of(candidates[0].server, candidates[0].tool)
    need_words = content_words(result.query)
    tool_words = [content_words(document), content_words(everything)]
    texts = list(dict.fromkeys([result.query, *need_words, *tool_words[0], *tool_words[1]]))
    asked = {result.query, *need_words} - {*tool_words[0], *tool_words[1]}
    vectors = dict(zip(texts, index.embed(texts, transient=asked), strict=True))
    coverage = [_coverage(need_words, words, vectors) for words in tool_words]
    decision = [result.decision.features[i] for i in _DECISION]
    return np.concatenate([vectors[result.query], decision, *coverage]).astype(np.float64)


def _coverage(need: list[str], text: list[str], vectors: dict[str, Array]) -> list[float]:
    """How well ``text``'s words cover the need's: lowest, two lowest, mean best cosine."""
    if not need or not text:
        return [1.0, 1.0, 1.0]
    cosines = np.array([vectors[w] for w in need]) @ np.array([vectors[w] for w in text]).T
    best = np.sort(cosines.max(axis=1))
    return [float(best[0]), float(best[:2].mean()), float(best.mean())]


@dataclass(frozen=True, slots=True)
class Fitting:
    """How :func:`fit_probe` fits: L2 strength, gradient steps, folds for the threshold."""

    refuse_at_most: float = 0.03  # share of servable needs the threshold may refuse
    l2: float = 0.2
    steps: int = 500
    rate: float = 0.5
    folds: int = 10
    seed: int = 0
    # The labelled needs nearest to a need vote too: the ``k`` nearest, and the logistic
    # model's share of the score (1.0: the model alone). Chosen out of fold on the tune
    # halves of the three need sets (k 3, 5, 9; shares 0.3, 0.5, 0.7): unservable needs
    # refused 55 -> 69 of 130 at the same 10 of 317 servable ones.
    k: int = 3
    blend: float = 0.5


@dataclass(frozen=True, slots=True)
class ProbeFit:
    """A fitted probe and how it did out of fold on the needs it was fitted on: each need
    scored by a model fitted without its fold, against the chosen threshold (the needs the
    act rule refuses counted as refused)."""

    probe: ServabilityProbe
    unservable: int
    unservable_refused: int
    servable: int
    servable_refused: int


def fit_probe(
    index: ToolIndex, needs: Sequence[tuple[str, bool]], fitting: Fitting | None = None
) -> ServabilityProbe:
    """A probe for ``index``'s catalog from ``needs``: (need, whether the catalog serves it).

    Each need is searched as stated; those the act rule refuses are left out of the fit
    (they are refused anyway) and count against the budget of servable needs refused. The
    threshold comes from out-of-fold probabilities, so it is not set on needs the model saw.
    """
    return fit_measured(index, needs, fitting).probe


def fit_measured(
    index: ToolIndex, needs: Sequence[tuple[str, bool]], fitting: Fitting | None = None
) -> ProbeFit:
    """:func:`fit_probe`, with the out-of-fold counts of what its threshold refuses."""
    how = fitting or Fitting()
    fewest = min(sum(1 for _, s in needs if s), sum(1 for _, s in needs if not s))
    if fewest < how.folds:
        raise UsageError(
            f"fitting a probe needs at least {how.folds} servable and {how.folds} unservable "
            f"needs (one per fold), got {fewest} of one kind; label more needs or use fewer "
            "folds (Fitting(folds=...))"
        )
    embedder = _embedder_of(index)
    results = [index.search(need, k=3) for need, _ in needs]
    x = np.array([probe_features(index, r) for r in results])
    unservable = np.array([0.0 if served else 1.0 for _, served in needs])
    vetoed = np.array([bool(r.decision and r.decision.unoffered) for r in results])
    kept = ~vetoed
    model = _fit(x[kept], unservable[kept], how)
    folds = np.empty(len(needs), dtype=np.intp)
    folds[np.random.default_rng(how.seed).permutation(len(needs))] = (
        np.arange(len(needs)) % how.folds
    )
    vectors = _unit(_need_part(x))
    held = np.zeros(len(needs))
    for fold in range(how.folds):
        train = (folds != fold) & kept
        fitted = _fit(x[train], unservable[train], how)
        out = folds == fold
        held[out] = _probabilities(fitted, x[out])
        if how.blend < 1.0:  # the neighbours of the other folds (vetoed needs too)
            near = _neighbour_votes(vectors[~out], unservable[~out], vectors[out], how.k)
            held[out] = how.blend * held[out] + (1.0 - how.blend) * near
    served = np.sort(held[unservable == 0])[::-1]
    budget = int(how.refuse_at_most * len(served)) - int((vetoed & (unservable == 0)).sum())
    threshold = float(served[max(budget, 0)])
    weights, bias, means, scales = model
    probe = ServabilityProbe(
        embedder,
        tuple(float(w) for w in weights),
        bias,
        tuple(float(m) for m in means),
        tuple(float(s) for s in scales),
        threshold,
        vectors if how.blend < 1.0 else np.zeros((0, 0)),
        unservable if how.blend < 1.0 else np.zeros(0),
        how.k,
        how.blend,
    )
    refused = vetoed | (held > threshold)
    no_tool = unservable == 1
    return ProbeFit(
        probe,
        int(no_tool.sum()),
        int((refused & no_tool).sum()),
        int((~no_tool).sum()),
        int((refused & ~no_tool).sum()),
    )


def _embedder_of(index: ToolIndex) -> str:
    """The name of ``index``'s embedder (a probe's need vectors must come from it)."""
    name = index.embedder_name
    if name is None:
        raise UsageError("the probe needs an index built with an embedder")
    return name


_Model = tuple[Array, float, Array, Array]


def _fit(x: Array, labels: Array, how: Fitting) -> _Model:
    """Class-balanced, L2-regularised logistic regression by full-batch gradient descent."""
    means = x.mean(axis=0)
    scales = x.std(axis=0) + 1e-6
    z = (x - means) / scales
    positive = labels.mean()
    sample = np.where(labels == 1, 0.5 / positive, 0.5 / (1 - positive))
    weights = np.zeros(z.shape[1])
    bias = 0.0
    for _ in range(how.steps):
        error = sample * (_sigmoid(z @ weights + bias) - labels)
        weights -= how.rate * (z.T @ error / len(labels) + how.l2 * weights)
        bias -= how.rate * float(error.mean())
    return weights, bias, means, scales


def _probabilities(model: _Model, x: Array) -> Array:
    weights, bias, means, scales = model
    return np.asarray(_sigmoid(((x - means) / scales) @ weights + bias))


def _sigmoid(z: Array | float) -> Array:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0))))


class ProbedIndex:
    """``inner``'s searches, with "not found" where the probe judges no tool serves the need.

    ``basis`` is the index the probe was fitted on (``inner`` itself, or the first index of
    a :class:`~workset.discovery.cascade.CascadeIndex`); the probe reads ``basis``'s search
    of the need as stated, whatever other phrasings ``inner`` is given.
    """

    def __init__(self, inner: Searchable, basis: ToolIndex, probe: ServabilityProbe) -> None:
        if probe.embedder != _embedder_of(basis):
            raise UsageError(
                f"the probe was fitted with {probe.embedder!r}, the index embeds with "
                f"{_embedder_of(basis)!r}; fit a probe for this index"
            )
        self.inner = inner
        self.basis = basis
        self.probe = probe

    def search(self, query: str, k: int = 5, *, also: Sequence[str] = ()) -> SearchResult:
        result = self.inner.search(query, k=k, also=also)
        if not result.found:
            return result
        stated = result if self.inner is self.basis and not also else None
        first = stated or self.basis.search(query, k=3)
        if first.decision is None:
            return result
        p = self.probe.unservable(probe_features(self.basis, first))
        if p <= self.probe.threshold:
            return result
        return replace(result, matches=(), suggestions=result.matches[:3], probed=p)

    def rank(self, query: str, k: int = 10, *, also: Sequence[str] = ()) -> list[Match]:
        return self.inner.rank(query, k=k, also=also)
