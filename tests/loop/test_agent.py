from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from workset.context.trust import wrap_untrusted
from workset.errors import ModelUnavailableError, UsageError
from workset.events import (
    EventReceived,
    InputAppended,
    LoopEvent,
    ModelCalled,
    RunFailed,
    RunFinished,
    RunStarted,
    ToolFinished,
    ToolStarted,
)
from workset.messages import AssistantMessage, ToolMessage, UserMessage
from workset.models.base import ModelRequest
from workset.models.constrained import answer_schema
from workset.session.agent import Agent, AgentConfig
from workset.testing import ScriptedModel, call, current_store
from workset.tools.base import Tool, tool
from workset.tools.execution import execution_tools
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace


def make_agent(
    tmp_path: Path,
    script: list,
    extra: list[Tool] | None = None,
    window: int = 8192,
    **config: object,
) -> tuple[Agent, ScriptedModel, list[LoopEvent]]:
    (tmp_path / "ws").mkdir(exist_ok=True)
    (tmp_path / "ws" / "service.toml").write_text("[server]\nport = 8471\n")
    tools = ToolRegistry([*perception_tools(Workspace(tmp_path / "ws")), *(extra or [])])
    model = ScriptedModel(script, context_window=window)
    seen: list[LoopEvent] = []
    agent = Agent(
        model,
        tools,
        current_store(),
        AgentConfig(**config),  # type: ignore[arg-type]
        subscribers=[seen.append],
    )
    return agent, model, seen


def tool_results(request: ModelRequest) -> list[ToolMessage]:
    return [m for m in request.messages if isinstance(m, ToolMessage)]


def test_a_task_that_needs_a_tool_runs_it_and_answers(tmp_path: Path) -> None:
    read = call("read_file", '{"path": "service.toml"}')
    agent, model, seen = make_agent(
        tmp_path, [AssistantMessage(None, (read,)), "The server listens on port 8471."]
    )
    result = anyio.run(agent.run, "Which port?")
    assert result.status == "finished"
    assert result.answer == "The server listens on port 8471."
    assert [type(e) for e in seen] == [
        EventReceived,
        RunStarted,
        InputAppended,
        ModelCalled,
        ToolStarted,
        ToolFinished,
        ModelCalled,
        RunFinished,
    ]
    [answer] = tool_results(model.requests[1])
    assert answer.tool_call_id == read.id and "port = 8471" in answer.content
    log_messages = agent.log.messages(result.session_id)
    assert log_messages[0] == UserMessage("Which port?")
    assert log_messages[-1] == AssistantMessage("The server listens on port 8471.")


def test_tool_calls_written_as_json_text_are_parsed_and_run(tmp_path: Path) -> None:
    text = '```json\n{"name": "read_file", "arguments": {"path": "service.toml"}}\n```'
    agent, model, _ = make_agent(tmp_path, [text, "8471"])
    result = anyio.run(agent.run, "Which port?")
    assert result.answer == "8471"
    [answer] = tool_results(model.requests[1])
    assert "port = 8471" in answer.content and not answer.is_error


def test_a_malformed_tool_call_becomes_an_error_the_model_can_fix(tmp_path: Path) -> None:
    broken = '<tool_call>\n{"name": "read_file", "arguments": {"path": "service.toml"\n</tool_call>'
    agent, model, _ = make_agent(tmp_path, [broken, "sorry, 8471"])
    result = anyio.run(agent.run, "Which port?")
    assert result.status == "finished"
    [error] = tool_results(model.requests[1])
    assert error.is_error and "read_file" in error.content and "JSON" in error.content


def test_an_unknown_tool_gets_an_error_naming_the_closest_tool(tmp_path: Path) -> None:
    wrong = call("read_files", '{"path": "service.toml"}')
    agent, model, _ = make_agent(tmp_path, [AssistantMessage(None, (wrong,)), "ok"])
    anyio.run(agent.run, "Which port?")
    [error] = tool_results(model.requests[1])
    assert error.is_error and "read_file" in error.content


