"""Every session-log backend keeps the same guarantees: records durable and in order, a call's
start and result at most once, an event received once and consumed once, blobs by content,
requests rebuilt exactly, sessions found by prefix. Each test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import threading

import pytest

from workset.context.manifest import BudgetNumbers, IncludedItem, Manifest, PrefixInfo
from workset.errors import EventConsumedError, SessionNotFoundError, UsageError
from workset.events import (
    EventReceived,
    InputAppended,
    LoopEvent,
    MessageRef,
    ModelCalled,
    RequestRef,
    RunFinished,
    RunStarted,
    TaskUpdated,
    ToolFinished,
    ToolStarted,
    new_event,
)
from workset.log.store import blob_hash, message_blob, tools_blob
from workset.messages import AssistantMessage, ToolCall, ToolMessage, ToolSpec, UserMessage
from workset.models.base import Usage
from workset.stores import SessionStore, Stores, open_store

CALL = ToolCall("call_a", "read_file", '{"path": "a.py"}')


def manifest(sid: str, n: int = 1, items: int = 3) -> Manifest:
    return Manifest(
        request_id=f"{sid}-c{n}",
        session_id=sid,
        through_seq=n,
        total_tokens=50 + n,
        count_method="exact",
        budget=BudgetNumbers(1000, 100, 10, 40, 850, 50),
        buckets={"instruction": 40, "trajectory": 10 + n},
        prefix=PrefixInfo(hash="h", tokens=40, reused_tokens=n, previous_total=n - 1),
        included=tuple(
            IncludedItem(f"msg-{i}", "trajectory", "log", 5, i, "trajectory", seq=i)
            for i in range(items)
        ),
    )


def called(sid: str, *calls: ToolCall, content: str | None = None, n: int = 1) -> ModelCalled:
    return ModelCalled(
        "run1", sid, n, manifest(sid, n), AssistantMessage(content, calls),
        Usage(50, 5, cached_prompt_tokens=40), at=2.0,
    )  # fmt: skip


def finished(sid: str, call: ToolCall = CALL, text: str = "ok") -> ToolFinished:
    return ToolFinished("run1", sid, call, ToolMessage(call.id, text, name=call.name), 0.1, 3.0)


@pytest.fixture
def log(stores: Stores) -> SessionStore:
    return stores.log


@pytest.fixture
def sid(log: SessionStore) -> str:
    return log.create_session(title="fix the bug", workspace="/repo", model="qwen")


def test_both_backends_satisfy_the_session_store_protocol(log: SessionStore) -> None:
    assert isinstance(log, SessionStore)


def test_records_come_back_equal_in_the_order_they_were_appended(
    log: SessionStore, sid: str
) -> None:
    events: list[LoopEvent] = [
        RunStarted("run1", sid, "", "qwen", 1.0, title="fix"),
        called(sid, CALL),
        ToolStarted("run1", sid, CALL, 2.5),
        finished(sid),
        called(sid, content="done", n=2),
        RunFinished("run1", sid, "done", 2, 4.0),
    ]
    seqs = [log.append(e) for e in events]

    stored = log.events(sid)
    assert [s.event for s in stored] == events
    assert [s.seq for s in stored] == seqs == sorted(seqs)
    assert [s.event for s in log.events(sid, after_seq=seqs[2])] == events[3:]
    assert [s.event for s in log.events(sid, kinds=["tool_finished"])] == [events[3]]
    assert log.last_seq(sid) == seqs[-1]
    assert log.record(seqs[1]).event == events[1]


def test_records_survive_closing_and_reopening_the_store(backend_url: str) -> None:
    with open_store(backend_url) as stores:
        sid = stores.log.create_session(title="t", workspace="", model="m")
        seq = stores.log.append(called(sid, content="hello"))
    with open_store(backend_url) as stores:
        assert stores.log.record(seq).event == called(sid, content="hello")
        assert stores.log.get_session(sid).n_events == 1


def test_a_tool_call_starts_and_finishes_at_most_once(log: SessionStore, sid: str) -> None:
    log.append(called(sid, CALL))
    started = log.append(ToolStarted("run1", sid, CALL, 2.5))
    first = log.append(finished(sid, text="first"))

    assert log.append(ToolStarted("run1", sid, CALL, 2.6)) == started
    assert log.append(finished(sid, text="second")) == first
    results = [s.event for s in log.events(sid, kinds=["tool_finished"])]
    assert len(results) == 1
    assert isinstance(results[0], ToolFinished) and results[0].result.content == "first"


def test_a_final_task_state_is_kept_once_per_task(log: SessionStore, sid: str) -> None:
    log.append(TaskUpdated(sid, "t1", "running", 1.0))
    done = log.append(TaskUpdated(sid, "t1", "completed", 2.0, detail="all good"))
    assert log.append(TaskUpdated(sid, "t1", "failed", 3.0)) == done
    states = [s.event.state for s in log.events(sid) if isinstance(s.event, TaskUpdated)]
    assert states == ["running", "completed"]


def test_an_event_is_received_once_and_consumed_once(log: SessionStore, sid: str) -> None:
    event = new_event("user.input", "hi", id="ev-1")
    other = new_event("user.input", "and this", id="ev-2")
    received = log.append(EventReceived(sid, event, 1.0, "queue"))
    assert log.append(EventReceived(sid, event, 1.5, "cancel")) == received
    log.append(EventReceived(sid, other, 1.6, "queue"))
    assert [e.id for _, e in log.pending_events(sid)] == ["ev-1", "ev-2"]

    log.append(InputAppended(sid, "r", "hi", 2.0, ("ev-1",)))
    before = log.last_seq(sid)
    with pytest.raises(EventConsumedError, match="already consumed"):
        log.append(InputAppended(sid, "r2", "both", 3.0, ("ev-2", "ev-1")))

    assert log.last_seq(sid) == before  # nothing of the refused append was kept
    assert log.consumed(sid) == frozenset({"ev-1"})
    assert [e.id for _, e in log.pending_events(sid)] == ["ev-2"]


def test_concurrent_writers_consume_an_event_exactly_once(backend_url: str) -> None:
    with open_store(backend_url) as stores:
        sid = stores.log.create_session(title="t", workspace="", model="m")
        for i in range(10):
            stores.log.append(EventReceived(sid, new_event("user.input", "x", id=f"ev{i}"), 1.0))
    wins: list[str] = []
    refusals: list[str] = []

    def worker(name: str) -> None:
        with open_store(backend_url) as mine:
            for i in range(10):
                try:
                    mine.log.append(InputAppended(sid, name, "x", 2.0, (f"ev{i}",)))
                    wins.append(f"ev{i}")
                except EventConsumedError:
                    refusals.append(f"ev{i}")

    threads = [threading.Thread(target=worker, args=(f"w{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(wins) == sorted(f"ev{i}" for i in range(10))
    assert len(refusals) == 30
    with open_store(backend_url) as stores:
        assert len(stores.log.consumed(sid)) == 10 and stores.log.pending_events(sid) == []


def test_concurrent_writers_record_one_result_per_call(backend_url: str) -> None:
    with open_store(backend_url) as stores:
        sid = stores.log.create_session(title="t", workspace="", model="m")
    seqs: list[int] = []

    def worker(text: str) -> None:
        with open_store(backend_url) as mine:
            seqs.append(mine.log.append(finished(sid, text=text)))

    threads = [threading.Thread(target=worker, args=(f"r{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(set(seqs)) == 1
    with open_store(backend_url) as stores:
        assert len(stores.log.events(sid, kinds=["tool_finished"])) == 1


def test_a_request_is_rebuilt_from_records_and_blobs(log: SessionStore, sid: str) -> None:
    task = log.append(InputAppended(sid, "r", "read a.py", 1.0))
    system_text = "You are terse.\u00e9"
    tools = (ToolSpec("read_file", "Read a file.", {"type": "object", "properties": {}}),)
    tools_hash, tools_text = tools_blob(tools)
    note_hash, note_text = message_blob(UserMessage("<agent_status>2 calls</agent_status>"))
    blobs = {blob_hash(system_text): system_text, tools_hash: tools_text, note_hash: note_text}
    ref = RequestRef(
        blob_hash(system_text), tools_hash, (MessageRef(seq=task), MessageRef(blob=note_hash)),
        max_tokens=64, temperature=0.0,
    )  # fmt: skip
    event = ModelCalled(
        "run1", sid, 1, manifest(sid), AssistantMessage("ok"), Usage(50, 5), 2.0, request=ref
    )
    seq = log.append(event, blobs=blobs)

    request = log.request(seq)
    assert [m.content for m in request.messages] == [
        system_text, "read a.py", "<agent_status>2 calls</agent_status>",
    ]  # fmt: skip
    assert request.tools == tools and request.max_tokens == 64
    log.put_blobs(blobs)  # storing known blobs again changes nothing
    assert log.blob(note_hash) == note_text


def test_the_trajectory_and_resume_state_fold_the_records(log: SessionStore, sid: str) -> None:
    log.append(RunStarted("run1", sid, "", "qwen", 1.0))
    log.append(InputAppended(sid, "run1", "read a.py", 1.0))
    log.append(called(sid, CALL))
    log.append(ToolStarted("run1", sid, CALL, 2.5))

    state = log.resume_state(sid)
    assert [c.id for c in state.started_unfinished] == ["call_a"]
    assert state.last_run_status == "interrupted"
    log.append(finished(sid))
    assert [m.role for m in log.messages(sid)] == ["user", "assistant", "tool"]
    assert [seq for seq, _ in log.manifests(sid)] == [log.events(sid)[2].seq]


def test_sessions_are_listed_newest_first_and_found_by_prefix(log: SessionStore) -> None:
    first = log.create_session(title="one", workspace="/w", model="m", config={"a": 1})
    second = log.create_session(title="two", workspace="/w", model="m")
    log.append(RunFinished("run", second, "done", 1, 9.0))

    listed = log.sessions(limit=None)
    assert {s.id for s in listed} == {first, second}
    info = log.get_session(second)
    assert (info.title, info.status, info.n_events) == ("two", "finished", 1)
    assert log.get_session(first).config == {"a": 1}
    assert log.resolve(first) == first
    try:
        assert log.resolve(first[:-1]) in (first, second)
    except UsageError as exc:  # ids made in the same instant can share that prefix
        assert "matches several sessions" in str(exc)
    with pytest.raises(UsageError, match="several sessions"):
        log.resolve("s")


def test_an_unknown_session_is_reported_with_where_the_store_is(log: SessionStore) -> None:
    with pytest.raises(SessionNotFoundError, match="workset sessions"):
        log.events("s-none")
    with pytest.raises(SessionNotFoundError):
        log.append(RunFinished("r", "s-none", "x", 1, 1.0))
    with pytest.raises(SessionNotFoundError):
        log.resolve("zzz")


def test_records_are_append_only(stores: Stores, sid: str) -> None:
    seq = stores.log.append(called(sid, content="kept"))
    if stores.url.backend == "sqlite":
        import sqlite3

        assert stores.url.path is not None
        with sqlite3.connect(stores.url.path) as db, pytest.raises(sqlite3.Error):
            db.execute("UPDATE events SET payload = '{}' WHERE seq = ?", (seq,))
    else:
        import psycopg

        with psycopg.connect(stores.url.dsn) as conn, pytest.raises(psycopg.Error):
            conn.execute("DELETE FROM events WHERE seq = %s", (seq,))
    assert stores.log.record(seq).event == called(sid, content="kept")
