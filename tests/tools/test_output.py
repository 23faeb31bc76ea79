from pathlib import Path

import pytest

from workset.errors import UsageError
from workset.tools.output import ArtifactStore, clip_output
from workset.tools.workspace import Workspace


def _store(root: Path) -> ArtifactStore:
    return ArtifactStore(Workspace(root))


def _numbered(count: int) -> str:
    return "".join(f"line {i}\n" for i in range(1, count + 1))


def test_short_output_is_returned_unchanged_and_nothing_is_saved(tmp_path: Path) -> None:
    text = _numbered(200)
    assert clip_output(text, artifacts=_store(tmp_path), name="shell") == text
    assert not (tmp_path / ".workset").exists()


def test_long_output_keeps_head_and_tail_with_exact_counts(tmp_path: Path) -> None:
    text = _numbered(5_000)
    clipped = clip_output(text, artifacts=_store(tmp_path), name="shell")
    lines = clipped.split("\n")
    assert lines[:50] == [f"line {i}" for i in range(1, 51)]
    marker = lines[50]
    assert marker.startswith("... [4,900 lines omitted; full output (5,000 lines, ")
    assert f"{len(text):,} chars) saved to .workset/artifacts/shell-" in marker
    assert lines[51:101] == [f"line {i}" for i in range(4_951, 5_001)]
    path = marker.split("saved to ")[1].split("]")[0]
    assert lines[-1] == f"To read the rest, call read_file with path='{path}' and offset=51."
    assert (tmp_path / path).read_text() == text


def test_the_same_output_is_saved_once_to_the_same_file(tmp_path: Path) -> None:
    text = _numbered(300)
    first = clip_output(text, artifacts=_store(tmp_path), name="shell")
    second = clip_output(text, artifacts=_store(tmp_path), name="shell")
    assert first == second
    saved = list((tmp_path / ".workset" / "artifacts").iterdir())
    assert len(saved) == 1


def test_output_over_the_character_limit_is_clipped_even_with_few_lines(tmp_path: Path) -> None:
    text = "\n".join("x" * 3_000 for _ in range(20)) + "\n"
    clipped = clip_output(text, artifacts=_store(tmp_path), name="python")
    assert len(clipped) < 10_000
    assert "[line cut: 2,000 more characters]" in clipped
    assert "lines omitted; full output (20 lines, 60,020 chars)" in clipped


def test_a_single_huge_line_is_cut_and_saved_whole(tmp_path: Path) -> None:
    text = "y" * 50_000
    clipped = clip_output(text, artifacts=_store(tmp_path), name="python")
    assert "no lines omitted, but long lines were cut" in clipped
    path = clipped.split("saved to ")[1].split("]")[0]
    assert (tmp_path / path).read_text() == text


def test_artifact_names_must_be_simple(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="artifact name"):
        _store(tmp_path).save("x", "../escape")
