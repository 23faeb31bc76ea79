"""The repeat guard (workset.loop.repeats): what a call identical to an earlier one gets."""

from __future__ import annotations

from workset.loop.offer import DID_NOT_RUN
from workset.loop.repeats import RepeatGuard
from workset.messages import ToolCall, ToolMessage


def test_a_failed_call_made_again_is_not_run_but_a_call_refused_before_it_ran_is() -> None:
    guard = RepeatGuard()
    failed, refused = ToolCall("1", "grep", '{"pattern": "x"}'), ToolCall("2", "bump", "{}")
    assert guard.repeat(failed) is None and guard.repeat(refused) is None
    guard.note_results(
        [
            ToolMessage("1", "no match for 'x'", name="grep", is_error=True),
            ToolMessage(
                "2", f"`bump` was not loaded, so {DID_NOT_RUN}.", name="bump", is_error=True
            ),
        ],
        [],
    )
    again = guard.repeat(ToolCall("3", "grep", '{"pattern": "x"}'))
    assert again is not None and "failed or found nothing" in again.text
    assert guard.repeat(ToolCall("4", "bump", "{}")) is None  # it runs this time
    assert guard.repeat(ToolCall("5", "bump", "{}")) is not None  # and is then a repeat
