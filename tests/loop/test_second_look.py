"""An answer the outcome rules would not call ``answered`` is asked for once more, alone, over
the lines of the run's reads that share the question's words (the 0.5B read ``raise
ValueError('Query has no path')`` and answered "You could not find it."); the reply is the
run's answer, judged ``answered_unverified`` at best."""

from __future__ import annotations

from pathlib import Path

import anyio

from workset.events import ModelCalled
from workset.loop.outcome import classify
from workset.loop.second_look import NOTE, look_lines
from workset.loop.settings import RunResult
from workset.messages import AssistantMessage, ToolMessage, UserMessage
from workset.session.agent import Agent, AgentConfig
from workset.testing import ScriptedModel, call, current_store
from workset.tools.execution import execution_tools
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace

TASK = "What exception do you get when a query has no field path?"
RAISES = "            raise ValueError('Query has no path')"


def query_module(root: Path) -> None:
    """A 60-line module: a comment that shares many of the task's words at line 10, the line
    that raises at line 42."""
    lines = [f"CONSTANT_{n} = {n}" for n in range(1, 61)]
    lines[9] = "# the query path of fields: a query with no field path has no fields"
    lines[40] = "        if not self._path:"
    lines[41] = RAISES
    (root / "queries.py").write_text("\n".join(lines) + "\n")


def run(
    root: Path, script: list[object], task: str = TASK, **config: object
) -> tuple[RunResult, ScriptedModel, list[ModelCalled]]:
    model = ScriptedModel(script, context_window=8192)
    seen: list[object] = []
    tools = [*perception_tools(Workspace(root)), *execution_tools(Workspace(root))]
    agent = Agent(
        model,
        ToolRegistry(tools),
        current_store(),
        AgentConfig(**config),  # type: ignore[arg-type]
        subscribers=[seen.append],
    )
    result = anyio.run(agent.run, task)
    return result, model, [e for e in seen if isinstance(e, ModelCalled)]


def read_then(answer: object, *more: object) -> list[object]:
    read = AssistantMessage(None, (call("read_file", '{"path": "queries.py"}', "r1"),))
    return [read, answer, *more]


def test_the_lines_that_bear_on_the_question_are_chosen_with_their_neighbours() -> None:
    text = "\n".join(f"{n:>4}| line {n}" for n in range(1, 31)) + "\n  31| " + RAISES.strip()
    text += "\n  32| return test\n  10| # the query path of fields\n"
    lines = look_lines(TASK, [("queries.py", text)])
    assert lines is not None
    assert lines.startswith("queries.py:")
    assert "   31| raise ValueError('Query has no path')" in lines
    assert "   28| line 28" in lines and "   32| return test" in lines  # three either side
    assert "   27| line 27" not in lines
    assert look_lines(TASK, [("other.py", "   1| x = 1\n   2| y = 2\n")]) is None


def test_an_unsupported_answer_is_asked_again_over_the_lines_alone(tmp_path: Path) -> None:
    query_module(tmp_path)
    reply = "A ValueError('Query has no path') is raised, in queries.py."
    result, model, _ = run(tmp_path, read_then("You could not find it.", reply))
    assert len(model.requests) == 3
    again = model.requests[2]
    assert [m.role for m in again.messages] == ["system", "user"] and not again.tools
    asked = str(again.messages[-1].content)
    assert RAISES.strip() in asked and asked.rstrip().endswith(
        "Answer it from these lines, in one or two sentences that name the file."
    )
    assert TASK in asked and asked.index(RAISES.strip()) < asked.index(TASK)
    assert result.answer.startswith("A ValueError")
    # the reply is kept, but not called checked: the trajectory says it was asked again
    assert result.outcome == "answered_unverified" and "asked again" in result.outcome_reason
    assert (
        any(m.role == "user" and m.content == NOTE for m in model.requests[-1].messages) is False
    )  # the note is in the trajectory, not in the request asked alone


def test_without_it_the_run_ends_on_the_unsupported_answer(tmp_path: Path) -> None:
    query_module(tmp_path)
    result, model, _ = run(tmp_path, read_then("You could not find it."), second_look=False)
    assert len(model.requests) == 2 and result.outcome == "answered_unverified"


