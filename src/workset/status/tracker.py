"""Exact tool-call counts, limits and errors, kept by code from the loop's events.

A :class:`StatusTracker` is a subscriber of the loop's event bus. Every ``ToolFinished`` counts
as one call of its tool (refused and failed calls too: the model asked for them), once per call
id, the way the session log records them. A call's *target* is the value of one configured
argument (``phone_call`` by ``company``, ``read_file`` by ``path``), so counts and limits can
be per merchant or per file. Because the counts are a pure fold over ``ToolFinished`` events,
:meth:`StatusTracker.from_log` rebuilds exactly the live counts of a recorded session: a
resumed session sees the same numbers the interrupted one did.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from workset.errors import UsageError
from workset.events import LoopEvent, ToolFinished
from workset.messages import ToolCall, ToolMessage, argument_object
from workset.status.text import shorten
from workset.stores.protocols import SessionStore

MAX_ERROR_NOTES = 3
_ERROR_CHARS = 160


@dataclass(frozen=True, slots=True)
class CallLimit:
    """At most ``max_calls`` calls of ``tool``, in total or per value of argument ``per``."""

    tool: str
    max_calls: int
    per: str | None = None

    def __post_init__(self) -> None:
        if self.max_calls < 1:
            raise UsageError(
                f"CallLimit for {self.tool!r}: max_calls must be at least 1, "
                f"not {self.max_calls}; drop the limit to allow any number of calls"
            )


@dataclass(frozen=True, slots=True)
class LimitState:
    """How much of ``limit`` is used: in total, or for one ``target`` when the limit has ``per``."""

    limit: CallLimit
    used: int
    target: str | None = None

    @property
    def reached(self) -> bool:
        return self.used >= self.limit.max_calls

    @property
    def exceeded(self) -> bool:
        """More calls than allowed: a loop may refuse a call whose position exceeds its limit."""
        return self.used > self.limit.max_calls

    @property
    def remaining(self) -> int:
        return max(0, self.limit.max_calls - self.used)

    def describe(self) -> str:
        """``phone_call 3/3 for Xfinity — limit reached`` or ``… 1/3 for Comcast — 2 left``."""
        target = f" for {shorten(self.target)}" if self.target is not None else ""
        if self.exceeded:
            state = "limit exceeded"
        else:
            state = "limit reached" if self.reached else f"{self.remaining} left"
        return f"{self.limit.tool} {self.used}/{self.limit.max_calls}{target} — {state}"

    def advice(self) -> str:
        """:meth:`describe`, plus what not to do next once the limit is reached."""
        if not self.reached:
            return self.describe()
        target = f" for {shorten(self.target)}" if self.target is not None else ""
        return f"{self.describe()}; do not call {self.limit.tool}{target} again"


@dataclass(frozen=True, slots=True)
class ToolCount:
    """Calls and errors of one tool; ``targets`` as (value, calls), most called first."""

    tool: str
    calls: int
    errors: int
    target_arg: str | None = None
    targets: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class ErrorNote:
    """One failed call: the tool, its target and the first line of the error it got."""

    tool: str
    target: str | None
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class RepeatedCall:
    """A tool called ``count`` times with identical arguments (canonical JSON)."""

    tool: str
    arguments: str
    count: int


@dataclass(frozen=True, slots=True)
class CallPosition:
    """Where the next call of a tool stands, counting itself: for result annotations."""

    nth: int  # this is the nth call of the tool
    target: str | None = None
    target_nth: int | None = None  # the nth call of the tool for this target
    limit: LimitState | None = None  # the tightest limit that applies, with this call counted


@dataclass(frozen=True, slots=True)
class StatusState:
    """A snapshot of the counts, in a deterministic order (tools by name)."""

    tools: tuple[ToolCount, ...] = ()
    limits: tuple[LimitState, ...] = ()  # limits with at least one call, by tool then target
    errors: tuple[ErrorNote, ...] = ()  # the most recent failed calls, oldest first
    repeats: tuple[RepeatedCall, ...] = ()  # identical calls made more than once
    total_calls: int = 0
    total_errors: int = 0

    def count(self, tool: str, target: str | None = None) -> int:
        """Calls of ``tool`` (for ``target`` when given); 0 for a tool never called."""
        for found in self.tools:
            if found.tool == tool:
                return found.calls if target is None else dict(found.targets).get(target, 0)
        return 0

    def limit(self, tool: str, target: str | None = None) -> LimitState | None:
        """The used limit of ``tool`` (for ``target``), or None when it has none in use."""
        for state in self.limits:
            if state.limit.tool == tool and state.target == target:
                return state
        return None


class StatusTracker:
    """Counts tool calls from ``ToolFinished`` events; hand it to the loop as a subscriber.

    ``targets`` maps a tool name to the argument that names its target (``{"phone_call":
    "company"}``); a limit's ``per`` argument is also a target of its tool when ``targets``
    does not name one. With ``session_id`` set, events of other sessions are ignored.
    """

    def __init__(
        self,
        *,
        targets: Mapping[str, str] | None = None,
        limits: Sequence[CallLimit] = (),
        session_id: str | None = None,
    ) -> None:
        self.session_id = session_id
        self.limits = tuple(limits)
        self._targets: dict[str, str] = dict(targets or {})
        for limit in self.limits:
            if limit.per is not None:
                self._targets.setdefault(limit.tool, limit.per)
        self._lock = threading.Lock()
        self._seen: set[str] = set()
        self._calls: Counter[str] = Counter()
        self._errors: Counter[str] = Counter()
        self._by_arg: Counter[tuple[str, str, str]] = Counter()  # (tool, argument, value)
        self._same: Counter[tuple[str, str]] = Counter()  # (tool, canonical arguments)
        self._notes: list[ErrorNote] = []

    @classmethod
    def from_log(
        cls,
        log: SessionStore,
        session_id: str,
        *,
        targets: Mapping[str, str] | None = None,
        limits: Sequence[CallLimit] = (),
    ) -> StatusTracker:
        """The tracker a live run of ``session_id`` would hold now, rebuilt from its log."""
        tracker = cls(targets=targets, limits=limits, session_id=session_id)
        tracker.replay(s.event for s in log.events(session_id, kinds=("tool_finished",)))
        return tracker

    def __call__(self, event: LoopEvent) -> None:
        if isinstance(event, ToolFinished):
            self.record(event)

    def replay(self, events: Iterable[LoopEvent | None]) -> None:
        """Fold recorded events in order, as if they had been emitted live."""
        for event in events:
            if event is not None:
                self(event)

    def record(self, event: ToolFinished) -> None:
        """Count one finished call (a second event for the same call id counts nothing)."""
        if self.session_id is not None and event.session_id != self.session_id:
            return
        call, result = event.call, event.result
        arguments = argument_object(call.arguments)
        with self._lock:
            if call.id in self._seen:
                return
            self._seen.add(call.id)
            self._calls[call.name] += 1
            for name in self._arguments_counted(call.name):
                value = _value(arguments, name)
                if value is not None:
                    self._by_arg[(call.name, name, value)] += 1
            self._same[(call.name, _canonical(call.arguments, arguments))] += 1
            if result.is_error:
                self._errors[call.name] += 1
                target = self.target_of(call, arguments)
                self._notes.append(ErrorNote(call.name, target, _error_line(result), event.at))
                del self._notes[:-MAX_ERROR_NOTES]

    def target_of(
        self, call: ToolCall, arguments: Mapping[str, object] | None = None
    ) -> str | None:
        """The value of the call's target argument as text, or None when it has none."""
        name = self._targets.get(call.name)
        if name is None:
            return None
        return _value(argument_object(call.arguments) if arguments is None else arguments, name)

    def position(self, call: ToolCall) -> CallPosition:
        """Where ``call`` stands if it is recorded next: its ordinals and the tightest limit."""
        arguments = argument_object(call.arguments)
        target = self.target_of(call, arguments)
        with self._lock:
            nth = self._calls[call.name] + 1
            target_nth = None
            if target is not None:
                target_nth = self._by_arg[(call.name, self._targets[call.name], target)] + 1
            tightest: LimitState | None = None
            for limit in self.limits:
                if limit.tool != call.name:
                    continue
                value = None if limit.per is None else _value(arguments, limit.per)
                if limit.per is not None and value is None:
                    continue
                key = (call.name, str(limit.per), value or "")
                state = LimitState(limit, nth if value is None else self._by_arg[key] + 1, value)
                if tightest is None or state.remaining < tightest.remaining:
                    tightest = state
        return CallPosition(nth, target, target_nth, tightest)

    def state(self) -> StatusState:
        """A snapshot of every count, ordered deterministically."""
        with self._lock:
            tools = tuple(self._tool_count(name) for name in sorted(self._calls))
            limits: list[LimitState] = []
            for limit in self.limits:
                if limit.per is None:
                    if self._calls[limit.tool]:
                        limits.append(LimitState(limit, self._calls[limit.tool]))
                    continue
                for (tool, arg, value), used in sorted(self._by_arg.items()):
                    if tool == limit.tool and arg == limit.per:
                        limits.append(LimitState(limit, used, value))
            repeats = tuple(
                RepeatedCall(tool, arguments, count)
                for (tool, arguments), count in sorted(self._same.items())
                if count > 1
            )
            return StatusState(
                tools=tools,
                limits=tuple(limits),
                errors=tuple(self._notes),
                repeats=repeats,
                total_calls=sum(self._calls.values()),
                total_errors=sum(self._errors.values()),
            )

    def _arguments_counted(self, tool: str) -> set[str]:
        names = {limit.per for limit in self.limits if limit.tool == tool and limit.per}
        if tool in self._targets:
            names.add(self._targets[tool])
        return {n for n in names if n is not None}

    def _tool_count(self, tool: str) -> ToolCount:
        arg = self._targets.get(tool)
        targets: tuple[tuple[str, int], ...] = ()
        if arg is not None:
            found = [(v, n) for (t, a, v), n in self._by_arg.items() if t == tool and a == arg]
            targets = tuple(sorted(found, key=lambda item: (-item[1], item[0])))
        return ToolCount(tool, self._calls[tool], self._errors[tool], arg, targets)


def _value(arguments: Mapping[str, object], name: str) -> str | None:
    if name not in arguments or arguments[name] is None:
        return None
    value = arguments[name]
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _canonical(raw: str, arguments: dict[str, object]) -> str:
    if arguments or raw.strip() in ("", "{}"):
        return json.dumps(arguments, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return raw.strip()


def _error_line(result: ToolMessage) -> str:
    """The first ``Error:`` line of a failed result, else its first line of text."""
    lines = [line.strip() for line in result.content.splitlines() if line.strip()]
    for line in lines:
        if line.startswith("Error:"):
            return shorten(line.removeprefix("Error:").strip(), _ERROR_CHARS)
    return shorten(lines[0], _ERROR_CHARS) if lines else "(empty error result)"
