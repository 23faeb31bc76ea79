"""``workset discovery``: fit the "not found" probe for the tools a run's ``tool_search``
indexed, and try a need against them as the agent would.

Both read what the last run that opened discovery wrote beside its session store
(:mod:`workset.discovery.labelled`), so neither starts a model or an MCP server; the
embedder (MiniLM) is loaded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import anyio
import click
from rich.console import Console

from workset.cli.catalog import discovery_folder
from workset.cli.options import db_option
from workset.errors import UsageError
from workset.messages import ToolCall
from workset.stores.url import default_store

if TYPE_CHECKING:
    from workset.discovery.index import ToolIndex
    from workset.messages import ToolSpec

_out = Console(highlight=False)


def _folder(db: str | None) -> Path:
    """The discovery folder of the session store ``--db`` names (as `workset run` uses it)."""
    return discovery_folder(db or default_store())


def _index(folder: Path, servers: dict[str, list[ToolSpec]]) -> ToolIndex:
    """The index a run built in ``folder`` over ``servers`` (vectors from the folder's cache)."""
    from workset.discovery.index import ToolIndex
    from workset.discovery.local import VECTORS
    from workset.retrieval.embedder import Embedder

    return ToolIndex.build(servers, Embedder.load(), store=folder / VECTORS)


@click.group("discovery", help='Fit and try tool discovery\'s "not found" probe.')
def discovery_group() -> None:
    pass


@discovery_group.command("fit-probe")
@click.argument("needs", type=click.Path(dir_okay=False, path_type=Path))
@db_option
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to save the probe (default: probe.npz in the discovery folder).",
)
@click.option(
    "--refuse-at-most",
    type=click.FloatRange(0.0, 0.5),
    default=0.03,
    show_default=True,
    help='Share of the servable needs the threshold may answer "not found".',
)
@click.option(
    "--folds",
    type=click.IntRange(2, 50),
    default=10,
    show_default=True,
    help="Folds for the out-of-fold threshold (each kind of need needs at least this many).",
)
def fit_probe_command(
    needs: Path, db: str | None, out: Path | None, refuse_at_most: float, folds: int
) -> None:
    """Fit the probe on NEEDS (JSON Lines: {"need": "...", "tools": ["server__tool"]}, with
    "tools": [] for a need no tool serves) over the tools the last run indexed."""
    from dataclasses import replace

    from workset.discovery.labelled import catalog_key, read_indexed, read_labelled
    from workset.discovery.probe import Fitting, fit_measured

    folder = _folder(db)
    servers = read_indexed(folder)
    known = [spec.name for specs in servers.values() for spec in specs]
    labelled = read_labelled(needs, known)
    fewest = min(sum(1 for _, s in labelled if s), sum(1 for _, s in labelled if not s))
    if fewest < folds:
        raise UsageError(
            f"{needs}: fitting with --folds {folds} needs at least {folds} servable needs and "
            f"{folds} that no tool serves, got {fewest} of one kind; label more needs "
            "(a few dozen of each fit better) or pass fewer --folds"
        )
    index = _index(folder, servers)  # the embedder loads once the needs are known to be usable
    fitted = fit_measured(index, labelled, Fitting(refuse_at_most=refuse_at_most, folds=folds))
    probe = replace(fitted.probe, catalog=catalog_key(servers))
    path = out or folder / "probe.npz"
    path.parent.mkdir(parents=True, exist_ok=True)
    probe.save(path)
    _out.print(f"indexed tools: {len(known)} on {len(servers)} server(s) ({folder})")
    _out.print(f"needs: {fitted.servable} servable, {fitted.unservable} that no tool serves")
    _out.print(
        f'out of fold, "not found" for {fitted.unservable_refused}/{fitted.unservable} '
        f"needs no tool serves and {fitted.servable_refused}/{fitted.servable} servable ones"
    )
    _out.print(
        f"saved {path}; use it with\n  [discovery]\n  probe = {json.dumps(str(path))}",
        markup=False,
    )


@discovery_group.command("search")
@click.argument("query")
@db_option
@click.option(
    "--probe",
    "probe_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help='A probe saved by fit-probe: answer "not found" where it judges no tool serves.',
)
@click.option("-k", "k", type=click.IntRange(1, 50), default=5, show_default=True)
def search_command(query: str, db: str | None, probe_path: Path | None, k: int) -> None:
    """Search the tools the last run indexed for QUERY and print what the agent would read."""
    from workset.discovery.labelled import read_indexed
    from workset.discovery.meta import tool_search_tool
    from workset.discovery.probe import ProbedIndex, ServabilityProbe
    from workset.discovery.results import Searchable
    from workset.tools.registry import ToolRegistry

    folder = _folder(db)
    index = _index(folder, read_indexed(folder))
    searchable: Searchable = index
    if probe_path is not None:
        searchable = ProbedIndex(index, index, ServabilityProbe.load(probe_path))
    tool = tool_search_tool(searchable, set())
    call = ToolCall("search", tool.name, json.dumps({"query": query, "k": k}))
    result = anyio.run(ToolRegistry([tool]).execute, call)
    _out.print(result.content, markup=False, soft_wrap=True)
