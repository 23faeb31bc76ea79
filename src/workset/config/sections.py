"""The configuration's settings, section by section, each field with its default.

``WorksetConfig()`` is workset's default agent; every section is a frozen dataclass whose
defaults are the ones the table in :mod:`workset.config` documents (the loop's own come from
:class:`~workset.session.agent.AgentConfig`). ``[[channels]]`` blocks are
:class:`~workset.config.channels.ChannelSection`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, TypeAlias

from workset.config.channels import ChannelSection
from workset.models.factory import DEFAULT_MODEL
from workset.session.agent import DEFAULT_SYSTEM_PROMPT, AgentConfig

if TYPE_CHECKING:  # the package's __init__ loads the MCP SDK: imported only when configured
    from workset.mcp.config import LearnedMode, MCPServerConfig

ToolsFrom: TypeAlias = Literal["all", "list", "table"]
StatusStrategy: TypeAlias = Literal["replace", "append"]
StatusPlacement: TypeAlias = Literal["end", "after_system"]
ParamValue: TypeAlias = str | int | float | bool | tuple[str | int | float | bool, ...]
AGENT_DEFAULTS = AgentConfig()  # the loop's defaults, which the sections repeat


@dataclass(frozen=True, slots=True)
class ModelSection:
    name: str = DEFAULT_MODEL
    context_window: int = 0  # 0: the model's own default (embedded 16,384; endpoints 8,192)
    base_url: str = ""
    threads: int = 0  # 0: $WORKSET_THREADS, else half the cores
    timeout: float = AGENT_DEFAULTS.model_stall_s
    metrics_url: str = ""  # vLLM's /metrics: its prefix-cache counters recorded per call
    coder: str = ""  # the model that writes a function a guided edit chose ("": name)


@dataclass(frozen=True, slots=True)
class BudgetSection:
    output_reserve: int = AGENT_DEFAULTS.output_reserve
    margin: int = AGENT_DEFAULTS.margin


@dataclass(frozen=True, slots=True)
class AgentSection:
    """``tools`` is ``"all"`` or names in order; ``tools_from`` says how the file gave them
    (a TOML table of names is accepted but has no meaningful order: ``workset lint`` flags it).
    ``core_tools`` None means every tool is in the prompt."""

    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    system_prompt_file: Path | None = None
    max_iterations: int = AGENT_DEFAULTS.max_iterations
    tools: tuple[str, ...] | Literal["all"] = "all"
    tools_from: ToolsFrom = "all"
    core_tools: tuple[str, ...] | None = None
    compact_tools: bool | None = None  # None: compact for context windows of 16k or less
    read_lines: int | None = None  # read_file's window without a limit; None: 80 at 16k or less
    # The command run_tests runs (with --exec): "auto" finds a pytest project's, "" none.
    test_command: str = "auto"
    # search_fix beside run_tests (workset.repair): small changes tried against failing tests.
    search_fixes: bool = True
    # Ask an unsupported answer once more over the lines that bear on it (loop.second_look).
    second_look: bool = AGENT_DEFAULTS.second_look
    # Check an answered answer by asking again (loop.answer_check); None: with a coder model.
    check_answers: bool | None = None
    # The least probability of an answer's main fact for it to stay answered (loop.confidence);
    # None: answers are not scored.
    answer_confidence: float | None = AGENT_DEFAULTS.answer_confidence


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
class DiscoverySection:
    """``tool_search`` over the tools ``[agent] core_tools`` leaves out of the prompt
    (``search``: ``auto``, on when it leaves some out; ``off``), the needs it served
    remembered across runs (``memory``; workset.discovery.local), and a servability probe
    fitted on labelled needs of these tools (``probe``: the file
    :meth:`~workset.discovery.probe.ServabilityProbe.save` wrote) that answers "not found"
    where it judges no tool serves the need."""

    search: str = "auto"
    memory: bool = True
    probe: Path | None = None


@dataclass(frozen=True, slots=True)
class MCPSection:
    servers: tuple[MCPServerConfig, ...] = ()
    learned: LearnedMode = "off"  # the audit's learned layer: off, report or block


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
    discovery: DiscoverySection = field(default_factory=DiscoverySection)
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
            second_look=self.agent.second_look,
            check_answers=self.agent.check_answers,
            answer_confidence=self.agent.answer_confidence,
        )