def test_an_answer_the_run_supports_is_not_asked_again(tmp_path: Path) -> None:
    query_module(tmp_path)
    result, model, _ = run(tmp_path, read_then("ValueError('Query has no path'), in queries.py."))
    assert len(model.requests) == 2 and result.outcome == "answered"


def test_it_is_asked_once_and_a_copy_of_the_lines_is_no_answer(tmp_path: Path) -> None:
    query_module(tmp_path)
    copy = "queries.py:41|         if not self._path:\nqueries.py:42| " + RAISES.strip()
    result, model, _ = run(tmp_path, read_then("You could not find it.", copy))
    assert len(model.requests) == 3  # not sent back, not asked a third time
    assert result.answer == copy and result.outcome == "answered_unverified"
    assert "copies numbered lines" in result.outcome_reason


def test_an_answer_after_the_note_is_never_called_checked() -> None:
    read = AssistantMessage(None, (call("read_file", '{"path": "q.py"}', "r1"),))
    result = ToolMessage("r1", "  42|     raise ValueError('Query has no path')", "read_file")
    answer = AssistantMessage("ValueError, raised in q.py.")
    trajectory = [UserMessage(TASK), read, result]
    assert classify([*trajectory, answer]).outcome == "answered"
    again = classify([*trajectory, UserMessage(NOTE, origin="harness"), answer])
    assert again.outcome == "answered_unverified" and "not checked" in again.reason


def test_a_run_that_changes_files_is_not_asked_again(tmp_path: Path) -> None:
    query_module(tmp_path)
    task = "Change the error a query with no field path raises to a KeyError"
    _, model, _ = run(tmp_path, read_then("Done."), task=task, guided_edits=False)
    assert len(model.requests) == 2


def test_a_coder_model_answers_the_question_asked_again(tmp_path: Path) -> None:
    query_module(tmp_path)
    model = ScriptedModel(read_then("You could not find it."), context_window=8192)
    reader = ScriptedModel(["ValueError('Query has no path'), in queries.py."])
    agent = Agent(
        model,
        ToolRegistry(perception_tools(Workspace(tmp_path))),
        current_store(),
        AgentConfig(),
        coder=reader,
    )
    result = anyio.run(agent.run, TASK)
    assert len(model.requests) == 2 and len(reader.requests) == 1
    assert RAISES.strip() in str(reader.requests[0].messages[-1].content)
    assert result.answer.startswith("ValueError") and result.outcome == "answered_unverified"


def test_a_run_at_its_call_limit_is_asked_once_more_instead_of_ending_empty(tmp_path: Path) -> None:
    query_module(tmp_path)
    reads = [
        AssistantMessage(None, (call("read_file", f'{{"path": "queries.py", "offset": {n}}}'),))
        for n in (1, 30)
    ]
    reply = "ValueError('Query has no path'), in queries.py."
    result, model, _ = run(tmp_path, [*reads, reply], max_iterations=2)
    assert len(model.requests) == 3 and not model.requests[2].tools
    assert result.status == "finished" and result.answer == reply
    assert result.outcome == "answered_unverified"


def test_a_run_whose_calls_kept_failing_is_asked_once_more(tmp_path: Path) -> None:
    query_module(tmp_path)
    missing = [
        AssistantMessage(None, (call("read_file", f'{{"path": "gone{n}.py"}}'),)) for n in range(3)
    ]
    reply = "ValueError, raised in queries.py."
    result, model, _ = run(tmp_path, [*read_then(*missing), reply])
    assert len(model.requests) == 5 and not model.requests[4].tools
    assert result.answer == reply and result.outcome == "answered_unverified"


def test_without_lines_that_bear_on_it_the_run_still_ends_empty(tmp_path: Path) -> None:
    (tmp_path / "other.py").write_text("x = 1\n")
    read = AssistantMessage(None, (call("read_file", '{"path": "other.py"}'),))
    result, model, _ = run(tmp_path, [read, read, read], max_iterations=2)
    assert result.status == "failed" and result.outcome == "gave_up"
    assert not any("Lines of the files read" in str(r.messages[-1].content) for r in model.requests)