def test_read_only_calls_run_concurrently_and_results_keep_call_order(tmp_path: Path) -> None:
    arrived = {"a": anyio.Event(), "b": anyio.Event()}

    async def meet(name: str) -> str:
        """Wait for the other call. Use when testing.

        Args:
            name: a or b.
        """
        arrived[name].set()
        other = "b" if name == "a" else "a"
        with anyio.fail_after(5):  # sequential execution would never see the other one
            await arrived[other].wait()
        return f"met {other}"

    rendezvous = Tool.from_function(meet, read_only=True, examples=({"name": "a"},))
    calls = (call("meet", '{"name": "a"}', "id-a"), call("meet", '{"name": "b"}', "id-b"))
    agent, model, _ = make_agent(
        tmp_path, [AssistantMessage(None, calls), "both met"], extra=[rendezvous]
    )
    result = anyio.run(agent.run, "meet")
    assert result.answer == "both met"
    assert [(r.tool_call_id, r.content) for r in tool_results(model.requests[1])] == [
        ("id-a", wrap_untrusted("met b", source="tool:meet")),
        ("id-b", wrap_untrusted("met a", source="tool:meet")),
    ]


def test_a_tool_that_hangs_is_cut_off_by_the_tool_timeout(tmp_path: Path) -> None:
    @tool(examples=({},))
    async def hang() -> str:
        """Never returns. Use when testing timeouts."""
        await anyio.sleep_forever()
        return ""

    agent, model, _ = make_agent(
        tmp_path,
        [AssistantMessage(None, (call("hang"),)), "gave up"],
        extra=[hang],
        tool_timeout_s=0.05,
    )
    result = anyio.run(agent.run, "hang")
    assert result.answer == "gave up"
    [error] = tool_results(model.requests[1])
    assert error.is_error and "timed out" in error.content


def test_the_loop_stops_with_an_explicit_error_after_max_iterations(tmp_path: Path) -> None:
    again = AssistantMessage(None, (call("list_dir"),))
    agent, model, seen = make_agent(tmp_path, [again] * 4, max_iterations=3)
    result = anyio.run(agent.run, "loop forever")
    assert result.status == "failed" and "no final answer after 3 model calls" in result.error
    assert isinstance(seen[-1], RunFailed) and seen[-1].error_type == "MaxIterations"
    # the third call repeated the first two, so one more call was made that could only
    # answer (its output held to the answer's schema); it did not answer either
    assert len(model.requests) == 4 and model.requests[3].json_schema == answer_schema()


def test_the_answer_after_an_edit_made_by_the_last_allowed_call_is_still_asked(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "ops.py").write_text("def inc(d):\n    d['n'] += 2\n    return d\n")
    read = '{"name": "read_file", "arguments": {"path": "ops.py"}}'
    edit = json.dumps(
        {"name": "edit_file", "arguments": {"path": "ops.py", "old": "    d['n'] += 2",
                                            "new": "    d['n'] += 1"}}
    )  # fmt: skip
    done = '{"answer": "In ops.py, inc now adds 1."}'
    agent, model, _ = make_agent(
        tmp_path, [read, edit, done], extra=execution_tools(Workspace(ws)), guided_edits=True,
        max_iterations=2,
    )  # fmt: skip
    result = anyio.run(agent.run, "inc in ops.py adds 2 instead of 1; fix it")
    assert result.status == "finished" and result.answer == "In ops.py, inc now adds 1."
    assert len(model.requests) == 3 and (ws / "ops.py").read_text().count("+= 1") == 1


def test_a_model_failure_ends_the_run_with_the_backend_message(tmp_path: Path) -> None:
    down = ModelUnavailableError("could not connect to http://127.0.0.1:9/v1; is it running?")
    agent, _, seen = make_agent(tmp_path, [down])
    result = anyio.run(agent.run, "hello")
    assert result.status == "failed" and "could not connect" in result.error
    assert isinstance(seen[-1], RunFailed)
    assert agent.log.resume_state(result.session_id).last_run_status == "failed"


def test_an_empty_task_is_refused_before_anything_is_recorded(tmp_path: Path) -> None:
    agent, _, seen = make_agent(tmp_path, [])
    with pytest.raises(UsageError, match="the task is empty"):
        anyio.run(agent.run, "   ")
    assert seen == [] and agent.log.sessions() == []


