"""Bad input and faults, each with a message that says what happened and what to do: a wrong
URL scheme, a server that is not there, PostgreSQL restarted in the middle of a run (the run
goes on, nothing recorded is lost), and a migration applied twice."""

from __future__ import annotations

import secrets
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from workset.errors import SessionLogError, UsageError
from workset.events import RunFinished
from workset.log.store import SessionLog
from workset.messages import AssistantMessage
from workset.session.agent import Agent
from workset.stores import open_log, open_store, parse_store_url
from workset.testing import ScriptedModel, call
from workset.testing.servers import PostgresServer, free_port, postgres_server, schema_url
from workset.tools.base import Tool
from workset.tools.registry import ToolRegistry


@pytest.mark.parametrize(
    "url",
    ["mysql://root@127.0.0.1/workset", "redis://127.0.0.1:6379/0", "http://example.com/db"],
)
def test_a_store_url_of_another_scheme_names_the_ones_that_work(url: str) -> None:
    with pytest.raises(UsageError, match="unknown store URL scheme") as error:
        open_log(url)
    assert "sqlite:///" in str(error.value) and "postgresql://" in str(error.value)


def test_store_urls_pick_the_backend_and_keep_passwords_out_of_messages(tmp_path: Path) -> None:
    assert parse_store_url(f"sqlite://{tmp_path}/a.db").path == tmp_path / "a.db"
    assert parse_store_url(str(tmp_path / "b.db")).backend == "sqlite"
    assert parse_store_url("postgres://u:pw@db.internal/ws").backend == "postgresql"
    assert parse_store_url("postgresql://u:hunter2@db.internal/ws").where == (
        "postgresql://u:***@db.internal/ws"
    )
    with pytest.raises(UsageError, match="names no host"):
        parse_store_url("postgresql:///ws")
    with pytest.raises(UsageError, match="names no file"):
        parse_store_url("sqlite://")


def test_an_unreachable_postgres_is_an_error_naming_the_url_without_its_password() -> None:
    url = f"postgresql://workset:hunter2@127.0.0.1:{free_port()}/workset"
    with pytest.raises(SessionLogError, match=r"cannot connect to PostgreSQL at .*\*\*\*@") as e:
        open_store(url)
    assert "hunter2" not in str(e.value) and "Is the server running" in str(e.value)


@pytest.fixture(scope="module")
def restartable() -> Iterator[PostgresServer]:
    """A server of this module's own, so restarting it disturbs no other test."""
    with postgres_server() as server:
        yield server


def test_a_postgres_restart_during_a_run_costs_a_pause_and_loses_nothing(
    restartable: PostgresServer, tmp_path: Path
) -> None:
    url = restartable.create_database(f"restart_{secrets.token_hex(3)}")
    restarted = threading.Event()

    async def slow_lookup(what: str) -> str:
        """Look something up. Use when asked.

        Args:
            what: What to look up.
        """
        await anyio.to_thread.run_sync(restartable.restart)  # the server goes down and back
        restarted.set()
        return f"{what}: found"

    tool = Tool.from_function(slow_lookup, read_only=True, examples=({"what": "x"},))
    model = ScriptedModel([AssistantMessage(None, (call("slow_lookup", '{"what": "a"}', "c1"),)),
                           "a was found."])  # fmt: skip
    with open_store(url) as stores:
        agent = Agent(model, ToolRegistry([tool]), stores.log)
        result = anyio.run(agent.run, "look up a")

        assert restarted.is_set() and result.status == "finished"
        kinds = [s.kind for s in stores.log.events(result.session_id)]
        assert kinds.count("tool_finished") == 1 and kinds[-1] == "run_finished"
        assert stores.log.messages(result.session_id)[-1].content == "a was found."


def test_an_append_while_postgres_is_down_waits_for_it_then_says_what_to_check(
    restartable: PostgresServer,
) -> None:
    from workset.stores.postgres.db import PostgresDatabase
    from workset.stores.postgres.log import PostgresSessionLog

    url = restartable.create_database(f"down_{secrets.token_hex(3)}")
    database = PostgresDatabase(url, reconnect_s=1.0)
    log = PostgresSessionLog(url, database=database)
    sid = log.create_session(title="t", workspace="", model="m")
    log.append(RunFinished("r", sid, "kept", 1, 1.0))
    restartable.stop()
    try:
        with pytest.raises(SessionLogError, match="did not answer again within 1 s"):
            log.append(RunFinished("r", sid, "lost?", 1, 2.0))
    finally:
        restartable.start()
    assert [s.event for s in log.events(sid)] == [RunFinished("r", sid, "kept", 1, 1.0)]
    database.close()


def test_postgres_migrations_run_once_when_many_workers_start_together(
    postgres_database: str,
) -> None:
    url = schema_url(postgres_database, f"m_{secrets.token_hex(4)}")
    errors: list[BaseException] = []

    def start() -> None:
        try:
            open_store(url).close()
        except BaseException as exc:  # collected, asserted below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT component, version FROM workset_schema ORDER BY 1").fetchall()
    assert rows == [("leases", 1), ("log", 2)]


def test_a_postgres_migration_applied_twice_is_explained_and_changes_nothing(
    postgres_database: str,
) -> None:
    url = schema_url(postgres_database, f"m_{secrets.token_hex(4)}")
    with open_store(url) as stores:
        sid = stores.log.create_session(title="kept", workspace="", model="m")
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:  # as if the version were lost
        conn.execute("UPDATE workset_schema SET version = 0 WHERE component = 'log'")

    with pytest.raises(SessionLogError, match=r"migration 1 of the log tables .* already applied"):
        open_store(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE workset_schema SET version = 2 WHERE component = 'log'")
    with open_store(url) as stores:
        assert stores.log.get_session(sid).title == "kept"


def test_a_sqlite_migration_applied_twice_is_explained(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    SessionLog(path).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 1")  # as if migration 2 had not been recorded

    with pytest.raises(SessionLogError, match=r"migration 2 of the session log .* already") as e:
        SessionLog(path)
    assert "user_version = 2" in str(e.value) and "Nothing was changed" in str(e.value)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 2")
    SessionLog(path).close()  # set back, the log opens again


def test_a_store_written_by_a_newer_workset_is_refused_with_how_to_upgrade(
    postgres_database: str,
) -> None:
    url = schema_url(postgres_database, f"m_{secrets.token_hex(4)}")
    open_store(url).close()
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE workset_schema SET version = 99 WHERE component = 'log'")
    with pytest.raises(
        SessionLogError,
        match=r"a newer workset wrote them. Upgrade workset \(pip install -U workset\)",
    ):
        open_store(url)


def test_session_notes_on_a_postgres_memory_store_say_where_they_can_live(
    postgres_url: str,
) -> None:
    from workset.memory import SessionNotes

    notes_need_a_file = "session notes are kept in a SQLite memory file"
    with open_store(postgres_url) as stores, pytest.raises(UsageError, match=notes_need_a_file):
        SessionNotes(stores.memory(), "s1")
