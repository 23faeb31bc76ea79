"""A model that says when each call starts and ends, for progress displays.

:class:`AnnouncedModel` wraps any :class:`~workset.models.base.Model` and calls ``started``
with the request (and its number) before each completion and ``ended`` after it, whatever the
outcome. The CLI uses it to show a line per call as soon as the call is sent: on a busy
machine the first call of a run can take minutes, and output that says nothing until then
looks hung, on a terminal or in a log file.
"""

from __future__ import annotations

from collections.abc import Callable

from workset.models.base import Model, ModelInfo, ModelRequest, ModelResponse
from workset.tokens.counter import PartCounter


class AnnouncedModel:
    def __init__(
        self,
        model: Model,
        started: Callable[[int, ModelRequest], None],
        ended: Callable[[int], None] = lambda n: None,
    ) -> None:
        self.model = model
        self.started = started
        self.ended = ended
        self.calls = 0

    @property
    def info(self) -> ModelInfo:
        return self.model.info

    def token_counter(self) -> PartCounter:
        return self.model.token_counter()

    async def start(self) -> None:
        """Start the wrapped model when it has a start step (the embedded server does)."""
        start = getattr(self.model, "start", None)
        if start is not None:
            await start()

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.calls += 1
        number = self.calls
        self.started(number, request)
        try:
            return await self.model.complete(request)
        finally:
            self.ended(number)

    async def aclose(self) -> None:
        await self.model.aclose()
