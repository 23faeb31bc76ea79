"""The agent configuration file: one TOML file, every field with a documented default.

An empty file (or no file) is the default configuration. Relative paths are resolved against
the folder of the file. Unknown keys and wrong types raise :class:`UsageError` naming the
file, the key and the fix.

====================  ========================  ===============================================
key                   default                   meaning
====================  ========================  ===============================================
[model]
name                  ``qwen2.5-coder-0.5b``    backend spec, as ``workset run --model`` takes it
context_window        8192                      window in tokens
base_url              ``""``                    endpoint for ``openai:MODEL`` specs
threads               0 (auto)                  embedded model threads; 0: $WORKSET_THREADS,
                                                else half the cores
timeout               180                       seconds the model may go without progress
                                                (no token, no prompt-progress report)
[budget]
output_reserve        512                       tokens kept free for the answer
margin                64                        safety margin on top of the reserve
[agent]
system_prompt         workset's default prompt  the stable system prompt (no dates, no users)
system_prompt_file    ``""``                    read the prompt from this file instead
max_iterations        8                         model calls per run before giving up
tools                 ``"all"``                 ``"all"`` or an ordered list of tool names
core_tools            all of ``tools``          tools in the prompt; the rest via discovery
compact_tools         auto                      short tool descriptions (``workset.tools.
                                                compact``); auto: for windows ≤ 16k tokens
[status]
enabled               false                     keep an ``<agent_status>`` block in each request
todo_tools            false                     offer ``rewrite_todo_list``/``update_todo_status``
strategy              ``"replace"``             ``replace`` (rebuilt at the end each round) or
                                                ``append`` (a new block appended each round)
placement             ``"end"``                 ``end``; ``after_system`` puts rotating state
                                                near the start and breaks the prefix cache
[history]
policy                ``"full"``                history policy name (``workset.history``)
params                ``{}``                    the policy's parameters, e.g. ``{ turns = 4 }``
[memory]
db                    ``""`` (no memory)        SQLite file of the memory store
tenant                ``""``                    scope of memory reads and writes
subject               ``""``                    the user the memory is about
purpose               ``""``                    why memory is read (purpose limitation)
[evidence]
paths                 ``[]``                    files or folders evidence is retrieved from
workspace             true                      index the workspace and put the chunks most
                                                relevant to the task in the first request
[skills]
dirs                  ``[]``                    folders holding skill folders (``SKILL.md``)
[mcp.servers.NAME]    none                      MCP servers, see :mod:`workset.mcp.config`
[[channels]]          none                      webhook channels of ``workset serve``, one
                                                block each (:mod:`workset.triggers.webhook`):
name                  required                  ``POST /hooks/NAME``; events ``webhook.NAME``
secret_env            required                  environment variable holding the shared secret
                                                (never the secret itself in this file)
session               ``"hook-NAME"``           the session its events go to (made if missing)
source                ``"contact"``             event source: contact, user, system, tool,
                                                timer or agent (content is untrusted anyway)
priority              ``"normal"``              urgent (interrupts), high, normal or low
sender_field          ``"from"``                payload key that names the sender
max_age_s             300                       accepted age (and clock skew) of a signature
====================  ========================  ===============================================
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

from workset.errors import UsageError
from workset.events.inputs import PRIORITIES, SOURCES, EventSource, Priority
from workset.models.factory import DEFAULT_MODEL
from workset.session.agent import DEFAULT_SYSTEM_PROMPT, AgentConfig

if TYPE_CHECKING:  # the package's __init__ loads the MCP SDK: imported only when configured
    from workset.mcp.config import MCPServerConfig

__all__ = [
    "AgentSection",
    "BudgetSection",
    "ChannelSection",
    "EvidenceSection",
    "HistorySection",
    "MCPSection",
    "MemorySection",
    "ModelSection",
    "SkillsSection",
    "StatusSection",
    "WorksetConfig",
    "config_from_mapping",
    "load_config",
]

ToolsFrom: TypeAlias = Literal["all", "list", "table"]
StatusStrategy: TypeAlias = Literal["replace", "append"]
StatusPlacement: TypeAlias = Literal["end", "after_system"]
ParamValue: TypeAlias = str | int | float | bool | tuple[str | int | float | bool, ...]

_AGENT_DEFAULTS = AgentConfig()


@dataclass(frozen=True, slots=True)
class ModelSection:
    name: str = DEFAULT_MODEL
    context_window: int = 8192
    base_url: str = ""
    threads: int = 0  # 0: $WORKSET_THREADS, else half the cores
    timeout: float = _AGENT_DEFAULTS.model_stall_s
    metrics_url: str = ""  # vLLM's /metrics: its prefix-cache counters recorded per call


@dataclass(frozen=True, slots=True)
class BudgetSection:
    output_reserve: int = _AGENT_DEFAULTS.output_reserve
    margin: int = _AGENT_DEFAULTS.margin


@dataclass(frozen=True, slots=True)
class AgentSection:
    """``tools`` is ``"all"`` or names in order; ``tools_from`` says how the file gave them
    (a TOML table of names is accepted but has no meaningful order: ``workset lint`` flags it).
    ``core_tools`` None means every tool is in the prompt."""

    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    system_prompt_file: Path | None = None
    max_iterations: int = _AGENT_DEFAULTS.max_iterations
    tools: tuple[str, ...] | Literal["all"] = "all"
    tools_from: ToolsFrom = "all"
    core_tools: tuple[str, ...] | None = None
    compact_tools: bool | None = None  # None: compact for context windows of 16k or less


@dataclass(frozen=True, slots=True)
class StatusSection:
    strategy: StatusStrategy = "replace"
    placement: StatusPlacement = "end"
    # Off by default: on the embedded 0.5B model the block distracts more than it helps (the
    # README task: it read the working directory as a file and described the status).
    enabled: bool = False
    todo_tools: bool = False


def _no_params() -> Mapping[str, ParamValue]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class HistorySection:
    policy: str = "full"
    params: Mapping[str, ParamValue] = field(default_factory=_no_params)


@dataclass(frozen=True, slots=True)
class MemorySection:
    db: Path | str | None = None  # a SQLite file, or a postgresql:// URL
    tenant: str = ""
    subject: str = ""
    purpose: str = ""


@dataclass(frozen=True, slots=True)
class EvidenceSection:
    paths: tuple[Path, ...] = ()
    workspace: bool = True


@dataclass(frozen=True, slots=True)
class SkillsSection:
    dirs: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class MCPSection:
    servers: tuple[MCPServerConfig, ...] = ()


# -- [[channels]]: webhook intake for `workset serve` ------------------------------------------


@dataclass(frozen=True, slots=True)
class ChannelSection:
    """One ``[[channels]]`` block; the secret stays in the environment variable it names."""

    name: str
    secret_env: str
    session: str = ""  # "" means "hook-<name>"
    source: EventSource = "contact"
    priority: Priority = "normal"
    sender_field: str = "from"
    max_age_s: int = 300

    @property
    def target(self) -> str:
        """The session the channel's events go to."""
        return self.session or f"hook-{self.name}"


