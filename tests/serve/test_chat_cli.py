"""``workset chat`` as a real subprocess: the user types while the agent works."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_openai_server import FakeOpenAIServer, running_server
from processes import DEADLINE_S, DEMO, answer, cli_env, endpoint_model, held, running

from workset.log.store import SessionLog


@pytest.fixture
def endpoint() -> Iterator[FakeOpenAIServer]:
    with running_server() as server:
        yield server


def chat_args(*model: str) -> list[str]:
    return ["chat", *model, "--workspace", str(DEMO)]


def scripted(tmp_path: Path, *entries: object) -> list[str]:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(list(entries)))
    return ["--model", f"scripted:{path}"]


def test_each_line_typed_is_a_turn_of_one_session_and_the_end_of_input_waits_for_answers(
    tmp_path: Path,
) -> None:
    env = cli_env(tmp_path)
    with running(chat_args(*scripted(tmp_path, "first answer", "second answer")), env) as chat:
        chat.type("hello")
        chat.expect(r"^first answer$", "stdout")
        chat.type("and again")
        chat.close_input()
        assert chat.wait() == 0, chat.printed()
        assert "second answer" in chat.rest("stdout")
    with SessionLog(tmp_path / "w.db") as log:
        [session] = log.sessions()
        assert session.status == "finished"
        assert [m.content for m in log.messages(session.id)] == [
            "hello", "first answer", "and again", "second answer",
        ]  # fmt: skip


def test_a_line_starting_with_bang_interrupts_the_model_and_its_output_is_dropped(
    tmp_path: Path, endpoint: FakeOpenAIServer
) -> None:
    thinking = threading.Event()
    endpoint.script(held(thinking), answer("OK, stopped."))
    with running(chat_args(*endpoint_model(endpoint)), cli_env(tmp_path)) as chat:
        chat.type("write a very long essay")
        assert thinking.wait(DEADLINE_S)
        chat.type("!stop, I changed my mind")
        chat.expect(r"interrupting what the agent is doing")
        chat.expect(r"interrupted during model")
        chat.expect(r"^OK, stopped\.$", "stdout")
        chat.type("/quit")
        assert chat.wait() == 0, chat.printed()
    with SessionLog(tmp_path / "w.db") as log:
        [session] = log.sessions()
        kinds = [e.kind for e in log.events(session.id)]
        assert kinds.count("model_called") == 1 and "step_interrupted" in kinds
    sent = endpoint.requests[1].body["messages"][-1]["content"]
    assert "stop, I changed my mind" in sent


def test_a_line_starting_with_a_question_mark_is_answered_while_the_task_runs(
    tmp_path: Path, endpoint: FakeOpenAIServer
) -> None:
    thinking = threading.Event()
    endpoint.script(held(thinking), answer("It is noon."))
    with running(chat_args(*endpoint_model(endpoint)), cli_env(tmp_path)) as chat:
        chat.type("analyse the whole data set")
        assert thinking.wait(DEADLINE_S)
        chat.type("?what time is it")
        chat.expect(r"asking on the side")
        chat.expect(r"^\(answered on the side\) It is noon\.$", "stdout")
        chat.type("/tasks")
        chat.expect(r"^agent: working")
        chat.type("/quit")  # ends now: the long task is cancelled, its records kept
        assert chat.wait() == 0, chat.printed()
    side = endpoint.requests[1].body["messages"]
    assert side[1]["content"] == "analyse the whole data set"  # the side session's fork
    assert "what time is it" in side[-1]["content"]
    with SessionLog(tmp_path / "w.db") as log:
        main = [s for s in log.sessions() if not (s.config or {}).get("side_of")]
        assert [s.status for s in main] == ["interrupted"]


def test_tasks_lists_the_timers_the_agent_set(tmp_path: Path) -> None:
    model = scripted(
        tmp_path,
        {"tool_calls": [{"name": "set_timer", "arguments": {"message": "stand up",
                                                            "in_seconds": 3600}}]},
        "Reminder set.",
    )  # fmt: skip
    with running(chat_args(*model), cli_env(tmp_path)) as chat:
        chat.type("/tasks")
        chat.expect(r"nothing yet: type a message")
        chat.type("remind me to stand up in an hour")
        chat.expect(r"^Reminder set\.$", "stdout")
        chat.type("/tasks")
        chat.expect(r"^agent: idle")
        chat.expect(r"^no background task is running")
        chat.expect(r"^timer-1 fires \d{4}-\d\d-\d\dT[\d:]+\+00:00: stand up$")
        chat.type("/nonsense")
        chat.expect(r"unknown command /nonsense; commands: /tasks, /quit, /help")
        chat.type("/quit")
        assert chat.wait() == 0, chat.printed()
