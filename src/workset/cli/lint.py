"""``workset lint``: check a configuration, or a recorded session, for prefix-cache breakers.

Exit status: 0 when nothing of error severity was found, 1 when something was, 2 when the
configuration or the session cannot be read.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

import click

from workset.cli.options import db_option, open_db
from workset.config import WorksetConfig, load_config
from workset.errors import WorksetError
from workset.lint import RULES, Finding, has_errors, lint_config, lint_session
from workset.loop.offer import SEARCH_TOOL
from workset.messages import ToolSpec

__all__ = ["lint_command"]


class _CannotLint(click.ClickException):
    exit_code = 2


@click.command("lint")
@click.argument(
    "config", required=False, type=click.Path(dir_okay=False, exists=True, path_type=Path)
)
@click.option("--session", "session_id", default=None, help="Also lint this recorded session.")
@db_option
def lint_command(config: Path | None, session_id: str | None, db: str | None) -> None:
    """Find what breaks the prompt-cache prefix in CONFIG.toml and/or a recorded session.

    Without CONFIG and --session, lints workset's default agent configuration.
    """
    try:
        findings: list[Finding] = []
        if config is not None or session_id is None:
            loaded = load_config(config) if config is not None else WorksetConfig()
            first, second, unknown = _tool_specs(loaded)
            findings += lint_config(loaded, first, tools_again=second)
            findings += [_unknown_tool(loaded, name) for name in unknown]
            click.echo(f"linted {loaded.source}: {len(first)} tools in the prompt")
        if session_id is not None:
            with open_db(db) as log:
                full_id = log.resolve(session_id)
                findings += lint_session(log, full_id)
                click.echo(f"linted session {full_id}: {len(log.manifests(full_id))} model calls")
    except WorksetError as exc:
        raise _CannotLint(str(exc)) from exc
    _print(findings)
    if has_errors(findings):
        raise click.exceptions.Exit(1)


def _tool_specs(config: WorksetConfig) -> tuple[list[ToolSpec], list[ToolSpec], list[str]]:
    """The prompt's tool definitions, built twice (two registries), and unknown names."""
    from workset.tools.execution import execution_tools
    from workset.tools.perception import perception_tools
    from workset.tools.registry import ToolRegistry
    from workset.tools.workspace import Workspace

    loads: list[list[ToolSpec]] = []
    with tempfile.TemporaryDirectory(prefix="workset-lint-") as folder:
        for _ in range(2):
            workspace = Workspace(Path(folder))
            registry = ToolRegistry([*perception_tools(workspace), *execution_tools(workspace)])
            loads.append(list(registry.specs()))
    available = {s.name for s in loads[0]}
    wanted = available if config.agent.tools == "all" else set(config.agent.tools)
    if config.agent.core_tools is not None:
        wanted &= set(config.agent.core_tools)
    named = [*(() if config.agent.tools == "all" else config.agent.tools)]
    named += list(config.agent.core_tools or ())
    servers = {server.name for server in config.mcp.servers}  # their tools: not started here
    unknown = sorted(
        {
            n
            for n in named
            if n not in available and n != SEARCH_TOOL and n.partition("__")[0] not in servers
        }
    )
    first, second = ([s for s in load if s.name in wanted] for load in loads)
    return first, second, unknown


def _unknown_tool(config: WorksetConfig, name: str) -> Finding:
    return Finding(
        "WS100",
        "warning",
        f"{config.source} [agent] tools",
        f"no tool named {name!r}; it is left out of the lint (the agent would not offer it)",
        "check the spelling against `workset` tool names (read_file, grep, shell, …)",
    )


def _print(findings: Sequence[Finding]) -> None:
    explained: set[str] = set()
    for f in findings:
        click.echo(f"\n{f.severity} {f.code} {f.where}")
        click.echo(f"  {f.message}")
        rule = RULES.get(f.code)
        if rule is not None and f.code not in explained:
            explained.add(f.code)
            click.echo(f"  why: {rule.title}: {rule.why}")
        click.echo(f"  fix: {f.fix}")
    errors = sum(f.severity == "error" for f in findings)
    warnings = sum(f.severity == "warning" for f in findings)
    if not findings:
        click.echo("clean: no prefix-cache breakers found")
    else:
        click.echo(f"\n{errors} error(s), {warnings} warning(s)")
