"""``search_fix``: small changes to the code failing tests point to, tried against those tests.

The tool runs :func:`workset.repair.search.search` (a scratch copy of the workspace; the
workspace itself is not written) and says what it found as the ``edit_file`` call that makes
the change, on its last line (:func:`found_edit` reads it back): the agent applies it with an
ordinary edit, which the tests then check and ``undo_edit`` can undo.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from workset.repair.search import BUDGET_S, Outcome, search
from workset.tools.base import Tool
from workset.tools.sandbox import Sandbox
from workset.tools.workspace import Workspace

TOOL = "search_fix"
_APPLY = "To make it: edit_file "
_APPLY_LINE = re.compile(r"^" + re.escape(_APPLY) + r"(\{.*\})$", re.M)
_FOUND = re.compile(r"^found: ", re.M)  # the result may be inside an untrusted-data wrapper
_MAX_FAILING = 5


def fix_search_tool(
    workspace: Workspace,
    base: str,
    *,
    select: Callable[[str], list[str]],
    sandbox: Sandbox | None = None,
    timeout_s: int = 600,
    budget_s: float = BUDGET_S,
) -> Tool:
    """``search_fix`` over ``workspace``, running the pytest command line ``base``; ``select``
    turns the ``tests`` argument into checked test files or ids."""
    ws = workspace

    def search_fix(hint: str = "", tests: str = "") -> str:
        """Find a one-place change (an operator, a name, a number, a literal) to the code the
        failing tests point to that makes them pass, by trying changes against the tests in
        a scratch copy. The workspace is not changed.

        Use when: tests fail and the fault may be small, before you rewrite a function.
        Do not use when: the task asks for new behaviour no test checks yet.
        Output: "found: …" with the change and the edit_file call that makes it, or
        "not found: …" with what was tried.

        Args:
            hint: What the task says is wrong, in its words (ranks the changes tried).
            tests: Test files or ids to run, separated by spaces; empty runs them all.
        """
        outcome = search(
            ws.root,
            base,
            tests=select(tests),
            task=hint,
            sandbox=sandbox,
            timeout_s=timeout_s,
            budget_s=budget_s,
        )
        return describe(outcome)

    tool = Tool.from_function(
        search_fix,
        risk="high",
        cost_hint="the test suite once, then the failing tests once per change tried",
        examples=({"hint": "count returns one more than the number of matches"},),
    )
    return replace(tool, timeout_s=timeout_s * 2 + budget_s + 30)  # its own limits end it first


def describe(outcome: Outcome) -> str:
    """The tool's result text for ``outcome``."""
    failing = ", ".join(outcome.failing[:_MAX_FAILING]) + (
        f" and {len(outcome.failing) - _MAX_FAILING} more"
        if len(outcome.failing) > _MAX_FAILING
        else ""
    )
    tried = f"tried {outcome.tried} of {outcome.candidates} changes in {outcome.seconds:.0f} s"
    found = outcome.found
    if found is None:
        out = [f"not found: {outcome.note}" + (f" ({tried})" if outcome.candidates else "")]
        if outcome.failing:
            out.append(f"Failing: {failing}")
        if outcome.where:
            out.append("Searched: " + "; ".join(outcome.where))
            out.append(
                "Read the code the failures point to, change it with edit_file, and check "
                "it with run_tests."
            )
        return "\n".join(out)
    arguments = {"path": found.path, "old": found.old, "new": found.new}
    return "\n".join(
        [
            f"found: a change that makes the failing tests pass ({tried})",
            f"{found.path} line {found.line}: {found.what}",
            *(f"- {line}" for line in found.old.split("\n")),
            *(f"+ {line}" for line in found.new.split("\n")),
            f"The tests with it: {outcome.after}. Before it failed: {failing}.",
            "The workspace is unchanged.",
            _APPLY + json.dumps(arguments, ensure_ascii=False),
        ]
    )


def found_edit(text: str) -> dict[str, Any] | None:
    """The ``edit_file`` arguments a ``search_fix`` result found (its text as the tool wrote
    it, or wrapped as untrusted data), or None."""
    found = _APPLY_LINE.findall(text)  # the tool's own last line (quoted code lines start "- ")
    if not found or not _FOUND.search(text):
        return None
    try:
        arguments = json.loads(found[-1])
    except json.JSONDecodeError:
        return None
    keys = {"path", "old", "new"}
    if not isinstance(arguments, dict) or set(arguments) != keys:
        return None
    return arguments if all(isinstance(arguments[k], str) for k in keys) else None
