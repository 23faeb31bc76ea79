"""Options several commands share: ``--db``, the session store every command reads or writes."""

from __future__ import annotations

import click

from workset.stores import SessionStore, open_log
from workset.stores.url import default_store

DB_HELP = (
    "Session store: a SQLite file (or sqlite:///FILE) or postgresql://USER@HOST/DB "
    "(default: $WORKSET_DB, else ~/.local/share/workset/workset.db)."
)

db_option = click.option("--db", default=None, metavar="FILE|URL", help=DB_HELP)


def open_db(db: str | None) -> SessionStore:
    """The session store ``--db`` (or ``$WORKSET_DB``, or the default file) names."""
    return open_log(db or default_store())