def test_a_second_turn_sees_the_first_and_reuses_its_prefix(tmp_path: Path) -> None:
    agent, model, seen = make_agent(tmp_path, ["first answer", "second answer"])
    first = anyio.run(agent.run, "one")

    async def second_turn() -> object:
        return await agent.run("two", session_id=first.session_id)

    anyio.run(second_turn)
    assert model.requests[1].messages[1:] == (
        UserMessage("one"),
        AssistantMessage("first answer"),
        UserMessage("two"),
    )
    manifests = [e.manifest for e in seen if isinstance(e, ModelCalled)]
    assert manifests[1].prefix.first_divergence == ""
    assert manifests[1].prefix.reused_tokens > manifests[0].prefix.tokens


def test_each_call_records_a_manifest_whose_buckets_match_the_backend_count(
    tmp_path: Path,
) -> None:
    read = call("read_file", '{"path": "service.toml"}')
    agent, _, seen = make_agent(tmp_path, [AssistantMessage(None, (read,)), "8471"])
    anyio.run(agent.run, "Which port?")
    for event in seen:
        if isinstance(event, ModelCalled):
            assert sum(event.manifest.buckets.values()) == event.usage.prompt_tokens
            assert event.manifest.total_tokens == event.usage.prompt_tokens
    stored = agent.log.manifests(seen[0].session_id)
    assert len(stored) == 2 and stored[1][1].buckets["tool_results"] > 0


def test_resume_reruns_an_unfinished_read_only_call_but_not_a_side_effect(tmp_path: Path) -> None:
    effects: list[str] = []

    @tool(examples=({"text": "x"},))
    def append_note(text: str) -> str:
        """Append a note. Use when asked to record something.

        Args:
            text: The note.
        """
        effects.append(text)
        return "noted"

    calls = (
        call("read_file", '{"path": "service.toml"}', "r1"),
        call("append_note", '{"text": "hi"}', "w1"),
    )
    agent, _, _ = make_agent(tmp_path, ["unused"], extra=[append_note])
    session = agent.log.create_session(title="t", workspace="", model="scripted")
    agent.log.append(RunStarted("run0", session, "do both", "scripted", 1.0))
    from workset.context.assemble import Assembler, BudgetConfig

    manifest = (
        Assembler(agent.model.token_counter(), BudgetConfig(8192))
        .assemble(session_id=session, system="s", tools=(), history=[UserMessage("do both")])
        .manifest
    )
    from workset.models.base import Usage

    agent.log.append(
        ModelCalled("run0", session, 1, manifest, AssistantMessage(None, calls), Usage(10, 5), 2.0)
    )
    for c in calls:
        agent.log.append(ToolStarted("run0", session, c, 3.0))
    # the process died here: both calls started, neither finished
    resumed = anyio.run(agent.resume, session)
    assert resumed.status == "finished" and resumed.answer == "unused"
    assert effects == []  # the side effect was not run again
    results = {m.tool_call_id: m for m in agent.log.messages(session) if isinstance(m, ToolMessage)}
    assert "port = 8471" in results["r1"].content and not results["r1"].is_error
    assert results["w1"].is_error and "interrupted" in results["w1"].content


def test_resume_of_a_finished_session_has_nothing_to_do(tmp_path: Path) -> None:
    agent, _, _ = make_agent(tmp_path, ["done"])
    result = anyio.run(agent.run, "hi")
    again = anyio.run(agent.resume, result.session_id)
    assert again.status == "nothing_to_do" and again.answer == "done"


def test_scripted_model_reports_json_arguments_untouched(tmp_path: Path) -> None:
    args = json.dumps({"path": "service.toml", "offset": 1})
    agent, model, _ = make_agent(
        tmp_path, [AssistantMessage(None, (call("read_file", args),)), "ok"]
    )
    anyio.run(agent.run, "read")
    sent = model.requests[1].messages[2]
    assert isinstance(sent, AssistantMessage) and sent.tool_calls[0].arguments == args


def test_constrained_decisions_send_a_schema_and_read_answers_and_calls(tmp_path: Path) -> None:
    agent, model, _ = make_agent(
        tmp_path,
        ['{"name": "read_file", "arguments": {"path": "service.toml"}}', '{"answer": "port 8471"}'],
        constrained_decisions=True,
    )
    result = anyio.run(agent.run, "Which port?")
    assert result.answer == "port 8471"
    schema = model.requests[0].json_schema
    assert schema is not None
    names = [o["properties"].get("name", {}).get("const") for o in schema["anyOf"]]
    assert names == [*agent.tools.names(), None]
    assert "port = 8471" in tool_results(model.requests[1])[0].content


