"""The state file a running ``workset serve`` leaves next to its session log.

``<db>.serve.json`` holds where the server listens, its pid and the API token (the file is
readable by its owner only). The server writes it once it is ready and removes it on exit;
a client (``workset send``) finds the server through it. A file left by a server that died
(its pid is gone, or the process there is not that server) is *stale*: :func:`locate` says
so and removes it when its process is gone.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import httpx

from workset.stores.url import default_store, local_folder, parse_store_url

HEALTH_TIMEOUT_S = 3.0


def state_anchor(db: str | Path | None) -> Path:
    """The path the state file of a server for store ``db`` sits beside: the SQLite file, or
    for a server store (PostgreSQL) a name in the default folder derived from its URL without
    the password (so ``workset send --db URL`` finds the server ``workset serve --db URL``
    started)."""
    url = parse_store_url(db or default_store())
    if url.path is not None:
        return url.path.expanduser().resolve()
    digest = hashlib.sha256(url.where.encode()).hexdigest()[:12]
    return local_folder(url.dsn) / f"serve-{digest}"


@dataclass(frozen=True, slots=True)
class ServerInfo:
    url: str
    pid: int
    token: str
    db: str
    started_at: float


@dataclass(frozen=True, slots=True)
class Located:
    """The live server for a session log, or None with why a state file was not used."""

    server: ServerInfo | None
    stale: str = ""


def state_path(db: Path) -> Path:
    return db.with_name(f"{db.name}.serve.json")


def write_state(db: Path, url: str, token: str) -> Path:
    """Record this process as the server of ``db`` (owner-only permissions)."""
    path = state_path(db)
    info = ServerInfo(url, os.getpid(), token, str(db), time.time())
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        json.dump(asdict(info), file)
    temporary.replace(path)
    return path


def remove_state(db: Path) -> None:
    """Remove the state file if this process wrote it."""
    found = read_state(db)
    if found is not None and found.pid == os.getpid():
        with contextlib.suppress(FileNotFoundError):
            state_path(db).unlink()


def read_state(db: Path) -> ServerInfo | None:
    try:
        data = json.loads(state_path(db).read_text(encoding="utf-8"))
        return ServerInfo(
            str(data["url"]),
            int(data["pid"]),
            str(data["token"]),
            str(data["db"]),
            float(data["started_at"]),
        )
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        return ServerInfo("", 0, "", str(db), 0.0)  # unreadable: treated as stale


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, someone else's
    return True


def locate(db: Path) -> Located:
    """The server serving ``db`` now, checked by asking it (``GET /health``)."""
    found = read_state(db)
    path = state_path(db)
    if found is None:
        return Located(None)
    if not pid_alive(found.pid):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return Located(None, f"removed the stale {path} (its server, pid {found.pid}, is gone)")
    try:
        answer = httpx.get(f"{found.url}/health", timeout=HEALTH_TIMEOUT_S)
        healthy = answer.status_code == 200 and answer.json().get("pid") == found.pid
    except (httpx.HTTPError, ValueError):
        healthy = False
    if not healthy:
        return Located(
            None,
            f"{path} names pid {found.pid} at {found.url}, which does not answer as workset "
            "serve; ignoring it (remove the file if no server runs)",
        )
    return Located(found)
