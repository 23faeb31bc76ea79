"""A learned layer beside the poisoning rules: a sentence classifier over MiniLM embeddings.

The wording rules (:mod:`workset.mcp.poisoning`) reach every form they were tuned on and few
they were not. This layer reads the same texts, each made readable the same way
(:func:`workset.mcp.poisoning.readable`: NFKC, look-alike letters, zero-width and TAG
characters, letter spacing, HTML comments, base64), splits them into sentences, embeds each
with the local all-MiniLM-L6-v2 (:mod:`workset.retrieval.embedder`, offline, numpy) and scores
it with a logistic regression whose weights ship in the package
(``workset/mcp/data/poison_learned.json``, written by ``benchmarks/mcp_learned_train.py`` from
the tune cohorts only). A sentence at or above the stored threshold is a ``learned`` finding
whose excerpt is the sentence and whose reason carries the score.

The layer needs the ``retrieval`` extra and the MiniLM weights package (:func:`available`);
nothing is downloaded. It is opt-in (``[mcp] learned = "report"`` or ``"block"`` in the
config, ``TrustGate(learned=…)`` in code): on blind cohorts it finds poisoned definitions the
rules miss, and it also flags benign ones the rules pass (docs/results/safety.md, "MCP tool
definitions"). The shipped model (round 12, ``benchmarks/mcp_learned_cv.py``) scores every
sentence and reads seven features beside the embedding (:data:`EXTRAS`: the field's kind, the
description's opening sentence, a hiding trick, a text outside Latin script); its
regularisation and threshold were chosen by leave-one-cohort-out on the tune data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from workset.mcp.definition_fields import definition_texts, field_kind
from workset.mcp.poison_readable import readable
from workset.mcp.poisoning import Finding
from workset.mcp.remote import RemoteTool

if TYPE_CHECKING:
    import numpy as np

    from workset.retrieval import TextEmbedder

MODEL_FILE = "poison_learned.json"
RULE = "learned"
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]{2,}")
_MAX_CHARS = 400


@dataclass(frozen=True, slots=True)
class SentenceModel:
    """Logistic regression over L2-normalised sentence embeddings."""

    weights: tuple[float, ...]
    bias: float
    threshold: float
    embedder: str
    trained_on: str
    skip_opening: bool = False  # the description's first sentence is not scored
    unit: str = "sentence"  # or "field": each text of the definition whole
    extras: tuple[str, ...] = ()  # features after the embedding (:data:`EXTRAS`)

    def scores(self, vectors: np.ndarray) -> np.ndarray:
        import numpy as np

        logits = vectors @ np.asarray(self.weights, dtype=np.float32) + np.float32(self.bias)
        return np.asarray(1.0 / (1.0 + np.exp(-logits)), dtype=np.float64)


def sentences(tool: RemoteTool, *, skip_opening: bool = False) -> list[tuple[str, str]]:
    """(field, sentence) for every readable sentence of the definition with two or more words.

    ``skip_opening``: leave out the description's first sentence, where a tool names its own
    action ("Update the assignees of an existing issue.")."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for where, text in definition_texts(tool):
        for index, sentence in enumerate(split(text, name=field_kind(where) == "name")):
            if skip_opening and where == "description" and index == 0:
                continue
            if sentence not in seen:
                seen.add(sentence)
                out.append((where, sentence))
    return out


Unit = tuple[str, int, str, bool]  # (field, index in the field, text, a hiding trick found)
EXTRAS = ("name", "data", "parameter", "description", "opening", "hidden", "non-ascii")


def units(tool: RemoteTool, *, unit: str = "sentence", skip_opening: bool = False) -> list[Unit]:
    """The scored units of a definition: each readable sentence (``unit="sentence"``) or each
    readable text whole (``"field"``), with its field, index and whether ``readable()`` found
    a hiding trick in its text (look-alikes, zero-width, comments, decoded text)."""
    out: list[Unit] = []
    seen: set[str] = set()
    for where, text in definition_texts(tool):
        name = field_kind(where) == "name"
        tricked = bool(readable(text, name=name)[1])
        found = split(text, name=name) if unit == "sentence" else _whole(text, name=name)
        for index, sentence in enumerate(found):
            if skip_opening and where == "description" and index == 0:
                continue
            if sentence not in seen:
                seen.add(sentence)
                out.append((where, index, sentence, tricked))
    return out


