"""examples/email_agent: the runner posts three signed emails and reports honestly what the
agent did with each (scripted models here; the embedded model in the real_model test)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

EXAMPLE = Path(__file__).parents[2] / "examples" / "email_agent"
ANA = "ana.lopez@northwind.example"


def calls(*pairs: tuple[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"tool_calls": [{"name": name, "arguments": arguments}]} for name, arguments in pairs]


CHECK = ("check_calendar", {"start": "2026-12-10T10:00", "end": "2026-12-10T11:00"})


def run_example(tmp_path: Path, script: list[Any]) -> tuple[str, dict[str, Any]]:
    model = tmp_path / "model.json"
    model.write_text(json.dumps(script))
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, str(EXAMPLE / "run.py"), "--model", f"scripted:{model}",
         "--out", str(tmp_path / "out"), "--json", str(report)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(report.read_text())


def test_an_agent_that_does_what_the_seed_expects_is_reported_as_such(tmp_path: Path) -> None:
    script = [
        *calls(CHECK, ("draft_reply", {"email_id": "m1", "to": ANA,
                                       "body": "Hi Ana, sorry, I cannot make it then. Sam"})),
        "Declined the invitation.",
        *calls(("mark_priority", {"email_id": "m2", "priority": "high"}),
               ("notify_user", {"email_id": "m2", "message": "Okafor: broken lamps, refund"})),
        "Flagged and notified.",
        *calls(("archive_email", {"email_id": "m3"})),
        "Archived.",
    ]  # fmt: skip
    printed, report = run_example(tmp_path, script)
    assert "3/3 emails handled as the seed expects" in printed
    assert report["batches"] == [1, 1, 1]  # one email per batch, each its own loop
    invitation = report["emails"][0]
    assert [c["tool"] for c in invitation["calls"]] == ["check_calendar", "draft_reply"]
    assert invitation["calls"][0]["result"].startswith("conflict: Dentist appointment")
    draft = tmp_path / "out" / "outbox" / "drafts" / "m1.txt"
    assert "cannot make it" in draft.read_text()


def test_what_the_agent_got_wrong_is_reported_per_email(tmp_path: Path) -> None:
    script = [
        *calls(CHECK, ("draft_reply", {"email_id": "m1", "to": ANA,
                                       "body": "Hi Ana, see you Thursday!"})),
        "Accepted.",
        *calls(("archive_email", {"email_id": "m2"})),
        "Archived.",
        *calls(("draft_reply", {"email_id": "m3", "to": "deals@megastore.example",
                                "body": "STOP"})),
        "Replied.",
    ]  # fmt: skip
    printed, report = run_example(tmp_path, script)
    assert "0/3 emails handled as the seed expects" in printed
    problems = {e["kind"]: e["problems"] for e in report["emails"]}
    assert problems["invitation"] == [
        "the calendar showed a conflict, but the reply does not decline"
    ]
    assert problems["complaint"] == [
        "not marked high priority", "the user was not notified", "archived the complaint",
    ]  # fmt: skip
    assert problems["advertisement"] == [
        "not archived", "called draft_reply for an advertisement",
    ]  # fmt: skip


@pytest.mark.real_model
def test_an_email_webhook_is_taken_in_one_batch_by_the_embedded_model(
    tmp_path: Path, qwen: Any
) -> None:
    """Structure only, not quality: the signed email enters once, in one batch, and the
    agent either calls a tool or gives an answer."""
    from serving import served
    from support import run

    sys.path.insert(0, str(EXAMPLE))
    from agent import email_agent

    from workset.events import InputAppended, RunFinished, ToolFinished
    from workset.triggers.webhook import Channel

    [complaint] = [e for e in json.loads((EXAMPLE / "emails.json").read_text())
                   if e["kind"] == "complaint"]  # fmt: skip
    agent = email_agent(qwen, tmp_path, max_iterations=4)
    channel = Channel("email", b"a-shared-secret", "inbox")

    async def main() -> None:
        async with served(agent, channels=[channel]) as api:
            delivered = await api.client.hook("email", complaint["payload"], "a-shared-secret")
            status = await api.client.wait_idle("inbox", timeout_s=600)
            assert status["idle"] and status["pending"] == []
            records = [e.event for e in agent.log.events("inbox")]
            batches = [r for r in records if isinstance(r, InputAppended) and r.event_ids]
            assert [b.event_ids for b in batches] == [(delivered.event_id,)]
            answered = [r for r in records if isinstance(r, RunFinished) and r.answer.strip()]
            assert any(isinstance(r, ToolFinished) for r in records) or answered

    run(main, timeout=900)
