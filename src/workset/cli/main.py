"""``workset``: run agent tasks, chat, and look at recorded sessions.

A thin layer over the library: it builds a model, the tools and the session log, subscribes a
printer to the loop's events, and renders what the log holds.
"""

from __future__ import annotations

import os
import sys

import click
from rich.text import Text

from workset.cli.approvals import approvals_group
from workset.cli.chat import chat_command
from workset.cli.discovery import discovery_group
from workset.cli.eval import eval_group
from workset.cli.inspect import inspect_command
from workset.cli.lint import lint_command
from workset.cli.mcp import mcp_group
from workset.cli.options import db_option, open_db
from workset.cli.render import (
    agent_lines,
    calls_table,
    omission_lines,
    sessions_table,
    trajectory_lines,
)
from workset.cli.runtime import RuntimeOptions, err, model_options, open_runtime, out, until_done
from workset.cli.serve import send_command, serve_command
from workset.cli.skills import skills_group
from workset.cli.worker import worker_command
from workset.errors import WorksetError
from workset.inspect.agents import agent_tree
from workset.models.factory import DEFAULT_MODEL


def main() -> None:
    one_blas_thread()
    try:
        cli(standalone_mode=False)
    except click.exceptions.Abort:
        err.print("aborted")
        sys.exit(130)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except WorksetError as error:  # its text is not markup: "[mcp.servers.x]" stays as typed
        err.print(Text.assemble(("error:", "bold red"), " ", str(error)), highlight=False)
        sys.exit(2)


def one_blas_thread() -> None:
    """numpy (workspace evidence, MiniLM) must not start one BLAS thread per core beside the
    model's own threads: on 2 busy cores that made one evidence search take 30-55 s instead
    of 1-10 s. Effective when called before numpy is first imported; the environment wins."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


@click.group(help="Context engineering runtime for AI agents.")
@click.version_option(package_name="workset")
def cli() -> None:
    pass


@cli.command(
    help="Run one agent task and print the answer and how the run ended.\n\n"
    "Exit codes: 0 answered (a tool result or workspace excerpt supports the answer), "
    "1 failed (model error or timeout), 2 usage or configuration error, 3 answered but "
    "unverified (nothing the run read supports it), 4 gave up (no answer, or it says it "
    "could not find out)."
)
@click.argument("task")
@click.option("--session", "session_id", default=None, help="Continue this session.")
@model_options
def run(task: str, session_id: str | None, opts: RuntimeOptions) -> None:
    if not task.strip():
        raise click.UsageError(
            "the task is empty; say what the agent should do, e.g. "
            'workset run "What does README.md say about setup?"'
        )
    rt = open_runtime(opts, session_id)
    until_done(
        rt, lambda agent: agent.run(task, session_id=session_id, workspace=str(rt.workspace))
    )


@cli.command(help="Continue a session that was interrupted (crash, kill, timeout).")
@click.argument("session")
@model_options
def resume(session: str, opts: RuntimeOptions) -> None:
    rt = open_runtime(opts, session)
    session_id = rt.log.get_session(session).id
    until_done(rt, lambda agent: agent.resume(session_id))


@cli.command(help="List recorded sessions.")
@click.option("--limit", type=int, default=30, show_default=True)
@db_option
def sessions(limit: int, db: str | None) -> None:
    log = open_db(db)
    found = log.sessions(limit=limit)
    if not found:
        err.print(f'no sessions yet in {log.where}; start one with: workset run "…"')
        return
    out.print(sessions_table(found, out.width), no_wrap=True, overflow="ignore")


@cli.command(
    help="Show a session: its trajectory, each model call's token buckets and its subagents."
)
@click.argument("session")
@db_option
def show(session: str, db: str | None) -> None:
    log = open_db(db)
    info = log.get_session(session)
    events = log.events(info.id)
    out.print(
        f"[bold]session {info.id}[/]  model {info.model}  workspace {info.workspace}  "
        f"status {info.status}"
    )
    parent = (info.config or {}).get("parent_id")
    if parent:
        agent = (info.config or {}).get("agent_id", "")
        out.print(f"subagent {agent} of session {parent} (see it with: workset show {parent})")
    for line in trajectory_lines(events):
        out.print(line)
    out.print(calls_table(events))
    for line in omission_lines(events):
        out.print(line)
    tree = agent_tree(log.events, info.id)
    if tree:
        out.print("[bold]subagents[/]")
        for line in agent_lines(tree):
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


for _command in (
    mcp_group,
    inspect_command,
    skills_group,
    eval_group,
    lint_command,
    chat_command,
    serve_command,
    send_command,
    approvals_group,
    worker_command,
    discovery_group,
):
    cli.add_command(_command)
