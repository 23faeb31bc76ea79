"""The permission policy: which tools run freely, which ask a human, which never run.

A :class:`PermissionPolicy` is plain configuration, loadable from a ``[permissions]`` TOML
table with :meth:`PermissionPolicy.from_mapping`::

    [permissions]
    deny_tools = ["delete_branch"]
    ask_tools = ["send_email"]
    allow_tools = ["shell"]          # trusted: no approval for risk or "ask" findings
    command_tools = { shell = "command", initiate_shell = "command" }
    code_tools = { run_python = "code" }
    ask_risk = "high"                # "low", "medium", "high" or "never"
    prove_commands = true            # allow a command the analysis shows is safe
    max_calls_per_tool = 50          # per run; leave out for no limit
    rate_limit_per_minute = 20       # per tool; leave out for no limit
    workspace = "/home/me/project"

:class:`Quotas` counts calls against the two limits with an injectable clock.
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from workset.errors import UsageError
from workset.tools.base import Risk

_RISK_ORDER: dict[str, int] = {"low": 0, "medium": 1, "high": 2}


def _frozen(mapping: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True, slots=True)
class PermissionPolicy:
    """What the rule classifier enforces. Every field has a safe default.

    - ``deny_tools``: never run these tools.
    - ``ask_tools``: always ask a human before these run.
    - ``allow_tools``: trusted; no approval for their risk or for ``ask`` findings of command
      analysis (``deny`` findings still block them).
    - ``command_tools``: tool name → the argument that holds a shell command to analyse
      (default ``{"shell": "command"}``).
    - ``code_tools``: tool name → the argument that holds Python code to analyse
      (default ``{"run_python": "code"}``).
    - ``ask_risk``: tools at or above this risk need approval unless read-only or allowed
      (default ``"high"``; ``None`` never asks for risk alone).
    - ``prove_commands``: a call of a command or code tool runs without asking when the
      analysis finds nothing, which it does only for commands it shows to be read-only or
      confined to the workspace (default ``True``; ``False`` asks for every such call at or
      above ``ask_risk``, as before).
    - ``max_calls_per_tool``: calls of one tool per run (default ``None``, no limit).
    - ``rate_limit_per_minute``: calls of one tool in any 60 s (default ``None``, no limit).
    - ``workspace``: the directory the agent works in, for command analysis (default ``None``:
      only relative paths count as inside it).
    """

    deny_tools: frozenset[str] = frozenset()
    ask_tools: frozenset[str] = frozenset()
    allow_tools: frozenset[str] = frozenset()
    command_tools: Mapping[str, str] = field(
        default_factory=lambda: _frozen({"shell": "command", "initiate_shell": "command"})
    )
    code_tools: Mapping[str, str] = field(default_factory=lambda: _frozen({"run_python": "code"}))
    ask_risk: Risk | None = "high"
    prove_commands: bool = True
    max_calls_per_tool: int | None = None
    rate_limit_per_minute: int | None = None
    workspace: str | None = None

    def __post_init__(self) -> None:
        if self.ask_risk is not None and self.ask_risk not in _RISK_ORDER:
            raise UsageError(
                f"ask_risk must be 'low', 'medium', 'high' or None, not {self.ask_risk!r}"
            )
        if not isinstance(self.prove_commands, bool):
            raise UsageError("prove_commands must be true or false")
        for name in ("max_calls_per_tool", "rate_limit_per_minute"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise UsageError(f"{name} must be a positive integer; leave it out for no limit")
        both = (self.deny_tools & self.allow_tools) | (self.ask_tools & self.allow_tools)
        if both:
            raise UsageError(
                f"tools {sorted(both)} are both allowed and denied/asked; keep each in one list"
            )

    def needs_approval_for_risk(self, risk: Risk) -> bool:
        return self.ask_risk is not None and _RISK_ORDER[risk] >= _RISK_ORDER[self.ask_risk]

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> PermissionPolicy:
        """A policy from a TOML-like table; unknown keys are an error naming the valid ones."""
        valid = [f.name for f in fields(cls)]
        unknown = sorted(set(data) - set(valid))
        if unknown:
            raise UsageError(
                f"unknown permission setting(s) {', '.join(map(repr, unknown))}; valid "
                f"settings are: {', '.join(valid)}"
            )
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key in ("deny_tools", "ask_tools", "allow_tools"):
                values[key] = frozenset(_names(key, value))
            elif key in ("command_tools", "code_tools"):
                values[key] = _frozen(_table(key, value))
            elif key == "ask_risk":
                values[key] = None if value in ("never", None) else value
            else:
                values[key] = value
        return cls(**values)


def _names(key: str, value: Any) -> list[str]:
    if not isinstance(value, list | tuple | frozenset | set) or not all(
        isinstance(v, str) for v in value
    ):
        raise UsageError(f'{key} must be a list of tool names, like ["shell"]')
    return list(value)


def _table(key: str, value: Any) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise UsageError(
            f'{key} must map tool names to argument names, like {{ shell = "command" }}'
        )
    return dict(value)


class Quotas:
    """Counts calls per tool against the policy's per-run and per-minute limits."""

    def __init__(
        self, policy: PermissionPolicy, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.policy = policy
        self.clock = clock
        self.calls: dict[str, int] = defaultdict(int)
        self._recent: dict[str, deque[float]] = defaultdict(deque)

    def exceeded(self, tool_name: str) -> str | None:
        """Why one more call of ``tool_name`` is over a limit, or None if it is within them."""
        limit = self.policy.max_calls_per_tool
        if limit is not None and self.calls[tool_name] >= limit:
            return (
                f"{tool_name} was already called {limit} times in this run, the limit; "
                "finish with what you have or ask the user to raise max_calls_per_tool"
            )
        rate = self.policy.rate_limit_per_minute
        if rate is not None and len(self._window(tool_name)) >= rate:
            wait = 60.0 - (self.clock() - self._window(tool_name)[0])
            return (
                f"{tool_name} was called {rate} times in the last minute, the limit; "
                f"wait {wait:.0f} s or do something else first"
            )
        return None

    def record(self, tool_name: str) -> None:
        self.calls[tool_name] += 1
        self._recent[tool_name].append(self.clock())

    def _window(self, tool_name: str) -> deque[float]:
        recent = self._recent[tool_name]
        now = self.clock()
        while recent and now - recent[0] >= 60.0:
            recent.popleft()
        return recent
