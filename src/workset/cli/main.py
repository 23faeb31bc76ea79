"""``workset``: run agent tasks, chat, and look at recorded sessions.

A thin layer over the library: it builds a model, the tools and the session log, subscribes a
printer to the loop's events, and renders what the log holds.
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

from workset.cli.render import (
    calls_table,
    event_line,
    omission_lines,
    sessions_table,
    trajectory_lines,
)
from workset.config import HistorySection, WorksetConfig, load_config
from workset.errors import WorksetError
from workset.events import LoopEvent
from workset.log.store import SessionLog, default_db_path
from workset.loop.agent import Agent, AgentConfig, RunResult
from workset.loop.offer import ToolOffer
from workset.models.base import Model
from workset.models.factory import DEFAULT_MODEL, create_model
from workset.models.factory import Progress as ProgressCallback
from workset.runtime import context_setup
from workset.safety.approval import CircuitBreaker, TerminalApprover, with_timeout
from workset.safety.gate import SafetyGate
from workset.safety.policy import PermissionPolicy
from workset.safety.sandbox import detect_sandbox, sandbox_unavailable_reason
from workset.tools.background import background_tools
from workset.tools.base import Tool
from workset.tools.execution import execution_tools
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace

err = Console(stderr=True)
out = Console()


def main() -> None:
    try:
        cli(standalone_mode=False)
    except click.exceptions.Abort:
        err.print("aborted")
        sys.exit(130)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except WorksetError as error:
        err.print(f"[bold red]error:[/] {error}")
        sys.exit(2)


@click.group(help="Context engineering runtime for AI agents.")
@click.version_option(package_name="workset")
def cli() -> None:
    pass


db_option = click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Session log file (default: $WORKSET_DB or ~/.local/share/workset/workset.db).",
)


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
    db: Path | None
    config: Path | None
    history_policy: str | None


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
                     help="Context window in tokens (default: the config's, else 8192)."),
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
                     help="Also offer write_file, edit_file, shell and run_python: sandboxed "
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
    ]  # fmt: skip
    for option in reversed(options):
        command = option(command)
    return command


@contextlib.contextmanager
def _progress() -> Iterator[ProgressCallback]:
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


class _Runtime:
    def __init__(
        self,
        model: Model,
        log: SessionLog,
        workspace: Path,
        agent_config: AgentConfig,
        execute: bool,
        config: WorksetConfig,
        background: bool = False,
    ) -> None:
        self.model, self.log, self.workspace = model, log, workspace.resolve()
        ws = Workspace(self.workspace)
        tools = perception_tools(ws)
        gate = None
        if execute:
            sandbox = detect_sandbox(self.workspace)
            if sandbox is None:
                err.print(f"[yellow]no OS sandbox: {sandbox_unavailable_reason()}[/]")
            tools += execution_tools(ws, sandbox=sandbox)
            if background:
                tools += background_tools(ws, sandbox=sandbox)
            approver = (
                with_timeout(TerminalApprover(), 300, default=False) if sys.stdin.isatty() else None
            )
            gate = SafetyGate(
                approver=approver,
                breaker=CircuitBreaker(3, human=approver),
                policy=PermissionPolicy(workspace=str(self.workspace)),
            )
        offer: list[ToolOffer] = []
        self.setup = context_setup(
            config,
            workspace=self.workspace,
            loaded_tools=lambda: sorted(offer[0].loaded) if offer else (),
        )
        for line in self.setup.diagnostics:
            err.print(f"[yellow]{line}[/]", markup=True, highlight=False)
        registry = ToolRegistry(_chosen(tools + self.setup.tools, config))
        offer.append(ToolOffer(registry, core=config.agent.core_tools))
        self.agent = Agent(
            model,
            registry,
            log,
            replace(agent_config, system_prompt=self.setup.system_prompt),
            subscribers=[self._print],
            gate=gate,
            offer=offer[0],
            sources=self.setup.sources,
            scope=self.setup.scope,
            history_policy=self.setup.history_policy,
            status=self.setup.status,
        )

    def follow(self, session_id: str | None) -> None:
        """Continue ``session_id``'s status counts from its log (exact across runs)."""
        if session_id is not None and self.setup.status is not None:
            events = self.log.events(session_id, kinds=("tool_finished",))
            self.setup.status.tracker.replay(e.event for e in events)

    def _print(self, event: LoopEvent) -> None:
        line = event_line(event)
        if line is not None:
            err.print(line)

    async def start(self) -> None:
        start = getattr(self.model, "start", None)
        if start is not None:
            with err.status(f"loading {self.model.info.name}…"):
                await start()


def _open(opts: RuntimeOptions, session_id: str | None = None) -> _Runtime:
    if not opts.workspace.is_dir():
        raise click.UsageError(f"workspace {opts.workspace} is not a folder")
    config = load_config(opts.config) if opts.config is not None else WorksetConfig()
    if opts.history_policy is not None:
        config = replace(config, history=HistorySection(opts.history_policy))
    log = SessionLog(opts.db or default_db_path())
    with _progress() as progress:
        model = create_model(
            opts.model_spec or config.model.name,
            base_url=opts.base_url or config.model.base_url or None,
            api_key=opts.api_key,
            context_window=opts.context_window or config.model.context_window,
            progress=progress,
        )
        agent_config = AgentConfig(
            max_iterations=opts.max_iterations or config.agent.max_iterations,
            constrained_decisions=opts.constrained,
            output_reserve=config.budget.output_reserve,
            margin=config.budget.margin,
        )
        if opts.background and not opts.execute:
            raise click.UsageError("--background runs commands: use it with --exec")
        runtime = _Runtime(
            model, log, opts.workspace, agent_config, opts.execute, config, opts.background
        )
        runtime.follow(session_id)
        anyio.run(runtime.start)
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


