"""The artifact trail: which files were read and written, their hashes, and test results.

Summaries are weakest exactly here (which files were created, changed or read), so the trail
is built by code from the recorded tool calls and results, never by a model, and rendered as
its own pinned block beside any summary. :func:`build_trail` is pure; which tool names count
as reads, writes and commands is a :class:`TrailRules` (defaults: workset's own tools).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from workset.history.base import PolicyContext
from workset.history.draft import Draft
from workset.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolMessage,
    UserMessage,
    argument_object,
)

TrailKind = Literal["read", "write", "edit", "test", "command"]
_TEST_COMMAND = re.compile(r"\b(pytest|unittest|tox|nox|(npm|pnpm|yarn|go|cargo|make) test)\b")
_TEST_COUNTS = re.compile(r"\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed)\b")
TRAIL_HEADER = "Artifact trail (built from the tool calls; kept outside any summary):"


@dataclass(frozen=True, slots=True)
class TrailRules:
    """Which tools read files, write them, edit them and run commands, and their arguments."""

    reads: tuple[str, ...] = ("read_file",)
    writes: tuple[str, ...] = ("write_file",)
    edits: tuple[str, ...] = ("edit_file",)
    commands: tuple[str, ...] = ("shell", "run_python")
    path_argument: str = "path"
    content_argument: str = "content"
    command_argument: str = "command"


@dataclass(frozen=True, slots=True)
class TrailEntry:
    kind: TrailKind
    target: str  # the path, or the command
    seq: int  # the result's seq
    turn: int
    hash: str = ""  # sha256 prefix of what was read or written
    detail: str = ""
    ok: bool = True

    def render(self) -> str:
        digest = f" sha256:{self.hash}" if self.hash else ""
        detail = f" - {self.detail}" if self.detail else ""
        failed = " (failed)" if not self.ok else ""
        return (
            f"- turn {self.turn}, seq {self.seq}: {self.kind} {self.target}{digest}{failed}{detail}"
        )


def build_trail(history: Sequence[Message], rules: TrailRules | None = None) -> list[TrailEntry]:
    """Trail entries for every recorded call the rules recognise, in the order of results."""
    rules = rules or TrailRules()
    calls: dict[str, ToolCall] = {}
    entries: list[TrailEntry] = []
    turn = 0
    for seq, message in enumerate(history):
        if isinstance(message, UserMessage):
            turn += 1
        elif isinstance(message, AssistantMessage):
            calls.update((c.id, c) for c in message.tool_calls)
        elif isinstance(message, ToolMessage) and message.tool_call_id in calls:
            entry = _entry(calls[message.tool_call_id], message, seq, turn, rules)
            if entry is not None:
                entries.append(entry)
    return entries


def render_trail(entries: Sequence[TrailEntry]) -> str:
    return "\n".join([TRAIL_HEADER, *(e.render() for e in entries)])


def _entry(
    call: ToolCall, result: ToolMessage, seq: int, turn: int, rules: TrailRules
) -> TrailEntry | None:
    args = argument_object(call.arguments)
    ok = not result.is_error and not result.content.startswith("Error:")
    path = str(args.get(rules.path_argument, ""))
    if call.name in rules.reads:
        return TrailEntry("read", path, seq, turn, _sha(result.content), ok=ok)
    if call.name in rules.writes:
        content = str(args.get(rules.content_argument, ""))
        detail = f"{len(content):,} chars written"
        return TrailEntry("write", path, seq, turn, _sha(content), detail, ok)
    if call.name in rules.edits:
        return TrailEntry("edit", path, seq, turn, "", _first_line(result.content), ok)
    if call.name in rules.commands:
        command = str(args.get(rules.command_argument, "")) or call.name
        if _TEST_COMMAND.search(command):
            counts = ", ".join(_TEST_COUNTS.findall(result.content)[-4:])
            return TrailEntry(
                "test", command, seq, turn, "", counts or _first_line(result.content), ok
            )
        return TrailEntry("command", command[:200], seq, turn, "", "", ok)
    return None


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _first_line(text: str) -> str:
    line = text.strip().split("\n", 1)[0] if text.strip() else ""
    return line[:160]


@dataclass(frozen=True, slots=True)
class ArtifactTrail:
    """Pin the trail built from the whole recorded history as its own block."""

    rules: TrailRules = TrailRules()

    async def apply(self, draft: Draft, context: PolicyContext) -> Draft:
        entries = build_trail(draft.history, self.rules)
        if not entries:
            return draft
        return replace(draft, pinned=(*draft.pinned, render_trail(entries)))
