"""Suite-wide settings.

Tests marked ``real_model`` run the embedded model; they are part of the default run (and of
CI). Set WORKSET_SKIP_REAL_MODEL=1 to leave them out while iterating on other code.

``store_url`` is where a test's session log lives: a SQLite file, or with
``WORKSET_TEST_STORE=postgresql`` a fresh schema on a throwaway PostgreSQL server (or on
``$WORKSET_TEST_POSTGRES_URL``), so the suite runs on either backend.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from workset.models.embedded import EmbeddedModel
    from workset.testing.servers import ExternalPostgres, PostgresServer

REAL_MODEL = "qwen2.5-coder-0.5b"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("WORKSET_SKIP_REAL_MODEL") != "1":
        return
    skip = pytest.mark.skip(reason="WORKSET_SKIP_REAL_MODEL=1")
    for item in items:
        if "real_model" in item.keywords:
            item.add_marker(skip)


BACKEND = os.environ.get("WORKSET_TEST_STORE", "sqlite")


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer | ExternalPostgres]:
    """One PostgreSQL server for the whole run (started on first use)."""
    from workset.testing.servers import test_postgres

    with test_postgres() as server:
        yield server


@pytest.fixture(scope="session")
def postgres_database(postgres: PostgresServer | ExternalPostgres) -> str:
    """One database for the run; each test gets its own schema in it."""
    return postgres.create_database(f"workset_{secrets.token_hex(4)}")


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    from workset.testing.servers import test_redis

    with test_redis() as url:
        yield url


@pytest.fixture
def postgres_url(postgres_database: str) -> str:
    """An empty PostgreSQL store: a fresh schema in the run's database."""
    from workset.testing.servers import schema_url

    return schema_url(postgres_database, f"t_{secrets.token_hex(6)}")


@pytest.fixture
def store_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """An empty store of the selected backend (``WORKSET_TEST_STORE``)."""
    if BACKEND == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return f"sqlite://{tmp_path_factory.mktemp('store') / 'workset.db'}"


@pytest.fixture(autouse=True)
def _isolated_state(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Keep every test's session log away from the user's real one."""
    if BACKEND == "postgresql":
        monkeypatch.setenv("WORKSET_DB", request.getfixturevalue("postgres_url"))
        return
    monkeypatch.setenv("WORKSET_DB", str(tmp_path_factory.mktemp("db") / "workset.db"))


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio, the backend workset's CLI uses."""
    return "asyncio"


@pytest.fixture(scope="session")
def qwen() -> Iterator[EmbeddedModel]:
    """One embedded model for every ``real_model`` test: started once, closed at the end."""
    import anyio

    from workset.models.embedded import EmbeddedModel
    from workset.models.weights import model_status

    status = model_status(REAL_MODEL)
    if status.state == "parts_missing":  # CI installs them: a skip here would hide a break
        pytest.fail(f"{status.detail}; {status.command} (or set WORKSET_SKIP_REAL_MODEL=1)")
    model = EmbeddedModel(REAL_MODEL, context_window=4096)
    anyio.run(model.start)
    yield model
    anyio.run(model.aclose)
