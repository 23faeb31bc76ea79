"""What ``workset eval`` measures is what the agent sends: its requests are the agent's own.

Each test builds the agent's request with :class:`RequestMaker` (the session's one way to
make requests) for the same history and policy, and compares it with what the harness
counted or sent. A second request builder in the harness would make them differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import anyio
import pytest

from workset.eval.checkpoint import Checkpoint
from workset.eval.formats import Probe
from workset.eval.replay import call_points, replay
from workset.eval.request import eval_settings
from workset.eval.table import evaluate_policies
from workset.history.base import HistoryPolicy
from workset.history.policies import make_policy
from workset.messages import Message, SystemMessage, UserMessage, to_wire
from workset.models.base import ModelRequest
from workset.session.context import RequestMaker, RequestSettings
from workset.testing import ScriptedModel

from .helpers import ListPolicy
from .test_probes import TOOLS, TRANSCRIPT

NOTE = "Pinned notes:\n- employee number 4417"
QUESTION = "What is my employee number?"
PROBE = Probe("employee", 1, (QUESTION,), "4417")


def _wire(request: ModelRequest) -> object:
    return (
        [to_wire(m) for m in request.messages],
        [t.to_wire() for t in request.tools],
        request.max_tokens,
        request.temperature,
    )


def _agent_request(
    settings: RequestSettings, policy: HistoryPolicy, history: Sequence[Message]
) -> ModelRequest:
    """The request the agent's session makes for ``history`` under ``policy``."""
    maker = RequestMaker(settings, "agent", policy=policy)

    async def make() -> ModelRequest:
        made = await maker.make(
            request_id="r1", messages=history, seqs=range(len(history)), tools=TOOLS
        )
        return made.assembled.request

    return anyio.run(make)


def _probe_requests(policy: HistoryPolicy, model: ScriptedModel, path: Path) -> list[ModelRequest]:
    """The requests the harness sent for ``policy``'s row (the control row's first)."""

    async def go() -> None:
        await evaluate_policies(
            TRANSCRIPT,
            TOOLS,
            [PROBE],
            [policy],
            model,
            model.token_counter(),
            checkpoint=Checkpoint(path),
            max_tokens=16,
        )

    anyio.run(go)
    return model.requests[1:]


@pytest.mark.parametrize("pinned_at", ["end", "system", "task"])
def test_a_probe_is_sent_as_the_agent_would_send_the_question_as_its_next_user_message(
    tmp_path: Path, pinned_at: str
) -> None:
    model = ScriptedModel(["4417"] * 2)
    policy = ListPolicy("pin", pinned=(NOTE,), pinned_at=pinned_at)  # type: ignore[arg-type]
    (sent,) = _probe_requests(policy, model, tmp_path / "c.jsonl")
    counter = model.token_counter()
    settings = eval_settings(TRANSCRIPT.system, counter, window=8192, answer=16)
    history = (*TRANSCRIPT.messages, UserMessage(QUESTION))
    agent = _agent_request(
        settings, ListPolicy("pin", pinned=(NOTE,), pinned_at=pinned_at), history
    )  # type: ignore[arg-type]
    assert _wire(sent) == _wire(agent)


def test_pinned_notes_at_the_end_come_after_the_probe_question(tmp_path: Path) -> None:
    model = ScriptedModel(["4417"] * 2)
    (sent,) = _probe_requests(ListPolicy("pin", pinned=(NOTE,)), model, tmp_path / "c.jsonl")
    *_, question, pinned = sent.messages
    assert isinstance(question, UserMessage) and question.content == QUESTION
    assert isinstance(pinned, UserMessage) and pinned.content == NOTE
    assert pinned.origin == "harness"


def test_pinned_notes_at_the_task_come_just_before_the_probe_question_which_is_last(
    tmp_path: Path,
) -> None:
    model = ScriptedModel(["4417"] * 2)
    policy = ListPolicy("pin", pinned=(NOTE,), pinned_at="task")
    (sent,) = _probe_requests(policy, model, tmp_path / "c.jsonl")
    *earlier, pinned, question = sent.messages
    assert isinstance(question, UserMessage) and question.content == QUESTION
    assert isinstance(pinned, UserMessage) and pinned.content == NOTE
    assert pinned.origin == "harness"
    assert [m for m in earlier if isinstance(m, UserMessage) and m.content == NOTE] == []


def test_pinned_notes_at_system_join_the_system_prompt_and_the_question_comes_last(
    tmp_path: Path,
) -> None:
    model = ScriptedModel(["4417"] * 2)
    policy = ListPolicy("pin", pinned=(NOTE,), pinned_at="system")
    (sent,) = _probe_requests(policy, model, tmp_path / "c.jsonl")
    system, last = sent.messages[0], sent.messages[-1]
    assert isinstance(system, SystemMessage)
    assert system.content == f"{TRANSCRIPT.system}\n\n{NOTE}"
    assert isinstance(last, UserMessage) and last.content == QUESTION


@pytest.mark.parametrize("name", ["window", "user_verbatim", "elide"])
def test_every_call_point_is_counted_as_the_agent_would_have_billed_it(name: str) -> None:
    model = ScriptedModel([])
    counter = model.token_counter()
    settings = eval_settings(TRANSCRIPT.system, counter, window=8192, answer=16)
    result = anyio.run(replay, TRANSCRIPT, TOOLS, make_policy(name), settings)
    agent = RequestMaker(settings, "agent", policy=make_policy(name))

    async def agent_counts() -> list[tuple[int, int]]:
        out = []
        for n, index in enumerate(call_points(TRANSCRIPT), start=1):
            history = TRANSCRIPT.messages[:index]
            made = await agent.make(
                request_id=f"c{n}", messages=history, seqs=range(len(history)), tools=TOOLS
            )
            out.append((made.assembled.count.total, made.assembled.manifest.prefix.reused_tokens))
        return out

    assert [(c.total, c.cached) for c in result.calls] == anyio.run(agent_counts)
    assert not any(c.over_window for c in result.calls)


def test_a_call_point_the_assembler_would_cut_is_counted_whole_and_flagged() -> None:
    model = ScriptedModel([])
    counter = model.token_counter()
    whole = eval_settings(TRANSCRIPT.system, counter, window=8192, answer=16)
    full = anyio.run(replay, TRANSCRIPT, TOOLS, ListPolicy("full"), whole)
    last = full.calls[-1].total
    # a window the last call point misses by one token once the answer and margin are free
    tight = eval_settings(TRANSCRIPT.system, counter, window=last + 16 + 64 - 1, answer=16)
    cut = anyio.run(replay, TRANSCRIPT, TOOLS, ListPolicy("full"), tight)
    assert [c.over_window for c in cut.calls] == [False] * (len(cut.calls) - 1) + [True]
    assert [c.total for c in cut.calls] == [c.total for c in full.calls]


def test_no_module_of_the_harness_builds_a_model_request_by_hand() -> None:
    import workset.eval as package

    folder = Path(package.__file__).parent
    builders = [p.name for p in folder.glob("*.py") if "ModelRequest(" in p.read_text()]
    assert builders == []
