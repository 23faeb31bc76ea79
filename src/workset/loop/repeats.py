"""Calls identical to one already run in this run: not run again.

A repeat brings no new information: the result of a read-only call that found something is
given again from the run's own record, under a note saying to answer from it or make a
different call (the first copy may have been shortened out of a small window); a failed one
gets an error. A read or search (a tool that gives the same result until something changes)
made again after a call that may have changed things (an edit, a command) is no repeat: it
runs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from workset.loop.call_repair import canonical
from workset.loop.offer import DID_NOT_RUN
from workset.messages import ToolCall, ToolMessage


@dataclass(frozen=True, slots=True)
class Repeat:
    """What a repeated call gets instead of running: ``text`` is its result."""

    text: str
    replayed: bool  # the earlier result given again (not an error)


class RepeatGuard:
    """The calls run in one run, their useful results, and what may have changed since."""

    def __init__(
        self,
        *,
        replayable: Callable[[str], bool] = lambda name: True,
        read_only: Callable[[str], bool] = lambda name: True,
    ) -> None:
        """``replayable`` says which tools give the same result until something changes
        (their repeats are answered from the run's record), ``read_only`` which change
        nothing."""
        self.replayable = replayable
        self.read_only = read_only
        self._run: dict[tuple[str, str], str] = {}  # (name, canonical args) -> first call id
        self._changes = 0  # successful calls so far that may have changed things (edits, commands)
        self._since: dict[str, int] = {}  # first call id -> self._changes when it was made
        self._contents: dict[str, str] = {}  # call id -> its useful result, as recorded
        self._failed: set[str] = set()  # ids of calls whose result was an error or empty

    def earlier_result(self, call: ToolCall) -> str | None:
        """The useful result of the earlier call ``call`` would repeat (same tool, same
        arguments, nothing changed since, a tool that gives the same result), or None. Records
        nothing."""
        first = self._standing(call)
        if first is None or not self.replayable(call.name):
            return None
        return self._contents.get(first)

    def _standing(self, call: ToolCall) -> str | None:
        """The id of the earlier call identical to ``call`` whose result still stands (for a
        tool that gives the same result, nothing changed since it ran), or None."""
        first = self._run.get((call.name, canonical(call.arguments)))
        changed = first is not None and self._since.get(first) != self._changes
        if changed and self.replayable(call.name):
            return None  # what it reads may have changed since: not a repeat
        return first

    def repeat(self, call: ToolCall) -> Repeat | None:
        """What ``call`` gets when it repeats one run before; None when it is no repeat (it
        is then recorded as run)."""
        first = self._standing(call)
        if first is None:
            self._run[(call.name, canonical(call.arguments))] = call.id
            self._since[call.id] = self._changes
            return None
        earlier = self._contents.get(first)
        if earlier is not None and self.replayable(call.name):
            return Repeat(
                f"You already called {call.name} with these arguments (call {first}); "
                "its result is repeated below. Do not call it again: answer from it, "
                "or if it does not hold the answer, make a different call.\n" + earlier,
                replayed=True,
            )
        if first in self._failed:  # "use that result to answer" would mean an error
            return Repeat(
                f"not run again: you already called {call.name} with these arguments "
                f"(call {first}) and it failed or found nothing; it would again. Make "
                "a different call.",
                replayed=False,
            )
        return Repeat(
            f"not run again: you already called {call.name} with these arguments "
            f"(call {first}) and its result is above. Use that result to answer.",
            replayed=False,
        )

    def note_results(self, results: Sequence[ToolMessage], useful: Sequence[ToolMessage]) -> None:
        """Remember the last calls' results; ``useful`` are those that found something. A call
        refused before it ran (its tool not loaded yet: the refusal loads it) is forgotten,
        so the same call made next runs."""
        refused = {r.tool_call_id for r in results if r.is_error and DID_NOT_RUN in r.content}
        if refused:
            self._run = {key: first for key, first in self._run.items() if first not in refused}
        self._failed.update(r.tool_call_id for r in results if r not in useful)
        self._contents.update((r.tool_call_id, r.content) for r in useful)
        # A successful edit or command may change what a read shows; a failed edit does not.
        self._changes += sum(not r.is_error and not self.read_only(r.name) for r in results)

    def read_paths(self) -> set[str]:
        """The paths of the ``read_file`` calls run so far."""
        return {_path(k[1]) for k in self._run if k[0] == "read_file"}


def _path(arguments: str) -> str:
    try:
        value = json.loads(arguments)
    except json.JSONDecodeError:
        return ""
    return str(value.get("path", "")) if isinstance(value, dict) else ""


# How every note above opens: a reply that starts so copies the harness, it is not an answer.
REPEAT_NOTE = re.compile(
    r"\s*(?:not run again: )?you already called \S+ with these arguments", re.I
)

# Phrases of those notes and of read_file's footer anywhere in a reply: "…no tool is called.
# The result is repeated below. To continue, call read_file with offset=464." was the 0.5B's
# answer to a question about Table.update. A reply that holds one was made from the
# scaffolding around a result, not from the result.
HARNESS_PHRASE = re.compile(
    r"(?:its |the )?result is repeated below|do not call it again|"
    r"to continue, call read_file with offset=|you already called \S+ with these arguments|"
    r"showing lines \d+-\d+ of [\d,]+ total",
    re.I,
)
