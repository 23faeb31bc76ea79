"""A resumable checkpoint: finished cells appended to a JSONL file, skipped on restart.

Each line is one JSON object with a ``key`` (for example ``probe/full/shard/3``). A line cut
short by a crash is ignored, so the cell it held simply runs again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workset.errors import UsageError


class Checkpoint:
    """Append-only cell results, loaded once at construction."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._rows: dict[str, dict[str, Any]] = {}
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a partial last line from an interrupted run
                if isinstance(row, dict) and isinstance(row.get("key"), str):
                    self._rows[row["key"]] = row

    def get(self, key: str) -> dict[str, Any] | None:
        return self._rows.get(key)

    def __contains__(self, key: str) -> bool:
        return key in self._rows

    def __len__(self) -> int:
        return len(self._rows)

    def put(self, key: str, row: Mapping[str, Any]) -> dict[str, Any]:
        """Record a finished cell (flushed at once) and return the stored row."""
        stored = {"key": key, **row}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(stored, ensure_ascii=False) + "\n")
        except OSError as error:
            raise UsageError(
                f"cannot append to the checkpoint {self.path}: {error.strerror}; "
                "choose another --out folder"
            ) from error
        self._rows[key] = stored
        return stored
