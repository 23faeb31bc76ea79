"""Seed 004, Experiment 4-4: an email agent fed by webhooks, run end to end.

    python examples/email_agent/run.py [--model qwen2.5-coder-0.5b] [--arrival sequential]

It starts workset's service in this process with the email agent (:mod:`agent`) and a
webhook channel ``email``, listening on a free loopback port; posts the three emails of
``emails.json`` (a meeting invitation, a customer complaint, an advertisement) as signed
``POST /hooks/email`` requests, as a mail gateway would; waits until the session is idle
(``--arrival sequential``: after each email; ``burst``: all three at once, so they enter as
one batch); then reads the session's log and prints, per email, which tools the agent
called, the drafts it wrote, and whether it handled the email as the seed expects — and
where it did not. Nothing here judges leniently: a missing or wrong call is reported.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import secrets
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).parent))

from agent import HERE, email_agent

from workset.events import InputAppended, ModelCalled, RunFailed, ToolFinished
from workset.log.store import SessionLog
from workset.models.factory import create_model
from workset.serve.app import loopback_socket, run_api
from workset.serve.client import ServeClient
from workset.serve.service import Service
from workset.triggers.webhook import Channel

SESSION = "inbox"
_WRAPPER = re.compile(r"</?external_content[^>]*>")
DECLINE = (
    "declin", "can't", "cannot", "can not", "unable", "not able", "conflict",
    "unfortunately", "another time", "reschedul", "not available", "won't be able",
)  # fmt: skip


@dataclass
class Call:
    tool: str
    arguments: dict[str, Any]
    result: str
    error: bool


@dataclass
class Handled:
    """What the agent did with one email, and how that compares with the seed."""

    kind: str
    email_id: str
    sender: str
    subject: str
    calls: list[Call] = field(default_factory=list)
    answer: str = ""
    verdict: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def as_expected(self) -> bool:
        return not self.problems


def _calls_for(log: SessionLog, ids: dict[str, str]) -> dict[str, tuple[list[Call], str]]:
    """Per email event id: the tool calls and the last answer of the step(s) that handled it.

    A window starts at the input that consumed the email and ends where the next email is
    consumed. When one input holds several emails (a burst), a call goes to the email its
    ``email_id`` names, and a call naming none (check_calendar) to every email there.
    """
    events = log.events(SESSION)
    windows: list[tuple[list[str], list[Call], list[str]]] = []
    for stored in events:
        event = stored.event
        if isinstance(event, InputAppended):
            mine = [e for e in event.event_ids if e in ids]
            if mine:
                windows.append((mine, [], []))
        elif windows and isinstance(event, ToolFinished):
            try:
                arguments = json.loads(event.call.arguments or "{}")
            except ValueError:
                arguments = {"unparsed": event.call.arguments}
            result = _WRAPPER.sub("", event.result.content).strip()
            windows[-1][1].append(Call(event.call.name, arguments, result, event.result.is_error))
        elif windows and isinstance(event, ModelCalled) and not event.message.tool_calls:
            windows[-1][2].append(event.message.content or "")
        elif windows and isinstance(event, RunFailed):
            windows[-1][2].append(f"(run failed: {event.error})")
    found: dict[str, tuple[list[Call], str]] = {}
    for mine, calls, answers in windows:
        for event_id in mine:
            email_id = ids[event_id]
            own = [
                c for c in calls
                if len(mine) == 1 or c.arguments.get("email_id") in ("", None, email_id)
            ]  # fmt: skip
            found[event_id] = (own, answers[-1] if answers else "")
    return found


def judge(handled: Handled, sender: str) -> None:
    """Compare what was done with what seed 004 expects for this kind of email."""
    calls = [c for c in handled.calls if not c.error]
    names = [c.tool for c in calls]
    problems = handled.problems
    if handled.kind == "invitation":
        checked = [c for c in calls if c.tool == "check_calendar"]
        drafts = [c for c in calls if c.tool == "draft_reply"]
        if not checked:
            problems.append("did not check the calendar")
        conflict = any("conflict:" in c.result for c in checked)
        if not drafts:
            problems.append("wrote no reply")
        for draft in drafts:
            body = str(draft.arguments.get("body", "")).lower()
            if draft.arguments.get("to") != sender:
                problems.append(f"reply addressed to {draft.arguments.get('to')!r}")
            declines = any(word in body for word in DECLINE)
            if checked and conflict and not declines:
                problems.append("the calendar showed a conflict, but the reply does not decline")
        if "archive_email" in names:
            problems.append("archived the invitation")
    elif handled.kind == "complaint":
        flags = [c for c in calls if c.tool == "mark_priority"]
        if not any(c.arguments.get("priority") == "high" for c in flags):
            problems.append("not marked high priority")
        if "notify_user" not in names:
            problems.append("the user was not notified")
        if "archive_email" in names:
            problems.append("archived the complaint")
    elif handled.kind == "advertisement":
        if "archive_email" not in names:
            problems.append("not archived")
        for unwanted in ("draft_reply", "notify_user"):
            if unwanted in names:
                problems.append(f"called {unwanted} for an advertisement")
    errors = [c for c in handled.calls if c.error]
    if errors:
        problems.append(f"{len(errors)} call(s) failed: " + "; ".join(
            f"{c.tool}: {c.result[:120]}" for c in errors))  # fmt: skip
    handled.verdict = "handled as expected" if not problems else "not as expected"


async def process(
    model_spec: str, folder: Path, arrival: str, emails_file: Path, constrained: bool
) -> dict[str, Any]:
    emails = json.loads(await anyio.Path(emails_file).read_text(encoding="utf-8"))
    model = create_model(model_spec, context_window=4096)
    start = getattr(model, "start", None)
    if start is not None:
        await start()
    agent = email_agent(model, folder, constrained=constrained)
    secret = secrets.token_urlsafe(24)  # the gateway and the service share it
    service = Service(agent, channels=[Channel("email", secret.encode(), SESSION)])
    sock = loopback_socket()
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    stop = anyio.Event()
    began = time.perf_counter()
    ids: dict[str, str] = {}
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(functools.partial(run_api, service, sock, stop=stop))
            async with ServeClient(url) as client:
                for email in emails:
                    payload = email["payload"]
                    delivered = await client.hook("email", payload, secret,
                                                  event_id=payload["id"])  # fmt: skip
                    ids[delivered.event_id] = payload["id"]
                    print(f"posted {payload['id']} ({email['kind']}) → {delivered.strategy}")
                    if arrival == "sequential":
                        await client.wait_idle(SESSION, timeout_s=1800)
                await client.wait_idle(SESSION, timeout_s=1800)
            stop.set()
    finally:
        await model.aclose()
    seconds = time.perf_counter() - began
    found = _calls_for(agent.log, ids)
    results = []
    for event_id, email_id in ids.items():
        email = next(e for e in emails if e["payload"]["id"] == email_id)
        payload = email["payload"]
        calls, answer = found.get(event_id, ([], "(never consumed)"))
        handled = Handled(email["kind"], email_id, payload["from"], payload["subject"],
                          calls, answer)  # fmt: skip
        judge(handled, payload["from"])
        results.append(handled)
    called = agent.log.events(SESSION, kinds=["model_called"])
    usage = [e.event.usage for e in called if isinstance(e.event, ModelCalled)]
    batches = [
        e.event for e in agent.log.events(SESSION, kinds=["input_appended"])
        if isinstance(e.event, InputAppended) and e.event.origin == "events"
    ]  # fmt: skip
    return {
        "model": model_spec,
        "arrival": arrival,
        "emails_file": emails_file.name,
        "constrained": constrained,
        "seconds": round(seconds, 1),
        "model_calls": len(usage),
        "prompt_tokens": sum(u.prompt_tokens for u in usage),
        "cached_prompt_tokens": sum(u.cached_prompt_tokens or 0 for u in usage),
        "completion_tokens": sum(u.completion_tokens for u in usage),
        "batches": [len(b.event_ids) for b in batches],
        "log": str(agent.log.path),
        "outbox": str(folder / "outbox"),
        "emails": [asdict(h) | {"as_expected": h.as_expected} for h in results],
    }


def show(report: dict[str, Any]) -> None:
    print(
        f"\nmodel {report['model']}, arrival {report['arrival']}, emails {report['emails_file']}"
        f"{', constrained' if report['constrained'] else ''}: {report['model_calls']} model "
        f"calls, {report['prompt_tokens']} prompt tokens ({report['cached_prompt_tokens']} "
        f"cached), {report['completion_tokens']} out, {report['seconds']} s; emails per batch "
        f"{report['batches']}"
    )
    for email in report["emails"]:
        print(f"\n[{email['email_id']}] {email['kind']} from {email['sender']}: {email['subject']}")
        if not email["calls"]:
            print("  no tool called")
        for c in email["calls"]:
            flag = "ERROR " if c["error"] else ""
            print(f"  → {c['tool']}({json.dumps(c['arguments'], ensure_ascii=False)})")
            print(f"    {flag}{' '.join(c['result'].split())[:160]}")
        print(f"  answer: {' '.join(email['answer'].split())[:300] or '(none)'}")
        why = f": {'; '.join(email['problems'])}" if email["problems"] else ""
        print(f"  verdict: {email['verdict']}{why}")
    done = sum(1 for e in report["emails"] if e["as_expected"])
    print(f"\n{done}/{len(report['emails'])} emails handled as the seed expects")
    print(f"log: {report['log']}  outbox: {report['outbox']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--model",
        default="qwen2.5-coder-0.5b",
        help="embedded model name, openai:NAME or scripted:FILE.json",
    )
    parser.add_argument("--arrival", choices=("sequential", "burst"), default="sequential")
    parser.add_argument(
        "--emails",
        type=Path,
        default=HERE / "emails.json",
        help="the emails to post (emails-tune.json: the set the prompt was "
        "tuned on; emails.json, the seed's three, is kept for reporting)",
    )
    parser.add_argument(
        "--constrained",
        action="store_true",
        help="constrain each model output to one tool call or an answer",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="folder for the session log and outbox (default: a temporary one)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the report here")
    args = parser.parse_args()  # fmt: skip
    folder = args.out or Path(tempfile.mkdtemp(prefix="email-agent-"))
    report = anyio.run(process, args.model, folder, args.arrival, args.emails, args.constrained)
    show(report)
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
