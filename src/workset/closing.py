"""``with`` for the objects that hold a database: leaving the block closes them."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Closing:
    """A context manager whose exit calls :meth:`close` (which the subclass defines)."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
