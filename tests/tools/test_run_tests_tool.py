"""run_tests: the configured test command run for real in a workspace, its report read, and
the functions its failures point to shown whole (tests/loop/test_edit_verification.py runs it
through the agent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workset.errors import ToolError
from workset.tools.test_report import Definitions, implicated, read_report
from workset.tools.testing import PYTEST, detect_test_command, tools_for_tests
from workset.tools.workspace import Workspace

SHAPES = """\
class Box:
    def __init__(self, size):
        self.size = size

    def __le__(self, other):
        return self.size < other.size


def area(w, h):
    return w * h + 1


def scale(box, k):
    return Box(check(box.size) * k)


def check(size):
    if size < 0:
        raise ValueError("negative")
    return size + undefined_name
"""

TESTS = """\
from shapes import Box, area, scale


def test_area():
    assert area(2, 3) == 6


def test_le():
    assert Box(2) <= Box(2)


def test_scale():
    assert scale(Box(2), 3).size == 6
"""


def project(tmp_path: Path) -> Path:
    ws = tmp_path / "proj"
    (ws / "tests").mkdir(parents=True)
    (ws / "shapes.py").write_text(SHAPES)
    (ws / "tests" / "test_shapes.py").write_text(TESTS)
    (ws / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n')
    return ws


def run(ws: Path, **arguments: str) -> str:
    [tool, _] = tools_for_tests(Workspace(ws), PYTEST)
    return str(tool.handler(**arguments))


def test_a_pytest_project_is_found_and_a_folder_without_tests_is_not(tmp_path: Path) -> None:
    ws = project(tmp_path)
    assert detect_test_command(ws) == PYTEST
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "main.py").write_text("print(1)\n")
    assert detect_test_command(plain) is None
    (plain / "main_test.py").write_text("def test_x():\n    pass\n")
    assert detect_test_command(plain) == PYTEST


def test_failures_are_listed_and_the_functions_they_point_to_shown_whole(tmp_path: Path) -> None:
    out = run(project(tmp_path))
    first = out.split("\n", 1)[0]
    assert first.startswith("exit code 1 · 3 failed")
    for test in ("test_area", "test_le", "test_scale"):
        assert f"FAILED tests/test_shapes.py::{test}" in out
    # the frames of scale and check (NameError), outermost first; the name of test_area
    blocks = [line for line in out.split("\n") if line.startswith("--- ")]
    assert blocks == [
        "--- shapes.py, lines 13-14 (def scale)",
        "--- shapes.py, lines 17-20 (def check)",
        "--- shapes.py, lines 9-10 (def area)",
    ]
    assert "  10|     return w * h + 1" in out
    # the <= of a failing assert points to __le__
    alone = run(project(tmp_path / "again"), tests="tests/test_shapes.py::test_le")
    assert "--- shapes.py, lines 5-6 (class Box > def __le__)" in alone


def test_a_passing_run_says_so_and_one_test_file_can_be_chosen(tmp_path: Path) -> None:
    ws = project(tmp_path)
    (ws / "shapes.py").write_text(
        SHAPES.replace("w * h + 1", "w * h")
        .replace("self.size < other", "self.size <= other")
        .replace(" + undefined_name", "")
    )
    out = run(ws, tests="tests/test_shapes.py::test_area")
    assert out.startswith("exit code 0 · 1 passed")
    assert "tests/test_shapes.py::test_area" in out.split("\n", 1)[0]
    assert "FAILED" not in out and "point to" not in out


def test_tests_outside_the_workspace_or_not_tests_are_refused(tmp_path: Path) -> None:
    ws = project(tmp_path)
    with pytest.raises(ToolError, match="not a test file"):
        run(ws, tests="shapes.py")
    with pytest.raises(ToolError, match="no such test file"):
        run(ws, tests="tests/test_missing.py")
    with pytest.raises(ToolError):
        run(ws, tests="../elsewhere/test_x.py")


def test_a_bad_test_command_or_timeout_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="empty"):
        tools_for_tests(Workspace(tmp_path), "  ")
    with pytest.raises(ToolError, match="out of range"):
        tools_for_tests(Workspace(tmp_path), PYTEST, timeout_s=0)


def test_a_name_defined_in_several_modules_counts_only_in_the_one_the_test_is_named_after(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "p"
    (ws / "tests").mkdir(parents=True)
    for name in ("operations", "storage"):
        (ws / f"{name}.py").write_text("def set(d, k):\n    d[k] = None\n")
    output = (
        "FAILED tests/test_operations.py::test_set[memory] - TypeError: 'NoneType'\n"
        "1 failed, 3 passed in 0.1s\n"
    )
    report = read_report(output)
    assert report.summary == "1 failed, 3 passed"
    [found] = implicated(report, Definitions.scan(ws))
    assert (found.path, found.name) == ("operations.py", "set")
    assert (
        implicated(read_report("FAILED tests/test_misc.py::test_set\n"), Definitions.scan(ws)) == []
    )


def test_the_tool_is_described_with_its_arguments(tmp_path: Path) -> None:
    [tool, _] = tools_for_tests(Workspace(tmp_path), PYTEST)
    assert tool.name == "run_tests" and tool.risk == "high" and not tool.read_only
    assert list(tool.spec.parameters["properties"]) == ["tests"]
    assert not tool.spec.parameters.get("required")
    assert tool.timeout_s is not None and tool.timeout_s > 600  # the run's own limit first