def test_guided_edits_offer_the_lines_read_and_apply_the_chosen_edit(tmp_path: Path) -> None:
    """Through the agent: the first request has no edit option (nothing seen), the second
    offers the function read whole, the edit applies with the file's indentation, and the
    request after it offers no edit."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "ops.py").write_text("def inc(d):\n    d['n'] += 2\n    return d\n")
    read = '{"name": "read_file", "arguments": {"path": "ops.py"}}'
    edit = json.dumps(
        {"name": "edit_file", "arguments": {"path": "ops.py", "old": "2|     d['n'] += 2",
                                            "new": "d['n'] += 1"}}
    )  # fmt: skip
    done = '{"answer": "In ops.py, inc now adds 1."}'
    agent, model, _ = make_agent(
        tmp_path, [read, edit, done], extra=execution_tools(Workspace(ws)), guided_edits=True
    )
    result = anyio.run(agent.run, "inc in ops.py adds 2 instead of 1; fix it")
    assert result.answer == "In ops.py, inc now adds 1."
    assert (ws / "ops.py").read_text() == "def inc(d):\n    d['n'] += 1\n    return d\n"

    def edit_options(request: ModelRequest) -> list[dict]:
        assert request.json_schema is not None
        return [
            o["properties"]["arguments"]["properties"]
            for o in request.json_schema.get("anyOf", [])
            if o["properties"].get("name", {}).get("const") == "edit_file"
        ]

    assert edit_options(model.requests[0]) == []
    # The task reports a defect and the run has seen all of the function it names: the
    # decision is which whole function to write again (nothing else; the scripted model's
    # line edit stands for a backend that does not hold it to the schema).
    [whole] = edit_options(model.requests[1])
    assert len(model.requests[1].json_schema["anyOf"]) == 1
    assert whole["path"] == {"const": "ops.py"}
    assert whole["old"]["enum"] == ["1| def inc(d):\n2|     d['n'] += 2\n3|     return d"]
    assert "new" not in whole  # the whole function is written next, as code
    assert edit_options(model.requests[2]) == []  # the answer, under its grammar
    assert model.requests[2].json_schema == answer_schema()
    assert "Your edit was made" in model.requests[2].messages[-1].content


def test_a_guided_rewrite_takes_the_function_as_code_and_edits_it_in_place(
    tmp_path: Path,
) -> None:
    """Through the agent: the run reads a file, chooses a whole function (no ``new``), is
    shown it and asked for it as code with the tools withheld; the fenced reply, written at
    the margin, replaces the method inside its class."""
    ws = tmp_path / "ws"
    ws.mkdir()
    source = (
        "class Ops:\n"
        "    def inc(self, d):\n"
        '        """Add one."""\n'
        "        d['n'] += 1\n"
        "        return d\n"
        "\n"
        "    def dec(self, d):\n"
        "        d['n'] -= 1\n"
        "        return d\n"
    )
    (ws / "ops.py").write_text(source)
    read = '{"name": "read_file", "arguments": {"path": "ops.py"}}'
    block = (
        "2|     def inc(self, d):\n"
        '3|         """Add one."""\n'
        "4|         d['n'] += 1\n"
        "5|         return d"
    )
    choose = json.dumps({"name": "edit_file", "arguments": {"path": "ops.py", "old": block}})
    code = (
        "Here it is:\n```python\ndef inc(self, d, step=1):\n"
        '    """Add step."""\n'
        "    d['n'] += step\n"
        "    return d\n```"
    )
    done = '{"answer": "Ops.inc in ops.py takes a step now."}'
    agent, model, _ = make_agent(
        tmp_path, [read, choose, code, done], extra=execution_tools(Workspace(ws)),
        guided_edits=True,
    )  # fmt: skip
    result = anyio.run(agent.run, "Give inc in ops.py a step parameter (default 1).")
    assert result.answer == "Ops.inc in ops.py takes a step now."
    namespace: dict = {}
    exec((ws / "ops.py").read_text(), namespace)
    ops = namespace["Ops"]()
    assert ops.inc({"n": 1}, step=5) == {"n": 6} and ops.dec({"n": 1}) == {"n": 0}
    assert model.requests[2].json_schema is None and not model.requests[2].tools
    # the function is asked for alone: the system prompt and the request, no trajectory
    assert [m.role for m in model.requests[2].messages] == ["system", "user"]
    asked = model.requests[2].messages[-1].content
    assert "```python\ndef inc(self, d):" in asked and "step parameter" in asked
    chosen = tool_results(model.requests[3])[-2]
    assert "rewritten next, as code" in chosen.content
    edited = tool_results(model.requests[3])[-1]
    assert not edited.is_error and "edited ops.py" in edited.content


def test_a_coder_model_writes_the_chosen_function_and_only_that(tmp_path: Path) -> None:
    """With ``coder``, the request that asks for the chosen function as code goes to it; every
    other call goes to the agent's own model."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "ops.py").write_text("def inc(d):\n    d['n'] += 2\n    return d\n")
    read = '{"name": "read_file", "arguments": {"path": "ops.py"}}'
    block = "1| def inc(d):\n2|     d['n'] += 2\n3|     return d"
    choose = json.dumps({"name": "edit_file", "arguments": {"path": "ops.py", "old": block}})
    done = '{"answer": "inc in ops.py adds 1 now."}'
    small = ScriptedModel([read, choose, done])
    coder = ScriptedModel(["```python\ndef inc(d):\n    d['n'] += 1\n    return d\n```"])
    tools = ToolRegistry([*perception_tools(Workspace(ws)), *execution_tools(Workspace(ws))])
    agent = Agent(small, tools, current_store(), AgentConfig(guided_edits=True), coder=coder)
    result = anyio.run(agent.run, "inc in ops.py adds 2 instead of 1; fix it")
    assert result.answer == "inc in ops.py adds 1 now."
    assert (ws / "ops.py").read_text() == "def inc(d):\n    d['n'] += 1\n    return d\n"
    [asked] = coder.requests
    assert [m.role for m in asked.messages] == ["system", "user"] and not asked.tools
    assert len(small.requests) == 3  # read, choose, answer


