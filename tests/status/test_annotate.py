"""Tool results carry a timestamped ordinal, limits and detailed advice for errors."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import anyio
import pytest
from status_support import PHONE_TOOLS

from workset.events import ToolFinished
from workset.messages import ToolCall, ToolMessage
from workset.status.annotate import annotate_result, annotate_with, error_type, trace_summary
from workset.status.text import ordinal
from workset.status.tracker import CallLimit, StatusTracker
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace

NOW = datetime(2025, 9, 14, 10, 30, 45, tzinfo=UTC).timestamp()


def execute(registry: ToolRegistry, call: ToolCall) -> ToolMessage:
    async def go() -> ToolMessage:
        return await registry.execute(call)

    return anyio.run(go)


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (10, "10th"), (11, "11th"),
        (12, "12th"), (13, "13th"), (20, "20th"), (21, "21st"), (22, "22nd"), (23, "23rd"),
        (101, "101st"), (111, "111th"), (112, "112th"), (113, "113th"), (1002, "1002nd"),
    ],
)  # fmt: skip
def test_ordinals_follow_english_rules_including_the_teens(n: int, expected: str) -> None:
    assert ordinal(n) == expected


def test_a_successful_result_gets_a_timestamped_ordinal_line_in_front() -> None:
    result = ToolMessage("c3", "   1| [server]", "read_file")
    annotated = annotate_result(result, 3, NOW)
    assert annotated.content == "[2025-09-14 10:30:45] 3rd call to read_file\n   1| [server]"
    assert (annotated.tool_call_id, annotated.name, annotated.is_error) == (
        "c3",
        "read_file",
        False,
    )


def test_annotating_an_annotated_result_again_changes_nothing() -> None:
    once = annotate_result(ToolMessage("c1", "ok", "read_file"), 1, NOW)
    assert annotate_result(once, 2, NOW + 5) == once


def test_a_missing_file_gets_type_params_and_path_fixes_beside_the_registry_hint(
    tmp_path: Path,
) -> None:
    registry = ToolRegistry(perception_tools(Workspace(tmp_path)))
    call = ToolCall("c2", "read_file", '{"path": "src/ap.py"}')
    failed = execute(registry, call)
    annotated = annotate_result(failed, 2, NOW, call=call)
    lines = annotated.content.splitlines()
    assert lines[0] == "[2025-09-14 10:30:45] 2nd call to read_file"
    assert failed.content in annotated.content  # the registry's error and hint are kept whole
    details = annotated.content.split("Error details:\n", 1)[1]
    assert details.splitlines()[:3] == [
        "- type: FileNotFoundError",
        '- params: {"path": "src/ap.py"}',
        "- fix suggestions:",
    ]
    assert "check the working directory" in details
    assert "- trace:" not in details  # no exception object, no invented trace


def test_a_crash_with_its_exception_shows_a_short_trace_naming_the_failing_function() -> None:
    def parse_amount(text: str) -> int:
        return int(text)

    try:
        parse_amount("twelve")
    except ValueError as exc:
        caught = exc
    message = ToolMessage("c1", "Error: tool `refund` failed with ValueError: bad", "refund", True)
    annotated = annotate_result(message, 1, NOW, exc=caught)
    assert "- type: ValueError" in annotated.content
    assert f"- trace: {trace_summary(caught)}" in annotated.content
    assert trace_summary(caught).endswith("in parse_amount")


@pytest.mark.parametrize(
    ("arguments", "kind"),
    [
        ('{"company": ', "InvalidJSON"),
        ('{"company": 3}', "InvalidArguments"),
        ('{"company": "Nowhere"}', "ToolError"),
    ],
)
def test_the_error_type_is_read_from_what_the_registry_answered(arguments: str, kind: str) -> None:
    answer = execute(ToolRegistry(PHONE_TOOLS), ToolCall("c1", "phone_call", arguments))
    assert answer.is_error
    assert error_type(answer) == kind


def test_an_unknown_tool_is_typed_and_advised_to_use_a_listed_name() -> None:
    answer = execute(ToolRegistry(PHONE_TOOLS), ToolCall("c1", "phone_cal", "{}"))
    annotated = annotate_result(answer, 1, NOW)
    assert "- type: UnknownTool" in annotated.content
    assert "call only tools from the list you were given" in annotated.content


def test_the_third_failing_call_is_told_to_stop_retrying_the_same_way() -> None:
    failed = ToolMessage("c3", "Error: no such file: 'a.py'", "read_file", is_error=True)
    second = annotate_result(failed, 2, NOW)
    third = annotate_result(failed, 3, NOW)
    assert "stop retrying" not in second.content
    assert "this is the 3rd call to read_file: stop retrying it the same way" in third.content


def test_annotate_with_a_tracker_counts_this_call_per_target_and_shows_the_limit() -> None:
    tracker = StatusTracker(limits=(CallLimit("phone_call", 3, per="company"),))
    for n in (1, 2):
        call = ToolCall(f"x{n}", "phone_call", f'{{"company": "Xfinity", "note": "{n}"}}')
        tracker(ToolFinished("run1", "s", call, ToolMessage(call.id, "ok", "phone_call"), 0, n))
    third = ToolCall("x3", "phone_call", '{"company": "Xfinity", "note": "3"}')
    annotated = annotate_with(
        tracker, third, ToolMessage("x3", "Call log: on hold", "phone_call"), NOW
    )
    assert annotated.content.splitlines() == [
        "[2025-09-14 10:30:45] 3rd call to phone_call; 3rd for Xfinity",
        "Limit: phone_call 3/3 for Xfinity — limit reached; do not call phone_call for Xfinity"
        " again",
        "Call log: on hold",
    ]
