"""What an answer claims the run did, checked against what the run recorded.

An answer that says the tests pass needs a passing test run; one that says it changed files
needs a successful write; a change to a source file is checked only by a test run after it
that passed, and shown to fix something only when a run before it failed. Used by
:func:`workset.loop.outcome.classify`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal

from workset.loop.definitions import path_argument
from workset.messages import ToolCall, ToolMessage

# Tools that run commands (a test run among them) and tools that write files.
EXEC_TOOLS = frozenset({"shell", "run_python", "run_tests"})
WRITE_TOOLS = frozenset({"write_file", "edit_file"})
_TEST_CLAIM = re.compile(
    r"\b(?:tests?|pytest|test suite)\b[^.\n]{0,60}?\b(?:pass(?:es|ed|ing)?|succeed(?:s|ed)?|"
    r"green|ok)\b"
    r"|\bpass(?:es|ed)? (?:all |the )?(?:\w+ )?tests?\b",
    re.IGNORECASE,
)
_EDIT_CLAIM = re.compile(
    r"\b(?:I|I've|I have|we)\s+(?:\w+\s+)?(?:fixed|changed|updated|modified|edited|replaced|"
    r"corrected|renamed|added|removed|wrote)\b"
    r"|\b(?:has|have) been (?:fixed|changed|updated|modified|corrected)\b"
    r"|\bis now fixed\b",
    re.IGNORECASE,
)
# Source files whose change a test run can check.
_CODE_FILE = re.compile(
    r"\.(?:py|pyi|js|jsx|mjs|ts|tsx|go|rs|java|kt|c|cc|cpp|h|hpp|cs|rb|php|swift|scala)$"
)
_TEST_COMMAND = re.compile(r"pytest|unittest|\btests?\b|test_", re.IGNORECASE)
_EXIT = re.compile(r"exit code (-?\d+)")


def unbacked_claim(
    answer: str, results: Sequence[ToolMessage], calls: Mapping[str, ToolCall]
) -> str | None:
    """Why ``answer``'s claim about an action (tests passing, files edited) is not backed by
    the run's ``results``, or None when it makes none or they back it."""
    if _TEST_CLAIM.search(answer):
        runs = [
            r for r in results if r.name in EXEC_TOOLS and _ran_tests(r, calls.get(r.tool_call_id))
        ]
        if not runs:
            return "the answer says tests pass, but no test run was recorded"
        code = _exit_code(runs[-1])
        if runs[-1].is_error or code != 0:
            return f"the answer says tests pass, but the last test run ended with exit code {code}"
    if _EDIT_CLAIM.search(answer) and not any(
        r.name in WRITE_TOOLS and not r.is_error for r in results
    ):
        return "the answer says it changed files, but no write succeeded"
    return None


def change_tested(
    results: Sequence[ToolMessage], calls: Mapping[str, ToolCall]
) -> Literal["fixed", "passed"] | bool | None:
    """None when the run changed no source file; False when no test run after its last
    change passed (an answer may be true, "I changed line 51", but whether the change does
    what the task asks is not known: the 0.5B "fixed" increment by rewriting set's line, and
    said so); ``"fixed"`` when one passed and a test run before the first change had failed
    (the tests saw the defect and see it gone); ``"passed"`` when one passed but none failed
    before the change (tests that passed before it too do not check it)."""
    changes = [
        n
        for n, r in enumerate(results)
        if r.name in WRITE_TOOLS
        and not r.is_error
        and r.tool_call_id in calls
        and _CODE_FILE.search(path_argument(calls[r.tool_call_id].arguments))
    ]
    if not changes:
        return None
    runs = [
        (n, _exit_code(r) == 0 and not r.is_error)
        for n, r in enumerate(results)
        if r.name in EXEC_TOOLS and _ran_tests(r, calls.get(r.tool_call_id))
    ]
    if not any(ok for n, ok in runs if n > changes[-1]):
        return False
    return "fixed" if any(not ok for n, ok in runs if n < changes[0]) else "passed"


def _ran_tests(result: ToolMessage, call: ToolCall | None) -> bool:
    """A shell or Python run whose command or output names a test runner or tests."""
    command = call.arguments if call is not None else ""
    return bool(_TEST_COMMAND.search(command) or _TEST_COMMAND.search(result.content))


def _exit_code(result: ToolMessage) -> int | None:
    match = _EXIT.search(result.content)
    return int(match.group(1)) if match else None