_CHANNEL_KEYS = (
    "name", "secret_env", "session", "source", "priority", "sender_field", "max_age_s",
)  # fmt: skip
_CHANNEL_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _first(default: str, options: tuple[str, ...]) -> tuple[str, ...]:
    """``options`` with the default first (``_Reader.choice`` takes the first as default)."""
    return (default, *(o for o in options if o != default))


def _channels(reader: _Reader, value: Any) -> tuple[ChannelSection, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
        raise reader.fail(
            "[channels]", "must be an array of tables", 'write each as [[channels]] name = "…"'
        )
    found: list[ChannelSection] = []
    for n, raw in enumerate(value, 1):
        where = f"[[channels]] #{n}"
        if "secret" in raw:
            raise reader.fail(
                f"{where} secret",
                "puts the shared secret in the config file",
                'remove it, set secret_env = "NAME_OF_A_VARIABLE" and export that variable',
            )
        reader.known(raw, "channels", _CHANNEL_KEYS)
        name = reader.string(raw, "channels", "name", "")
        if not _CHANNEL_NAME.fullmatch(name):
            raise reader.fail(
                f"{where} name",
                f"must be 1 to 40 lowercase letters, digits, '_' or '-', not {name!r}",
                'name = "email"',
            )
        secret_env = reader.string(raw, "channels", "secret_env", "")
        if not _ENV_NAME.fullmatch(secret_env):
            raise reader.fail(
                f"[[channels]] {name} secret_env",
                f"must name an environment variable, not {secret_env!r}",
                f'secret_env = "WORKSET_HOOK_{name.upper().replace("-", "_")}"',
            )
        source = reader.choice(raw, "channels", "source", _first("contact", SOURCES))
        priority = reader.choice(raw, "channels", "priority", _first("normal", PRIORITIES))
        found.append(
            ChannelSection(
                name=name,
                secret_env=secret_env,
                session=reader.string(raw, "channels", "session", ""),
                source=cast(EventSource, source),
                priority=cast(Priority, priority),
                sender_field=reader.string(raw, "channels", "sender_field", "from") or "from",
                max_age_s=reader.integer(raw, "channels", "max_age_s", 300, 1),
            )
        )
    names = [c.name for c in found]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise reader.fail("[[channels]]", f"defines {dupes} more than once", "keep one block each")
    return tuple(found)


@dataclass(frozen=True, slots=True)
class WorksetConfig:
    """The whole configuration; ``WorksetConfig()`` is workset's default agent."""

    model: ModelSection = field(default_factory=ModelSection)
    budget: BudgetSection = field(default_factory=BudgetSection)
    agent: AgentSection = field(default_factory=AgentSection)
    status: StatusSection = field(default_factory=StatusSection)
    history: HistorySection = field(default_factory=HistorySection)
    memory: MemorySection = field(default_factory=MemorySection)
    evidence: EvidenceSection = field(default_factory=EvidenceSection)
    skills: SkillsSection = field(default_factory=SkillsSection)
    mcp: MCPSection = field(default_factory=MCPSection)
    channels: tuple[ChannelSection, ...] = ()
    source: str = "<defaults>"  # the file it came from

    def agent_config(self) -> AgentConfig:
        """The loop's settings this file asks for (other fields keep their defaults)."""
        return AgentConfig(
            system_prompt=self.agent.system_prompt,
            max_iterations=self.agent.max_iterations,
            output_reserve=self.budget.output_reserve,
            margin=self.budget.margin,
            model_stall_s=self.model.timeout,
        )


def load_config(path: str | Path) -> WorksetConfig:
    """Read and check one TOML configuration file."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(
            f"cannot read the config file {file}: {exc.strerror or exc}; check the path"
        ) from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{file} is not valid TOML: {exc}; fix the syntax there") from exc
    return config_from_mapping(data, source=str(file), base=file.parent)


def config_from_mapping(
    data: Mapping[str, Any], *, source: str = "<mapping>", base: Path | None = None
) -> WorksetConfig:
    """A configuration from parsed TOML; relative paths resolve against ``base``."""
    reader = _Reader(source, base or Path())
    reader.known(data, "", _SECTIONS)
    agent = reader.agent(reader.table(data, "agent"))
    return WorksetConfig(
        model=reader.model(reader.table(data, "model")),
        budget=reader.budget(reader.table(data, "budget")),
        agent=agent,
        status=reader.status(reader.table(data, "status")),
        history=reader.history(reader.table(data, "history")),
        memory=reader.memory(reader.table(data, "memory")),
        evidence=reader.evidence(reader.table(data, "evidence")),
        skills=SkillsSection(reader.paths(reader.table(data, "skills"), "skills", "dirs")),
        mcp=reader.mcp(data),
        channels=_channels(reader, data.get("channels")),
        source=source,
    )


_SECTIONS = (
    "model",
    "budget",
    "agent",
    "status",
    "history",
    "memory",
    "evidence",
    "skills",
    "mcp",
    "channels",
)
_KEYS: dict[str, tuple[str, ...]] = {
    "model": ("name", "context_window", "base_url", "threads", "timeout"),
    "budget": ("output_reserve", "margin"),
    "agent": (
        "system_prompt",
        "system_prompt_file",
        "max_iterations",
        "tools",
        "core_tools",
        "compact_tools",
    ),
    "status": ("enabled", "strategy", "placement", "todo_tools"),
    "history": ("policy", "params"),
    "memory": ("db", "tenant", "subject", "purpose"),
    "evidence": ("paths", "workspace"),
    "skills": ("dirs",),
    "mcp": ("servers",),
}


@dataclass(frozen=True, slots=True)
class _Reader:
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
            context_window=self.integer(raw, "model", "context_window", 8192, 256),
            base_url=self.string(raw, "model", "base_url", ""),
            threads=self.integer(raw, "model", "threads", 0, 0),
            metrics_url=self.string(raw, "model", "metrics_url", ""),
            timeout=self.seconds(raw, "model", "timeout", _AGENT_DEFAULTS.model_stall_s),
        )

    def seconds(self, raw: Mapping[str, Any], section: str, key: str, default: float) -> float:
        value = raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise self.fail(
                f"[{section}] {key}", f"must be a number of seconds > 0, not {value!r}",
                f"{key} = {default:g}",
            )  # fmt: skip
        return float(value)

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
                raw, "agent", "max_iterations", _AGENT_DEFAULTS.max_iterations, 1
            ),
            tools=tools,
            tools_from=tools_from,
            core_tools=core,
            compact_tools=(
                self.boolean(raw, "agent", "compact_tools", True)
                if "compact_tools" in raw
                else None
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
        from workset.mcp.config import load_servers

        try:
            return MCPSection(load_servers(data))
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
