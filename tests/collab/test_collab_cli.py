"""``workset approvals`` lists requests and answers one through the session's inbox;
``workset show`` and ``workset inspect`` show the tree of a session's subagents."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import anyio
from click.testing import CliRunner
from collab_support import is_subagent, main_agent, result_json, results
from support import Records, run

from workset.cli.main import cli
from workset.collab.human import HumanDesk
from workset.collab.human_tools import human_tools
from workset.collab.notify import ConsoleChannel, Notifier
from workset.events import HumanAsked, RunFinished, new_event
from workset.log.store import SessionLog
from workset.messages import AssistantMessage
from workset.models.base import ModelRequest
from workset.session.agent import Agent
from workset.testing import FakeClock, FunctionModel, ScriptedModel, call
from workset.tools.registry import ToolRegistry


def approval_agent(
    db: Path, model: ScriptedModel, records: Records, clock: FakeClock | None = None
) -> Agent:
    desk = HumanDesk(Notifier([ConsoleChannel(io.StringIO())]))
    return Agent(
        model, ToolRegistry(human_tools(desk)), SessionLog(db),
        clock=clock or FakeClock(time.time()),  # answers from the CLI carry the wall time
        subscribers=[records],
    )  # fmt: skip


def test_an_approval_answered_with_the_cli_is_taken_when_the_session_resumes(
    tmp_path: Path,
) -> None:
    db, records = tmp_path / "log.db", Records()
    arguments = json.dumps({"action": "Delete the staging database", "reason": "it is stale"})
    ask = AssistantMessage(None, (call("request_human_approval", arguments, "ap1"),))
    agent = approval_agent(db, ScriptedModel([ask]), records)

    async def until_asked() -> None:
        async with agent.session() as session, anyio.create_task_group() as group:
            await session.deliver(new_event("user.input", "clean up staging"))
            group.start_soon(session.run_until_idle)
            await records.until(lambda e: isinstance(e, HumanAsked))
            group.cancel_scope.cancel()  # the process goes away while it waits

    run(until_asked)
    [asked] = records.of(HumanAsked)
    runner = CliRunner()
    listed = runner.invoke(cli, ["approvals", "--pending", "--json", "--db", str(db)])
    assert listed.exit_code == 0, listed.output
    [pending] = [json.loads(line) for line in listed.output.splitlines()]
    assert pending["request_id"] == asked.request_id and pending["status"] == "pending"
    refused = runner.invoke(cli, ["approvals", "answer", asked.request_id, "--db", str(db)])
    assert refused.exit_code != 0 and "pass --approve or --deny" in str(refused.exception)
    answered = runner.invoke(
        cli,
        ["approvals", "answer", asked.request_id, "--deny", "--reason", "still in use",
         "--by", "ana", "--db", str(db)],
    )  # fmt: skip
    assert answered.exit_code == 0, answered.output
    assert f"workset resume {asked.session_id}" in answered.output

    later = approval_agent(db, ScriptedModel(["I left staging alone: Ana said no."]), records)
    result = anyio.run(later.resume, asked.session_id)
    assert result.answer == "I left staging alone: Ana said no."
    final = runner.invoke(cli, ["approvals", "--json", "--db", str(db)])
    [done] = [json.loads(line) for line in final.output.splitlines()]
    assert done["status"] == "denied" and done["reason"] == "still in use"
    assert done["by"] == "ana" and done["channel"] == "cli"
    again = runner.invoke(
        cli, ["approvals", "answer", asked.request_id, "--approve", "--db", str(db)]
    )
    assert again.exit_code != 0 and "already ended (denied" in str(again.exception)


def test_show_and_inspect_draw_the_tree_of_subagents(tmp_path: Path) -> None:
    records = Records()

    def fn(request: ModelRequest) -> AssistantMessage | str:
        if is_subagent(request):
            if not results(request):
                return AssistantMessage(None, (call("search_code", '{"pattern": "callback"}'),))
            return result_json(summary="handle_callback in callbacks.py")
        if not results(request):
            arguments = json.dumps({"task": "Find the payment callback handler"})
            return AssistantMessage(None, (call("spawn_subagent", arguments, "sp1"),))
        return "handle_callback"

    agent, _ = main_agent(tmp_path, FunctionModel(fn), records)
    result = anyio.run(agent.run, "where are callbacks handled?")
    assert records.of(RunFinished)
    db = agent.log.where  # the test's store (main_agent opens it)
    runner = CliRunner()
    shown = runner.invoke(cli, ["show", result.session_id, "--db", db])
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())  # rich wraps at the terminal's width
    assert "subagents" in text and "general [completed]" in text
    assert "spawned by call 1" in text and "[FROM_MAIN_AGENT] Task: Find the payment" in text
    assert "call 1:" in text and "search_code" in text and "handle_callback in callbacks.py" in text
    page = tmp_path / "page.html"
    inspected = runner.invoke(cli, ["inspect", result.session_id, "--db", db, "--out", str(page)])
    assert inspected.exit_code == 0, inspected.output
    html = page.read_text()
    assert "<h2>Subagents</h2>" in html and 'href="#call-1"' in html
    assert "handle_callback in callbacks.py" in html


def test_workset_run_with_agents_delegates_and_show_draws_it(tmp_path: Path) -> None:
    script = [
        {"tool_calls": [{"name": "spawn_subagent", "arguments": {
            "agent": "code-searcher", "task": "Which port does service.toml set?"}}]},
        {"tool_calls": [{"name": "grep", "arguments": {"pattern": "port"}}]},
        result_json(summary="service.toml sets port 8471", artifacts=["service.toml"]),
        "The server listens on port 8471.",
    ]  # fmt: skip
    model = tmp_path / "script.json"
    model.write_text(json.dumps(script))
    db = str(tmp_path / "log.db")
    root = Path(__file__).resolve().parents[2]
    runner = CliRunner()
    ran = runner.invoke(
        cli,
        ["run", "--model", f"scripted:{model}", "--workspace", str(root / "examples" / "demo"),
         "--agents", str(root / "examples" / "agents"), "--db", db, "Which port?"],
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    assert "The server listens on port 8471." in ran.output
    [session] = [s for s in SessionLog(db).sessions() if not (s.config or {}).get("parent_id")]
    shown = " ".join(runner.invoke(cli, ["show", session.id, "--db", db]).output.split())
    assert "code-searcher [completed]" in shown and "service.toml sets port 8471" in shown


def test_an_answer_that_arrived_after_the_deadline_does_not_count(tmp_path: Path) -> None:
    db, records = tmp_path / "log.db", Records()
    arguments = json.dumps({"action": "Rotate the keys", "reason": "policy", "timeout_s": 60})
    ask = AssistantMessage(None, (call("request_human_approval", arguments, "ap1"),))
    asked_at = FakeClock(time.time() - 3600)  # asked an hour ago, for a minute
    agent = approval_agent(db, ScriptedModel([ask]), records, asked_at)

    async def until_asked() -> None:
        async with agent.session() as session, anyio.create_task_group() as group:
            await session.deliver(new_event("user.input", "rotate the keys"))
            group.start_soon(session.run_until_idle)
            await records.until(lambda e: isinstance(e, HumanAsked))
            group.cancel_scope.cancel()

    run(until_asked)
    [asked] = records.of(HumanAsked)
    runner = CliRunner()
    late = runner.invoke(
        cli, ["approvals", "answer", asked.request_id, "--approve", "--db", str(db)]
    )
    assert late.exit_code == 0, late.output
    clock = FakeClock(time.time())  # the process comes back now, long after the deadline
    later = approval_agent(db, ScriptedModel(["I did not rotate them.", "ok"]), records, clock)
    result = anyio.run(later.resume, asked.session_id)
    assert result.answer == "I did not rotate them."
    listed = runner.invoke(cli, ["approvals", "--json", "--db", str(db)])
    [done] = [json.loads(line) for line in listed.output.splitlines()]
    assert done["status"] == "timed_out" and done["answer"] == "deny"
