"""The command line, run as a real subprocess with a scripted model."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DEMO = Path(__file__).parents[2] / "examples" / "demo"


def workset(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workset", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "WORKSET_DB": str(tmp_path / "w.db"), "COLUMNS": "160"}


def script(tmp_path: Path, *entries: object) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(list(entries)))
    return f"scripted:{path}"


def test_run_prints_the_answer_and_where_the_session_is_stored(
    tmp_path: Path, env: dict[str, str]
) -> None:
    model = script(
        tmp_path,
        {"tool_calls": [{"name": "read_file", "arguments": {"path": "service.toml"}}]},
        "The server listens on port 8471.",
    )
    done = workset("run", "--model", model, "--workspace", str(DEMO), "Which port?", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "The server listens on port 8471."
    assert f"stored in {tmp_path / 'w.db'}" in " ".join(done.stderr.split())
    assert "read_file" in done.stderr  # the live view shows the tool call

    listed = workset("sessions", env=env)
    assert "Which port?" in listed.stdout and "finished" in listed.stdout
    session_id = re.search(r"workset show (s[0-9a-f]+)", done.stderr)
    assert session_id is not None and session_id[1] in listed.stdout
    shown = workset("show", session_id[1], env=env)
    assert shown.returncode == 0, shown.stderr
    assert "tool call read_file" in shown.stdout
    assert '<external_content source="tool:read_file"' in " ".join(shown.stdout.split())
    for column in ("system", "tools", "results", "conv", "total", "cached"):
        assert column in shown.stdout


def test_an_empty_task_is_refused_with_an_example(env: dict[str, str]) -> None:
    done = workset("run", "  ", env=env)
    assert done.returncode == 2
    assert "the task is empty" in done.stderr and "workset run" in done.stderr


def test_an_unknown_session_says_how_to_list_sessions(env: dict[str, str]) -> None:
    done = workset("show", "s_does_not_exist", env=env)
    assert done.returncode == 2
    assert "workset sessions" in done.stderr


def test_an_unreachable_endpoint_fails_the_run_with_what_to_check(
    tmp_path: Path, env: dict[str, str]
) -> None:
    done = workset(
        "run",
        "--model",
        "openai:any",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--workspace",
        str(tmp_path),
        "hello",
        env=env,
    )
    assert done.returncode == 1
    assert "could not connect to http://127.0.0.1:9/v1" in done.stderr


def test_a_missing_workspace_is_a_usage_error(tmp_path: Path, env: dict[str, str]) -> None:
    model = script(tmp_path, "hi")
    done = workset("run", "--model", model, "--workspace", str(tmp_path / "nope"), "x", env=env)
    assert done.returncode == 2 and "is not a folder" in done.stderr


def test_chat_keeps_one_session_across_turns(tmp_path: Path, env: dict[str, str]) -> None:
    model = script(tmp_path, "first answer", "second answer")
    done = subprocess.run(
        [sys.executable, "-m", "workset", "chat", "--model", model, "--workspace", str(DEMO)],
        input="hello\nand again\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "first answer" in done.stdout and "second answer" in done.stdout
    listed = workset("sessions", env=env)
    assert listed.stdout.count("finished") == 1


def test_models_reports_a_corrupt_cached_file_and_that_it_will_be_rebuilt(
    tmp_path: Path, env: dict[str, str]
) -> None:
    from workset.models.weights import EMBEDDED_MODELS

    spec = EMBEDDED_MODELS["qwen2.5-coder-0.5b"]
    (tmp_path / spec.filename).write_bytes(b"GGUF" + bytes(100))  # a truncated download
    done = workset("models", env={**env, "WORKSET_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert "corrupt" in done.stdout
    assert "rebuilt on next start" in " ".join(done.stdout.split())


def test_the_committed_cli_reference_matches_the_commands() -> None:
    from workset.cli.reference import render

    committed = (Path(__file__).parents[2] / "docs" / "cli.md").read_text()
    assert committed == render(), "regenerate: python -m workset.cli.reference > docs/cli.md"


def test_resuming_a_finished_session_says_there_is_nothing_to_do(
    tmp_path: Path, env: dict[str, str]
) -> None:
    model = script(tmp_path, "all done")
    first = workset("run", "--model", model, "--workspace", str(DEMO), "hi", env=env)
    session_id = re.search(r"workset show (s[0-9a-f]+)", first.stderr)
    assert session_id is not None
    again = workset("resume", session_id[1], "--model", model, "--workspace", str(DEMO), env=env)
    assert again.returncode == 0, again.stderr
    assert "nothing left to do" in again.stderr and "all done" in again.stdout


def test_show_says_what_each_call_left_out_and_where_reuse_broke(
    tmp_path: Path, env: dict[str, str]
) -> None:
    read = {"tool_calls": [{"name": "read_file", "arguments": {"path": "service.toml"}}]}
    model = script(tmp_path, read, read, "Port 8471.")
    done = workset("run", "--model", model, "--workspace", str(DEMO), "Which port?", env=env)
    session_id = re.search(r"workset show (s[0-9a-f]+)", done.stderr)
    assert session_id is not None
    shown = " ".join(workset("show", session_id[1], env=env).stdout.split())
    assert "call 3 left out tools" in shown and "policy: the model repeated a call" in shown
    assert "call 3 prefix reuse broke at position 0: system changed" in shown


def test_exec_tools_are_gated_and_without_a_terminal_risky_calls_are_refused(
    tmp_path: Path, env: dict[str, str]
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()

    def shell(command: str) -> dict[str, object]:
        return {"tool_calls": [{"name": "shell", "arguments": {"command": command}}]}

    risky = shell("frobnicate --all > note.txt")  # an unknown program: needs a human
    safe = shell("echo hi > ok.txt")  # shown to stay in the workspace: runs without asking
    model = script(tmp_path, shell("rm -rf / "), risky, safe, "stopped")
    done = workset("run", "--exec", "--model", model, "--workspace", str(workspace), "go", env=env)
    assert done.returncode == 0, done.stderr
    flat = " ".join(done.stderr.split())
    assert "Blocked by the safety policy" in flat and "needs human approval" in flat
    assert not (workspace / "note.txt").exists()
    assert (workspace / "ok.txt").read_text() == "hi\n"
