"""Shared parts for the service tests: the session-engine test helpers (``support``) and the
fake OpenAI-compatible server (``fake_openai_server``) live beside the tests that own them."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = Path(__file__).parents[1]
for folder in ("session", "models"):
    if str(_TESTS / folder) not in sys.path:
        sys.path.insert(0, str(_TESTS / folder))
