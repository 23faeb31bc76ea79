"""``workset serve`` and ``workset send`` as real subprocesses: readiness, signals, the state
file, delivery to a running server and queueing when none runs."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fake_openai_server import FakeOpenAIServer, running_server
from processes import (
    DEADLINE_S,
    DEMO,
    answer,
    cli_env,
    endpoint_model,
    held,
    running,
    state_of,
)

from workset.events import EventReceived
from workset.log.store import SessionLog
from workset.loop.outcome import EXIT_CODES
from workset.triggers.webhook import signed_headers


@pytest.fixture
def endpoint() -> Iterator[FakeOpenAIServer]:
    with running_server() as server:
        yield server


def workset(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workset", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def serve_args(server: FakeOpenAIServer, *extra: str) -> list[str]:
    return ["serve", *endpoint_model(server), "--workspace", str(DEMO), *extra]


def api(db: Path) -> httpx.Client:
    state = state_of(db)
    return httpx.Client(
        base_url=state["url"], headers={"Authorization": f"Bearer {state['token']}"}, timeout=30
    )


def text_event(text: str, **fields: object) -> dict[str, object]:
    return {"type": "user.input", "content": {"text": text}, **fields}


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_the_server_cleanly_mid_step_and_the_next_start_takes_what_waited(
    tmp_path: Path, endpoint: FakeOpenAIServer, sig: signal.Signals
) -> None:
    env, db = cli_env(tmp_path), tmp_path / "w.db"
    thinking = threading.Event()
    endpoint.script(held(thinking), answer("Both done."))
    with running(serve_args(endpoint), env) as server:
        server.expect(r"listening on http://127\.0\.0\.1:\d+")
        with api(db) as http:
            assert http.post("/sessions", json={"id": "work"}).status_code == 201
            first = http.post("/sessions/work/events", json=text_event("write the report"))
            assert first.status_code == 202
            assert thinking.wait(DEADLINE_S)  # the model is working on it
            queued = http.post("/sessions/work/events", json=text_event("and a summary"))
            assert queued.json()["strategy"] == "queue"
        server.signal(sig)
        assert server.wait() == 0, server.printed()
        server.expect(r"workset serve: stopped")
    assert not db.with_name("w.db.serve.json").exists()

    with SessionLog(db) as log:
        kinds = [e.kind for e in log.events("work")]
        assert "model_called" not in kinds and "run_finished" not in kinds
        [(_, waiting)] = log.pending_events("work")
        assert waiting.text == "and a summary"  # not lost, not consumed
        assert log.get_session("work").status == "interrupted"

    with running(serve_args(endpoint), env) as server:  # the next start takes it
        server.expect(r"listening on")
        with api(db) as http:
            status = http.get("/sessions/work/idle").json()
        assert status["last_result"]["answer"] == "Both done."
        server.signal(signal.SIGTERM)
        assert server.wait() == 0
    with SessionLog(db) as log:
        assert log.pending_events("work") == []
        inputs = [m.content for m in log.messages("work") if m.role == "user"]
        assert inputs == ["write the report", "and a summary"]


def test_a_stream_open_at_shutdown_ends_and_the_server_still_exits_0(
    tmp_path: Path, endpoint: FakeOpenAIServer
) -> None:
    env, db = cli_env(tmp_path), tmp_path / "w.db"
    endpoint.script(answer("hi"))
    with running(serve_args(endpoint), env) as server:
        server.expect(r"listening on")
        with api(db) as http:
            http.post("/sessions", json={"id": "chat"})
            http.post("/sessions/chat/events", json=text_event("hello"))
            http.get("/sessions/chat/idle")
            with http.stream("GET", "/sessions/chat/stream") as stream:
                lines = stream.iter_lines()
                assert next(lines).startswith("id: 1")
                server.signal(signal.SIGTERM)
                rest = list(lines)  # the server ends the stream
        assert any(line.startswith("event: run_finished") for line in rest)
        assert server.wait() == 0


def test_send_delivers_to_the_running_server_and_urgent_interrupts(
    tmp_path: Path, endpoint: FakeOpenAIServer
) -> None:
    env, db = cli_env(tmp_path), tmp_path / "w.db"
    thinking = threading.Event()
    endpoint.script(held(thinking), answer("Stopped."))
    with running(serve_args(endpoint), env) as server:
        server.expect(r"listening on")
        with api(db) as http:
            http.post("/sessions", json={"id": "work"})
        sent = workset("send", "work", "write a long essay", env=env)
        assert sent.returncode == 0, sent.stderr
        assert sent.stdout.split()[0] == "queue" and "delivered to workset serve" in sent.stderr
        assert thinking.wait(DEADLINE_S)
        urgent = workset("send", "work", "stop, wrong topic", "--urgent", env=env)
        strategy, event_id = urgent.stdout.split()
        assert strategy == "cancel" and event_id.startswith("ev-")
        server.expect(r"interrupted during model")
        with api(db) as http:
            assert http.get("/sessions/work/idle").json()["last_result"]["answer"] == "Stopped."
        again = workset("send", "work", "stop, wrong topic", "--id", event_id, env=env)
        assert again.stdout.split() == ["duplicate", event_id]
        server.signal(signal.SIGTERM)
        assert server.wait() == 0


def test_send_without_a_server_queues_in_the_inbox_and_resume_takes_it(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    first, later = tmp_path / "first.json", tmp_path / "later.json"
    first.write_text(json.dumps(["First answer."]))
    later.write_text(json.dumps(["Follow-up answer."]))  # a new process replays from the top
    done = workset(
        "run", "--model", f"scripted:{first}", "--workspace", str(DEMO), "first question", env=env
    )
    # a scripted answer reads nothing: the run's outcome is answered_unverified, its own exit code
    assert done.returncode == EXIT_CODES["answered_unverified"], done.stderr
    with SessionLog(tmp_path / "w.db") as log:
        session = log.sessions()[0].id

    sent = workset("send", session, "a follow-up", env=env)
    assert sent.returncode == 0, sent.stderr
    assert sent.stdout.split()[0] == "queue"
    assert "no workset serve runs" in sent.stderr and f"workset resume {session}" in sent.stderr
    with SessionLog(tmp_path / "w.db") as log:
        [(_, event)] = log.pending_events(session)
        assert event.text == "a follow-up" and event.trusted

    resumed = workset("resume", "--model", f"scripted:{later}", session, env=env)
    assert resumed.returncode == EXIT_CODES["answered_unverified"], resumed.stderr
    assert "Follow-up answer." in resumed.stdout
    with SessionLog(tmp_path / "w.db") as log:
        assert log.pending_events(session) == []


def test_a_stale_state_file_is_detected_removed_and_send_queues_instead(tmp_path: Path) -> None:
    env, db = cli_env(tmp_path), tmp_path / "w.db"
    with SessionLog(db) as log:
        session = log.create_session(title="", workspace="", model="m", session_id="work")
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], text=True,
                          capture_output=True, check=True)  # fmt: skip
    state = db.with_name("w.db.serve.json")
    dead = {"url": "http://127.0.0.1:9", "pid": int(gone.stdout), "token": "x", "db": str(db)}
    state.write_text(json.dumps({**dead, "started_at": 0}))
    sent = workset("send", session, "hello", env=env)
    assert sent.returncode == 0, sent.stderr
    assert "removed the stale" in sent.stderr and not state.exists()
    assert sent.stdout.split()[0] == "queue"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["work", "x", "--urgent", "--parallel"], "exclude each other"),
        (["work", "  "], "the message is empty"),
        (["nope", "hello"], "workset sessions"),
        (["work", "hi", "--type", "not a type"], "dotted name"),
    ],
)
def test_send_refuses_bad_input_with_what_to_do(tmp_path: Path, args: list[str], says: str) -> None:
    env = cli_env(tmp_path)
    with SessionLog(tmp_path / "w.db") as log:
        log.create_session(title="", workspace="", model="m", session_id="work")
    sent = workset("send", *args, env=env)
    assert sent.returncode == 2 and says in " ".join(sent.stderr.split())
    with SessionLog(tmp_path / "w.db") as log:
        assert log.events("work") == []


def test_serve_refuses_a_host_that_is_not_loopback_unless_allowed(tmp_path: Path) -> None:
    done = workset("serve", "--host", "0.0.0.0", env=cli_env(tmp_path))
    assert done.returncode == 2
    assert "not a loopback address" in done.stderr and "--allow-remote" in done.stderr


def test_a_second_server_for_the_same_log_is_refused(
    tmp_path: Path, endpoint: FakeOpenAIServer
) -> None:
    env = cli_env(tmp_path)
    with running(serve_args(endpoint), env) as server:
        server.expect(r"listening on")
        second = workset(*serve_args(endpoint), env=env)
        assert second.returncode == 2 and "already serves" in " ".join(second.stderr.split())
        server.signal(signal.SIGTERM)
        assert server.wait() == 0


def test_webhook_channels_come_from_the_config_and_their_secret_from_the_environment(
    tmp_path: Path, endpoint: FakeOpenAIServer
) -> None:
    config = tmp_path / "workset.toml"
    config.write_text(
        '[[channels]]\nname = "email"\nsecret_env = "MAIL_SECRET"\nsession = "inbox"\n'
    )
    missing = workset(*serve_args(endpoint, "--config", str(config)), env=cli_env(tmp_path))
    assert missing.returncode == 2 and "export MAIL_SECRET" in " ".join(missing.stderr.split())

    env, db = cli_env(tmp_path, MAIL_SECRET="correct horse battery"), tmp_path / "w.db"
    endpoint.script(answer("Filed."))
    with running(serve_args(endpoint, "--config", str(config)), env) as server:
        server.expect(r"webhook channels: /hooks/email → inbox")
        url = state_of(db)["url"]
        body = json.dumps({"from": "ana@example.com", "subject": "hello"}).encode()
        forged = httpx.post(f"{url}/hooks/email", content=body, headers=signed_headers("no", body))
        assert forged.status_code == 401
        signed = httpx.post(
            f"{url}/hooks/email",
            content=body,
            headers=signed_headers("correct horse battery", body),
        )
        assert signed.status_code == 202, signed.text
        with api(db) as http:
            assert http.get("/sessions/inbox/idle").json()["last_result"]["answer"] == "Filed."
        server.signal(signal.SIGTERM)
        assert server.wait() == 0
    with SessionLog(db) as log:
        [received] = [e.event for e in log.events("inbox", kinds=["event_received"])]
        assert isinstance(received, EventReceived) and received.event.type == "webhook.email"
        assert b"correct horse" not in db.read_bytes()
