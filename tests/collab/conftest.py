"""The collaboration tests reuse the session-engine tests' helpers (tests/session/support.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "session"))
