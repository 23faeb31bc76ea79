"""Tests around an edit: run before it to find the fault, after it to check the change.

The 0.5B "fixed" bugs with edits that changed nothing or the wrong function, and said so; a
run that ran no test cannot tell. With a ``run_tests`` tool (:mod:`workset.tools.testing`)
offered in a guided run (:class:`~workset.loop.calls.CallInterpreter`), a task that asks for
a change first runs the tests (:meth:`Verifier.wants_run` → the next decision is held to that
call): the failures name the functions at fault, shown whole, and a guided edit may choose
them. After each successful edit the tests run again (:meth:`Verifier.judge`): when they pass
the next turn asks for the answer, saying so; when fewer fail than before, a rewritten
function is written once more with the failures in view (:data:`MAX_RETRIES`); when they fail
as before or worse, the edit is undone (``undo_edit``, :data:`MAX_UNDOS`) and another
function may be chosen. When nothing is left to try the answer is asked for with the failures
in view, so it cannot claim a fix the tests refute. With ``search_fix`` offered
(:mod:`workset.tools.fix_search`), the first failing run is followed by that search, once
(:meth:`Verifier.wants_search`); a change it finds is the next decision, as an ``edit_file``
call with its arguments (:meth:`Verifier.held_call`), and is then tested like any edit.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from workset.loop.steering import EDIT_TOOLS, NextTurn
from workset.messages import ToolCall, ToolMessage
from workset.tools.fix_search import TOOL as SEARCH_TOOL
from workset.tools.fix_search import found_edit

TEST_TOOL = "run_tests"
UNDO_TOOL = "undo_edit"
MAX_RETRIES = 1  # rewrites of a function again after the tests failed fewer, not none
MAX_UNDOS = 1  # edits undone because the tests failed as before, or more
MAX_HINT = 400  # characters of the task the held search_fix call carries (the model writes them)
_SUMMARY = re.compile(r"^exit code (-?\d+).*$", re.M)  # run_tests' first line
_FAILED_LINE = re.compile(r"^(?:FAILED|ERROR) .*$", re.M)
_FAILED_ID = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.M)
_MAX_FAILED = 5  # failing tests quoted in a notice
_DETAIL_LINES = 8  # lines of the first failure quoted
_HEADING = re.compile(r"^_{3,} .+ _{3,}$", re.M)

Verdict = Literal["passed", "fewer", "no_better"]


@dataclass(frozen=True, slots=True)
class SuiteRun:
    passed: bool
    summary: str  # the first line: "exit code 1 · 2 failed, 217 passed (python -m pytest ...)"
    failed: tuple[str, ...]  # "FAILED tests/test_x.py::test_y - assert 3 == 2" lines, a few
    failing: frozenset[str] = frozenset()  # the ids of every failing test
    detail: str = ""  # the first failure's own lines: where it failed and why

    @classmethod
    def read(cls, result: ToolMessage) -> SuiteRun:
        text = result.content
        summary = _SUMMARY.search(text)
        passed = not result.is_error and summary is not None and summary.group(1) == "0"
        first = summary.group(0) if summary else text.strip().split("\n", 1)[0]
        failed = tuple(_FAILED_LINE.findall(text))[:_MAX_FAILED]
        failing = frozenset(_FAILED_ID.findall(text))
        return cls(passed, first.strip(), failed, failing, _first_failure(text))

    def failures(self) -> str:
        lines = [self.summary, *self.failed]
        return "\n".join([*lines, self.detail] if self.detail else lines)


class Verifier:
    """When the tests of one run are due, and what their results mean for the next turn."""

    def __init__(self, tool_names: Sequence[str]) -> None:
        self.enabled = TEST_TOOL in tool_names and bool(EDIT_TOOLS & set(tool_names))
        self.can_undo = UNDO_TOOL in tool_names
        self.can_search = SEARCH_TOOL in tool_names
        self._searched = False  # search_fix ran in this run
        self.fix: dict[str, Any] | None = None  # the edit_file arguments search_fix found
        self.made: dict[str, Any] | None = None  # those arguments, once the edit made them
        self._ran = False  # a test run of this run has finished
        self._due = False  # an edit succeeded after the last test run
        self._edited = False  # an edit of this run succeeded
        self.undo_due = False  # the next decision undoes the last edit
        self.retries = 0
        self.undos = 0
        self.baseline: SuiteRun | None = None  # the run before the first edit
        self._since_edit: list[str] = []  # ids of the test runs after the last edit
        self.stale: set[str] = set()  # ids of test runs that showed an edit since undone
        self.last: SuiteRun | None = None

    def wants_run(self, *, asks_change: bool) -> bool:
        """Whether the next decision must be the test run: before the first edit of a task
        that asks for a change (once), and after every successful edit."""
        if not self.enabled or self.undo_due:
            return False
        return self._due or (asks_change and not self._ran and not self._edited)

    def held_call(
        self, names: Collection[str], *, asks_change: bool, task: str
    ) -> tuple[str, dict[str, str]] | None:
        """The one call (name, fixed arguments) the next decision is held to, if any, among
        the offered tool ``names``: the undo of an edit the tests did not take; the tests
        before a change (where the fault is) and after each edit (whether it holds); the
        search after the first failing run (its hint ranks the changes by the task's words);
        the change it found."""
        if self.undo_due and UNDO_TOOL in names:
            return UNDO_TOOL, {}
        if TEST_TOOL in names and self.wants_run(asks_change=asks_change):
            return TEST_TOOL, {}
        if SEARCH_TOOL in names and self.wants_search(asks_change=asks_change):
            return SEARCH_TOOL, {"hint": task[:MAX_HINT]}
        if self.fix is not None and not self._edited:
            return "edit_file", dict(self.fix)
        return None

    def wants_search(self, *, asks_change: bool) -> bool:
        """Whether the next decision must be ``search_fix``: once, when the tests before the
        first edit of a task that asks for a change failed."""
        before = self.baseline
        return (
            self.enabled
            and self.can_search
            and asks_change
            and not (self._searched or self._edited or self.undo_due)
            and before is not None
            and not before.passed
        )

    def wants_fix(self) -> bool:
        """Whether the next decision must make the change ``search_fix`` found."""
        return self.fix is not None and not self._edited

    def note(
        self, results: Sequence[ToolMessage], calls: Mapping[str, ToolCall]
    ) -> SuiteRun | None:
        """Take the last calls' ``results``; the test run among them, if any."""
        run = None
        for result in results:
            call = calls.get(result.tool_call_id)
            name = call.name if call is not None else result.name
            if name in EDIT_TOOLS and not result.is_error:
                self._due = self._edited = True
                self._since_edit = []
                self.made, self.fix = self.fix, None  # (the change search_fix found, if it was)
            elif name == SEARCH_TOOL:
                self._searched = True
                self.fix = None if result.is_error else found_edit(result.content)
            elif name == UNDO_TOOL:
                self.undo_due = False
                self._due = False  # the tests of before the edit stand
                self.stale.update(self._since_edit)
            elif name == TEST_TOOL:
                self._ran, self._due = True, False
                self._since_edit.append(result.tool_call_id)
                run = self.last = SuiteRun.read(result)
                if not self._edited and self.baseline is None:
                    self.baseline = run
        return run

    def failing_now(self) -> str:
        """What the last test run says failed, for the request that rewrites a function ("" when
        it passed or none ran)."""
        run = self.last
        return run.failures() if run is not None and not run.passed else ""

    def judge(self, run: SuiteRun) -> Verdict:
        """A test run after an edit: all pass; fewer fail than before the first edit (and
        none that passed then); or no better (the same fail, or others too)."""
        if run.passed:
            return "passed"
        before = self.baseline
        if before is None or not before.failing:
            return "fewer" if before is None else "no_better"
        return "fewer" if run.failing < before.failing else "no_better"

    def fix_found(self) -> NextTurn:
        """The turn after ``search_fix`` found a change: the change is made next."""
        assert self.fix is not None
        return NextTurn(
            (
                f"search_fix found a change to {self.fix['path']} that makes the failing tests "
                "pass. It is made next with edit_file, then the tests run again.",
            ),
            reason="search_fix found a change; the next call makes it with edit_file",
        )

    def edit_made(self) -> NextTurn:
        """The turn after a successful edit: the tests run next."""
        return NextTurn(
            ("Your edit was made. The tests run next, to check it.",),
            reason="an edit was made; the next call runs the tests",
        )

    def undo(self, run: SuiteRun) -> NextTurn:
        """The turn after tests no better than before the edit: the edit is undone next."""
        self.undo_due = True
        self.undos += 1
        return NextTurn(
            (f"Your edit did not fix the failing tests:\n{run.failures()}\nIt is undone next.",),
            reason="the tests fail as before the edit, or more; the next call undoes it",
        )

    def passed(self, run: SuiteRun) -> NextTurn:
        """The turn after tests that pass following an edit: the answer."""
        checked = self.baseline is not None and not self.baseline.passed
        unchecked = "" if checked else ", as they did before it: no test checks this change"
        made = self.made
        change = (
            f" The change: in {made['path']}, `{made['old'].strip()}` became "
            f"`{made['new'].strip()}`."
            if made is not None
            else ""
        )
        return NextTurn(
            (
                f"The tests pass after your edit ({run.summary}){unchecked}.{change} Reply now "
                "in one or two sentences saying what you changed in which file.",
            ),
            answer_only=True,
            reason="the tests pass after the edit; this turn asks for the answer",
        )

    def still_failing(self, run: SuiteRun, *, undone: bool = False) -> NextTurn:
        """The answer turn when the tests still fail and nothing is left to try."""
        if undone:
            text = (
                "The tests still fail, and your edits were undone:\n"
                f"{run.failures()}\nReply now in one or two sentences: which change you "
                "tried in which file, and that it did not fix the failing tests."
            )
        else:
            text = (
                "The tests still fail after your edit:\n"
                f"{run.failures()}\nReply now in one or two sentences: what you changed in "
                "which file, and that the tests still fail."
            )
        return NextTurn(
            (text,),
            answer_only=True,
            reason="the tests still fail after the edit; this turn asks for the answer",
        )


def one_call_schema(name: str, arguments: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The decision held to one call: ``name`` with these ``arguments`` exactly, or none
    (``run_tests``: all the tests; ``undo_edit``: the last edit)."""
    fixed = dict(arguments or {})
    held: dict[str, Any] = {
        "type": "object",
        "properties": {key: {"const": value} for key, value in fixed.items()},
        "additionalProperties": False,
    }
    if fixed:
        held["required"] = list(fixed)
    return {
        "type": "object",
        "properties": {"name": {"const": name}, "arguments": held},
        "required": ["name", "arguments"],
        "additionalProperties": False,
    }


def _first_failure(text: str) -> str:
    """The lines of the first failure pytest printed (``____ test_x ____`` up to the next
    heading), at most :data:`_DETAIL_LINES`, without the heading."""
    found = _HEADING.search(text)
    if found is None:
        return ""
    lines = []
    for line in text[found.end() :].lstrip("\n").split("\n"):
        if _HEADING.match(line) or line.startswith(("The code these", "=")) or not line:
            break
        lines.append(line)
    return "\n".join(lines[:_DETAIL_LINES])
