from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from workset.log.store import SessionLog


@pytest.fixture
def log(tmp_path: Path) -> Iterator[SessionLog]:
    with SessionLog(tmp_path / "log.db") as opened:
        yield opened
