"""What every ``workset`` command that runs the agent shares: its options, the runtime they
build (model, tools, safety gate, session log, agent) and how a run's outcome is reported.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import anyio
import click
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn
from rich.text import Text

from workset.cli.catalog import Catalog, discovery_folder
from workset.cli.options import db_option, open_db
from workset.cli.progress import CallProgress
from workset.cli.render import event_line, outcome_line
from workset.config import HistorySection, WorksetConfig, load_config
from workset.errors import UsageError
from workset.events import LoopEvent
from workset.loop.bus import Subscriber
from workset.loop.offer import ToolOffer
from workset.loop.outcome import EXIT_CODES, classify
from workset.loop.settings import default_prompt
from workset.models.announce import AnnouncedModel
from workset.models.base import Model
from workset.models.factory import DEFAULT_MODEL, EMBEDDED_WINDOW, create_model
from workset.models.factory import Progress as ProgressCallback
from workset.runtime import context_setup
from workset.safety.approval import CircuitBreaker, TerminalApprover, with_timeout
from workset.safety.gate import SafetyGate
from workset.safety.policy import PermissionPolicy
from workset.session.agent import Agent, AgentConfig, RunResult
from workset.stores import SessionStore
from workset.stores.url import local_folder
from workset.telemetry import subscriber_from_env
from workset.tools.background import background_tools
from workset.tools.base import Tool
from workset.tools.compact import COMPACT_WINDOW, compact_tools, compacts
from workset.tools.execution import execution_tools
from workset.tools.perception import READ_LINES, SMALL_READ_LINES, perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.sandbox import detect_sandbox, sandbox_unavailable_reason
from workset.tools.testing import detect_test_command, tools_for_tests
from workset.tools.workspace import Workspace
from workset.triggers.tools import timer_tools

err = Console(stderr=True)
out = Console()


@dataclass(frozen=True, slots=True)
class RuntimeOptions:
    """What every command that runs the agent needs, as given on the command line."""

    model_spec: str | None
    base_url: str | None
    api_key: str | None
    context_window: int | None
    workspace: Path
    max_iterations: int | None
    constrained: bool
    execute: bool
    background: bool
    db: str | None
    config: Path | None
    history_policy: str | None
    model_timeout: float | None
    threads: int | None
    evidence: bool | None
    guided_edits: bool | None
    agents: Path | None
    coder_model: str | None


def guided_default(model: object) -> bool:
    """Guided edits by default where the backend enforces their schema: the embedded model
    and scripted ones; not a remote OpenAI-compatible endpoint, whose strict structured
    output rejects a schema that is a choice of objects (``anyOf`` at the top)."""
    from workset.models.openai_compat import OpenAICompatibleModel

    return AgentConfig().guided_edits and not isinstance(model, OpenAICompatibleModel)


def model_options(fn: Callable[..., None]) -> Callable[..., None]:
    """Add the model, workspace and log options; the command receives them as ``opts``."""

    @functools.wraps(fn)
    def command(**kwargs: Any) -> None:
        names = [f.name for f in fields(RuntimeOptions)]
        fn(opts=RuntimeOptions(**{n: kwargs.pop(n) for n in names}), **kwargs)

    options = [
        click.option("--model", "model_spec", default=None,
                     help="Embedded model name, a .gguf path, openai:MODEL, or scripted:FILE "
                     f"(default: the config's [model] name, else {DEFAULT_MODEL})."),
        click.option("--base-url", default=None, help="Endpoint for openai:MODEL."),
        click.option("--api-key", default=None, envvar="WORKSET_API_KEY",
                     help="API key for openai:MODEL (or $WORKSET_API_KEY)."),
        click.option("--context-window", type=int, default=None,
                     help="Context window in tokens (default: the config's, else "
                     f"{EMBEDDED_WINDOW} for embedded models, 8192 for endpoints)."),
        click.option("--workspace", type=click.Path(file_okay=False, path_type=Path),
                     default=Path(), show_default=True,
                     help="Folder the tools may read; nothing outside it is reachable."),
        click.option("--max-iterations", type=int, default=None,
                     help="Model calls allowed per run before giving up (default: the "
                     "config's, else 8)."),
        click.option("--constrained", is_flag=True, default=False,
                     help="Constrain each model output to one valid tool call or an answer "
                     "with a JSON schema (llama.cpp backends enforce it)."),
        click.option("--exec", "execute", is_flag=True, default=False,
                     help="Also offer write_file, edit_file, undo_edit, shell, run_python and "
                     "run_tests (a pytest workspace, or [agent] test_command) with "
                     "search_fix ([agent] search_fixes): sandboxed "
                     "with bubblewrap where available, every call checked by the safety gate, "
                     "risky ones asked on the terminal (refused when there is none)."),
        click.option("--background", is_flag=True, default=False,
                     help="With --exec: also offer initiate_shell, monitor_shell, task_status "
                     "and cancel_task, which run long commands in the background and report "
                     "back as events (their definitions cost about 1,000 tokens)."),
        db_option,
        click.option("--config", type=click.Path(dir_okay=False, exists=True, path_type=Path),
                     default=None,
                     help="A workset.toml: model, budget, status bar, history policy, memory, "
                     "evidence, skills (see docs/context.md)."),
        click.option("--policy", "history_policy", default=None,
                     help="History policy: full, window, compaction, compaction_notes, elide, "
                     "user_verbatim, pinned_system, pinned_end (default: the config's, else "
                     "full)."),
        click.option("--model-timeout", type=click.FloatRange(min=1), default=None,
                     help="Seconds the model may go without progress (no token, no "
                     "prompt-progress report) before the call fails (default: the config's "
                     "[model] timeout, else 180)."),
        click.option("--threads", type=click.IntRange(min=1), default=None,
                     help="Threads of the embedded model (default: the config's [model] "
                     "threads, else $WORKSET_THREADS, else half the cores)."),
        click.option("--coder-model", default=None,
                     help="The model for the requests asked alone: with --exec the function a "
                     "guided edit chose, written as code; a question asked again over the lines "
                     "that bear on it (e.g. qwen2.5-coder-1.5b beside the 0.5B; default: the "
                     "config's [model] coder, else --model)."),
        click.option("--guided-edits/--free-edits", "guided_edits", default=None,
                     help="With --exec: hold edit_file's path and old to the lines the run has "
                     "seen, until its first edit (a JSON schema; llama.cpp backends enforce "
                     "it). Default: on, except for an OpenAI-compatible endpoint (--base-url)."),
        click.option("--evidence/--no-evidence", default=None,
                     help="Index the workspace and put the excerpts most relevant to the task "
                     "in the first request (default: on; the config's [evidence] workspace)."),
        click.option("--agents", type=click.Path(file_okay=False, exists=True, path_type=Path),
                     default=None,
                     help="A folder of agent definitions (<name>/AGENT.md): offer the subagent "
                     "tools (spawn_subagent, list_agents, ...) with these agents and a general "
                     "helper; subagents get this run's tools."),
    ]  # fmt: skip
    for option in reversed(options):
        command = option(command)
    return command


@contextlib.contextmanager
def preparing() -> Iterator[ProgressCallback]:
    """A progress bar for long preparation steps (joining weights, loading the model)."""
    bar = Progress(
        TextColumn("{task.description}"), BarColumn(), DownloadColumn(), console=err, transient=True
    )
    tasks: dict[str, Any] = {}

    def report(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task(stage, total=total or None)
        bar.update(tasks[stage], completed=done, total=total or None)

    with bar:
        yield report


class Runtime:
    """The model, the tools, the log and the agent a command runs, built from its options."""

    def __init__(
        self,
        model: Model,
        log: SessionStore,
        workspace: Path,
        agent_config: AgentConfig,
        execute: bool,
        config: WorksetConfig,
        background: bool = False,
        events: bool = False,
        agents: Path | None = None,
        coder: Model | None = None,
        catalog: Catalog | None = None,
    ) -> None:
        """``catalog`` holds the MCP servers' tools already started (:func:`open_runtime`);
        discovery over the tools left out of the prompt is opened here."""
        self.catalog = catalog or Catalog()
        self.calls = CallProgress(err)
        model = AnnouncedModel(model, self.calls.started, self.calls.ended)
        self.coder = AnnouncedModel(coder, self.calls.started, self.calls.ended) if coder else None
        self.model, self.log, self.workspace = model, log, workspace.resolve()
        ws = Workspace(self.workspace)
        small = model.info.context_window <= COMPACT_WINDOW
        read_lines = config.agent.read_lines or (SMALL_READ_LINES if small else READ_LINES)
        tools = perception_tools(ws, read_lines=read_lines)
        if events:  # a long-lived session (chat, serve): the agent may set timers
            tools += timer_tools()
        gate = None
        if execute:
            sandbox = detect_sandbox(self.workspace)
            if sandbox is None:
                err.print(f"[yellow]no OS sandbox: {sandbox_unavailable_reason()}[/]")
            tools += execution_tools(ws, sandbox=sandbox)
            tests = config.agent.test_command
            if tests == "auto":
                tests = detect_test_command(self.workspace) or ""
            if tests:
                tools += tools_for_tests(
                    ws, tests, sandbox=sandbox, fix_search=config.agent.search_fixes
                )
            if background:
                tools += background_tools(ws, sandbox=sandbox)
            gate = self._gate()
        elif self.catalog.tools:  # MCP tools may change things: judged like commands
            gate = self._gate()
        offer: list[ToolOffer] = []
        self.setup = context_setup(
            config,
            workspace=self.workspace,
            loaded_tools=lambda: sorted(offer[0].loaded) if offer else (),
            evidence_index=local_folder(log.where) / "evidence",
        )
        for line in self.setup.diagnostics:
            err.print(f"[yellow]{line}[/]", markup=True, highlight=False)
        full = _chosen(tools + self.catalog.tools + self.setup.tools, config)
        compact = compacts(model.info.context_window, config.agent.compact_tools)
        chosen = compact_tools(full) if compact else full
        subagents = self._subagent_tools(agents, chosen) if agents is not None else []
        chosen = [*chosen, *subagents]
        search = self.catalog.open_discovery(  # indexes the full descriptions
            [*full, *subagents], config, discovery_folder(log.where), err
        )
        registry = ToolRegistry([*chosen, *([search] if search is not None else [])])
        offer.append(
            ToolOffer(registry, core=self.catalog.core(config), loaded=self.catalog.loaded)
        )
        self.agent = Agent(
            model,
            registry,
            log,
            replace(
                agent_config,
                system_prompt=default_prompt(self.setup.system_prompt, execute=execute),
            ),
            subscribers=[self._print, *_tracing()],
            gate=gate,
            offer=offer[0],
            sources=self.setup.sources,
            scope=self.setup.scope,
            history_policy=self.setup.history_policy,
            status=self.setup.status,
            coder=self.coder,
        )
        self.calls.counter = model.token_counter()  # started already by the agent

    def _gate(self) -> SafetyGate:
        """The safety gate of tools that change things: the default policy, with the user
        asked at the terminal (no approver without one: what would ask is refused)."""
        approver = (
            with_timeout(TerminalApprover(), 300, default=False) if sys.stdin.isatty() else None
        )
        return SafetyGate(
            approver=approver,
            breaker=CircuitBreaker(3, human=approver),
            policy=PermissionPolicy(workspace=str(self.workspace)),
        )

    def _subagent_tools(self, folder: Path, tools: list[Tool]) -> list[Tool]:
        from workset.collab import Collaboration, discover_agents, subagent_tools
        from workset.collab.agent_tools import SUBAGENT_TOOLS

        names = [*(t.name for t in tools), *SUBAGENT_TOOLS]
        definitions, diagnostics = discover_agents(folder, tools=names)
        for problem in diagnostics:
            err.print(f"[yellow]agent {problem}[/]", markup=True, highlight=False)
        return subagent_tools(Collaboration(tools, definitions, subscribers=[self._print]))

    def follow(self, session_id: str | None) -> None:
        """Continue ``session_id``'s status counts from its log (exact across runs)."""
        if session_id is not None and self.setup.status is not None:
            events = self.log.events(session_id, kinds=("tool_finished",))
            self.setup.status.tracker.replay(e.event for e in events)

    def _print(self, event: LoopEvent) -> None:
        if self.catalog.remembers and event.kind in ("run_finished", "run_failed"):
            try:
                self.catalog.learn(self.log.resume_state(event.session_id).messages)
            except (OSError, UsageError) as exc:  # the run's own record is already kept
                self.calls.print(Text(f"discovery: needs not remembered ({exc})", "yellow"))
        line = event_line(event)
        if line is not None:
            self.calls.print(line)

    async def start(self) -> None:
        for model in (self.model, self.coder):
            start = getattr(model, "start", None)
            if model is not None and start is not None:
                with err.status(f"loading {model.info.name}…"):
                    await start()

    async def aclose(self) -> None:
        """Close the model (and the coder model, if any) and stop the MCP servers."""
        try:
            await self.model.aclose()
            if self.coder is not None:
                await self.coder.aclose()
        finally:
            await anyio.to_thread.run_sync(self.catalog.close)


