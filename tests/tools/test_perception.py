import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from workset.messages import ToolCall, ToolMessage
from workset.tools.perception import MAX_FILE_BYTES, perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace


def _call(root: Path, name: str, **arguments: Any) -> ToolMessage:
    registry = ToolRegistry(perception_tools(Workspace(root)))
    return anyio.run(registry.execute, ToolCall("c1", name, json.dumps(arguments)))


def _ok(root: Path, name: str, **arguments: Any) -> str:
    result = _call(root, name, **arguments)
    assert not result.is_error, result.content
    return result.content


def _lines(path: Path, count: int, text: str = "line {}") -> None:
    path.write_text("".join(text.format(i) + "\n" for i in range(1, count + 1)))


# --- the tools as a set --------------------------------------------------------------------


def test_perception_tools_are_read_only_idempotent_and_documented(tmp_path: Path) -> None:
    tools = perception_tools(Workspace(tmp_path))
    assert [t.name for t in tools] == ["read_file", "list_dir", "find_files", "grep"]
    for item in tools:
        assert item.read_only and item.idempotent and item.risk == "low"
        assert "Use when" in item.spec.description
        assert "Do not use when" in item.spec.description
        assert "Examples:" in item.spec.description
        assert 1 <= len(item.examples) <= 5


@pytest.mark.parametrize("name", ["read_file", "list_dir", "find_files", "grep"])
def test_every_tool_refuses_paths_outside_the_workspace(tmp_path: Path, name: str) -> None:
    args = {"pattern": "x"} if name in ("find_files", "grep") else {}
    for path in ("../x", "/etc/passwd"):
        result = _call(tmp_path, name, path=path, **args)
        assert result.is_error
        assert "outside the workspace" in result.content


