"""Append-only migrations for the PostgreSQL stores, each applied once per database.

Each store (``log``, ``memory``, ``leases``) keeps its own list of migrations; one table,
``workset_schema``, records the version each has reached. A migration runs in its own
transaction under a transaction-scoped advisory lock, with the version re-read under the
lock, so workers starting together never apply a step twice; a database written by a newer
workset is refused. When a migration finds what it creates already there (the version was
reset, or the tables came from elsewhere), the error says so instead of a bare SQL message.
Never edit a migration that has shipped: append one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workset.errors import SessionLogError
from workset.stores.postgres.db import PostgresDatabase

MIGRATION_LOCK = 0x776F726B  # "work": serializes workset's migrations within one database

Migration = Sequence[str]  # SQL statements applied in one transaction


def migrate(db: PostgresDatabase, component: str, migrations: Sequence[Migration]) -> int:
    """Bring ``component``'s tables up to ``len(migrations)``; returns the version."""
    known = len(migrations)

    def step(conn: Any, _: bool) -> int:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS workset_schema "
            "(component TEXT PRIMARY KEY, version INTEGER NOT NULL)"
        )
        row = conn.execute(
            "SELECT version FROM workset_schema WHERE component = %s", (component,)
        ).fetchone()
        version = 0 if row is None else int(row[0])
        if version > known:
            raise SessionLogError(
                f"the {component} tables in {db.where} have schema version {version}, but this "
                f"workset knows only up to {known}: a newer workset wrote them. Upgrade "
                "workset (pip install -U workset) or point at another database."
            )
        if version == known:
            return version
        _apply(conn, db, component, version, migrations[version])
        conn.execute(
            "INSERT INTO workset_schema (component, version) VALUES (%s, %s) "
            "ON CONFLICT (component) DO UPDATE SET version = EXCLUDED.version",
            (component, version + 1),
        )
        return version + 1

    while True:
        version = db.transact(f"migrate the {component} tables", step)
        if version == known:
            return version


def _apply(conn: Any, db: PostgresDatabase, component: str, version: int, sql: Migration) -> None:
    import psycopg

    try:
        with conn.transaction():  # a savepoint, so the failure below can be explained
            for statement in sql:
                conn.execute(statement)
    except (psycopg.errors.DuplicateTable, psycopg.errors.DuplicateObject) as exc:
        raise SessionLogError(
            f"migration {version + 1} of the {component} tables in {db.where} was already "
            f"applied: what it creates exists ({str(exc).splitlines()[0]}), but workset_schema "
            f"says version {version}. The schema table was reset or the tables were copied in "
            "from elsewhere; restore workset_schema (the version is the number of migrations "
            "applied) or use a fresh database. Nothing was changed."
        ) from exc


def schema_version(db: PostgresDatabase, component: str) -> int:
    rows = db.rows(
        "read the schema version",
        "SELECT version FROM workset_schema WHERE component = %s",
        (component,),
    )
    return int(rows[0][0]) if rows else 0
