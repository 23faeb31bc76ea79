from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from workset.memory import MemoryStore
from workset.testing import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(tmp_path: Path, clock: FakeClock) -> Iterator[MemoryStore]:
    with MemoryStore(tmp_path / "memory.db", clock=clock) as opened:
        yield opened
