"""Shared parts for the session-engine tests: an agent on a test model, tools that wait for
the test to let them finish, and a subscriber that lets a test wait for a record to appear."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from workset.events import LoopEvent
from workset.models.base import Model
from workset.session.agent import Agent, AgentConfig
from workset.testing import current_store
from workset.tools.base import Tool
from workset.tools.registry import ToolRegistry


class Records:
    """A bus subscriber keeping every record; ``await records.until(pred)`` waits for one."""

    def __init__(self) -> None:
        self.seen: list[LoopEvent] = []
        self._changed = anyio.Event()

    def __call__(self, event: LoopEvent) -> None:
        self.seen.append(event)
        self._changed.set()
        self._changed = anyio.Event()

    async def until(self, predicate: Callable[[LoopEvent], bool]) -> LoopEvent:
        """The first record matching ``predicate`` (callers bound the wait with fail_after)."""
        while True:
            for event in self.seen:
                if predicate(event):
                    return event
            await self._changed.wait()

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.seen if isinstance(e, kind)]


@dataclass
class Gate:
    """A tool that runs until the test opens its gate (or it is cancelled)."""

    name: str = "long_job"
    read_only: bool = False
    idempotent: bool = False
    opened: anyio.Event = field(default_factory=anyio.Event)
    started: anyio.Event = field(default_factory=anyio.Event)
    cancelled: bool = False
    finished: bool = False
    during: list[Callable[[], None]] = field(default_factory=list)

    def tool(self) -> Tool:
        async def handler(what: str = "") -> str:
            self.started.set()
            for check in self.during:
                check()
            try:
                await self.opened.wait()
            except anyio.get_cancelled_exc_class():
                self.cancelled = True
                raise
            self.finished = True
            return f"{self.name} done: {what or 'all'}"

        handler.__name__ = self.name
        handler.__doc__ = f"""Run the {self.name}. Use when asked to. Output: what was done.

        Args:
            what: What to work on.
        """
        return Tool.from_function(
            handler,
            read_only=self.read_only,
            idempotent=self.idempotent,
            examples=({"what": "x"},),
        )


def run(main: Callable[[], Any], timeout: float = 60) -> None:
    """``anyio.run(main)`` with a deadline, so a broken engine fails instead of hanging."""

    async def bounded() -> None:
        with anyio.fail_after(timeout):
            await main()

    anyio.run(bounded)


def make_agent(
    tmp_path: Path,
    model: Model,
    tools: list[Tool],
    records: Records | None = None,
    **config: Any,
) -> Agent:
    return Agent(
        model,
        ToolRegistry(tools),
        current_store(),
        AgentConfig(**config),
        subscribers=[records] if records is not None else [],
    )