def test_read_file_refuses_a_symlink_escape(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("password")
    (root / "notes.txt").symlink_to(tmp_path / "secret.txt")
    result = _call(root, "read_file", path="notes.txt")
    assert result.is_error
    assert "symlink that points outside" in result.content
    assert "password" not in result.content


# --- read_file ------------------------------------------------------------------------------


def test_read_file_shows_numbered_lines_of_a_small_file_without_a_footer(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import os\n\nprint(1)\n")
    assert _ok(tmp_path, "read_file", path="a.py") == "    1| import os\n    2| \n    3| print(1)"


def test_read_file_truncation_is_explicit_and_says_how_to_continue(tmp_path: Path) -> None:
    _lines(tmp_path / "big.log", 5000)
    text = _ok(tmp_path, "read_file", path="big.log")
    lines = text.splitlines()
    assert lines[0] == "    1| line 1"
    assert lines[199] == "  200| line 200"
    assert lines[-1] == (
        "Showing lines 1-200 of 5,000 total. To continue, call read_file with offset=201."
    )


def test_a_smaller_read_window_is_the_default_limit_and_an_explicit_limit_still_wins(
    tmp_path: Path,
) -> None:
    _lines(tmp_path / "big.log", 300)
    tools = ToolRegistry(perception_tools(Workspace(tmp_path), read_lines=80))
    result = anyio.run(tools.execute, ToolCall("c1", "read_file", '{"path": "big.log"}'))
    assert result.content.splitlines()[-1] == (
        "Showing lines 1-80 of 300 total. To continue, call read_file with offset=81."
    )
    wide = '{"path": "big.log", "offset": 81, "limit": 150}'
    result = anyio.run(tools.execute, ToolCall("c2", "read_file", wide))
    assert result.content.splitlines()[-1].startswith("Showing lines 81-230 of 300 total.")
    with pytest.raises(ValueError, match="read_lines=0"):
        perception_tools(Workspace(tmp_path), read_lines=0)


def test_read_file_continues_from_an_offset_and_marks_the_end(tmp_path: Path) -> None:
    _lines(tmp_path / "big.log", 5000)
    text = _ok(tmp_path, "read_file", path="big.log", offset=201, limit=2)
    assert text.splitlines() == [
        "  201| line 201",
        "  202| line 202",
        "Showing lines 201-202 of 5,000 total. To continue, call read_file with offset=203.",
    ]
    tail = _ok(tmp_path, "read_file", path="big.log", offset=4999)
    assert tail.splitlines()[-1] == "Showing lines 4999-5000 of 5,000 total. (end of file)"


def test_read_file_offset_past_the_end_says_how_many_lines_there_are(tmp_path: Path) -> None:
    _lines(tmp_path / "a.txt", 12)
    result = _call(tmp_path, "read_file", path="a.txt", offset=50)
    assert result.is_error
    assert "offset=50 is past the end of a.txt, which has 12 lines" in result.content


def test_read_file_cuts_long_lines_with_a_marker(tmp_path: Path) -> None:
    (tmp_path / "min.js").write_text("x" * 2500 + "\nshort\n")
    first = _ok(tmp_path, "read_file", path="min.js").splitlines()[0]
    assert first.endswith("x … [line cut: 500 more characters]")


def test_read_file_caps_the_limit_and_says_so(tmp_path: Path) -> None:
    _lines(tmp_path / "a.txt", 2500)
    text = _ok(tmp_path, "read_file", path="a.txt", limit=5000)
    assert "Showing lines 1-2000 of 2,500 total." in text
    assert "limit=5000 was reduced to the maximum of 2,000 lines." in text
    _lines(tmp_path / "short.txt", 3)
    assert "reduced" not in _ok(tmp_path, "read_file", path="short.txt", limit=5000)


def test_read_file_stops_at_the_output_cap_and_says_where_to_continue(tmp_path: Path) -> None:
    _lines(tmp_path / "wide.txt", 100, "{}" + "w" * 1500)
    text = _ok(tmp_path, "read_file", path="wide.txt").splitlines()
    shown = len(text) - 2
    assert 20 <= shown < 100
    assert text[-2] == (
        f"Showing lines 1-{shown} of 100 total. "
        f"To continue, call read_file with offset={shown + 1}."
    )
    assert text[-1] == "Output stopped at 40,000 characters; use a smaller limit."


def test_read_file_on_an_empty_file_says_so(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("")
    assert _ok(tmp_path, "read_file", path="empty.txt") == "(empty file)"


def test_read_file_refuses_binary_files(tmp_path: Path) -> None:
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    result = _call(tmp_path, "read_file", path="image.png")
    assert result.is_error
    assert "image.png is a binary file" in result.content


def test_read_file_marks_invalid_utf8(tmp_path: Path) -> None:
    (tmp_path / "latin.txt").write_bytes("café\n".encode("latin-1"))
    text = _ok(tmp_path, "read_file", path="latin.txt")
    assert "caf\ufffd" in text
    assert "not valid UTF-8" in text


def test_read_file_reads_a_window_of_a_file_over_the_size_cap(tmp_path: Path) -> None:
    line = "y" * 99 + "\n"
    count = MAX_FILE_BYTES // len(line) + 10
    (tmp_path / "huge.log").write_text(line * count)
    head = _ok(tmp_path, "read_file", path="huge.log", limit=3)
    assert head.splitlines()[-1].startswith("Showing lines 1-3 of a ")
    assert "lines were not counted" in head
    assert "call read_file with offset=4" in head
    tail = _ok(tmp_path, "read_file", path="huge.log", offset=count)
    assert (
        tail.splitlines()[-1] == f"Showing lines {count}-{count} of {count:,} total. (end of file)"
    )


def test_read_file_on_a_directory_points_to_list_dir(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    result = _call(tmp_path, "read_file", path="src")
    assert result.is_error
    assert "src is a directory" in result.content
    assert "list_dir" in result.content


def test_read_file_on_a_missing_file_suggests_a_close_name(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("x\n")
    result = _call(tmp_path, "read_file", path="src/ap.py")
    assert result.is_error
    assert "no such file: 'src/ap.py'" in result.content
    assert "did you mean 'src/app.py'?" in result.content


# --- list_dir -------------------------------------------------------------------------------


def test_list_dir_sorts_entries_marks_directories_and_sizes_files(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "b.txt").write_text("12345")
    (tmp_path / "A.md").write_text("x" * 2048)
    assert _ok(tmp_path, "list_dir").splitlines() == [
        "./ — 3 entries (1 directory, 2 other)",
        "A.md  2.0 KB",
        "b.txt  5 B",
        "src/",
    ]


def test_list_dir_caps_the_listing_with_explicit_totals(tmp_path: Path) -> None:
    for i in range(1532):
        (tmp_path / f"f{i:04d}.txt").write_text("")
    first = _ok(tmp_path, "list_dir").splitlines()
    assert len(first) == 1 + 200 + 1
    assert first[-1] == (
        "Showing entries 1-200 of 1,532. To see more, call list_dir with path='.', page=2."
    )
    last = _ok(tmp_path, "list_dir", page=8).splitlines()
    assert last[1] == "f1400.txt  0 B"
    assert last[-1] == "Showing entries 1401-1532 of 1,532. (last page)"
    beyond = _call(tmp_path, "list_dir", page=9)
    assert beyond.is_error
    assert "use a page from 1 to 8" in beyond.content


def test_list_dir_of_an_empty_directory_says_so(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert _ok(tmp_path, "list_dir", path="empty") == "empty/ — (empty directory)"


def test_list_dir_on_a_file_points_to_read_file(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x")
    result = _call(tmp_path, "list_dir", path="a.txt")
    assert result.is_error
    assert "read_file" in result.content


# --- find_files -----------------------------------------------------------------------------


def _tree(root: Path) -> None:
    for rel, text in {
        "src/app.py": "def main(): pass\n",
        "src/pkg/models.py": "class Config: pass\n",
        "src/pkg/README.md": "main docs\n",
        "tests/test_app.py": "def test_main(): pass\n",
        ".git/hooks/pre.py": "def main(): pass\n",
        "node_modules/lib/index.py": "def main(): pass\n",
        "src/__pycache__/app.cpython-311.py": "def main(): pass\n",
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_find_files_matches_names_and_skips_noise_folders(tmp_path: Path) -> None:
    _tree(tmp_path)
    assert _ok(tmp_path, "find_files", pattern="*.py").splitlines() == [
        "3 names under '.' match '*.py':",
        "src/app.py",
        "src/pkg/models.py",
        "tests/test_app.py",
    ]


def test_find_files_never_searches_contents(tmp_path: Path) -> None:
    _tree(tmp_path)
    text = _ok(tmp_path, "find_files", pattern="main")
    assert text.startswith("No file or directory names under '.' match 'main'.")
    assert "Try pattern='*main*'" in text
    assert "use grep" in text


def test_find_files_is_case_insensitive_and_lists_directories(tmp_path: Path) -> None:
    _tree(tmp_path)
    assert "src/pkg/README.md" in _ok(tmp_path, "find_files", pattern="readme*")
    assert _ok(tmp_path, "find_files", pattern="pkg").splitlines()[1:] == ["src/pkg/"]


def test_find_files_accepts_path_patterns_below_a_folder(tmp_path: Path) -> None:
    _tree(tmp_path)
    assert _ok(tmp_path, "find_files", pattern="pkg/*.py", path="src").splitlines()[1:] == [
        "src/pkg/models.py"
    ]


def test_find_files_paginates_with_totals_and_the_next_call(tmp_path: Path) -> None:
    for i in range(150):
        (tmp_path / f"m{i:03d}.py").write_text("")
    first = _ok(tmp_path, "find_files", pattern="*.py").splitlines()
    assert first[0] == "150 names under '.' match '*.py':"
    assert len(first) == 1 + 100 + 1
    assert first[-1] == (
        "Showing 1-100 of 150 (page 1 of 2). "
        "Next: call find_files with pattern='*.py', path='.', page=2."
    )
    second = _ok(tmp_path, "find_files", pattern="*.py", page=2).splitlines()
    assert second[1] == "m100.py"
    assert second[-1] == "Showing 101-150 of 150 (page 2 of 2). (last page)"


# --- grep -----------------------------------------------------------------------------------


def _grep(root: Path, **arguments: Any) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(_ok(root, "grep", **arguments))
    return result


def test_grep_returns_structured_hits(tmp_path: Path) -> None:
    _tree(tmp_path)
    result = _grep(tmp_path, pattern=r"def (test_)?main")
    assert result == {
        "total_matches": 2,
        "files_with_matches": 2,
        "page": 1,
        "pages": 1,
        "next": None,
        "hits": [
            {"path": "src/app.py", "line": 1, "text": "def main(): pass"},
            {"path": "tests/test_app.py", "line": 1, "text": "def test_main(): pass"},
        ],
    }


def test_grep_filters_by_glob_and_ignores_case_on_request(tmp_path: Path) -> None:
    _tree(tmp_path)
    assert _grep(tmp_path, pattern="MAIN")["total_matches"] == 0
    assert _grep(tmp_path, pattern="MAIN", ignore_case=True)["total_matches"] == 3
    only_md = _grep(tmp_path, pattern="main", glob="*.md")
    assert [h["path"] for h in only_md["hits"]] == ["src/pkg/README.md"]


def test_grep_with_no_match_explains_what_it_searched(tmp_path: Path) -> None:
    _tree(tmp_path)
    result = _grep(tmp_path, pattern="nothing here")
    assert result["hits"] == []
    assert "ignore_case" in result["note"]


def test_grep_paginates_with_totals(tmp_path: Path) -> None:
    _lines(tmp_path / "a.log", 70, "error {}")
    _lines(tmp_path / "b.log", 50, "error {}")
    first = _grep(tmp_path, pattern="error")
    assert (first["total_matches"], first["files_with_matches"], first["pages"]) == (120, 2, 3)
    assert len(first["hits"]) == 50
    assert first["next"] == "call grep with the same arguments and page=2"
    second = _grep(tmp_path, pattern="error", page=2)
    assert second["hits"][0] == {"path": "a.log", "line": 51, "text": "error 51"}
    assert second["hits"][-1] == {"path": "b.log", "line": 30, "text": "error 30"}
    third = _grep(tmp_path, pattern="error", page=3)
    assert len(third["hits"]) == 20
    assert third["next"] is None
    beyond = _call(tmp_path, "grep", pattern="error", page=4)
    assert beyond.is_error
    assert "use a page from 1 to 3" in beyond.content


def test_grep_reports_an_invalid_regex_with_a_hint_to_escape(tmp_path: Path) -> None:
    result = _call(tmp_path, "grep", pattern="print(")
    assert result.is_error
    assert "invalid regular expression 'print('" in result.content
    assert "escape" in result.content


def test_grep_skips_binary_and_huge_files_and_counts_them(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("needle\n")
    (tmp_path / "blob.bin").write_bytes(b"needle\x00\x01")
    (tmp_path / "huge.log").write_text("needle\n" * (MAX_FILE_BYTES // 7 + 1))
    result = _grep(tmp_path, pattern="needle")
    assert result["total_matches"] == 1
    assert result["skipped_files"] == {"binary": 1, "over_5MB": 1, "outside": 0}


def test_grep_never_reads_through_a_symlink_that_leaves_the_workspace(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("password=hunter2\n")
    (root / "link.txt").symlink_to(tmp_path / "secret.txt")
    result = _grep(root, pattern="password")
    assert result["total_matches"] == 0
    assert result["skipped_files"]["outside"] == 1


def test_grep_cuts_long_lines_around_the_match(tmp_path: Path) -> None:
    (tmp_path / "min.js").write_text("a" * 1000 + "NEEDLE" + "b" * 1000 + "\n")
    text = _grep(tmp_path, pattern="NEEDLE")["hits"][0]["text"]
    assert "NEEDLE" in text
    assert text.startswith("…") and text.endswith("…")
    assert len(text) == 302


def test_grep_searches_a_single_file(tmp_path: Path) -> None:
    _tree(tmp_path)
    result = _grep(tmp_path, pattern="def", path="src/app.py")
    assert [h["path"] for h in result["hits"]] == ["src/app.py"]
