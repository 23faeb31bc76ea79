"""Throwaway PostgreSQL and Redis servers for tests and benchmarks, on free loopback ports.

:func:`postgres_server` runs ``initdb`` and ``postgres`` from Debian's ``postgresql`` package
(``scripts/check`` installs it) in a temporary folder; run as root, the server runs as the
``postgres`` system user (PostgreSQL refuses to run as root) through ``setpriv``, which
execs the server in place so signals reach it.
:func:`redis_server` runs ``redis-server`` with persistence off. Both listen on 127.0.0.1
only, yield a URL, and stop (and remove their files) on exit. ``$WORKSET_TEST_POSTGRES_URL``
and ``$WORKSET_TEST_REDIS_URL`` name already-running servers to use instead.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from workset.errors import UsageError

PG_BIN_DIRS = tuple(sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True))
START_TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PostgresServer:
    """A running throwaway PostgreSQL; ``url`` reaches its ``postgres`` database."""

    port: int
    data: Path
    user: str | None  # the system user it runs as (None: the current one)
    durable: bool = False  # fsync on commit, as in production (off: faster tests)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return self.url_for("postgres")

    def url_for(self, database: str) -> str:
        return f"postgresql://workset@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        command = [
            _pg_tool("postgres"), "-D", str(self.data), "-p", str(self.port),
            "-h", "127.0.0.1", "-k", str(self.data), "-c", "max_connections=200",
            "-c", f"fsync={'on' if self.durable else 'off'}",
        ]  # fmt: skip
        with (self.data / "server.log").open("ab") as log:  # the child keeps its own copy
            self.process = subprocess.Popen(_as_user(self.user, command), stdout=log, stderr=log)
        _wait_for_port(self.port, self.process, self.data / "server.log")
        self._wait_until_ready()

    def _wait_until_ready(self) -> None:
        """Until it accepts sessions (it listens before recovery is done: "starting up")."""
        import psycopg

        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                psycopg.connect(self.url, connect_timeout=5).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server fast (``SIGINT``: abort transactions, shut down cleanly)."""
        if self.process is None:
            return
        self.process.send_signal(2)
        try:
            self.process.wait(timeout=START_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def create_database(self, name: str) -> str:
        """A new empty database on this server; returns its URL."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url_for(name)


@contextlib.contextmanager
def postgres_server(*, durable: bool = False) -> Iterator[PostgresServer]:
    """A fresh PostgreSQL cluster on a free port, removed afterwards; ``durable`` keeps
    fsync on (benchmarks), off it is faster (tests: the data dies with the server anyway)."""
    user = "postgres" if os.geteuid() == 0 else None
    if user is not None and shutil.which("setpriv") is None:
        raise UsageError("running as root needs setpriv (util-linux) to start PostgreSQL")
    base = Path(tempfile.mkdtemp(prefix="workset-pg-"))
    data = base / "data"
    data.mkdir()
    if user is not None:
        shutil.chown(base, user)
        shutil.chown(data, user)
    init = [_pg_tool("initdb"), "-D", str(data), "-U", "workset", "--auth=trust", "-E", "UTF8"]
    done = subprocess.run(_as_user(user, init), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        shutil.rmtree(base, ignore_errors=True)
        raise UsageError(f"initdb failed: {done.stderr.strip() or done.stdout.strip()}")
    server = PostgresServer(free_port(), data, user, durable)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)


@dataclass
class RedisServer:
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


@contextlib.contextmanager
def redis_server() -> Iterator[RedisServer]:
    """A fresh ``redis-server`` on a free port with persistence off."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise UsageError(
            "redis-server is not installed: apt-get install redis-server (scripts/check does), "
            "or set WORKSET_TEST_REDIS_URL to a running server"
        )
    base = Path(tempfile.mkdtemp(prefix="workset-redis-"))
    server = RedisServer(free_port())
    command = [
        binary, "--port", str(server.port), "--bind", "127.0.0.1", "--save", "",
        "--appendonly", "no", "--dir", str(base),
    ]  # fmt: skip
    with (base / "server.log").open("ab") as log:
        server.process = subprocess.Popen(command, stdout=log, stderr=log)
    try:
        _wait_for_port(server.port, server.process, base / "server.log")
        yield server
    finally:
        server.process.terminate()
        server.process.wait()
        shutil.rmtree(base, ignore_errors=True)


def _pg_tool(name: str) -> str:
    for folder in PG_BIN_DIRS:
        if (folder / name).exists():
            return str(folder / name)
    found = shutil.which(name)
    if found is None:
        raise UsageError(
            f"PostgreSQL's {name} is not installed: apt-get install postgresql (scripts/check "
            "does), or set WORKSET_TEST_POSTGRES_URL to a running server"
        )
    return found


def _as_user(user: str | None, command: list[str]) -> list[str]:
    if user is None:
        return command
    return ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups", "--", *command]


def _wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until the server accepts connections (polling: a server's start has no event to await)."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise UsageError(f"the server exited at start: {log.read_text()[-2000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    process.kill()
    raise UsageError(f"the server did not listen on port {port} within {START_TIMEOUT_S:g} s")


@dataclass
class ExternalPostgres:
    """A PostgreSQL server someone else runs (``$WORKSET_TEST_POSTGRES_URL``)."""

    url: str

    def url_for(self, database: str) -> str:
        from urllib.parse import urlsplit, urlunsplit

        return urlunsplit(urlsplit(self.url)._replace(path=f"/{database}"))

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url_for(name)


def schema_url(url: str, schema: str) -> str:
    """``url`` with every table in ``schema`` (created first): a cheap isolated store."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}"


@contextlib.contextmanager
def test_postgres(*, durable: bool = False) -> Iterator[PostgresServer | ExternalPostgres]:
    """``$WORKSET_TEST_POSTGRES_URL`` when set, else a throwaway server."""
    given = os.environ.get("WORKSET_TEST_POSTGRES_URL")
    if given:
        yield ExternalPostgres(given)
        return
    with postgres_server(durable=durable) as server:
        yield server


@contextlib.contextmanager
def test_redis() -> Iterator[str]:
    """The URL of ``$WORKSET_TEST_REDIS_URL`` when set, else of a throwaway server."""
    given = os.environ.get("WORKSET_TEST_REDIS_URL")
    if given:
        yield given
        return
    with redis_server() as server:
        yield server.url