def _tracing() -> list[Subscriber]:
    """Spans for the OpenTelemetry exporter ``$OTEL_TRACES_EXPORTER`` names (none by default)."""
    traced = subscriber_from_env()
    return [] if traced is None else [traced]


def open_runtime(
    opts: RuntimeOptions,
    session_id: str | None = None,
    *,
    events: bool = False,
    log: SessionStore | None = None,
) -> Runtime:
    """The runtime ``opts`` describe, recording into ``log`` (default: the one ``--db`` names)."""
    if not opts.workspace.is_dir():
        raise click.UsageError(f"workspace {opts.workspace} is not a folder")
    config = load_config(opts.config) if opts.config is not None else WorksetConfig()
    if opts.history_policy is not None:
        config = replace(config, history=HistorySection(opts.history_policy))
    if opts.evidence is not None:
        config = replace(config, evidence=replace(config.evidence, workspace=opts.evidence))
    log = log or open_db(opts.db)
    with preparing() as progress:
        model = create_model(
            opts.model_spec or config.model.name,
            base_url=opts.base_url or config.model.base_url or None,
            api_key=opts.api_key,
            context_window=opts.context_window or config.model.context_window or None,
            progress=progress,
            threads=opts.threads or config.model.threads or None,
            metrics_url=config.model.metrics_url or None,
        )
        coder_spec = opts.coder_model or config.model.coder
        coder = (
            create_model(
                coder_spec,
                progress=progress,
                threads=opts.threads or config.model.threads or None,
            )
            if coder_spec and coder_spec != model.info.name
            else None
        )
        agent_config = AgentConfig(
            max_iterations=opts.max_iterations or config.agent.max_iterations,
            constrained_decisions=opts.constrained,
            guided_edits=guided_default(model) if opts.guided_edits is None else opts.guided_edits,
            output_reserve=config.budget.output_reserve,
            margin=config.budget.margin,
            model_stall_s=opts.model_timeout or config.model.timeout,
            second_look=config.agent.second_look,
            check_answers=config.agent.check_answers,
        )
        if opts.background and not opts.execute:
            raise click.UsageError("--background runs commands: use it with --exec")
        catalog = Catalog()
        try:  # the MCP servers stop if anything after their start fails
            catalog.open_mcp(config, err)
            runtime = Runtime(
                model,
                log,
                opts.workspace,
                agent_config,
                opts.execute,
                config,
                opts.background,
                events=events,
                agents=opts.agents,
                coder=coder,
                catalog=catalog,
            )
            runtime.follow(session_id)
            anyio.run(runtime.start)
        except BaseException:
            catalog.close()
            raise
    return runtime


