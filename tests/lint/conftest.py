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
