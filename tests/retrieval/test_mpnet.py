"""all-mpnet-base-v2 in numpy: the zip pieces, the position buckets, and (when the five weight
packages are installed) the vectors themselves."""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from workset.errors import UsageError
from workset.retrieval import mpnet
from workset.retrieval.mpnet import MPNetEmbedder, model_folder, relative_bucket


def _pieces(tmp_path: Path, files: dict[str, bytes], count: int = 3) -> list[Path]:
    """A zip of ``files`` under a model folder, cut into ``count`` pieces like the packages."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name, data in files.items():
            zipped.writestr(f"all-mpnet-base-v2/{name}", data)
    raw = buffer.getvalue()
    cut = len(raw) // count + 1
    paths = []
    for i in range(count):
        path = tmp_path / f"all-mpnet-base-v2.zip.{i + 1:03d}"
        path.write_bytes(raw[i * cut : (i + 1) * cut])
        paths.append(path)
    return paths


def test_the_model_files_are_extracted_from_the_pieces_and_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"model.safetensors": b"w" * 50_000 + bytes(range(256)), "tokenizer.json": b"{}"}
    digests = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    monkeypatch.setattr(mpnet, "MODEL_FILES", digests)
    pieces = _pieces(tmp_path, {**files, "README.md": b"unused"})
    folder = model_folder(pieces, tmp_path / "cache")
    assert {p.name for p in folder.iterdir() if not p.name.endswith(".sha256")} == set(files)
    assert (folder / "model.safetensors").read_bytes() == files["model.safetensors"]
    # Checked once: a second call reads the stamps, not the pieces.
    assert model_folder([tmp_path / "gone"], tmp_path / "cache") == folder


def test_a_piece_that_does_not_add_up_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"model.safetensors": b"weights", "tokenizer.json": b"{}"}
    pinned = {name: hashlib.sha256(b"other").hexdigest() for name in files}
    monkeypatch.setattr(mpnet, "MODEL_FILES", pinned)
    with pytest.raises(UsageError, match="pinned"):
        model_folder(_pieces(tmp_path, files), tmp_path / "cache")
    assert not (tmp_path / "cache" / "model.safetensors").exists()


def test_missing_packages_name_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mpnet, "PART_PACKAGES", ("workset-no-such-package-part-001",))
    with pytest.raises(UsageError) as raised:
        mpnet.part_files()
    assert "--no-deps" in str(raised.value)


def test_relative_buckets_follow_mpnet() -> None:
    distances = np.array([0, -1, -7, -8, -20, -127, -500, 1, 7, 8, 500])
    # Keys before the query (negative distance) fill 0..15, keys after it 16..31; exact below
    # 8, logarithmic up to 128, then the last bucket of the half.
    assert relative_bucket(distances).tolist() == [0, 1, 7, 8, 10, 15, 15, 17, 23, 24, 31]


@pytest.fixture(scope="module")
def embedder() -> MPNetEmbedder:
    try:
        return MPNetEmbedder.load()
    except UsageError as exc:
        pytest.skip(str(exc))


def test_a_batch_gives_the_same_vectors_as_one_text_at_a_time(embedder: MPNetEmbedder) -> None:
    texts = ["short", "Get the weather forecast for a city", "convert a document to PDF"]
    batched = embedder.embed(texts)
    single = np.stack([embedder.embed([text])[0] for text in texts])
    assert batched.shape == (3, 768)
    assert np.abs(batched - single).max() < 1e-5
    assert np.allclose(np.linalg.norm(batched, axis=1), 1.0, atol=1e-5)


def test_paraphrases_are_closer_than_unrelated_texts(embedder: MPNetEmbedder) -> None:
    need, tool, other = embedder.embed(
        ["I need tomorrow's weather", "Get the weather forecast for a city", "Rename a git branch"]
    )
    assert float(need @ tool) > float(need @ other) + 0.2
