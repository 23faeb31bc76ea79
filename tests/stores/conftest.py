"""The conformance suite runs every test once per backend: ``backend_url`` is an empty store
of SQLite (a file) and of PostgreSQL (a fresh schema on the run's throwaway server)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from workset.stores import Stores, open_store


@pytest.fixture(params=["sqlite", "postgresql"])
def backend_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return f"sqlite://{tmp_path / 'workset.db'}"


@pytest.fixture
def stores(backend_url: str) -> Iterator[Stores]:
    with open_store(backend_url) as opened:
        yield opened
