"""search_fix with real pytest runs: a scratch copy, the failing tests as the judge, the whole
selection as the guard, the workspace untouched."""

from __future__ import annotations

import sys
from pathlib import Path

from workset.repair.search import search
from workset.tools.fix_search import found_edit
from workset.tools.sandbox import Finished, run_confined
from workset.tools.testing import PYTEST, tools_for_tests
from workset.tools.workspace import Workspace

BASE = PYTEST.replace("python", sys.executable, 1)


def project(tmp_path: Path, code: str, tests: str) -> Path:
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "calc.py").write_text(code)
    (ws / "tests" / "test_calc.py").write_text("from calc import *\n\n\n" + tests)
    (ws / "conftest.py").write_text("")
    return ws


def test_the_change_that_makes_the_failing_test_pass_is_found_and_the_workspace_is_untouched(
    tmp_path: Path,
) -> None:
    code = "def average(values):\n    return sum(values) / (len(values) + 1)\n"
    ws = project(tmp_path, code, "def test_average():\n    assert average([2, 4, 6]) == 4\n")
    [_, tool] = tools_for_tests(Workspace(ws), PYTEST)
    text = str(tool.handler(hint="average is wrong; fix calc.py"))
    assert text.startswith("found: a change that makes the failing tests pass")
    assert "tests/test_calc.py::test_average" in text and "1 passed" in text
    assert found_edit(text) == {
        "path": "calc.py",
        "old": "    return sum(values) / (len(values) + 1)",
        "new": "    return sum(values) / (len(values))",
    }
    assert (ws / "calc.py").read_text() == code
    assert not (ws / ".workset").exists()  # the scratch copy is gone


def test_a_change_that_breaks_a_passing_test_is_not_kept(tmp_path: Path) -> None:
    code = "def shift(x):\n    return x + 2\n"
    tests = (
        "def test_one():\n    assert shift(1) == 2\n\n\n"
        "def test_minus_two():\n    assert shift(-2) == 0\n"  # passes now; `2` → `1` breaks it
    )
    ws = project(tmp_path, code, tests)
    runs: list[list[str]] = []

    def spy(argv: list[str], cwd: Path, timeout_s: float) -> Finished:
        runs.append(argv)
        return run_confined(argv, cwd=cwd, timeout_s=timeout_s)

    outcome = search(ws, BASE, runner=spy)
    assert outcome.found is None
    assert outcome.failing == ("tests/test_calc.py::test_one",)
    aimed = [i for i, argv in enumerate(runs) if " -x " in argv[-1]]
    whole = [i for i, argv in enumerate(runs) if i and " -x " not in argv[-1]]
    assert whole and all(i - 1 in aimed for i in whole)  # `2` → `1` passed test_one, not all
    assert (ws / "calc.py").read_text() == code


def test_passing_tests_and_code_with_nothing_to_change_are_said_so(tmp_path: Path) -> None:
    ws = project(tmp_path, "def one():\n    return 1\n", "def test_one():\n    assert one() == 1\n")
    assert search(ws, BASE).note == "the tests pass: there is no failure to fix"
    (ws / "tests" / "test_calc.py").write_text(
        "from calc import one\n\n\ndef test_one():\n    assert one() == 'one'\n"
    )
    [_, tool] = tools_for_tests(Workspace(ws), PYTEST)
    text = str(tool.handler())
    assert text.startswith("not found: no change tried made the failing tests pass")
    assert "Failing: tests/test_calc.py::test_one" in text
    assert "Searched: calc.py: def one" in text


def test_found_edit_reads_only_a_found_result() -> None:
    assert (
        found_edit('not found: …\nTo make it: edit_file {"path": "a", "old": "b", "new": "c"}')
        is None
    )
    assert found_edit('found: x\nTo make it: edit_file {"path": "a", "old": "b"}') is None
    assert found_edit('found: x\nTo make it: edit_file {"path": "a", "old": "b", "new": "c"}') == {
        "path": "a",
        "old": "b",
        "new": "c",
    }
