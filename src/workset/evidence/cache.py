"""The workspace index on disk: chunks per file and embeddings per chunk, kept incrementally.

One SQLite file per workspace. A file is keyed by its path, size and mtime; when those move,
its bytes are hashed and, if the hash moved too, it is chunked again; a file gone from the
scan loses its chunks. Embeddings are keyed by the embedder's name and the hash of the text
that was embedded, so a chunk that did not change is never embedded again, whichever file
it is in, and vectors of another model are never mixed in. When the chunker's format version
or sizes differ from what the file was built with, the file is emptied and rebuilt: it is a
cache, never the only copy of anything.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from workset.errors import UsageError
from workset.evidence.ingest import Chunk, ChunkConfig, Document, chunk_document, format_for
from workset.evidence.scan import FileStat
from workset.retrieval.embedder import TextEmbedder, Vectors

FORMAT = 2  # bump when chunking changes what a file's chunks are
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    sha256 TEXT NOT NULL, skipped TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS chunks (
    path TEXT NOT NULL, n INTEGER NOT NULL, start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL, heading TEXT NOT NULL, text TEXT NOT NULL,
    sha256 TEXT NOT NULL, PRIMARY KEY (path, n)
);
CREATE TABLE IF NOT EXISTS vectors (
    embedder TEXT NOT NULL, text_sha256 TEXT NOT NULL, vector BLOB NOT NULL,
    PRIMARY KEY (embedder, text_sha256)
);
"""


@dataclass(frozen=True, slots=True)
class SyncReport:
    """What one :meth:`ChunkCache.sync` did: chunks of every file, and the work it took."""

    chunks: tuple[Chunk, ...]
    files: int  # files with chunks
    rechunked: int  # files read and chunked again (new or changed)
    touched: int  # files whose mtime moved but whose bytes did not
    removed: int  # files gone since the last sync
    skipped: tuple[str, ...] = ()  # "path: reason" for files that are not text


class ChunkCache:
    """An index file; open it once per process, :meth:`close` it when done."""

    def __init__(self, path: Path | str, config: ChunkConfig | None = None) -> None:
        self.path = Path(path)
        self.config = config or ChunkConfig()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise UsageError(
                f"cannot open the evidence index {self.path}: {exc}; point it at a writable "
                "folder (the session log's folder by default)"
            ) from exc
        self._db.executescript(_SCHEMA)
        self._check_format()

    def close(self) -> None:
        self._db.close()

    def sync(self, root: Path | str, files: Sequence[FileStat]) -> SyncReport:
        """Bring the index up to ``files`` (a scan of ``root``); returns every chunk."""
        base = Path(root)
        known = {
            row[0]: (row[1], row[2], row[3])
            for row in self._db.execute("SELECT path, size, mtime_ns, sha256 FROM files")
        }
        rechunked = touched = 0
        with self._db:
            self._db.execute("BEGIN")
            for stat in files:
                before = known.get(stat.path)
                if before is not None and before[:2] == (stat.size, stat.mtime_ns):
                    continue
                try:
                    data = (base / stat.path).read_bytes()
                except OSError:
                    continue
                digest = hashlib.sha256(data).hexdigest()
                if before is not None and before[2] == digest:
                    self._db.execute(
                        "UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?",
                        (stat.size, stat.mtime_ns, stat.path),
                    )
                    touched += 1
                    continue
                self._store(stat, data, digest)
                rechunked += 1
            gone = set(known) - {f.path for f in files}
            for path in gone:
                self._db.execute("DELETE FROM files WHERE path = ?", (path,))
                self._db.execute("DELETE FROM chunks WHERE path = ?", (path,))
        chunks, count = self._chunks()
        skipped = tuple(
            f"{path}: {why}"
            for path, why in self._db.execute("SELECT path, skipped FROM files WHERE skipped != ''")
        )
        return SyncReport(chunks, count, rechunked, touched, len(gone), skipped)

    def vectors(self, chunks: Sequence[Chunk], embedder: TextEmbedder) -> Vectors:
        """One row per chunk; only chunks whose text was never embedded by ``embedder`` are."""
        texts = [embedded_text(c) for c in chunks]
        keys = [hashlib.sha256(t.encode()).hexdigest() for t in texts]
        found: dict[str, bytes] = {}
        for start in range(0, len(keys), 500):
            batch = keys[start : start + 500]
            marks = ",".join("?" * len(batch))
            found.update(
                self._db.execute(
                    f"SELECT text_sha256, vector FROM vectors WHERE embedder = ? "
                    f"AND text_sha256 IN ({marks})",
                    (embedder.name, *batch),
                ).fetchall()
            )
        missing = [i for i, k in enumerate(keys) if k not in found]
        if missing:
            fresh = embedder.embed([texts[i] for i in dict.fromkeys(missing)])
            with self._db:
                self._db.execute("BEGIN")
                for i, row in zip(dict.fromkeys(missing), fresh, strict=True):
                    blob = np.asarray(row, dtype=np.float32).tobytes()
                    found[keys[i]] = blob
                    self._db.execute(
                        "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                        (embedder.name, keys[i], blob),
                    )
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([np.frombuffer(found[k], dtype=np.float32) for k in keys])

    # -- internals ------------------------------------------------------------------------

    def _check_format(self) -> None:
        wanted = json.dumps([FORMAT, self.config.target_tokens, self.config.max_tokens])
        row = self._db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if row is not None and row[0] == wanted:
            return
        with self._db:
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM files")
            self._db.execute("DELETE FROM chunks")
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (wanted,))

    def _store(self, stat: FileStat, data: bytes, digest: str) -> None:
        self._db.execute("DELETE FROM chunks WHERE path = ?", (stat.path,))
        skipped = ""
        chunks: list[Chunk] = []
        if b"\x00" in data[:8192]:
            skipped = "binary file"
        else:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                skipped = f"not UTF-8 text ({exc.reason} at byte {exc.start})"
            else:
                document = Document(
                    doc_id=stat.path,
                    text=text,
                    version="sha256:" + digest[:12],
                    source=stat.path,
                    format=format_for(Path(stat.path)),
                )
                chunks = chunk_document(document, self.config)
        self._db.execute(
            "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)",
            (stat.path, stat.size, stat.mtime_ns, digest, skipped),
        )
        self._db.executemany(
            "INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (stat.path, n, c.start_line, c.end_line, json.dumps(c.heading), c.text, c.sha256)
                for n, c in enumerate(chunks)
            ],
        )

    def _chunks(self) -> tuple[tuple[Chunk, ...], int]:
        versions = dict(self._db.execute("SELECT path, sha256 FROM files"))
        rows = self._db.execute(
            "SELECT path, start_line, end_line, heading, text, sha256 FROM chunks ORDER BY path, n"
        ).fetchall()
        chunks = tuple(
            Chunk(
                chunk_id=f"{path}@sha256:{versions[path][:12]}#L{start}-{end}",
                doc_id=path,
                version="sha256:" + versions[path][:12],
                start_line=start,
                end_line=end,
                heading=tuple(json.loads(heading)),
                text=text,
                sha256=sha,
                source=path,
            )
            for path, start, end, heading, text, sha in rows
        )
        return chunks, len({c.doc_id for c in chunks})


def embedded_text(chunk: Chunk) -> str:
    """What retrieval sees of a workspace chunk: its file, its heading path, then its text."""
    return f"{chunk.doc_id}\n{chunk.indexed_text()}"
