"""One PostgreSQL connection pool and the statements every PostgreSQL store runs through.

:meth:`PostgresDatabase.transact` runs a function on a pooled connection, in one transaction
or statement by statement in autocommit. When the connection breaks (the server restarted, a
network blip) the pool drops it and the work is retried on a fresh connection, with backoff,
until ``reconnect_s`` has passed: a restart of PostgreSQL during a run costs a pause, not a
failed run. The function is told when it is a retry; a write whose commit may have landed
before the connection broke must find itself first (the session log keys every append with a
token for that).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from workset.errors import SessionLogError, UsageError, WorksetError
from workset.stores.url import redacted

if TYPE_CHECKING:
    import psycopg

T = TypeVar("T")

CONNECT_TIMEOUT_S = 10
RECONNECT_S = 60.0
INSTALL_HINT = "install the PostgreSQL extra: pip install 'workset[postgres]'"


def _psycopg() -> Any:
    try:
        import psycopg
        import psycopg_pool
    except ImportError as exc:
        raise UsageError(
            f"PostgreSQL stores need psycopg 3 and psycopg_pool: {INSTALL_HINT}"
        ) from exc
    return psycopg, psycopg_pool


class PostgresDatabase:
    """A pool of autocommit connections to one database; close it when done."""

    def __init__(
        self,
        dsn: str,
        *,
        max_size: int = 8,
        reconnect_s: float = RECONNECT_S,
        error: type[WorksetError] = SessionLogError,
    ) -> None:
        psycopg, psycopg_pool = _psycopg()
        self.dsn = dsn
        self.where = redacted(dsn)
        self.reconnect_s = reconnect_s
        self._error = error
        self._operational = psycopg.OperationalError
        self._psycopg_error = psycopg.Error
        try:  # one direct connection first: its error says why (refused, bad password, no db)
            psycopg.connect(dsn, connect_timeout=CONNECT_TIMEOUT_S).close()
        except psycopg.Error as exc:
            raise error(
                f"cannot connect to PostgreSQL at {self.where}: {_first_line(exc)}. Is the "
                "server running and the URL right (user, password, host, port, database)?"
            ) from exc
        self._pool = psycopg_pool.ConnectionPool(
            dsn,
            min_size=1,
            max_size=max_size,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_S},
            timeout=CONNECT_TIMEOUT_S,
            open=True,
            name="workset",
        )

    def close(self) -> None:
        self._pool.close()

    def transact(
        self,
        doing: str,
        work: Callable[[psycopg.Connection[Any], bool], T],
        *,
        transaction: bool = True,
    ) -> T:
        """``work(connection, retry)`` in one committed transaction (or, with
        ``transaction=False``, statement by statement in autocommit: for one statement, a
        round trip less), retried across reconnects; workset's own errors pass through."""
        deadline = time.monotonic() + self.reconnect_s
        attempt = 0
        while True:
            try:
                with self._pool.connection() as conn:
                    if not transaction:
                        return work(conn, attempt > 0)
                    with conn.transaction():
                        return work(conn, attempt > 0)
            except self._operational as exc:
                if time.monotonic() >= deadline:
                    raise self._error(
                        f"could not {doing} in {self.where}: {_first_line(exc)}; the server "
                        f"did not answer again within {self.reconnect_s:g} s. Check that "
                        "PostgreSQL is running; nothing recorded before this was lost."
                    ) from exc
                time.sleep(min(0.05 * 2**attempt, 1.0))  # back off while the server restarts
                attempt += 1
            except self._psycopg_error as exc:
                raise self._error(f"could not {doing} in {self.where}: {_first_line(exc)}") from exc

    def rows(self, doing: str, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one statement (atomic on its own)."""
        return self.transact(
            doing, lambda conn, _: conn.execute(sql, params).fetchall(), transaction=False
        )

    def execute(self, doing: str, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement (atomic on its own); returns the rows it touched."""
        return self.transact(
            doing, lambda conn, _: conn.execute(sql, params).rowcount, transaction=False
        )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
