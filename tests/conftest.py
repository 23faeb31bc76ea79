"""Suite-wide settings.

Tests marked ``real_model`` run the embedded model; they are part of the default run (and of
CI). Set WORKSET_SKIP_REAL_MODEL=1 to leave them out while iterating on other code.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from workset.models.embedded import EmbeddedModel

REAL_MODEL = "qwen2.5-coder-0.5b"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("WORKSET_SKIP_REAL_MODEL") != "1":
        return
    skip = pytest.mark.skip(reason="WORKSET_SKIP_REAL_MODEL=1")
    for item in items:
        if "real_model" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _isolated_state(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keep every test's session log away from the user's real one."""
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