def _chosen(tools: list[Tool], config: WorksetConfig) -> list[Tool]:
    """The tools the config's ``[agent] tools`` names, in its order ("all": every tool)."""
    wanted = config.agent.tools
    if wanted == "all":
        return tools
    by_name = {t.name: t for t in tools}
    unknown = [n for n in wanted if n not in by_name]
    if unknown:
        raise click.UsageError(
            f"{config.source}: [agent] tools names {unknown}, which do not exist here; "
            f"available: {', '.join(sorted(by_name))}"
        )
    return [by_name[n] for n in wanted]


def until_done(rt: Runtime, work: Callable[[Agent], Awaitable[RunResult]]) -> RunResult:
    """Run ``work`` on the agent, close the model, and print the outcome."""

    async def go() -> RunResult:
        try:
            return await work(rt.agent)
        finally:
            rt.setup.close()
            await rt.aclose()

    result = anyio.run(go)
    if result.status == "nothing_to_do":
        err.print(f"session {result.session_id} has nothing left to do; its last answer was:")
        out.print(result.answer, markup=False, highlight=False)
        return result
    result = report(result, rt.log)
    code = EXIT_CODES[result.outcome or "failed"]
    if code:
        sys.exit(code)
    return result


def judged(result: RunResult, log: SessionStore) -> RunResult:
    """``result`` with its outcome; judged from the recorded trajectory when the loop did not."""
    if result.outcome is not None:
        return result
    if result.status == "failed":
        verdict = classify((), failure="failed")
    else:
        verdict = classify(log.resume_state(result.session_id).messages)
    return replace(result, outcome=verdict.outcome, outcome_reason=verdict.reason)


def report(result: RunResult, log: SessionStore) -> RunResult:
    result = judged(result, log)
    if result.status == "failed":
        label = "gave up" if result.outcome == "gave_up" else "run failed"
        err.print(Text.assemble((f"{label}:", "bold red"), " ", result.error), highlight=False)
    elif result.answer:
        out.print(result.answer, markup=False, highlight=False)
    err.print(outcome_line(result.outcome or "failed", result.outcome_reason))
    u = result.usage
    err.print(
        f"[dim]{u.calls} model calls, {u.prompt_tokens} prompt tokens ({u.cached_prompt_tokens} "
        f"cached), {u.completion_tokens} out. Session {result.session_id} stored in "
        f"{log.where}; see it with: workset show {result.session_id}[/]"
    )
    return result
