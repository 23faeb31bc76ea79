"""Shared parts for the status tests: a real session log file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from workset.log.store import SessionLog
from workset.testing import current_store


@pytest.fixture
def log(tmp_path: Path) -> Iterator[SessionLog]:
    with current_store() as opened:
        yield opened


@pytest.fixture
def sid(log: SessionLog) -> str:
    return log.create_session(title="cancel my plan", workspace="/repo", model="scripted")
