"""Progress of model calls on the terminal, and in logs when there is no terminal.

On a terminal a spinner names the call, its size and the time it has taken so far; it
disappears when the call ends (the loop's own line for the call follows). Without a terminal
(output piped to a file, CI) one plain line is printed when each call is sent, so a call that
takes minutes on a busy machine does not look like a hang.
"""

from __future__ import annotations

import time

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.text import Text

from workset.messages import split_system
from workset.models.base import ModelRequest
from workset.tokens.counter import PartCounter


class CallProgress:
    def __init__(self, console: Console, counter: PartCounter | None = None) -> None:
        self.console = console
        self.counter = counter
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def started(self, number: int, request: ModelRequest) -> None:
        size = self._tokens(request)
        what = f"model call {number}" + (f" ({size:,} tokens in)" if size else "")
        if not self.console.is_terminal:
            self.console.print(
                Text(f"… {what} sent at {time.strftime('%H:%M:%S')}", "dim"), highlight=False
            )
            return
        bar = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
        )
        self._task = bar.add_task(what, total=None)
        self._bar = bar
        bar.start()

    def ended(self, number: int) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def print(self, line: Text) -> None:
        """A line of the run's output (printed above the spinner while one is shown)."""
        self.console.print(line)

    def _tokens(self, request: ModelRequest) -> int:
        if self.counter is None:
            return 0
        system, messages = split_system(request.messages)
        return self.counter.count_request(system, request.tools, messages).total