def test_a_rewrite_that_changes_nothing_the_code_does_is_not_applied(tmp_path: Path) -> None:
    """Through the agent: the function written back with only its docstring changed is not
    run as an edit; it is asked for again, sampled with a seed per attempt (greedy decoding
    would copy it again), twice; the file stays as it was and the run is told why."""
    ws = tmp_path / "ws"
    ws.mkdir()
    source = 'def inc(d):\n    """Add one."""\n    d["n"] += 2\n    return d\n'
    (ws / "ops.py").write_text(source)
    read = '{"name": "read_file", "arguments": {"path": "ops.py"}}'
    block = '1| def inc(d):\n2|     """Add one."""\n3|     d["n"] += 2\n4|     return d'
    choose = json.dumps({"name": "edit_file", "arguments": {"path": "ops.py", "old": block}})
    same = '```python\ndef inc(d):\n    """Add 1 to n."""\n    d["n"] += 2\n    return d\n```'
    done = '{"answer": "inc in ops.py was not changed."}'
    agent, model, _ = make_agent(
        tmp_path, [read, choose, same, same, same, done], extra=execution_tools(Workspace(ws)),
        window=16384, guided_edits=True,
    )  # fmt: skip
    anyio.run(agent.run, "inc in ops.py adds 2 instead of 1; fix it")
    assert (ws / "ops.py").read_text() == source
    asked = [model.requests[n] for n in (2, 3, 4)]
    assert all([m.role for m in r.messages] == ["system", "user"] for r in asked)
    assert [(r.temperature, r.seed) for r in asked] == [(0.0, None), (0.8, 1), (0.8, 2)]
    refused = tool_results(model.requests[5])[-3:]
    assert all(
        r.is_error and "does what the one in ops.py already does" in r.content for r in refused
    )


