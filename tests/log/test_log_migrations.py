"""The schema is created by append-only migrations and the events table refuses edits."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from workset.errors import SessionLogError
from workset.log.migrations import MIGRATIONS
from workset.log.store import SessionLog


def schema(path: Path) -> tuple[int, list[tuple[str, str]]]:
    with closing(sqlite3.connect(path)) as db:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        objects = db.execute("SELECT type, name FROM sqlite_master ORDER BY type, name").fetchall()
    return version, objects


def a_log_with_one_event(path: Path) -> str:
    with SessionLog(path) as log:
        sid = log.create_session(title="t", workspace="/w", model="m")
        log.append_record(sid, "summary", {"text": "x"})
    return sid


def test_an_empty_file_is_migrated_to_the_latest_schema(tmp_path: Path) -> None:
    path = tmp_path / "workset.db"
    path.touch()

    SessionLog(path).close()

    version, objects = schema(path)
    assert version == len(MIGRATIONS)
    assert {("table", "sessions"), ("table", "events")} <= set(objects)
    assert ("trigger", "events_no_update") in objects
    assert ("trigger", "events_no_delete") in objects


def test_reopening_a_migrated_log_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "workset.db"
    sid = a_log_with_one_event(path)
    before = schema(path)

    with SessionLog(path) as log:
        assert len(log.events(sid)) == 1

    assert schema(path) == before


def test_the_log_uses_wal_journal_mode(tmp_path: Path) -> None:
    path = tmp_path / "workset.db"
    a_log_with_one_event(path)

    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_events_cannot_be_updated_or_deleted(tmp_path: Path) -> None:
    path = tmp_path / "workset.db"
    a_log_with_one_event(path)
    db = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.DatabaseError, match="events are append-only"):
            db.execute("UPDATE events SET payload = '{}'")
        with pytest.raises(sqlite3.DatabaseError, match="events are append-only"):
            db.execute("DELETE FROM events")
        assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1
    finally:
        db.close()


def test_a_tool_result_is_unique_per_call_id_in_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "workset.db"
    sid = a_log_with_one_event(path)
    insert = (
        "INSERT INTO events (session_id, kind, at, call_id, payload) "
        "VALUES (?, 'tool_finished', 0, 'c1', '{}')"
    )
    db = sqlite3.connect(path)
    try:
        db.execute(insert, (sid,))
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
            db.execute(insert, (sid,))
    finally:
        db.close()


def test_a_log_from_a_newer_workset_asks_for_an_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "workset.db"
    a_log_with_one_event(path)
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
        db.commit()

    with pytest.raises(SessionLogError, match=r"written by a newer workset\. Upgrade"):
        SessionLog(path)


def test_a_file_that_is_not_a_database_is_named_with_a_way_out(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are my notes, not a database\n" * 100)

    with pytest.raises(SessionLogError) as raised:
        SessionLog(path)

    message = str(raised.value)
    assert str(path) in message
    assert "Move the file aside" in message
    assert "--db" in message
    assert path.read_text().startswith("these are my notes")


def test_a_directory_in_place_of_the_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SessionLogError, match=r"cannot open the session log .*--db"):
        SessionLog(tmp_path)
