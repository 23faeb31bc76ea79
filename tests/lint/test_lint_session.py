from __future__ import annotations

import itertools
from pathlib import Path

import anyio
import pytest
from lint_support import SYSTEM, TOOLS, Recorder, turn

from workset.lint import Finding, lint_manifests, lint_session
from workset.log.store import SessionLog
from workset.messages import AssistantMessage, Message, UserMessage
from workset.session.agent import Agent, AgentConfig
from workset.status.bar import StatusBar
from workset.testing import ScriptedModel, call
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace


def codes(findings: list[Finding]) -> list[tuple[str, str]]:
    return [(f.code, f.severity) for f in findings]


def grow(recorder: Recorder, turns: int, **call: object) -> list[Message]:
    history: list[Message] = []
    for k in range(turns):
        history += turn(k)
        recorder.call(history, **call)  # type: ignore[arg-type]
    return history


def run_agent(
    tmp_path: Path,
    log: SessionLog,
    script: list,
    status: StatusBar | None = None,
    config: AgentConfig | None = None,
) -> str:
    (tmp_path / "ws").mkdir(exist_ok=True)
    (tmp_path / "ws" / "service.toml").write_text("[server]\nport = 8471\n")
    tools = ToolRegistry(perception_tools(Workspace(tmp_path / "ws")))
    ticks = itertools.count()  # a minute passes at every reading: the status time rotates
    agent = Agent(
        ScriptedModel(script),
        tools,
        log,
        config,
        status=status,
        clock=lambda: 1.8e9 + 61 * next(ticks),
    )
    return anyio.run(agent.run, "Which port does the service use?").session_id


def test_a_session_recorded_by_the_default_agent_is_clean(tmp_path: Path, log: SessionLog) -> None:
    read = call("read_file", '{"path": "service.toml"}')
    grep = call("grep", '{"pattern": "port"}')
    script = [AssistantMessage(None, (read,)), AssistantMessage(None, (grep,)), "Port 8471."]
    session_id = run_agent(tmp_path, log, script)
    assert len(log.manifests(session_id)) == 3
    assert lint_session(log, session_id) == []


@pytest.mark.parametrize("strategy", ["replace", "append"])
def test_a_session_with_the_agent_status_bar_is_clean_with_either_strategy(
    tmp_path: Path, log: SessionLog, strategy: str
) -> None:
    read = call("read_file", '{"path": "service.toml"}')
    grep = call("grep", '{"pattern": "port"}')
    script = [AssistantMessage(None, (read,)), AssistantMessage(None, (grep,)), "Port 8471."]
    bar = StatusBar(strategy=strategy, cwd="/srv/app", os_name="Linux")  # type: ignore[arg-type]
    session_id = run_agent(tmp_path, log, script, status=bar)
    assert len(log.manifests(session_id)) == 3
    assert lint_session(log, session_id) == []


def test_an_append_only_session_with_the_status_at_the_end_is_clean(log: SessionLog) -> None:
    recorder = Recorder(log)
    history: list[Message] = []
    for k in range(5):
        history += turn(k)
        recorder.call(history, suffix=[UserMessage(f"<agent_status>round {k}</agent_status>")])
    assert lint_session(log, recorder.session_id) == []


def test_a_timestamp_in_the_system_prompt_shows_as_a_changed_prompt_at_each_call(
    log: SessionLog,
) -> None:
    recorder = Recorder(log, system_prompt=f"It is 10:00:00. {SYSTEM}")
    history: list[Message] = []
    for k in range(4):
        history += turn(k)
        recorder.call(history, system=f"It is 10:0{k}:00. {SYSTEM}")
    findings = lint_session(log, recorder.session_id)
    assert codes(findings) == [("WS101", "error"), ("WS202", "error")]
    changed = findings[1]
    assert "3 times (at calls 2, 3, 4)" in changed.message
    assert "calls 1→2: position 0: system changed" in changed.message
    assert "(recorded)" in findings[0].where and "'10:00:00'" in findings[0].message


def test_a_new_system_prompt_on_a_later_run_of_the_session_is_flagged(
    tmp_path: Path, log: SessionLog
) -> None:
    session_id = run_agent(tmp_path, log, ["Port 8471."])
    tools = ToolRegistry(perception_tools(Workspace(tmp_path / "ws")))
    second = Agent(
        ScriptedModel(["Still 8471."]), tools, log, AgentConfig(system_prompt="Be terse.")
    )
    anyio.run(lambda: second.run("And now?", session_id=session_id))
    [finding] = lint_session(log, session_id)
    assert finding.code == "WS202" and "at calls 2" in finding.message


