"""Store URLs: which backend a ``--db`` value, ``$WORKSET_DB`` or a library argument names.

- ``sqlite:///abs/path/workset.db`` (a file URL's path), ``sqlite:relative.db``, or a plain
  file path: the embedded SQLite backend (the default, no server);
- ``postgresql://user:password@host:5432/database`` (or ``postgres://``): PostgreSQL.

Anything else with a scheme is refused with the schemes that work. Passwords never appear in
messages: :func:`redacted` replaces them with ``***``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

from workset.errors import UsageError

Backend = Literal["sqlite", "postgresql"]

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
EXAMPLES = "sqlite:///path/to/workset.db, a file path, or postgresql://user@host:5432/db"


@dataclass(frozen=True, slots=True)
class StoreURL:
    backend: Backend
    path: Path | None = None  # SQLite: the file
    dsn: str = ""  # PostgreSQL: the connection URL as given

    @property
    def where(self) -> str:
        """What messages call it: the file, or the URL without its password."""
        return str(self.path) if self.path is not None else redacted(self.dsn)


def parse_store_url(value: str | Path) -> StoreURL:
    """The backend and location ``value`` names; raises :class:`UsageError` when unusable."""
    if isinstance(value, Path):
        return StoreURL("sqlite", path=value.expanduser())
    text = value.strip()
    if not text:
        raise UsageError(f"the store location is empty; give {EXAMPLES}")
    match = _SCHEME.match(text)
    if match is None or len(match.group(1)) == 1:  # no scheme (a Windows drive is a path)
        return StoreURL("sqlite", path=Path(text).expanduser())
    scheme = match.group(1).lower()
    if scheme == "sqlite":
        rest = text[len("sqlite:") :]
        path = rest[2:] if rest.startswith("//") else rest  # sqlite:///abs → /abs
        if not path or path == "/":
            raise UsageError(f"{text!r} names no file; write it like sqlite:///tmp/workset.db")
        return StoreURL("sqlite", path=Path(path).expanduser())
    if scheme in ("postgresql", "postgres"):
        parts = urlsplit(text)
        if not parts.hostname and "host=" not in parts.query:
            raise UsageError(
                f"{redacted(text)!r} names no host; write it like "
                "postgresql://user@127.0.0.1:5432/workset"
            )
        return StoreURL("postgresql", dsn=text)
    raise UsageError(
        f"unknown store URL scheme {scheme!r} in {redacted(text)!r}: workset stores sessions "
        f"and memory in SQLite or PostgreSQL; give {EXAMPLES}"
    )


def default_folder() -> Path:
    """Where workset keeps its files when told nothing: ``~/.local/share/workset``."""
    return Path.home() / ".local" / "share" / "workset"


def local_folder(store: str | Path) -> Path:
    """The folder for files kept beside a store (indexes, a server's state file): the SQLite
    file's folder, or for a server store the default one (``~/.local/share/workset``)."""
    url = parse_store_url(store)
    if url.path is not None:
        return url.path.expanduser().resolve().parent
    return default_folder()


def redacted(url: str) -> str:
    """``url`` with its password (if any) replaced by ``***``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable URL>"
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))


def default_store() -> str | Path:
    """``$WORKSET_DB`` as given (a path or a URL), else ``~/.local/share/workset/workset.db``."""
    env = os.environ.get("WORKSET_DB")
    if env:
        return env
    return default_folder() / "workset.db"