def _whole(text: str, *, name: bool) -> Iterator[str]:
    plain, _ = readable(text, name=name)
    whole = " ".join(plain.split())[: _MAX_CHARS * 2]
    if len(_WORD.findall(whole)) >= 2:
        yield whole


def extras(where: str, index: int, text: str, tricked: bool) -> list[float]:
    """Features beside the embedding, in the order of :data:`EXTRAS`."""
    kind = field_kind(where)
    foreign = _foreign_share(text)
    return [
        float(kind == "name"),
        float(kind == "data"),
        float(kind == "parameter"),
        float(where == "description"),
        float(where == "description" and index == 0),
        float(tricked),
        float(foreign > 0.3),
    ]


def split(text: str, *, name: bool = False) -> Iterator[str]:
    """The sentences of ``text`` once readable (each kept to its first 400 characters)."""
    plain, _ = readable(text, name=name)
    for part in _SENTENCE.split(plain):
        sentence = " ".join(part.split())[:_MAX_CHARS]
        if len(_WORD.findall(sentence)) >= 2:
            yield sentence


def load_model(raw: str | None = None) -> SentenceModel:
    """The shipped model (or one from ``raw`` JSON), read from the package's data folder."""
    if raw is None:
        raw = resources.files("workset.mcp").joinpath("data", MODEL_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(raw)
    return SentenceModel(
        weights=tuple(float(w) for w in data["weights"]),
        bias=float(data["bias"]),
        threshold=float(data["threshold"]),
        embedder=str(data["embedder"]),
        trained_on=str(data.get("trained_on", "")),
        skip_opening=bool(data.get("skip_opening", False)),
        unit=str(data.get("unit", "sentence")),
        extras=tuple(str(e) for e in data.get("extras", ())),
    )


@cache
def shipped_model() -> SentenceModel:
    return load_model()


@cache
def available() -> bool:
    """Whether the embedder and its weights are installed (the layer runs only then)."""
    try:
        _embedder()
    except Exception:  # missing numpy, tokenizers, safetensors or the weights package
        return False
    return True


def _embedder() -> TextEmbedder:
    from workset.history.recall import shared_embedder

    return shared_embedder()


def learned_findings(
    tool: RemoteTool,
    *,
    model: SentenceModel | None = None,
    embedder: TextEmbedder | None = None,
) -> list[Finding]:
    """A ``learned`` finding for each sentence scored at or above the model's threshold."""
    model = model or shipped_model()
    scored = score_sentences(tool, model=model, embedder=embedder)
    return [
        Finding(tool.server, tool.name, where, RULE, sentence[:160], score=score)
        for where, sentence, score in scored
        if score >= model.threshold and not foreign_text(sentence)
    ]


def foreign_text(sentence: str) -> bool:
    """Most of the sentence's letters are outside the Latin script once made readable: real
    Russian, Greek, Chinese… (look-alike letters that disguise English were folded to ASCII
    already). MiniLM reads English; its score of such a sentence says only that the script is
    foreign, which the shipped model learned from homoglyph cohorts, so it is not a finding;
    the wording rules read those languages they know."""
    return _foreign_share(sentence) > 0.5


def _foreign_share(text: str) -> float:
    """The share of ``text``'s letters outside the Latin script (0 when it has none)."""
    letters = [c for c in text if c.isalpha()]
    return sum(ord(c) > 0x24F for c in letters) / max(1, len(letters))


def score_sentences(
    tool: RemoteTool,
    *,
    model: SentenceModel | None = None,
    embedder: TextEmbedder | None = None,
) -> list[tuple[str, str, float]]:
    """(field, sentence, score) for every sentence of the definition."""
    model = model or shipped_model()
    found = units(tool, unit=model.unit, skip_opening=model.skip_opening)
    if not found:
        return []
    vectors = embed([text for _, _, text, _ in found], embedder)
    if model.extras:
        import numpy as np

        more = np.asarray([extras(*u) for u in found], dtype=np.float32)
        vectors = np.hstack([vectors, more[:, [EXTRAS.index(e) for e in model.extras]]])
    return [
        (where, text, float(score))
        for (where, _, text, _), score in zip(found, model.scores(vectors), strict=True)
    ]


def embed(texts: Sequence[str], embedder: TextEmbedder | None = None) -> np.ndarray:
    """Rows for ``texts`` through the shared MiniLM embedder (each text embedded once)."""
    from workset.history.recall import embed_cached

    return embed_cached(embedder or _embedder(), texts)
