"""Reading parsed TOML into the configuration's sections.

The schema (the known sections and the keys of each), typed getters that fail with the file,
the key and the fix, and one method per section that builds it from its table.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from workset.config.sections import (
    AGENT_DEFAULTS,
    AgentSection,
    BudgetSection,
    DiscoverySection,
    EvidenceSection,
    HistorySection,
    MCPSection,
    MemorySection,
    ModelSection,
    ParamValue,
    StatusSection,
    ToolsFrom,
)
from workset.errors import UsageError
from workset.models.factory import DEFAULT_MODEL, EMBEDDED_WINDOW
from workset.session.agent import DEFAULT_SYSTEM_PROMPT

SECTIONS = (
    "model",
    "budget",
    "agent",
    "status",
    "history",
    "memory",
    "evidence",
    "skills",
    "mcp",
    "discovery",
    "channels",
)
_KEYS: dict[str, tuple[str, ...]] = {
    "model": ("name", "context_window", "base_url", "metrics_url", "threads", "timeout", "coder"),
    "budget": ("output_reserve", "margin"),
    "agent": (
        "system_prompt",
        "system_prompt_file",
        "max_iterations",
        "tools",
        "core_tools",
        "compact_tools",
        "read_lines",
        "test_command",
        "search_fixes",
        "second_look",
        "check_answers",
        "answer_confidence",
    ),
    "status": ("enabled", "strategy", "placement", "todo_tools"),
    "history": ("policy", "params"),
    "memory": ("db", "tenant", "subject", "purpose"),
    "evidence": ("paths", "workspace"),
    "skills": ("dirs",),
    "mcp": ("learned", "servers"),
    "discovery": ("search", "memory", "probe"),
}


@dataclass(frozen=True, slots=True)
class Reader:
    """Typed getters that fail with the file, the key and the fix."""

    source: str
    base: Path

    def fail(self, where: str, problem: str, fix: str) -> UsageError:
        return UsageError(f"{self.source}: {where} {problem}. Fix: {fix}")

    def known(self, raw: Mapping[str, Any], section: str, keys: tuple[str, ...]) -> None:
        for key in raw:
            if key in keys:
                continue
            close = difflib.get_close_matches(key, keys, n=1)
            action = f"rename it to {close[0]!r}" if close else "remove it"
            if section:
                where, what, known = f"[{section}] {key}", "key", f"keys of [{section}]"
            else:
                where, what, known = f"[{key}]", "section", "sections"
            raise self.fail(
                where,
                f"is not a known {what}",
                f"{action}; known {known}: {', '.join(keys)}",
            )

    def table(self, data: Mapping[str, Any], section: str) -> Mapping[str, Any]:
        raw = data.get(section, {})
        if not isinstance(raw, Mapping):
            raise self.fail(f"[{section}]", "must be a table", f"write it as [{section}] key = …")
        self.known(raw, section, _KEYS[section])
        return raw

    def string(self, raw: Mapping[str, Any], section: str, key: str, default: str) -> str:
        value = raw.get(key, default)
        if not isinstance(value, str):
            raise self.fail(
                f"[{section}] {key}", f"must be a string, not {_kind(value)}", f'{key} = "…"'
            )
        return value

    def integer(
        self, raw: Mapping[str, Any], section: str, key: str, default: int, minimum: int
    ) -> int:
        value = raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.fail(
                f"[{section}] {key}",
                f"must be an integer ≥ {minimum}, not {value!r}",
                f"{key} = {max(default, minimum)}",
            )
        return value

    def choice(
        self, raw: Mapping[str, Any], section: str, key: str, options: tuple[str, ...]
    ) -> str:
        value = raw.get(key, options[0])
        if value not in options:
            shown = " or ".join(repr(o) for o in options)
            raise self.fail(
                f"[{section}] {key}", f"must be {shown}, not {value!r}", f'{key} = "{options[0]}"'
            )
        return str(value)

    def boolean(self, raw: Mapping[str, Any], section: str, key: str, default: bool) -> bool:
        value = raw.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(
                f"[{section}] {key}",
                f"must be true or false, not {_kind(value)}",
                f"{key} = {str(default).lower()}",
            )
        return value

    def names(self, raw: Mapping[str, Any], section: str, key: str) -> tuple[str, ...]:
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.fail(
                f"[{section}] {key}",
                f"must be a list of non-empty strings, not {_kind(value)}",
                f'{key} = ["…", "…"]',
            )
        return tuple(value)

    def path(self, value: str) -> Path:
        path = Path(value).expanduser()
        return path if path.is_absolute() else self.base / path

    def paths(self, raw: Mapping[str, Any], section: str, key: str) -> tuple[Path, ...]:
        return tuple(self.path(v) for v in self.names(raw, section, key))

    # -- sections ---------------------------------------------------------------------------

    def model(self, raw: Mapping[str, Any]) -> ModelSection:
        return ModelSection(
            name=self.string(raw, "model", "name", DEFAULT_MODEL) or DEFAULT_MODEL,
            context_window=(
                self.integer(raw, "model", "context_window", EMBEDDED_WINDOW, 256)
                if "context_window" in raw
                else 0
            ),
            base_url=self.string(raw, "model", "base_url", ""),
            threads=self.integer(raw, "model", "threads", 0, 0),
            metrics_url=self.string(raw, "model", "metrics_url", ""),
            timeout=self.seconds(raw, "model", "timeout", AGENT_DEFAULTS.model_stall_s),
            coder=self.string(raw, "model", "coder", ""),
        )

    def probability(
        self, raw: Mapping[str, Any], section: str, key: str, default: float | None
    ) -> float | None:
        """A probability strictly between 0 and 1, or ``false`` for off (None)."""
        value = raw.get(key, default)
        if value is False or value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
            raise self.fail(
                f"[{section}] {key}", f"must be a probability between 0 and 1, or false, not "
                f"{value!r}", f"{key} = {default if default is not None else 0.5:g}",
            )  # fmt: skip
        return float(value)

    def seconds(self, raw: Mapping[str, Any], section: str, key: str, default: float) -> float:
        value = raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise self.fail(
                f"[{section}] {key}", f"must be a number of seconds > 0, not {value!r}",
                f"{key} = {default:g}",
            )  # fmt: skip
        return float(value)

    def discovery(self, raw: Mapping[str, Any]) -> DiscoverySection:
        probe = self.string(raw, "discovery", "probe", "")
        return DiscoverySection(
            search=self.choice(raw, "discovery", "search", ("auto", "off")),
            memory=self.boolean(raw, "discovery", "memory", True),
            probe=self.path(probe) if probe else None,
        )

    def evidence(self, raw: Mapping[str, Any]) -> EvidenceSection:
        return EvidenceSection(
            self.paths(raw, "evidence", "paths"),
            workspace=self.boolean(raw, "evidence", "workspace", True),
        )

    def budget(self, raw: Mapping[str, Any]) -> BudgetSection:
        defaults = BudgetSection()
        return BudgetSection(
            output_reserve=self.integer(
                raw, "budget", "output_reserve", defaults.output_reserve, 1
            ),
            margin=self.integer(raw, "budget", "margin", defaults.margin, 0),
        )

    def agent(self, raw: Mapping[str, Any]) -> AgentSection:
        if "system_prompt" in raw and "system_prompt_file" in raw:
            raise self.fail(
                "[agent] system_prompt_file",
                "is given together with system_prompt",
                "keep only one of the two",
            )
        prompt = self.string(raw, "agent", "system_prompt", DEFAULT_SYSTEM_PROMPT)
        prompt_file = None
        if "system_prompt_file" in raw:
            prompt_file = self.path(self.string(raw, "agent", "system_prompt_file", ""))
            try:
                prompt = prompt_file.read_text(encoding="utf-8")
            except OSError as exc:
                raise self.fail(
                    "[agent] system_prompt_file",
                    f"names {prompt_file}, which cannot be read ({exc.strerror or exc})",
                    "point it at an existing text file (relative paths start at the config's "
                    "folder)",
                ) from exc
        if not prompt.strip():
            raise self.fail(
                "[agent] system_prompt", "is empty", "write the prompt, or leave the key out"
            )
        tools, tools_from = self.tools(raw.get("tools", "all"))
        core = self.names(raw, "agent", "core_tools") if "core_tools" in raw else None
        if core is not None and tools != "all":
            missing = [n for n in core if n not in tools]
            if missing:
                raise self.fail(
                    "[agent] core_tools",
                    f"names {missing}, which are not in [agent] tools",
                    "add them to tools, or remove them from core_tools",
                )
        return AgentSection(
            system_prompt=prompt,
            system_prompt_file=prompt_file,
            max_iterations=self.integer(
                raw, "agent", "max_iterations", AGENT_DEFAULTS.max_iterations, 1
            ),
            tools=tools,
            tools_from=tools_from,
            core_tools=core,
            compact_tools=(
                self.boolean(raw, "agent", "compact_tools", True)
                if "compact_tools" in raw
                else None
            ),
            read_lines=(
                self.integer(raw, "agent", "read_lines", 200, 1) if "read_lines" in raw else None
            ),
            test_command=self.string(raw, "agent", "test_command", "auto").strip(),
            search_fixes=self.boolean(raw, "agent", "search_fixes", True),
            second_look=self.boolean(raw, "agent", "second_look", AGENT_DEFAULTS.second_look),
            check_answers=(
                self.boolean(raw, "agent", "check_answers", True)
                if "check_answers" in raw
                else None
            ),
            answer_confidence=self.probability(
                raw, "agent", "answer_confidence", AGENT_DEFAULTS.answer_confidence
            ),
        )

    def tools(self, value: Any) -> tuple[tuple[str, ...] | Literal["all"], ToolsFrom]:
        if value == "all":
            return "all", "all"
        if isinstance(value, list):
            names = self.names({"tools": value}, "agent", "tools")
            dupes = sorted({n for n in names if names.count(n) > 1})
            if dupes:
                raise self.fail(
                    "[agent] tools", f"lists {dupes} more than once", "list each tool once"
                )
            return names, "list"
        if isinstance(value, Mapping) and all(isinstance(v, bool) for v in value.values()):
            return tuple(name for name, on in value.items() if on), "table"
        raise self.fail(
            "[agent] tools",
            f'must be "all" or a list of tool names, not {_kind(value)}',
            'tools = "all" or tools = ["read_file", "grep"]',
        )

    def status(self, raw: Mapping[str, Any]) -> StatusSection:
        strategy = self.choice(raw, "status", "strategy", ("replace", "append"))
        placement = self.choice(raw, "status", "placement", ("end", "after_system"))
        return StatusSection(
            strategy="append" if strategy == "append" else "replace",
            placement="after_system" if placement == "after_system" else "end",
            enabled=self.boolean(raw, "status", "enabled", False),
            todo_tools=self.boolean(raw, "status", "todo_tools", False),
        )

    def history(self, raw: Mapping[str, Any]) -> HistorySection:
        policy = self.string(raw, "history", "policy", "full")
        params = raw.get("params", {})
        if not isinstance(params, Mapping):
            raise self.fail(
                "[history] params",
                f"must be a table, not {_kind(params)}",
                "params = { turns = 4 }",
            )
        checked: dict[str, ParamValue] = {}
        for key, value in params.items():
            if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
                checked[key] = tuple(value)
            elif isinstance(value, str | int | float):
                checked[key] = value
            else:
                raise self.fail(
                    f"[history.params] {key}",
                    f"must be a number, string, boolean or list of them, not {_kind(value)}",
                    f"{key} = 4",
                )
        if not policy:
            raise self.fail("[history] policy", "is empty", 'policy = "full"')
        return HistorySection(policy, MappingProxyType(checked))

    def memory(self, raw: Mapping[str, Any]) -> MemorySection:
        db = self.string(raw, "memory", "db", "")
        return MemorySection(
            db=(db if "://" in db else self.path(db)) if db else None,
            tenant=self.string(raw, "memory", "tenant", ""),
            subject=self.string(raw, "memory", "subject", ""),
            purpose=self.string(raw, "memory", "purpose", ""),
        )

    def mcp(self, data: Mapping[str, Any]) -> MCPSection:
        if not self.table(data, "mcp"):
            return MCPSection()
        from workset.mcp.config import load_learned, load_servers

        try:
            return MCPSection(load_servers(data), load_learned(data))
        except UsageError as exc:
            raise UsageError(
                f"{self.source}: {exc}. Fix: see the [mcp.servers.NAME] format in the "
                "workset.mcp.config docs"
            ) from exc


def _kind(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    if type(value) in names:
        return f"{names[type(value)]} ({value!r})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a table"
    return type(value).__name__
