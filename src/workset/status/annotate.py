"""Tool-result annotations: a timestamped ordinal line, limits, and detailed error advice.

``[2025-09-14 10:30:45] 3rd call to read_file`` in front of a result lets the model see time
and repetition without counting; for a failed call, an ``Error details`` section adds the
error type, the exact parameters, a short trace summary when the exception is known, and fix
suggestions for that kind of error. The registry's own error text and ``Hint:`` are kept as
they are: the details extend them. Annotate before the result is recorded, so the prefix is
written once and the cached prompt prefix never changes under it.
"""

from __future__ import annotations

import re
import traceback
from dataclasses import replace
from datetime import UTC, tzinfo

from workset.messages import ToolCall, ToolMessage
from workset.status.text import format_time, ordinal, shorten
from workset.status.tracker import LimitState, StatusTracker

ANNOTATED = re.compile(r"^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\] ")
MAX_TRACE_FRAMES = 3
_PARAMS_CHARS = 300
_STEP_BACK_AFTER = 3

_CRASH = re.compile(r"failed with (\w+):")
_KINDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"unknown tool"), "UnknownTool"),
    (re.compile(r"not valid JSON"), "InvalidJSON"),
    (re.compile(r"invalid arguments|must be a JSON object"), "InvalidArguments"),
    (re.compile(r"timed out"), "Timeout"),
    (re.compile(r"is a directory, not a file"), "IsADirectoryError"),
    (re.compile(r"is a file, not a directory"), "NotADirectoryError"),
    (re.compile(r"no such (file|directory|path)"), "FileNotFoundError"),
    (re.compile(r"permission denied", re.IGNORECASE), "PermissionError"),
)
_PATH_FIXES = (
    "check the spelling of the path, letter by letter",
    "check the working directory: relative paths start from the workspace root",
    "list the parent directory or search for the file name before trying again",
)
_FIXES: dict[str, tuple[str, ...]] = {
    "FileNotFoundError": _PATH_FIXES,
    "NotFound": _PATH_FIXES,
    "IsADirectoryError": ("list the directory to find the file you meant, then read that",),
    "NotADirectoryError": ("give the folder that contains the file, or '.' for the root",),
    "PermissionError": (
        "the agent may not access this path: choose another one",
        "if the access is really needed, ask the user instead of retrying",
    ),
    "Timeout": (
        "narrow the request: a smaller range, a more specific pattern, fewer files",
        "do not repeat the same call unchanged: it will time out again",
    ),
    "TimeoutError": ("narrow the request and retry once; then try another approach",),
    "InvalidJSON": (
        "send exactly one JSON object: double-quoted keys, no trailing commas, no comments",
        'escape quotes and newlines inside strings (\\" and \\n)',
    ),
    "InvalidArguments": (
        "compare each argument's name and type with the tool's parameters",
        "write numbers and booleans without quotes; include every required argument",
    ),
    "UnknownTool": (
        "call only tools from the list you were given; use the suggested name",
        "if no listed tool fits, do the step another way or ask the user",
    ),
    "ConnectionError": (
        "a network or service problem, not your arguments: retry once",
        "if it fails again, continue without this tool or tell the user it is unreachable",
    ),
    "KeyError": ("the tool did not find a key it needed: check names and ids in the arguments",),
    "ValueError": ("an argument has the right type but a value the tool rejects: check it",),
    "TypeError": ("the tool crashed on these arguments: try different ones or another tool",),
}
_DEFAULT_FIXES = (
    "read the error and hint above and change the arguments or the approach before retrying",
)


def annotate_result(
    message: ToolMessage,
    nth: int,
    now: float,
    *,
    call: ToolCall | None = None,
    target: str | None = None,
    target_nth: int | None = None,
    limit: LimitState | None = None,
    exc: BaseException | None = None,
    tz: tzinfo = UTC,
) -> ToolMessage:
    """``message`` with a ``[time] nth call to tool`` line in front and, for an error,
    an ``Error details`` section after it (parameters from ``call``, trace from ``exc``).

    A result that already starts with a timestamp is returned unchanged, so annotating twice
    (a replay, a resume) does not stack prefixes.
    """
    if ANNOTATED.match(message.content):
        return message
    tool = message.name or (call.name if call else "the tool")
    header = f"[{format_time(now, tz)}] {ordinal(nth)} call to {tool}"
    if target is not None and target_nth is not None:
        header += f"; {ordinal(target_nth)} for {shorten(target)}"
    lines = [header]
    if limit is not None:
        lines.append(f"Limit: {limit.advice()}")
    lines.append(message.content)
    if message.is_error:
        lines.append(_details(message, tool, nth, call, exc))
    return replace(message, content="\n".join(lines))


def annotate_with(
    tracker: StatusTracker,
    call: ToolCall,
    message: ToolMessage,
    now: float,
    *,
    exc: BaseException | None = None,
    tz: tzinfo = UTC,
) -> ToolMessage:
    """:func:`annotate_result` with the ordinals and limit ``tracker`` gives for ``call``.

    Call it before the ``ToolFinished`` of ``call`` is emitted (the tracker then has not
    counted it yet, so this call is the ``nth``).
    """
    where = tracker.position(call)
    return annotate_result(
        message,
        where.nth,
        now,
        call=call,
        target=where.target,
        target_nth=where.target_nth,
        limit=where.limit,
        exc=exc,
        tz=tz,
    )


def error_type(message: ToolMessage, exc: BaseException | None = None) -> str:
    """The exception class name when known, else the kind read from the error text."""
    if exc is not None:
        return type(exc).__name__
    crashed = _CRASH.search(message.content)
    if crashed:
        return crashed.group(1)
    for pattern, kind in _KINDS:
        if pattern.search(message.content):
            return kind
    return "ToolError"


def fix_suggestions(kind: str, tool: str, nth: int) -> tuple[str, ...]:
    """Concrete next steps for an error of ``kind`` on the ``nth`` call of ``tool``."""
    fixes = _FIXES.get(kind, _DEFAULT_FIXES)
    if nth >= _STEP_BACK_AFTER:
        fixes = (
            *fixes,
            f"this is the {ordinal(nth)} call to {tool}: stop retrying it the same way; "
            "check what exists first, or cancel this step in the TODO list and try another",
        )
    return fixes


def trace_summary(exc: BaseException) -> str:
    """The innermost frames of ``exc``'s traceback as ``file.py:12 in f → …``, outer first."""
    frames = traceback.extract_tb(exc.__traceback__)[-MAX_TRACE_FRAMES:]
    if not frames:
        return "(no traceback)"
    return " → ".join(
        f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno} in {frame.name}" for frame in frames
    )


def _details(
    message: ToolMessage, tool: str, nth: int, call: ToolCall | None, exc: BaseException | None
) -> str:
    kind = error_type(message, exc)
    lines = ["Error details:", f"- type: {kind}"]
    if call is not None:
        lines.append(f"- params: {shorten(call.arguments or '{}', _PARAMS_CHARS)}")
    if exc is not None:
        lines.append(f"- trace: {trace_summary(exc)}")
    lines.append("- fix suggestions:")
    lines += [f"  {i}. {fix}" for i, fix in enumerate(fix_suggestions(kind, tool, nth), start=1)]
    return "\n".join(lines)