def test_a_repeated_call_makes_the_next_turn_answer_without_tools(tmp_path: Path) -> None:
    read = '{"name": "read_file", "arguments": {"path": "service.toml"}}'
    agent, model, seen = make_agent(tmp_path, [read, read, "Port 8471."], answer_with_grammar=False)
    result = anyio.run(agent.run, "Which port?")
    assert result.answer == "Port 8471."
    assert model.requests[1].tools and not model.requests[2].tools
    repeated = tool_results(model.requests[2])[-1]  # given again from the log, not re-run
    assert not repeated.is_error and "already called read_file" in repeated.content
    assert "port = 8471" in repeated.content
    assert len([e for e in seen if isinstance(e, ToolStarted)]) == 1
    last = [e.manifest for e in seen if isinstance(e, ModelCalled)][-1]
    [withheld] = [o for o in last.omitted if o.reason == "policy"]
    assert withheld.item_id == "tools" and withheld.tokens > 0


def test_three_parts_of_one_file_read_in_a_row_lead_to_the_answer_turn(tmp_path: Path) -> None:
    pages = [
        json.dumps({"name": "read_file", "arguments": {"path": "db.py", "offset": n, "limit": 3}})
        for n in (1, 4, 7)
    ]
    agent, model, _ = make_agent(
        tmp_path, [*pages, '{"answer": "It drops all tables."}'], second_look=False
    )  # the answer names no fact: asked again with second_look (tests/loop/test_second_look.py)
    body = ["class DB:", "    def drop_tables(self):", '        """Drop all tables."""']
    (tmp_path / "ws" / "db.py").write_text("\n".join(body + ["    pass"] * 9) + "\n")
    result = anyio.run(agent.run, "What does DB.drop_tables drop?")
    assert result.answer == "It drops all tables." and len(model.requests) == 4
    last = model.requests[3]
    assert last.json_schema is not None and last.json_schema["required"] == ["answer"]
    assert "db.py:2| def drop_tables(self):" in str(last.messages[-2].content)


def test_a_repeated_call_asks_for_the_answer_with_a_schema_and_keeps_the_prefix(
    tmp_path: Path,
) -> None:
    read = '{"name": "read_file", "arguments": {"path": "service.toml"}}'
    agent, model, seen = make_agent(tmp_path, [read, read, '{"answer": "Port 8471."}'])
    result = anyio.run(agent.run, "Which port?")
    assert result.answer == "Port 8471." and result.outcome == "answered"
    last = model.requests[2]
    assert last.tools == model.requests[1].tools  # still offered: the prefix is unchanged
    assert last.json_schema is not None and last.json_schema["required"] == ["answer"]
    assert "Answer this question now" in (last.messages[-1].content or "")
    assert "Which port?" in (last.messages[-1].content or "")  # the question, repeated
    manifests = [e.manifest for e in seen if isinstance(e, ModelCalled)]
    assert manifests[-1].prefix.first_divergence == ""
    assert not [o for o in manifests[-1].omitted if o.item_id == "tools"]


def test_metrics_count_calls_errors_and_durations_per_tool(tmp_path: Path) -> None:
    from workset.loop.metrics import ToolMetrics

    metrics = ToolMetrics()
    calls = (
        call("read_file", '{"path": "service.toml"}', "a"),
        call("read_file", '{"path": "missing.txt"}', "b"),
    )
    agent, _, _ = make_agent(tmp_path, [AssistantMessage(None, calls), "ok"])
    agent.bus.subscribe(metrics)
    anyio.run(agent.run, "read two")
    stats = metrics.snapshot()["read_file"]
    assert (stats.calls, stats.errors, stats.denied) == (2, 1, 0)
    assert stats.error_rate == 0.5 and stats.max_s >= stats.mean_s >= 0


