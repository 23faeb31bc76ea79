"""``workset inspect SESSION``: write a session's model calls as a static HTML page.

Hook it in with ``cli.add_command(inspect_command)``.
"""

from __future__ import annotations

from pathlib import Path

import click

from workset.cli.options import db_option, open_db
from workset.errors import UsageError
from workset.inspect import render_html, session_view
from workset.inspect.agents import agent_tree


@click.command("inspect")
@click.argument("session")
@db_option
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write the page (default: workset-SESSION.html in the current folder).",
)
def inspect_command(session: str, db: str | None, out_path: Path | None) -> None:
    """Write SESSION's model calls as one HTML page you can open in any browser.

    Per call: the request's token buckets, the items included and those left out with the
    reason, prefix reuse against the previous request, and usage; the tree of subagents the
    session started, each with its brief, tokens, status, result and own calls. The page is
    self-contained (no scripts, no network), so it can be mailed or attached to a ticket.
    """
    with open_db(db) as log:
        info = log.get_session(session)
        tree = agent_tree(log.events, info.id)
        page = render_html(session_view(info, log.events(info.id), tree))
    target = out_path or Path(f"workset-{info.id}.html")
    try:
        target.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc}; pass another path with --out") from exc
    click.echo(f"wrote {target} ({len(page)} bytes); open it in a browser")
