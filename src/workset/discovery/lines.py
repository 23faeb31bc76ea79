"""Model output as JSON (expansions, restatements): one parser for an answer, one reader for
the JSON-lines files that keep them."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from workset.errors import ModelError, UsageError

T = TypeVar("T")


def read_rows(path: Path, build: Callable[[dict[str, Any]], T], *, what: str, hint: str) -> list[T]:
    """Each non-empty line of ``path`` made into a ``T`` by ``build``; a missing file is empty.

    A line that is not JSON, or lacks what ``build`` reads, raises a UsageError naming the
    file and line, what a line must be (``what``) and what to do (``hint``).
    """
    if not path.is_file():
        return []
    out: list[T] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(build(json.loads(line)))
        except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
            raise UsageError(f"{path}:{number} is not {what} ({exc}); {hint}") from exc
    return out


def answer_object(content: str) -> dict[str, Any]:
    """A model's answer as a JSON object; a ModelError quoting it when it is not one."""
    try:
        value = json.loads(content)
    except json.JSONDecodeError as exc:
        raise ModelError(f"the model did not answer with JSON: {content[:120]!r}") from exc
    if not isinstance(value, dict):
        raise ModelError(f"the model did not answer with a JSON object: {content[:120]!r}")
    return value


class KeptAnswers:
    """Model answers kept in a JSON-lines file by key, so each question is paid for once.

    Each row holds ``key`` and the answer under ``field``; :meth:`add` appends a row at once,
    so an interrupted run keeps every answer it got.
    """

    def __init__(self, path: Path, field: str, *, what: str, hint: str) -> None:
        self.path = path
        self.field = field
        self._known: dict[str, Any] = dict(
            read_rows(path, lambda row: (str(row["key"]), row[field]), what=what, hint=hint)
        )

    def get(self, key: str) -> Any | None:
        return self._known.get(key)

    def add(self, key: str, answer: Any, **about: Any) -> None:
        """Keep ``answer`` under ``key``; ``about`` is written beside it for a reader."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        row = {"key": key, **about, self.field: answer}
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
        self._known[key] = answer

    async def answer(self, key: str, ask: Callable[[], Awaitable[Any]], **about: Any) -> Any:
        """The answer kept under ``key``, else ``await ask()``, kept at once (with ``about``)."""
        known = self._known.get(key)
        if known is not None:
            return known
        answer = await ask()
        self.add(key, answer, **about)
        return answer

    def answers(self) -> dict[str, Any]:
        return dict(self._known)