def test_tools_that_change_between_calls_are_tool_list_churn(log: SessionLog) -> None:
    recorder = Recorder(log)
    history: list[Message] = []
    for k, tools in enumerate([TOOLS, TOOLS[::-1], TOOLS[:1], TOOLS[:1]]):
        history += turn(k)
        recorder.call(history, tools=tools)
    [finding] = lint_session(log, recorder.session_id)
    assert finding.code == "WS201" and finding.severity == "error"
    assert "2 times (at calls 2, 3)" in finding.message
    assert "calls 1→2: position 1: tools changed" in finding.message


def test_tools_withheld_by_the_agent_after_a_repeated_call_are_only_a_warning(
    tmp_path: Path, log: SessionLog
) -> None:
    read = call("read_file", '{"path": "service.toml"}')
    script = [AssistantMessage(None, (read,)), AssistantMessage(None, (read,)), "Port 8471."]
    # with the answer grammar (the default) the tools stay and nothing breaks the prefix
    assert lint_session(log, run_agent(tmp_path, log, script)) == []
    withhold = AgentConfig(answer_with_grammar=False)
    session_id = run_agent(tmp_path, log, script, config=withhold)
    [finding] = lint_session(log, session_id)
    assert (finding.code, finding.severity) == ("WS201", "warning")
    assert "tools withheld by policy (the model repeated a call" in finding.message


def test_a_status_block_right_after_the_system_prompt_breaks_reuse_near_the_start(
    log: SessionLog,
) -> None:
    recorder = Recorder(log)
    history: list[Message] = []
    for k in range(4):
        history += turn(k)
        status = UserMessage(f"<agent_status>round {k}, {k} calls</agent_status>")
        recorder.call([status, *history])
    [finding] = lint_session(log, recorder.session_id)
    assert finding.code == "WS203" and finding.severity == "error"
    assert "at calls 2, 3, 4" in finding.message
    assert "calls 1→2: position 2: user message changed" in finding.message


def test_a_single_late_break_is_not_rotating_state(log: SessionLog) -> None:
    recorder = Recorder(log)
    history = grow(recorder, 3)
    edited = [*history[:-1], AssistantMessage("A different answer.")]
    recorder.call(edited)
    assert lint_session(log, recorder.session_id) == []


def test_deleting_a_message_from_the_middle_names_the_calls_and_seqs(log: SessionLog) -> None:
    recorder = Recorder(log)
    history = grow(recorder, 3)  # seqs 0-11
    kept = [i for i in range(len(history)) if i not in (4, 5, 6, 7)]  # drop turn 1 whole
    recorder.call([history[i] for i in kept], seqs=kept)
    [finding] = lint_session(log, recorder.session_id)
    assert (finding.code, finding.severity) == ("WS204", "error")
    assert "calls 3→4: seq 4-7 left out while seq 11 stays" in finding.message
    assert "first diverging item position 6" in finding.message


def test_an_announced_compaction_is_not_a_deletion(log: SessionLog) -> None:
    recorder = Recorder(log)
    history = grow(recorder, 3)
    summary = UserMessage("[summary of turns 0-1] ports 8000 and 8001")
    recorder.call([summary, *history[8:]], seqs=[None, *range(8, 12)], summary_id="sum-1")
    assert [f.code for f in lint_session(log, recorder.session_id)] == []


def test_the_budget_trimming_the_oldest_messages_is_a_sliding_window_warning(
    log: SessionLog,
) -> None:
    recorder = Recorder(log, window=650)
    grow(recorder, 4)
    assert any(m.omitted for m in recorder.manifests), "the window should have overflowed"
    findings = lint_session(log, recorder.session_id)
    assert ("WS204", "warning") in codes(findings)
    assert all(f.severity == "warning" for f in findings if f.code == "WS204")


def test_manifests_can_be_linted_without_a_log(log: SessionLog) -> None:
    recorder = Recorder(log)
    grow(recorder, 2, system="Today is Monday. " + SYSTEM)
    assert lint_manifests(recorder.manifests) == []  # same prompt each call: nothing moved
