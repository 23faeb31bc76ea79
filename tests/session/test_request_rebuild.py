"""Every request a session sends can be rebuilt from its log, byte for byte, also across a
restart: the log is the state, and nothing the harness adds escapes it."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from workset.context.items import ContextItem
from workset.context.sources import ContextRequest
from workset.events import InputAppended, ModelCalled
from workset.history.policies import make_policy
from workset.log.store import SessionLog
from workset.messages import AssistantMessage, to_wire
from workset.models.base import ModelRequest
from workset.session.agent import Agent, AgentConfig
from workset.status.bar import StatusBar
from workset.testing import FakeClock, FunctionModel, ScriptedModel, call, current_store
from workset.tools.base import tool
from workset.tools.registry import ToolRegistry


@tool(read_only=True, examples=({"path": "a.txt"},))
def read_file(path: str) -> str:
    """Read a file of the workspace.

    Args:
        path: The file, e.g. "a.txt".
    """
    return f"contents of {path}: port = 8471"


def memory_source(request: ContextRequest) -> list[ContextItem]:
    return [ContextItem("m1", "memory", "The user prefers short answers.", "memory")]


def wire(request: ModelRequest) -> object:
    return (
        [to_wire(m, keep_reasoning=True) for m in request.messages],
        [t.to_wire() for t in request.tools],
        request.max_tokens,
        request.temperature,
        request.json_schema,
    )


def requests_in_log(log: SessionLog, session_id: str) -> list[ModelRequest]:
    return [log.request(e.seq) for e in log.events(session_id, kinds=["model_called"])]


READ = call("read_file", '{"path": "a.txt"}', "r1")
SCRIPT = [
    AssistantMessage(None, (READ,)),
    AssistantMessage(None, (call("read_file", '{"path": "a.txt"}', "r2"),)),  # a repeat
    "The port is 8471.",
]


@pytest.mark.parametrize(
    ("strategy", "policy"),
    [("replace", None), ("append", None), ("replace", "pinned_end"), ("append", "pinned_system")],
)
def test_every_request_is_rebuilt_from_the_log_exactly(
    tmp_path: Path, strategy: str, policy: str | None
) -> None:
    model = ScriptedModel(SCRIPT)
    clock = FakeClock()
    agent = Agent(
        model,
        ToolRegistry([read_file]),
        current_store(),
        AgentConfig(max_tokens=64),
        clock=clock,
        sources=[memory_source],
        status=StatusBar(strategy=strategy, cwd="/ws", os_name="Linux"),  # type: ignore[arg-type]
        history_policy=(lambda: make_policy(policy)) if policy else None,
        summarizer=FunctionModel(lambda request: "- the user asked about a.txt"),
    )
    result = anyio.run(agent.run, "Which port is in a.txt?")
    assert result.status == "finished"
    rebuilt = requests_in_log(agent.log, result.session_id)
    assert len(rebuilt) == len(model.requests) == 3
    assert [wire(r) for r in rebuilt] == [wire(r) for r in model.requests]
    # the "answer now" turn and the status blocks are in the log, not only in the request
    called = [e.event for e in agent.log.events(result.session_id, kinds=["model_called"])]
    kinds = [{n.kind for n in c.notices} for c in called if isinstance(c, ModelCalled)]
    assert "answer_now" in kinds[2]
    if strategy == "append":
        appended = [
            e.event
            for e in agent.log.events(result.session_id, kinds=["input_appended"])
            if isinstance(e.event, InputAppended) and e.event.origin == "harness"
        ]
        assert len(appended) == 3 and all("<agent_status>" in a.text for a in appended)


def test_a_second_run_after_a_restart_is_rebuilt_and_the_status_blocks_are_not_the_task(
    tmp_path: Path,
) -> None:
    db = tmp_path / "log.db"

    def agent(script: list[object]) -> tuple[Agent, ScriptedModel]:
        model = ScriptedModel(script)  # type: ignore[arg-type]
        seen: list[str] = []

        def source(request: ContextRequest) -> list[ContextItem]:
            seen.append(request.query)
            return []

        built = Agent(
            model,
            ToolRegistry([read_file]),
            SessionLog(db),
            clock=FakeClock(),
            sources=[source],
            status=StatusBar(strategy="append", cwd="/ws", os_name="Linux"),
        )
        built.seen_queries = seen  # type: ignore[attr-defined]
        return built, model

    first, _ = agent([AssistantMessage(None, (READ,)), "8471"])
    done = anyio.run(first.run, "Which port?")
    second, model = agent(["Still 8471."])
    again = anyio.run(lambda: second.run("And now?", session_id=done.session_id))
    assert again.status == "finished"
    assert second.seen_queries == ["And now?"]  # type: ignore[attr-defined]
    rebuilt = requests_in_log(second.log, done.session_id)
    assert wire(rebuilt[-1]) == wire(model.requests[-1])
    # the earlier status blocks are still in the trajectory the new request was built from
    sent = [m.content for m in model.requests[-1].messages]
    assert sum("<agent_status>" in (c or "") for c in sent) == 3
