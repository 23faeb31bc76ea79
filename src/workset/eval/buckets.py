"""Token buckets per call of a transcript, two ways, and a check that they agree.

Per call point (each recorded assistant message) the request as sent with the full history is
split into system, tool definitions, tool results and conversation:

- **exact per item**: the counter renders the request into parts and counts each one
  (:class:`~workset.tokens.counter.PartCounter`); the generation prompt goes with the system;
- **four counts, three subtractions** (seed 003), from whole-request totals only::

      total        = count(system, tools, messages)
      sys_tools    = count(system, tools, [])
      sys_only     = count(system, [], [])
      emptied      = count(system, tools, messages with every tool result's content emptied)
      system       = sys_only
      tools        = sys_tools − sys_only
      tool_results = total − emptied
      conversation = emptied − sys_tools

Results are emptied rather than removed (the seed removes them) because llama.cpp refuses a
request that ends in an assistant message with tool calls: it would continue that message. So
the tokens wrapping each result (role markers, ``<tool_response>`` tags) fall in conversation
by subtraction and in tool results per item; the check moves them (counted per item on the
emptied request) before comparing. Totals must agree exactly; each bucket within
``tolerance`` tokens (the line between system and tools moves by a few scaffolding tokens,
where the template puts the text around the tools block).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from workset.messages import Message, ToolMessage, ToolSpec
from workset.tokens.base import RequestCount

from .formats import Transcript
from .replay import call_points

COLUMNS: tuple[str, ...] = ("system", "tools", "tool_results", "conversation")


class RequestCounter(Protocol):
    def count_request(
        self, system: str | None, tools: Sequence[ToolSpec], messages: Sequence[Message]
    ) -> RequestCount: ...


@dataclass(frozen=True, slots=True)
class Buckets:
    system: int
    tools: int
    tool_results: int
    conversation: int

    @property
    def total(self) -> int:
        return self.system + self.tools + self.tool_results + self.conversation

    def as_dict(self) -> Mapping[str, int]:
        return {c: getattr(self, c) for c in COLUMNS} | {"total": self.total}


@dataclass(frozen=True, slots=True)
class BucketRow:
    index: int  # the recorded assistant message this call produced
    turn: int
    exact: Buckets
    subtracted: Buckets
    result_wrappers: int = 0  # per-item tokens of the emptied results: the tags around them

    def disagreement(self, tolerance: int) -> str | None:
        """None when the two methods agree; otherwise what differs."""
        a, b, moved = self.exact, self.subtracted, self.result_wrappers
        if a.total != b.total:
            return f"total: {a.total} per item vs {b.total} by subtraction"
        problems = [
            f"{name}: {x} per item vs {y} by subtraction"
            for name, x, y in (
                ("system", a.system, b.system),
                ("tools", a.tools, b.tools),
                ("tool_results", a.tool_results - moved, b.tool_results),
                ("conversation", a.conversation + moved, b.conversation),
            )
            if abs(x - y) > tolerance
        ]
        return "; ".join(problems) or None


@dataclass(frozen=True, slots=True)
class BucketsReport:
    transcript: str
    method: str
    rows: tuple[BucketRow, ...]
    tolerance: int

    @property
    def disagreements(self) -> list[str]:
        out = []
        for row in self.rows:
            problem = row.disagreement(self.tolerance)
            if problem:
                out.append(f"call at message {row.index} (turn {row.turn}): {problem}")
        return out


def per_item(count: RequestCount) -> Buckets:
    """Buckets from a part-by-part count; template scaffolding goes with the system."""
    sizes = count.buckets()
    system = sizes.get("system", 0) + sizes.get("template", 0)
    tools = sizes.get("tools", 0)
    results = sizes.get("tool_results", 0)
    return Buckets(system, tools, results, count.total - system - tools - results)


def four_counts(
    counter: RequestCounter,
    system: str | None,
    tools: Sequence[ToolSpec],
    messages: Sequence[Message],
) -> Buckets:
    """Seed 003's method: four whole-request counts, three subtractions."""

    def count(t: Sequence[ToolSpec], m: Sequence[Message]) -> int:
        return counter.count_request(system, t, m).total

    total = count(tools, messages)
    sys_tools = count(tools, ())
    sys_only = count((), ()) if tools else sys_tools
    emptied = count(tools, emptied_results(messages))
    return Buckets(sys_only, sys_tools - sys_only, total - emptied, emptied - sys_tools)


def emptied_results(messages: Sequence[Message]) -> list[Message]:
    return [
        ToolMessage(m.tool_call_id, "", m.name, m.is_error) if isinstance(m, ToolMessage) else m
        for m in messages
    ]


def transcript_buckets(
    transcript: Transcript,
    tools: Sequence[ToolSpec],
    items: RequestCounter,
    totals: RequestCounter | None = None,
    *,
    method: str = "",
    tolerance: int = 3,
) -> BucketsReport:
    """Buckets at every call point: per item with ``items``, by subtraction with ``totals``."""
    rows = []
    for index in call_points(transcript):
        history = transcript.messages[:index]
        exact = per_item(items.count_request(transcript.system, tools, history))
        subtracted = four_counts(totals or items, transcript.system, tools, history)
        shells = items.count_request(transcript.system, tools, emptied_results(history))
        row = BucketRow(
            index,
            transcript.turns[index],
            exact,
            subtracted,
            shells.buckets().get("tool_results", 0),
        )
        rows.append(row)
    return BucketsReport(transcript.source, method, tuple(rows), tolerance)
