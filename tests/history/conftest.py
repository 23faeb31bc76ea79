"""The embedded model for this folder's ``real_model`` tests: started once, closed at the end."""

from __future__ import annotations

from collections.abc import Iterator

import anyio
import pytest

from workset.models.embedded import EmbeddedModel
from workset.models.weights import model_status

REAL_MODEL = "qwen2.5-coder-0.5b"


@pytest.fixture(scope="session")
def embedded_summarizer() -> Iterator[EmbeddedModel]:
    status = model_status(REAL_MODEL)
    if status.state == "parts_missing":  # CI installs them: a skip here would hide a break
        pytest.fail(f"{status.detail}; {status.command} (or set WORKSET_SKIP_REAL_MODEL=1)")
    model = EmbeddedModel(REAL_MODEL, context_window=4096)
    anyio.run(model.start)
    yield model
    anyio.run(model.aclose)