def test_resume_reruns_an_unfinished_idempotent_call_with_the_same_idempotency_key(
    tmp_path: Path,
) -> None:
    from workset.tools.context import CallContext, current_call

    keys: list[str] = []

    @tool(idempotent=True, examples=({"name": "x"},))
    def put_record(name: str) -> str:
        """Create or replace a record (idempotent by key).

        Args:
            name: Record name.
        """
        keys.append(current_call().idempotency_key)
        return "stored"

    agent, _, _ = make_agent(tmp_path, ["done"], extra=[put_record])
    session = agent.log.create_session(title="t", workspace="", model="scripted")
    put = call("put_record", '{"name": "x"}', "p1")
    from workset.context.assemble import Assembler, BudgetConfig
    from workset.models.base import Usage

    manifest = (
        Assembler(agent.model.token_counter(), BudgetConfig(8192))
        .assemble(session_id=session, system="s", tools=(), history=[UserMessage("put")])
        .manifest
    )
    agent.log.append(RunStarted("r0", session, "put", "scripted", 1.0))
    agent.log.append(
        ModelCalled("r0", session, 1, manifest, AssistantMessage(None, (put,)), Usage(1, 1), 2.0)
    )
    agent.log.append(ToolStarted("r0", session, put, 3.0))
    result = anyio.run(agent.resume, session)
    assert result.status == "finished"
    assert keys == [CallContext(session, "p1", "put_record").idempotency_key]


def test_tools_outside_the_core_run_only_after_discovery_loads_them(tmp_path: Path) -> None:
    from workset.loop.offer import ToolOffer

    @tool(read_only=True, examples=({"city": "Lima"},))
    def weather(city: str) -> str:
        """Weather for a city. Use when asked about weather.

        Args:
            city: City name.
        """
        return f"sunny in {city}"

    lookup = call("weather", '{"city": "Lima"}', "w1")
    again = call("weather", '{"city": "Quito"}', "w2")
    agent, model, seen = make_agent(
        tmp_path,
        [
            AssistantMessage(None, (lookup,)),
            AssistantMessage(None, (again,)),
            "done",
        ],
        extra=[weather],
    )
    agent.offer = ToolOffer(agent.tools, core=["read_file"])
    anyio.run(agent.run, "weather?")
    assert [s.name for s in model.requests[0].tools] == ["read_file"]
    refused, ran = (e for e in seen if isinstance(e, ToolFinished))
    assert refused.result.is_error and "did not run" in refused.result.content
    assert '"name": "weather"' in refused.result.content  # its schema, at the end of context
    assert refused.decision == "refused: not loaded (now loaded)"
    assert ran.result.content == wrap_untrusted("sunny in Quito", source="tool:weather")
    assert ran.decision == "allowed"


def test_an_unknown_tool_name_becomes_a_catalog_search_that_loads_what_fits(
    tmp_path: Path,
) -> None:
    from workset.discovery import ToolIndex, tool_search_tool
    from workset.loop.offer import ToolOffer

    @tool(read_only=True, examples=({"city": "Lima"},))
    def get_forecast(city: str) -> str:
        """Weather forecast for a city. Use when asked about weather.

        Args:
            city: City name.
        """
        return f"sunny in {city}"

    index = ToolIndex.build({"weather": [get_forecast.spec]})
    loaded: set[str] = set()
    guess = call("weather_forecast", '{"city": "Lima"}', "g1")
    right = call("get_forecast", '{"city": "Lima"}', "g2")
    agent, _model, seen = make_agent(
        tmp_path,
        [AssistantMessage(None, (guess,)), AssistantMessage(None, (right,)), "sunny"],
        extra=[get_forecast, tool_search_tool(index, loaded)],
    )
    agent.offer = ToolOffer(agent.tools, core=["tool_search"], loaded=loaded)
    anyio.run(agent.run, "forecast for Lima?")
    searched, ran = (e for e in seen if isinstance(e, ToolFinished))
    assert searched.decision == "refused: unknown tool (searched)"
    assert "get_forecast" in searched.result.content and "get_forecast" in loaded
    assert ran.result.content == wrap_untrusted("sunny in Lima", source="tool:get_forecast")


def test_a_call_under_a_class_name_with_read_file_arguments_reads_the_file(
    tmp_path: Path,
) -> None:
    wrong = '{"name": "ServiceConfig", "arguments": {"path": "service.toml", "offset": 1}}'
    agent, model, seen = make_agent(tmp_path, [wrong, "Port 8471."])
    result = anyio.run(agent.run, "Which port?")
    assert result.answer == "Port 8471."
    [ran] = [e for e in seen if isinstance(e, ToolFinished)]
    assert ran.call.name == "read_file" and "port = 8471" in ran.result.content
    assert "the model named it 'ServiceConfig'" in ran.decision
    sent = model.requests[1].messages[2]
    assert isinstance(sent, AssistantMessage) and sent.tool_calls[0].name == "read_file"


