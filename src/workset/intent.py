"""What a task asks for, read from its words: a change, or only an answer.

The evidence shows the functions of a task that asks for a change whole (the change is made
to the whole of one), and the outcome rules call a run that was asked for a change and made
none unverified, whatever it answered.
"""

from __future__ import annotations

import re

# An imperative at the start of a sentence or after "and", "then", "please" ("Fix it.",
# "Find the bug and fix it", "Add a keyword parameter ...").
_ASKS_CHANGE = re.compile(
    r"(?:^|[.!?;:]\s+|\b(?:and|then|please)\s+)(?:fix|change|add|make|set|rename|remove|"
    r"delete|update|replace|implement|correct|refactor|bump)\b",
    re.IGNORECASE | re.MULTILINE,
)


def asks_for_change(task: str) -> bool:
    """Whether ``task`` asks for a change (an imperative such as "Fix it." or "Add a keyword
    parameter ..."), not only for an answer."""
    return _ASKS_CHANGE.search(task) is not None


# A defect reported without an imperative ("gives the IDs 1, 3, 4 instead of 1, 2, 3. The
# problem is in Table._get_next_id").
_REPORTS_DEFECT = re.compile(
    r"\b(?:bug|problem is|instead of|is wrong|are wrong|broken|does not work|doesn't work)\b",
    re.IGNORECASE,
)


def wants_change(task: str) -> bool:
    """Whether ``task`` asks for a change or reports a defect to be fixed (the functions it
    points at are shown, and chosen, whole)."""
    return asks_for_change(task) or _REPORTS_DEFECT.search(task) is not None
