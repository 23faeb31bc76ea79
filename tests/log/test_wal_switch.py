"""Opening a new SQLite file while another connection holds it: the switch to write-ahead
logging waits for the holder (several workers starting on one file), within its time limit."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from workset.schema import use_wal


def _held(path: Path) -> sqlite3.Connection:
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("CREATE TABLE t (x)")
    return holder


def test_the_switch_waits_for_a_connection_holding_the_file(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    holder = _held(path)
    opener = sqlite3.connect(path, timeout=0, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        opener.execute("PRAGMA journal_mode = WAL")  # what SQLite alone does: fails at once

    release = threading.Timer(0.2, lambda: holder.execute("COMMIT"))
    release.start()
    use_wal(opener, timeout_s=30.0)
    release.join()
    assert opener.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert opener.execute("SELECT count(*) FROM t").fetchone()[0] == 0  # the holder's table


def test_a_holder_that_never_lets_go_gets_the_lock_error_after_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    holder = _held(path)
    opener = sqlite3.connect(path, timeout=0, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        use_wal(opener, timeout_s=0.05)
    holder.execute("ROLLBACK")


def test_other_errors_are_not_retried(tmp_path: Path) -> None:
    opener = sqlite3.connect(tmp_path / "new.db", isolation_level=None)
    opener.close()
    with pytest.raises(sqlite3.ProgrammingError):
        use_wal(opener, timeout_s=30.0)
