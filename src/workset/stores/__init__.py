"""Where sessions, memory and leases are stored, picked by one URL.

The embedded default is SQLite: one file holds the session log (with manifests and request
blobs), and may hold the memory tables and the worker leases too. When one machine is not
enough, ``postgresql://…`` puts the same records in PostgreSQL, shared by many worker
processes, with the same guarantees (see :mod:`workset.stores.protocols`). The library, the
CLI's ``--db`` and ``$WORKSET_DB``, ``workset worker`` and ``workset serve`` all open stores
through :func:`open_store`.

``pip install 'workset[postgres]'`` brings psycopg 3 and its pool.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from workset.closing import Closing
from workset.stores.protocols import Inbox, LeaseStore, MemoryBackend, SessionStore
from workset.stores.url import StoreURL, parse_store_url, redacted

if TYPE_CHECKING:
    from workset.memory.store import MemoryStore
    from workset.stores.postgres.db import PostgresDatabase

__all__ = [
    "Inbox",
    "LeaseStore",
    "MemoryBackend",
    "SessionStore",
    "StoreURL",
    "Stores",
    "open_log",
    "open_memory",
    "open_store",
    "parse_store_url",
    "redacted",
]


class Stores(Closing):
    """The stores one URL names; :meth:`close` closes them (and a PostgreSQL pool)."""

    def __init__(
        self,
        url: StoreURL,
        log: SessionStore,
        leases: LeaseStore,
        database: PostgresDatabase | None = None,
    ) -> None:
        self.url, self.log, self.leases = url, log, leases
        self._database = database
        self._memory: MemoryStore | None = None

    @property
    def where(self) -> str:
        return self.url.where

    def memory(self) -> MemoryStore:
        """The memory store in the same place (opened on first use, closed with the rest)."""
        if self._memory is None:
            self._memory = _memory(self.url, self._database)
        return self._memory

    def close(self) -> None:
        if self._memory is not None:
            self._memory.close()
        self.leases.close()
        self.log.close()
        if self._database is not None:
            self._database.close()


def open_store(url: str | Path) -> Stores:
    """The session log and leases ``url`` names (``sqlite:///…``, a path, ``postgresql://…``)."""
    parsed = parse_store_url(url)
    if parsed.backend == "sqlite":
        from workset.log.store import SessionLog
        from workset.stores.leases import SqliteLeases

        assert parsed.path is not None
        log = SessionLog(parsed.path)
        try:
            return Stores(parsed, log, SqliteLeases(parsed.path))
        except BaseException:
            log.close()
            raise
    from workset.stores.postgres.db import PostgresDatabase
    from workset.stores.postgres.leases import PostgresLeases
    from workset.stores.postgres.log import PostgresSessionLog

    database = PostgresDatabase(parsed.dsn)
    try:
        pg_log = PostgresSessionLog(parsed.dsn, database=database)
        return Stores(parsed, pg_log, PostgresLeases(database), database)
    except BaseException:
        database.close()
        raise


def open_log(url: str | Path) -> SessionStore:
    """Only the session log ``url`` names (close it when done)."""
    parsed = parse_store_url(url)
    if parsed.backend == "sqlite":
        from workset.log.store import SessionLog

        assert parsed.path is not None
        return SessionLog(parsed.path)
    from workset.stores.postgres.log import PostgresSessionLog

    return PostgresSessionLog(parsed.dsn)


def open_memory(url: str | Path) -> MemoryStore:
    """Only the memory store ``url`` names (close it when done)."""
    return _memory(parse_store_url(url), None)


def _memory(parsed: StoreURL, database: PostgresDatabase | None) -> MemoryStore:
    if parsed.backend == "sqlite":
        from workset.memory.store import MemoryStore

        assert parsed.path is not None
        return MemoryStore(parsed.path)
    from workset.stores.postgres.memory import PostgresMemoryStore

    return PostgresMemoryStore(parsed.dsn, database=database)
