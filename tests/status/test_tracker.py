"""The tracker counts tool calls exactly from loop events and rebuilds the same from the log."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from status_support import PHONE_TOOLS

from workset.errors import UsageError
from workset.events import ToolFinished
from workset.log.store import SessionLog
from workset.loop.bus import EventBus
from workset.messages import AssistantMessage, ToolCall, ToolMessage
from workset.session.agent import Agent, AgentConfig
from workset.status.tracker import CallLimit, LimitState, StatusTracker
from workset.testing import ScriptedModel, call, current_store
from workset.tools.registry import ToolRegistry

TARGETS = {"phone_call": "company"}
LIMITS = (CallLimit("phone_call", 3, per="company"), CallLimit("web_search", 5))


def phone(company: str, n: int, note: str = "") -> ToolCall:
    arguments = f'{{"company": "{company}", "note": "{note}"}}'
    return call("phone_call", arguments, call_id=f"call_{company}_{n}")


def run_phone_session(tmp_path: Path, tracker: StatusTracker) -> str:
    """A real agent run: Xfinity 3×, one web search, Comcast once, one failing call."""
    calls = [
        phone("Xfinity", 1, "cancel the plan"),
        call("web_search", '{"query": "xfinity cancel fee"}', call_id="search_1"),
        phone("Xfinity", 2, "any update?"),
        phone("Comcast", 1, "ask"),
        phone("Nowhere", 1),
        phone("Xfinity", 3, "third try"),
    ]
    script: list[str | AssistantMessage] = [AssistantMessage(None, (c,)) for c in calls]
    script.append("Xfinity was called three times; the plan cancellation is in progress.")
    agent = Agent(
        ScriptedModel(script),
        ToolRegistry(PHONE_TOOLS),
        current_store(),
        AgentConfig(max_iterations=10),
        subscribers=[tracker],
    )
    result = anyio.run(agent.run, "Cancel my Xfinity plan")
    assert result.status == "finished", result.error
    agent.log.close()
    return result.session_id


def test_counts_per_tool_and_per_target_are_exact_after_a_real_run(tmp_path: Path) -> None:
    tracker = StatusTracker(targets=TARGETS, limits=LIMITS)
    run_phone_session(tmp_path, tracker)
    state = tracker.state()
    assert state.total_calls == 6
    assert state.total_errors == 1
    assert [t.tool for t in state.tools] == ["phone_call", "web_search"]
    assert state.count("phone_call") == 5
    assert state.count("phone_call", "Xfinity") == 3
    assert state.count("phone_call", "Comcast") == 1
    assert state.count("web_search") == 1
    assert state.count("send_email") == 0
    [phone_count, _] = state.tools
    assert phone_count.targets == (("Xfinity", 3), ("Comcast", 1), ("Nowhere", 1))
    assert phone_count.errors == 1


def test_a_per_target_limit_is_reached_only_for_that_target(tmp_path: Path) -> None:
    tracker = StatusTracker(targets=TARGETS, limits=LIMITS)
    run_phone_session(tmp_path, tracker)
    state = tracker.state()
    xfinity = state.limit("phone_call", "Xfinity")
    comcast = state.limit("phone_call", "Comcast")
    searches = state.limit("web_search")
    assert xfinity is not None and xfinity.reached and xfinity.remaining == 0
    assert comcast is not None and not comcast.reached and comcast.remaining == 2
    assert searches is not None and (searches.used, searches.remaining) == (1, 4)
    assert xfinity.describe() == "phone_call 3/3 for Xfinity — limit reached"
    assert comcast.describe() == "phone_call 1/3 for Comcast — 2 left"
    assert xfinity.advice().endswith("do not call phone_call for Xfinity again")


def test_failed_calls_are_kept_as_recent_errors_with_their_target(tmp_path: Path) -> None:
    tracker = StatusTracker(targets=TARGETS, limits=LIMITS)
    run_phone_session(tmp_path, tracker)
    [note] = tracker.state().errors
    assert (note.tool, note.target) == ("phone_call", "Nowhere")
    assert note.text == "no phone number on file for Nowhere"


def test_a_tracker_rebuilt_from_the_session_log_equals_the_live_one(tmp_path: Path) -> None:
    live = StatusTracker(targets=TARGETS, limits=LIMITS)
    session_id = run_phone_session(tmp_path, live)
    with current_store() as reopened:
        rebuilt = StatusTracker.from_log(reopened, session_id, targets=TARGETS, limits=LIMITS)
    assert rebuilt.state() == live.state()


def test_a_call_finished_twice_is_counted_once_like_the_log_records_it(
    log: SessionLog, sid: str
) -> None:
    tracker = StatusTracker(targets=TARGETS, session_id=sid)
    bus = EventBus(log.subscriber(), tracker)
    finished = ToolFinished(
        "run1",
        sid,
        phone("Xfinity", 1),
        ToolMessage("call_Xfinity_1", "ok", "phone_call"),
        0.1,
        5.0,
    )
    bus.emit(finished)
    bus.emit(finished)
    assert tracker.state().count("phone_call") == 1
    assert StatusTracker.from_log(log, sid, targets=TARGETS).state() == tracker.state()


def test_events_of_another_session_are_ignored_by_a_bound_tracker(
    log: SessionLog, sid: str
) -> None:
    tracker = StatusTracker(session_id=sid)
    result = ToolMessage("call_Xfinity_1", "ok", "phone_call")
    tracker(ToolFinished("run1", "other-session", phone("Xfinity", 1), result, 0.1, 5.0))
    assert tracker.state().total_calls == 0


def test_identical_calls_made_more_than_once_are_reported_as_repeats(
    log: SessionLog, sid: str
) -> None:
    tracker = StatusTracker()
    for n in (1, 2, 3):
        # same arguments, keys in another order: still the same call
        arguments = '{"path": "a.py", "limit": 5}' if n % 2 else '{"limit":5,"path":"a.py"}'
        result = ToolMessage(f"r{n}", "Error: no such file: 'a.py'", "read_file", is_error=True)
        tracker(ToolFinished("run1", sid, ToolCall(f"r{n}", "read_file", arguments), result, 0, n))
    [repeat] = tracker.state().repeats
    assert (repeat.tool, repeat.arguments, repeat.count) == (
        "read_file",
        '{"limit":5,"path":"a.py"}',
        3,
    )


def test_position_counts_the_next_call_itself_and_gives_the_tightest_limit(
    log: SessionLog, sid: str
) -> None:
    limits = (CallLimit("phone_call", 10), CallLimit("phone_call", 3, per="company"))
    tracker = StatusTracker(limits=limits)
    for n in (1, 2):
        result = ToolMessage(f"call_Xfinity_{n}", "ok", "phone_call")
        tracker(ToolFinished("run1", sid, phone("Xfinity", n), result, 0.1, float(n)))
    where = tracker.position(phone("Xfinity", 3))
    assert (where.nth, where.target, where.target_nth) == (3, "Xfinity", 3)
    assert where.limit == LimitState(limits[1], 3, "Xfinity")
    assert where.limit.reached
    other = tracker.position(phone("Comcast", 1))
    assert other.target_nth == 1
    assert other.limit is not None and other.limit.remaining == 2


def test_a_call_with_unparseable_arguments_counts_without_a_target(sid: str) -> None:
    tracker = StatusTracker(targets=TARGETS)
    result = ToolMessage("bad", "Error: not valid JSON", "phone_call", is_error=True)
    tracker(ToolFinished("run1", sid, ToolCall("bad", "phone_call", "{company:"), result, 0, 1))
    state = tracker.state()
    assert state.count("phone_call") == 1
    assert state.tools[0].targets == ()


def test_a_limit_of_zero_calls_is_refused_with_what_to_do_instead() -> None:
    with pytest.raises(UsageError, match="drop the limit"):
        CallLimit("phone_call", 0)


def test_a_call_past_its_limit_is_reported_as_exceeded_before_it_runs(sid: str) -> None:
    tracker = StatusTracker(limits=(CallLimit("phone_call", 3, per="company"),))
    for n in (1, 2, 3):
        result = ToolMessage(f"call_Xfinity_{n}", "ok", "phone_call")
        tracker(ToolFinished("run1", sid, phone("Xfinity", n), result, 0.1, float(n)))
    fourth = tracker.position(phone("Xfinity", 4)).limit
    assert fourth is not None and fourth.exceeded
    assert fourth.describe() == "phone_call 4/3 for Xfinity — limit exceeded"
    assert not tracker.state().limits[0].exceeded  # three calls made: reached, not exceeded
