"""The session log records loop events durably and rebuilds conversations from them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from workset.context.manifest import BudgetNumbers, Manifest, PrefixInfo
from workset.errors import SessionLogError, SessionNotFoundError, UsageError
from workset.events import (
    LoopEvent,
    ModelCalled,
    RunFailed,
    RunFinished,
    RunStarted,
    ToolFinished,
    ToolStarted,
)
from workset.log.store import SessionLog, default_db_path
from workset.messages import AssistantMessage, ToolCall, ToolMessage, UserMessage, group_units
from workset.models.base import Usage

CALL_A = ToolCall("call_a", "read_file", '{"path": "a.py"}')
CALL_B = ToolCall("call_b", "read_file", '{"path": "b.py"}')


@pytest.fixture
def log(tmp_path: Path) -> Iterator[SessionLog]:
    with SessionLog(tmp_path / "workset.db") as opened:
        yield opened


@pytest.fixture
def sid(log: SessionLog) -> str:
    return log.create_session(title="fix the bug", workspace="/repo", model="qwen")


def manifest(session_id: str, through_seq: int = 0) -> Manifest:
    return Manifest(
        request_id=f"req{through_seq}",
        session_id=session_id,
        through_seq=through_seq,
        total_tokens=50,
        count_method="exact",
        budget=BudgetNumbers(1000, 100, 10, 40, 850, 50),
        buckets={"instruction": 40, "trajectory": 10},
        prefix=PrefixInfo(hash="h", tokens=40, reused_tokens=0, previous_total=0),
    )


def started(sid: str, task: str = "fix the bug", *, resumed: bool = False) -> RunStarted:
    return RunStarted("run1", sid, task=task, model="qwen", at=1.0, resumed=resumed)


def model_called(sid: str, *calls: ToolCall, content: str | None = None) -> ModelCalled:
    return ModelCalled(
        run_id="run1",
        session_id=sid,
        iteration=1,
        manifest=manifest(sid),
        message=AssistantMessage(content=content, tool_calls=calls),
        usage=Usage(prompt_tokens=50, completion_tokens=5),
        at=2.0,
    )


def tool_started(sid: str, call: ToolCall) -> ToolStarted:
    return ToolStarted("run1", sid, call, at=3.0)


def tool_finished(sid: str, call: ToolCall, content: str = "ok") -> ToolFinished:
    result = ToolMessage(call.id, content, name=call.name)
    return ToolFinished("run1", sid, call, result, duration_s=0.1, at=4.0)


def finished(sid: str) -> RunFinished:
    return RunFinished("run1", sid, answer="done", iterations=2, at=5.0)


def append_all(log: SessionLog, events: list[LoopEvent]) -> list[int]:
    return [log.append(e) for e in events]


def test_appended_events_come_back_equal_and_in_order(log: SessionLog, sid: str) -> None:
    events: list[LoopEvent] = [
        started(sid),
        model_called(sid, CALL_A),
        tool_started(sid, CALL_A),
        tool_finished(sid, CALL_A),
        finished(sid),
        RunFailed("run2", sid, error="model down; start it", error_type="ModelError", at=6.0),
    ]

    seqs = append_all(log, events)

    stored = log.events(sid)
    assert [s.seq for s in stored] == seqs == sorted(seqs)
    assert [s.event for s in stored] == events
    assert [s.kind for s in stored] == [e.kind for e in events]
    assert all(s.record is None and s.session_id == sid for s in stored)


def test_events_survive_closing_and_reopening_the_file(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "workset.db"
    with SessionLog(path) as log:
        sid = log.create_session(title="t", workspace="/w", model="m")
        log.append(started(sid))

    with SessionLog(path) as log:
        assert [s.event for s in log.events(sid)] == [started(sid)]


def test_a_second_result_for_the_same_call_is_ignored(log: SessionLog, sid: str) -> None:
    log.append(model_called(sid, CALL_A))
    first = log.append(tool_finished(sid, CALL_A, "first"))

    again = log.append(tool_finished(sid, CALL_A, "second"))

    assert again == first
    results = log.events(sid, kinds=["tool_finished"])
    assert len(results) == 1
    assert isinstance(results[0].event, ToolFinished)
    assert results[0].event.result.content == "first"


def test_a_call_is_recorded_as_started_at_most_once(log: SessionLog, sid: str) -> None:
    first = log.append(tool_started(sid, CALL_A))

    assert log.append(tool_started(sid, CALL_A)) == first
    assert log.last_seq(sid) == first


def test_the_same_call_id_in_another_session_is_recorded(log: SessionLog, sid: str) -> None:
    other = log.create_session(title="other", workspace="/w", model="m")

    first = log.append(tool_finished(sid, CALL_A))
    second = log.append(tool_finished(other, CALL_A))

    assert second != first


def test_appending_to_an_unknown_session_says_how_to_find_one(log: SessionLog) -> None:
    with pytest.raises(SessionNotFoundError, match=r"no session 'nope' in .*workset sessions"):
        log.append(started("nope"))


def test_records_are_kept_as_json_objects(log: SessionLog, sid: str) -> None:
    seq = log.append_record(sid, "summary", {"text": "so far", "through_seq": 3}, at=9.0)
    log.append_record(sid, "external_event", {"source": "ci", "status": "red"})

    stored = log.events(sid, kinds=["summary"])

    assert [(s.seq, s.kind, s.at, s.event) for s in stored] == [(seq, "summary", 9.0, None)]
    assert stored[0].record == {"text": "so far", "through_seq": 3}
    assert len(log.events(sid)) == 2


def test_a_record_that_is_not_json_is_refused(log: SessionLog, sid: str) -> None:
    with pytest.raises(UsageError, match="JSON-serializable"):
        log.append_record(sid, "summary", {"when": object()})
    assert log.last_seq(sid) == 0


def test_a_record_of_an_unknown_kind_is_refused(log: SessionLog, sid: str) -> None:
    with pytest.raises(UsageError, match="record kind"):
        log.append_record(sid, "note", {})  # type: ignore[arg-type]


def test_events_can_be_read_after_a_sequence_number(log: SessionLog, sid: str) -> None:
    seqs = append_all(log, [started(sid), model_called(sid, content="hi"), finished(sid)])

    assert [s.seq for s in log.events(sid, after_seq=seqs[0])] == seqs[1:]
    assert [s.kind for s in log.events(sid, kinds=["run_finished"])] == ["run_finished"]
    assert log.events(sid, kinds=[]) == []


def test_filtering_by_an_unknown_kind_is_a_usage_error(log: SessionLog, sid: str) -> None:
    with pytest.raises(UsageError, match="unknown event kinds"):
        log.events(sid, kinds=["model_caled"])


def test_reading_an_unknown_session_raises_not_found(log: SessionLog) -> None:
    with pytest.raises(SessionNotFoundError):
        log.events("s0000")
    with pytest.raises(SessionNotFoundError):
        log.last_seq("s0000")


def test_the_subscriber_appends_what_the_bus_publishes(log: SessionLog, sid: str) -> None:
    publish = log.subscriber()

    publish(started(sid))

    assert [s.event for s in log.events(sid)] == [started(sid)]


def test_messages_rebuild_parallel_results_in_the_order_of_their_calls(
    log: SessionLog, sid: str
) -> None:
    append_all(
        log,
        [
            started(sid),
            model_called(sid, CALL_A, CALL_B),
            tool_started(sid, CALL_A),
            tool_started(sid, CALL_B),
            tool_finished(sid, CALL_B, "b"),
            tool_finished(sid, CALL_A, "a"),
            model_called(sid, content="both files read"),
            finished(sid),
            started(sid, task="", resumed=True),
        ],
    )

    messages = log.messages(sid)

    assert messages == [
        UserMessage("fix the bug"),
        AssistantMessage(tool_calls=(CALL_A, CALL_B)),
        ToolMessage("call_a", "a", name="read_file"),
        ToolMessage("call_b", "b", name="read_file"),
        AssistantMessage(content="both files read"),
    ]
    grouped, open_unit = group_units(messages)
    assert open_unit is None
    assert len(grouped) == 3


def test_a_finished_run_resumes_with_nothing_pending(log: SessionLog, sid: str) -> None:
    append_all(
        log,
        [
            started(sid),
            model_called(sid, CALL_A),
            tool_started(sid, CALL_A),
            tool_finished(sid, CALL_A),
            model_called(sid, content="done"),
            finished(sid),
        ],
    )

    state = log.resume_state(sid)

    assert state.last_run_status == "finished"
    assert state.open_unit is None
    assert state.started_unfinished == ()
    assert state.finished_call_ids == frozenset({"call_a"})
    assert state.messages == tuple(log.messages(sid))


def test_a_crash_during_a_tool_call_leaves_it_started_unfinished(log: SessionLog, sid: str) -> None:
    append_all(
        log,
        [
            started(sid),
            model_called(sid, CALL_A, CALL_B),
            tool_started(sid, CALL_A),
            tool_finished(sid, CALL_A),
            tool_started(sid, CALL_B),
        ],
    )

    state = log.resume_state(sid)

    assert state.last_run_status == "interrupted"
    assert state.started_unfinished == (CALL_B,)
    assert state.finished_call_ids == frozenset({"call_a"})
    assert state.open_unit is not None
    assert state.open_unit.pending == (CALL_B,)
    assert [r.tool_call_id for r in state.open_unit.results] == ["call_a"]


def test_a_crash_before_any_tool_started_leaves_all_calls_pending(
    log: SessionLog, sid: str
) -> None:
    append_all(log, [started(sid), model_called(sid, CALL_A, CALL_B)])

    state = log.resume_state(sid)

    assert state.last_run_status == "interrupted"
    assert state.started_unfinished == ()
    assert state.finished_call_ids == frozenset()
    assert state.open_unit is not None
    assert state.open_unit.pending == (CALL_A, CALL_B)


def test_a_failed_run_and_an_empty_session_have_their_status(log: SessionLog, sid: str) -> None:
    assert log.resume_state(sid).last_run_status == "none"

    log.append(started(sid))
    log.append(RunFailed("run1", sid, error="e", error_type="ModelError", at=3.0))

    assert log.resume_state(sid).last_run_status == "failed"


def test_a_log_that_is_not_a_conversation_cannot_be_resumed(log: SessionLog, sid: str) -> None:
    append_all(log, [started(sid), model_called(sid, CALL_A), started(sid, "another task")])

    with pytest.raises(SessionLogError, match="cannot be resumed"):
        log.resume_state(sid)


def test_manifests_come_with_the_seq_of_their_model_call(log: SessionLog, sid: str) -> None:
    log.append(started(sid))
    seq = log.append(model_called(sid, content="hi"))

    assert log.manifests(sid) == [(seq, manifest(sid))]


def test_last_seq_is_zero_before_any_event(log: SessionLog, sid: str) -> None:
    assert log.last_seq(sid) == 0
    seq = log.append(started(sid))
    assert log.last_seq(sid) == seq


def test_sessions_are_listed_newest_first_with_counts_and_status(log: SessionLog) -> None:
    first = log.create_session(title="one", workspace="/a", model="m1", config={"k": [1, 2]})
    second = log.create_session(title="two", workspace="/b", model="m2")
    log.append(started(first))
    log.append(finished(first))

    listed = log.sessions()

    assert {s.id for s in listed} == {first, second}
    assert [s.created_at for s in listed] == sorted((s.created_at for s in listed), reverse=True)
    one = log.get_session(first)
    assert (one.title, one.workspace, one.model, one.n_events) == ("one", "/a", "m1", 2)
    assert (one.status, one.last_event_at, one.config) == ("finished", 5.0, {"k": [1, 2]})
    two = log.get_session(second)
    assert (two.n_events, two.status, two.last_event_at, two.config) == (0, "none", None, None)
    assert len(log.sessions(limit=1)) == 1


def test_a_unique_prefix_finds_its_session(log: SessionLog) -> None:
    ids = [log.create_session(title=str(i), workspace="/w", model="m") for i in range(3)]
    target = ids[0]
    length = next(
        n for n in range(1, len(target) + 1) if all(not o.startswith(target[:n]) for o in ids[1:])
    )

    assert log.get_session(target[:length]).id == target
    assert log.resolve(target[:length]) == target


def test_an_ambiguous_prefix_lists_the_matches(log: SessionLog) -> None:
    ids = [log.create_session(title=str(i), workspace="/w", model="m") for i in range(2)]

    with pytest.raises(UsageError, match="matches several sessions") as raised:
        log.get_session("s")

    assert all(i in str(raised.value) for i in ids)


def test_an_unknown_id_says_where_it_looked_and_what_to_run(
    log: SessionLog, tmp_path: Path
) -> None:
    with pytest.raises(SessionNotFoundError) as raised:
        log.get_session("zzz")

    message = str(raised.value)
    assert "no session 'zzz'" in message
    assert str(tmp_path / "workset.db") in message
    assert "`workset sessions`" in message


def test_session_ids_are_short_unique_and_start_with_s(log: SessionLog) -> None:
    ids = [log.create_session(title="t", workspace="/w", model="m") for _ in range(50)]

    assert len(set(ids)) == 50
    assert all(i.startswith("s") and len(i) == 13 for i in ids)


def test_two_handles_on_one_file_append_distinct_seqs(tmp_path: Path) -> None:
    path = tmp_path / "workset.db"
    with SessionLog(path) as one, SessionLog(path) as two:
        sid = one.create_session(title="t", workspace="/w", model="m")
        seqs = [(one if i % 2 else two).append(started(sid, f"task {i}")) for i in range(10)]

        assert len(set(seqs)) == 10
        assert [s.seq for s in one.events(sid)] == seqs


def test_the_default_path_follows_workset_db(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("WORKSET_DB", str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"

    monkeypatch.delenv("WORKSET_DB")
    assert default_db_path() == Path.home() / ".local/share/workset/workset.db"


def test_any_python_text_is_stored_and_read_back(log: SessionLog, sid: str) -> None:
    odd = "naïve 🙂 \x00 nul and a lone \ud800 surrogate"
    event = started(sid, task=odd)

    log.append(event)

    assert [s.event for s in log.events(sid)] == [event]