def test_a_reply_that_stops_at_its_lead_in_is_sent_back_once_for_the_answer(
    tmp_path: Path,
) -> None:
    read = call("read_file", '{"path": "service.toml"}')
    agent, model, _ = make_agent(
        tmp_path,
        [AssistantMessage(None, (read,)), "The answer is:", "The port is 8471 (service.toml)."],
    )
    result = anyio.run(agent.run, "Which port?")
    assert result.answer == "The port is 8471 (service.toml)."
    asked = str(model.requests[2].messages[-1].content)
    assert "stopped before the answer" in asked and "Which port?" in asked


def test_a_reply_that_restates_the_question_is_sent_back_once_then_stands(
    tmp_path: Path,
) -> None:
    read = call("read_file", '{"path": "service.toml"}')
    restated = "The service listens on the port."
    agent, model, _ = make_agent(tmp_path, [AssistantMessage(None, (read,)), restated, restated])
    result = anyio.run(agent.run, "Which port does the service listen on?")
    assert result.answer == restated
    asked = str(model.requests[2].messages[-1].content)
    assert "asks for a number" in asked and "Which port does the service listen on?" in asked
    assert len(model.requests) == 3


def test_a_file_question_answered_with_a_class_name_gets_the_file_on_the_second_reply(
    tmp_path: Path,
) -> None:
    read = call("read_file", '{"path": "service.toml"}')
    agent, model, _ = make_agent(
        tmp_path, [AssistantMessage(None, (read,)), "ServiceConfig", "service.toml sets it."]
    )
    result = anyio.run(agent.run, "Which file sets the port?")
    assert result.answer == "service.toml sets it."
    assert "asks for a file" in str(model.requests[2].messages[-1].content)


def test_a_second_lead_in_stands_as_the_answer(tmp_path: Path) -> None:
    agent, model, _ = make_agent(tmp_path, ["The answer is:", "Here it is:"])
    result = anyio.run(agent.run, "Which port?")
    assert result.answer == "Here it is:" and len(model.requests) == 2


def test_a_reply_that_describes_a_call_instead_of_making_it_is_sent_back_once(
    tmp_path: Path,
) -> None:
    described = "To find the port, you can use the `read_file` function on service.toml."
    read = call("read_file", '{"path": "service.toml"}')
    agent, model, _ = make_agent(
        tmp_path, [described, AssistantMessage(None, (read,)), "The port is 8471."]
    )
    result = anyio.run(agent.run, "Which port?")
    assert result.answer == "The port is 8471."
    assert "described a tool call" in str(model.requests[1].messages[-1].content)


def test_an_answer_that_says_which_tool_found_it_stands(tmp_path: Path) -> None:
    said = "The port is 8471: read_file showed it in service.toml."
    agent, model, _ = make_agent(tmp_path, [said])
    assert anyio.run(agent.run, "Which port?").answer == said and len(model.requests) == 1


def test_a_reply_that_is_only_the_start_of_a_call_is_sent_back_once(tmp_path: Path) -> None:
    agent, model, _ = make_agent(tmp_path, ['{"name\n', "The port is 8471 (service.toml)."])
    result = anyio.run(agent.run, "Which port?")
    assert result.answer == "The port is 8471 (service.toml)."
    assert "start of a tool call" in str(model.requests[1].messages[-1].content)


def test_a_reply_that_copies_a_reads_footer_is_sent_back_once(tmp_path: Path) -> None:
    copied = "The port is not shown. To continue, call read_file with offset=81."
    agent, model, _ = make_agent(tmp_path, [copied, "The port is 8471 (service.toml)."])
    assert anyio.run(agent.run, "Which port?").answer == "The port is 8471 (service.toml)."
    assert "copied the harness's note" in str(model.requests[1].messages[-1].content)


def test_a_reply_that_copies_the_repeat_note_is_sent_back_once(tmp_path: Path) -> None:
    copied = "You already called read_file with these arguments (call c1); its result is repeated"
    agent, model, _ = make_agent(tmp_path, [copied, "The port is 8471 (service.toml)."])
    assert anyio.run(agent.run, "Which port?").answer == "The port is 8471 (service.toml)."
    assert "copied the harness's note" in str(model.requests[1].messages[-1].content)
