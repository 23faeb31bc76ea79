from pathlib import Path

import pytest

from workset.errors import ToolError, UsageError
from workset.tools.workspace import Workspace


def test_relative_paths_resolve_inside_the_root(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    ws = Workspace(tmp_path)
    assert ws.resolve("src/app.py") == tmp_path.resolve() / "src" / "app.py"
    assert ws.resolve(".") == tmp_path.resolve()
    assert ws.resolve("src/../README.md") == tmp_path.resolve() / "README.md"


def test_dot_dot_escape_is_refused_with_the_root_and_a_hint(tmp_path: Path) -> None:
    ws = Workspace(tmp_path)
    with pytest.raises(ToolError) as caught:
        ws.resolve("../x")
    text = caught.value.for_model()
    assert "outside the workspace" in text
    assert str(tmp_path.resolve()) in text
    assert "relative to the workspace root" in text


def test_escape_hidden_in_the_middle_of_a_path_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="outside the workspace"):
        Workspace(tmp_path).resolve("src/../../etc/passwd")


def test_absolute_path_outside_the_root_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="outside the workspace"):
        Workspace(tmp_path).resolve("/etc/passwd")


def test_absolute_path_inside_the_root_is_accepted(tmp_path: Path) -> None:
    ws = Workspace(tmp_path)
    assert ws.resolve(str(tmp_path / "notes.txt")) == tmp_path.resolve() / "notes.txt"


def test_symlink_that_points_outside_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("key")
    root = tmp_path / "ws"
    root.mkdir()
    (root / "link").symlink_to(outside)
    ws = Workspace(root)
    with pytest.raises(ToolError, match="symlink that points outside"):
        ws.resolve("link/secret.txt")
    with pytest.raises(ToolError, match="symlink"):
        ws.resolve("link")


def test_symlink_that_stays_inside_is_followed(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    assert Workspace(tmp_path).resolve("alias/a.txt") == tmp_path.resolve() / "real" / "a.txt"


def test_empty_path_is_refused_with_a_hint(tmp_path: Path) -> None:
    with pytest.raises(ToolError) as caught:
        Workspace(tmp_path).resolve("")
    assert "'.'" in caught.value.for_model()


def test_relative_shows_posix_paths_from_the_root(tmp_path: Path) -> None:
    ws = Workspace(tmp_path)
    assert ws.relative(tmp_path / "src" / "app.py") == "src/app.py"
    assert ws.relative("src/pkg") == "src/pkg"
    assert ws.relative(tmp_path) == "."


def test_relative_refuses_a_path_outside_the_root(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    with pytest.raises(UsageError, match="not inside the workspace"):
        Workspace(root).relative(tmp_path)


def test_root_must_be_an_existing_directory(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not an existing directory"):
        Workspace(tmp_path / "missing")