def _until_done(rt: _Runtime, work: Callable[[Agent], Awaitable[RunResult]]) -> RunResult:
    """Run ``work`` on the agent, close the model, and print the outcome."""

    async def go() -> RunResult:
        try:
            return await work(rt.agent)
        finally:
            rt.setup.close()
            await rt.model.aclose()

    result = anyio.run(go)
    if result.status == "nothing_to_do":
        err.print(f"session {result.session_id} has nothing left to do; its last answer was:")
        out.print(result.answer, markup=False, highlight=False)
    else:
        _report(result, rt.log)
    if result.status == "failed":
        sys.exit(1)
    return result


def _report(result: RunResult, log: SessionLog) -> None:
    if result.status == "failed":
        err.print(f"[bold red]run failed:[/] {result.error}")
    elif result.answer:
        out.print(result.answer, markup=False, highlight=False)
    u = result.usage
    err.print(
        f"[dim]{u.calls} model calls, {u.prompt_tokens} prompt tokens ({u.cached_prompt_tokens} "
        f"cached), {u.completion_tokens} out. Session {result.session_id} stored in "
        f"{log.path}; see it with: workset show {result.session_id}[/]"
    )


@cli.command(help="Run one agent task and print the answer.")
@click.argument("task")
@click.option("--session", "session_id", default=None, help="Continue this session.")
@model_options
def run(task: str, session_id: str | None, opts: RuntimeOptions) -> None:
    if not task.strip():
        raise click.UsageError(
            "the task is empty; say what the agent should do, e.g. "
            'workset run "What does README.md say about setup?"'
        )
    rt = _open(opts, session_id)
    _until_done(
        rt, lambda agent: agent.run(task, session_id=session_id, workspace=str(rt.workspace))
    )


@cli.command(help="Continue a session that was interrupted (crash, kill, timeout).")
@click.argument("session")
@model_options
def resume(session: str, opts: RuntimeOptions) -> None:
    rt = _open(opts, session)
    session_id = rt.log.get_session(session).id
    _until_done(rt, lambda agent: agent.resume(session_id))


@cli.command(help="Chat with the agent; each line is a turn of one session. Ctrl-D ends.")
@click.option("--session", "session_id", default=None, help="Continue this session.")
@model_options
def chat(session_id: str | None, opts: RuntimeOptions) -> None:
    rt = _open(opts, session_id)

    async def go() -> None:
        nonlocal session_id
        try:
            while True:
                try:
                    line = await anyio.to_thread.run_sync(lambda: input("you> "))
                except EOFError:
                    break
                if not line.strip():
                    continue
                if line.strip() in ("/exit", "/quit"):
                    break
                result = await rt.agent.run(
                    line, session_id=session_id, workspace=str(rt.workspace)
                )
                session_id = result.session_id
                _report(result, rt.log)
        finally:
            rt.setup.close()
            await rt.model.aclose()

    anyio.run(go)


@cli.command(help="List recorded sessions.")
@click.option("--limit", type=int, default=30, show_default=True)
@db_option
def sessions(limit: int, db: Path | None) -> None:
    log = SessionLog(db or default_db_path())
    found = log.sessions(limit=limit)
    if not found:
        err.print(f'no sessions yet in {log.path}; start one with: workset run "…"')
        return
    out.print(sessions_table(found))


@cli.command(help="Show a session: its trajectory and each model call's token buckets.")
@click.argument("session")
@db_option
def show(session: str, db: Path | None) -> None:
    log = SessionLog(db or default_db_path())
    info = log.get_session(session)
    events = log.events(info.id)
    out.print(
        f"[bold]session {info.id}[/]  model {info.model}  workspace {info.workspace}  "
        f"status {info.status}"
    )
    for line in trajectory_lines(events):
        out.print(line)
    out.print(calls_table(events))
    for line in omission_lines(events):
        out.print(line)


@cli.command(help="List the embedded models and whether each is ready to use.")
def models() -> None:
    from rich.table import Table

    from workset.models.weights import EMBEDDED_MODELS, model_status

    table = Table(title="embedded models")
    for column in ("name", "state", "where"):
        table.add_column(column, overflow="fold")
    todo: list[str] = []
    for name in EMBEDDED_MODELS:
        status = model_status(name)
        where = str(status.path) if status.path else "-"
        table.add_row(name + (" (default)" if name == DEFAULT_MODEL else ""), status.state, where)
        if status.state != "ready":
            todo.append(f"{name}: {status.command or status.detail}")
    out.print(table)
    for line in todo:
        out.print(line, markup=False, highlight=False, soft_wrap=True)
    out.print('Any local GGUF file also works: workset run --model path/to/model.gguf "…"')
    out.print("Any OpenAI-compatible endpoint: --model openai:MODEL --base-url URL")


from workset.cli.mcp import mcp_group  # noqa: E402

cli.add_command(mcp_group)
from workset.cli.inspect import inspect_command  # noqa: E402
from workset.cli.skills import skills_group  # noqa: E402

cli.add_command(inspect_command)
cli.add_command(skills_group)
from workset.cli.eval import eval_group  # noqa: E402

cli.add_command(eval_group)
from workset.cli.lint import lint_command  # noqa: E402

cli.add_command(lint_command)
