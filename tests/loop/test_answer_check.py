"""An answer the outcome rules call ``answered`` is checked, when a separate model answers the
requests made alone: its question is asked again over the lines that bear on it, and the
answer stays ``answered`` only when the reply names its main fact again. The run's answer is
the first one either way."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from workset.config import load_config
from workset.errors import UsageError
from workset.loop.answer_check import NOTE, agrees
from workset.loop.outcome import classify
from workset.loop.settings import RunResult
from workset.messages import AssistantMessage, ToolMessage, UserMessage
from workset.session.agent import Agent, AgentConfig
from workset.testing import ScriptedModel, call, current_store
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace

TASK = "What is the default chunk size of fold?"


def parallel_module(root: Path) -> None:
    """A module where the default (128) and a call with another value (1) are both read."""
    lines = [f"CONSTANT_{n} = {n}" for n in range(1, 41)]
    lines[9] = "def fold(binop, seq, default=None, map=map, chunksize=128, combine=None):"
    lines[10] = '    """Reduce in chunks: the default chunk size is chunksize."""'
    lines[29] = "    return fold(add, data, chunksize=1)  # fold in chunks of one"
    (root / "parallel.py").write_text("\n".join(lines) + "\n")


def run(
    root: Path, first: str, reply: str | None, *, coder: bool = True, **config: object
) -> tuple[RunResult, ScriptedModel, ScriptedModel]:
    read = AssistantMessage(None, (call("read_file", '{"path": "parallel.py"}', "r1"),))
    model = ScriptedModel([read, first], context_window=8192)
    reader = ScriptedModel([reply] if reply is not None else [], context_window=8192)
    agent = Agent(
        model,
        ToolRegistry(perception_tools(Workspace(root))),
        current_store(),
        AgentConfig(**config),  # type: ignore[arg-type]
        coder=reader if coder else None,
    )
    return anyio.run(agent.run, TASK), model, reader


def test_a_reply_that_names_the_same_fact_keeps_the_answer_answered(tmp_path: Path) -> None:
    parallel_module(tmp_path)
    first = "The default chunksize of fold is 128, in parallel.py."
    result, model, reader = run(tmp_path, first, "fold's chunk size defaults to `128`.")
    assert len(model.requests) == 2 and len(reader.requests) == 1
    asked = reader.requests[0]
    assert [m.role for m in asked.messages] == ["system", "user"] and not asked.tools
    assert "chunksize=128" in str(asked.messages[-1].content)
    assert result.answer == first  # the run's answer is the one checked, not the reply
    assert result.outcome == "answered" and "named it too" in result.outcome_reason


def test_a_reply_that_names_another_value_makes_the_answer_unverified(tmp_path: Path) -> None:
    parallel_module(tmp_path)
    first = "fold is called with chunksize=1 in parallel.py, so the default is 1."
    result, _, reader = run(tmp_path, first, "The default chunk size of fold is 128.")
    assert len(reader.requests) == 1
    assert result.answer == first
    assert result.outcome == "answered_unverified"
    assert "got another answer" in result.outcome_reason and "128" in result.outcome_reason


def test_without_a_separate_model_nothing_is_checked_unless_asked(tmp_path: Path) -> None:
    parallel_module(tmp_path)
    first = "The default chunksize of fold is 128, in parallel.py."
    result, model, _ = run(tmp_path, first, None, coder=False)
    assert len(model.requests) == 2 and result.outcome == "answered"
    # asked for: the same model checks (and here names another value)
    read = AssistantMessage(None, (call("read_file", '{"path": "parallel.py"}', "r1"),))
    model = ScriptedModel([read, first, "It is 1."], context_window=8192)
    agent = Agent(
        model,
        ToolRegistry(perception_tools(Workspace(tmp_path))),
        current_store(),
        AgentConfig(check_answers=True),
    )
    checked = anyio.run(agent.run, TASK)
    assert len(model.requests) == 3 and checked.outcome == "answered_unverified"
    # and turned off, a separate model does not check
    result, _, reader = run(tmp_path, first, "128", check_answers=False)
    assert not reader.requests and result.outcome == "answered"


def test_the_check_is_judged_from_the_trajectory() -> None:
    read = AssistantMessage(None, (call("read_file", '{"path": "p.py"}', "r1"),))
    shown = ToolMessage("r1", "  10| def fold(binop, seq, chunksize=128):", "read_file")
    answer = AssistantMessage("The default chunksize is 128.")
    trajectory = [UserMessage(TASK), read, shown, answer, UserMessage(NOTE, origin="harness")]
    assert classify([*trajectory, AssistantMessage("It defaults to 128.")]).outcome == "answered"
    other = classify([*trajectory, AssistantMessage("It is 64.")])
    assert other.outcome == "answered_unverified" and "'128'" in other.reason
    # a check that ran after an answer the rules would not call answered changes nothing
    unsupported = [UserMessage(TASK), read, shown, AssistantMessage("The default is 4096.")]
    note = UserMessage(NOTE, origin="harness")
    verdict = classify([*unsupported, note, AssistantMessage("It is 4096.")])
    assert verdict.outcome == "answered_unverified" and "4096" in verdict.reason


@pytest.mark.parametrize(
    ("task", "facts", "answer", "reply", "same"),
    [
        (
            "What does insert return?",
            ["IDs"],
            "It returns the IDs.",
            "the ID of the document",
            True,
        ),
        ("What is the default?", ["None"], "It is None.", "It returns an empty dict.", False),
        (
            "Which exception does diff raise with one sequence?",
            ["Too few sequences given"],
            "TypeError('Too few sequences given')",
            "`diff` raises a TypeError.",
            True,
        ),
        (
            "Which exception does diff raise with one sequence?",
            ["toolz/itertoolz.py"],
            "A TypeError, in toolz/itertoolz.py.",
            "A ValueError, in toolz/itertoolz.py.",
            False,
        ),
        ("What is the default?", ["toolz/sandbox/parallel.py", "128"], "128", "1, parallel", False),
        ("Which file defines touch?", ["tinydb/storages.py"], "x", "tinydb/storages.py", True),
        ("How many lines?", ["1800"], "1800", "18000 lines", False),
    ],
)
def test_agreement(task: str, facts: list[str], answer: str, reply: str, same: bool) -> None:
    assert agrees(task, facts, answer, reply) is same


def test_the_config_key(tmp_path: Path) -> None:
    file = tmp_path / "workset.toml"
    file.write_text("[agent]\n")
    assert load_config(file).agent.check_answers is None  # auto
    file.write_text("[agent]\ncheck_answers = false\n")
    assert load_config(file).agent_config().check_answers is False
    file.write_text('[agent]\ncheck_answers = "auto"\n')
    with pytest.raises(UsageError, match="check_answers"):
        load_config(file)
