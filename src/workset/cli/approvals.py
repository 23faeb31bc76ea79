"""``workset approvals``: what people were asked, what they decided and why; and answering.

Hook it in with ``cli.add_command(approvals_group)``. Listing reads the session log only.
``answer`` delivers a ``human.answer`` event to the session that asked: it is written to that
session's inbox in the log (durably), where the waiting request takes it — at once when the
session runs in this process's reach, or when the session next runs (``workset resume``).
"""

from __future__ import annotations

import datetime as dt
import getpass
import json

import click
from rich.console import Console
from rich.table import Table

from workset.cli.options import db_option, open_db
from workset.collab.human import ANSWER_TYPE, answer_event_content
from workset.collab.ledger import HumanRequest, find_request, human_requests
from workset.errors import UsageError
from workset.events import EventReceived, new_event

out = Console()


@click.group("approvals", invoke_without_command=True)
@click.option("--session", default=None, help="Only this session's requests.")
@click.option("--pending", is_flag=True, help="Only requests nobody has answered yet.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per request.")
@db_option
@click.pass_context
def approvals_group(
    ctx: click.Context, session: str | None, pending: bool, as_json: bool, db: str | None
) -> None:
    """List what people were asked (approvals and questions) and how each ended.

    Outcomes: approved, denied, answered, timed_out (nobody answered: the default was
    taken), no_channel (nobody could be reached), pending. Decisions and their reasons are
    kept as evidence; they are never turned into rules on their own.
    """
    if ctx.invoked_subcommand is not None:
        return
    with open_db(db) as log:
        found = human_requests(log, session)
    if pending:
        found = [r for r in found if r.ended is None]
    if as_json:
        for request in found:
            click.echo(json.dumps(request.to_json(), ensure_ascii=False))
        return
    if not found:
        click.echo("no requests to people recorded" + (" pending" if pending else ""), err=True)
        return
    out.print(_table(found))


@approvals_group.command("answer")
@click.argument("request_id")
@click.option("--approve", "decision", flag_value="approve", help="Approve the action.")
@click.option("--deny", "decision", flag_value="deny", help="Deny the action.")
@click.option("--answer", "text", default="", help="The answer to a question.")
@click.option("--reason", default="", help="Why (kept with the decision as evidence).")
@click.option("--by", default=None, help="Who answers (default: your user name).")
@db_option
def answer_command(
    request_id: str,
    decision: str | None,
    text: str,
    reason: str,
    by: str | None,
    db: str | None,
) -> None:
    """Answer REQUEST_ID: --approve or --deny an approval, --answer a question."""
    with open_db(db) as log:
        request = find_request(log, request_id)
        if request.ended is not None:
            raise UsageError(
                f"{request_id} already ended ({request.status} at {_when(request.ended.at)}); "
                "nothing to answer"
            )
        asked = request.asked
        if asked.ask == "approval" and decision is None:
            raise UsageError(f"{request_id} asks for an approval: pass --approve or --deny")
        if asked.ask == "input" and not text.strip():
            raise UsageError(f"{request_id} asks a question: pass --answer TEXT")
        content = answer_event_content(
            request_id,
            decision=decision or "",
            answer=text.strip(),
            reason=reason,
            by=by or getpass.getuser(),
        )
        event = new_event(ANSWER_TYPE, content=content, source="user", channel="cli")
        log.append(EventReceived(asked.session_id, event, event.at, "queue"))
    click.echo(
        f"answer for {request_id} written to session {asked.session_id}'s inbox; the waiting "
        f"request takes it, or the session does when it next runs (workset resume "
        f"{asked.session_id})"
    )


def _table(found: list[HumanRequest]) -> Table:
    table = Table(title="requests to people (evidence: never turned into rules on their own)")
    for column in ("request", "session", "asked", "what", "status", "by", "reason / answer"):
        table.add_column(column, overflow="fold")
    for request in found:
        a, e = request.asked, request.ended
        said = (e.reason or e.answer) if e is not None else f"default {a.default or '(none)'}"
        table.add_row(
            a.request_id,
            a.session_id,
            _when(a.at),
            f"{a.ask}: {a.question[:120]}",
            request.status,
            f"{e.by} ({e.channel})" if e is not None and e.by else "",
            said[:200],
        )
    return table


def _when(at: float) -> str:
    return dt.datetime.fromtimestamp(at, dt.UTC).strftime("%Y-%m-%d %H:%M:%S")
