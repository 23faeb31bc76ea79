"""Embeddings kept on disk by the hash of the text they embed, so a rebuild embeds only news.

A :class:`VectorStore` maps ``sha256(model name, text)`` to that text's vector. An index
build asks it for every text it needs; only the texts it has never seen are embedded, in one
call. A server whose tools did not change produces the same texts, hence the same keys, so its
vectors are read, not recomputed; a changed tool changes its own texts and its server's
document, and only those are embedded again.

It also keeps matrices by key (:meth:`VectorStore.matrix`): the query adapter an index fits
from its catalog (:mod:`workset.discovery.adapter`), so an unchanged catalog does not refit it.

On disk it is one ``.npz`` file (``keys``: the hex digests, ``vectors``: float32 rows,
``model``: the embedder's name; ``matrix_keys`` and ``matrices`` for the matrices), written
to a temporary file and renamed, so a reader never sees half a file;
:meth:`VectorStore.save` keeps only the keys of the current build unless told otherwise, so
the file does not grow with every edit.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path

import numpy as np

from workset.errors import UsageError
from workset.retrieval.embedder import TextEmbedder, Vectors


def text_key(model: str, text: str) -> str:
    digest = hashlib.sha256(model.encode())
    digest.update(b"\0")
    digest.update(text.encode())
    return digest.hexdigest()


class VectorStore:
    """Vectors by text hash for one embedding model; persisted with :meth:`save`."""

    def __init__(
        self,
        model: str,
        vectors: dict[str, Vectors] | None = None,
        matrices: dict[str, Vectors] | None = None,
    ) -> None:
        self.model = model
        self._vectors: dict[str, Vectors] = dict(vectors or {})
        self._matrices: dict[str, Vectors] = dict(matrices or {})

    def __len__(self) -> int:
        return len(self._vectors)

    def __contains__(self, key: object) -> bool:
        return key in self._vectors

    @classmethod
    def open(cls, path: Path, model: str) -> VectorStore:
        """The store at ``path`` (empty when missing, or when written by another model)."""
        if not path.is_file():
            return cls(model)
        try:
            with np.load(path, allow_pickle=False) as data:
                stored_model = str(data["model"])
                keys = [str(k) for k in data["keys"]]
                vectors = np.asarray(data["vectors"], dtype=np.float32)
                matrices = (
                    dict(
                        zip(
                            (str(k) for k in data["matrix_keys"]),
                            np.asarray(data["matrices"], dtype=np.float32),
                            strict=True,
                        )
                    )
                    if "matrix_keys" in data
                    else {}
                )
        except (OSError, KeyError, ValueError) as exc:
            raise UsageError(
                f"{path} is not a vector store ({exc}); delete it and the next build "
                "recomputes every embedding"
            ) from exc
        if stored_model != model or vectors.shape[0] != len(keys):
            return cls(model)
        return cls(model, dict(zip(keys, vectors, strict=True)), matrices)

    def matrix(self, key: str) -> Vectors | None:
        """The matrix kept under ``key`` (see :meth:`keep_matrix`), or None."""
        return self._matrices.get(key)

    def keep_matrix(self, key: str, matrix: Vectors) -> None:
        self._matrices[key] = np.asarray(matrix, dtype=np.float32)

    def embed(
        self, embedder: TextEmbedder, texts: Sequence[str], *, transient: Collection[str] = ()
    ) -> Vectors:
        """One row per text: stored rows as they are, the missing ones embedded in one call
        and kept, except those in ``transient`` (queries: keeping them would grow the store
        with every search)."""
        if embedder.name != self.model:
            raise UsageError(
                f"this store holds {self.model} vectors; open it with that model, not "
                f"{embedder.name}"
            )
        keys = [text_key(self.model, t) for t in texts]
        missing: dict[str, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in self._vectors:
                missing.setdefault(key, text)
        rows: dict[str, Vectors] = {}
        if missing:
            fresh = embedder.embed(list(missing.values()))
            for (key, text), row in zip(missing.items(), fresh, strict=True):
                rows[key] = np.asarray(row, dtype=np.float32)
                if text not in transient:
                    self._vectors[key] = rows[key]
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        stacked = [rows[k] if k in rows else self._vectors[k] for k in keys]
        return np.stack(stacked).astype(np.float32, copy=False)

    def save(self, path: Path, keep: Iterable[str] | None = None) -> None:
        """Write the store (only the keys in ``keep`` when given) atomically to ``path``.

        ``keep`` names vectors and matrices alike."""
        wanted = set(keep) if keep is not None else {*self._vectors, *self._matrices}
        keys = sorted(k for k in self._vectors if k in wanted)
        width = next(iter(self._vectors.values())).shape[0] if self._vectors else 0
        vectors = (
            np.stack([self._vectors[k] for k in keys])
            if keys
            else np.zeros((0, width), dtype=np.float32)
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".tmp.npz")
        matrix_keys = sorted(k for k in self._matrices if k in wanted)
        matrices = (
            np.stack([self._matrices[k] for k in matrix_keys])
            if matrix_keys
            else np.zeros((0, width, width), dtype=np.float32)
        )
        np.savez(
            partial,
            keys=np.array(keys),
            vectors=vectors,
            model=np.array(self.model),
            matrix_keys=np.array(matrix_keys, dtype=str),
            matrices=matrices,
        )
        partial.replace(path)
