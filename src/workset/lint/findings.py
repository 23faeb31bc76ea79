"""What a lint check reports, and the rules it can report on."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, TypeAlias

Severity: TypeAlias = Literal["error", "warning", "info"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem: a rule ``code``, where it is, what was found and how to fix it."""

    code: str
    severity: Severity
    where: str
    message: str
    fix: str


@dataclass(frozen=True, slots=True)
class Rule:
    title: str
    why: str  # why it costs: shown once per rule by ``workset lint``


RULES: dict[str, Rule] = {
    "WS100": Rule(
        "unknown tool name",
        "a tool the configuration names but workset does not provide is never offered, so "
        "what the agent sees differs from what the file says",
    ),
    "WS101": Rule(
        "volatile text in the stable prefix",
        "the prompt cache reuses a request's leading tokens only while they are byte-identical; "
        "a date, time, id or placeholder that changes per call breaks reuse at its position, so "
        "everything after it (tools, the whole trajectory) is prefilled again on every call",
    ),
    "WS102": Rule(
        "tools given without an order",
        "tool definitions sit in the prefix right after the system prompt; a mapping or set has "
        "no order you control, so two processes may render the tools differently and share no "
        "cache after the system prompt",
    ),
    "WS103": Rule(
        "tool definitions not the same on two loads",
        "the tool block must be byte-identical across calls and restarts; a different order or "
        "text on a second load breaks reuse from the first differing tool on",
    ),
    "WS104": Rule(
        "per-user state before the cache boundary",
        "a user's name or tenant in the system prompt gives every user their own prefix: no "
        "cache is shared across users, and the prompt changes when the user does",
    ),
    "WS105": Rule(
        "rotating state placed near the start",
        "status (time, counters, TODOs) changes every round; placed near the start it forces "
        "the whole trajectory after it to be prefilled again on every call",
    ),
    "WS201": Rule(
        "tool list changed between calls",
        "adding, removing or reordering tools changes the prefix: every token after the tool "
        "block is prefilled again",
    ),
    "WS202": Rule(
        "system prompt changed between calls",
        "the system prompt is the first thing in every request; changing it discards the "
        "whole cache",
    ),
    "WS203": Rule(
        "prefix reuse keeps breaking near the start",
        "when reuse breaks at a small position call after call, something near the start "
        "rotates each round, and the model prefills almost the whole request every time",
    ),
    "WS204": Rule(
        "messages deleted from the middle",
        "dropping an earlier message while keeping later ones shifts everything after it: the "
        "cache is lost from the deletion on, and the model loses results it may still need",
    ),
}


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)
