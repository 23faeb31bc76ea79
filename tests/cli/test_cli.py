"""The command line, run as a real subprocess with a scripted model."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from workset.log.store import SessionLog
from workset.messages import ToolMessage

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
    for column in ("sys", "tools", "res", "conv", "total", "cached"):
        assert column in shown.stdout
    assert "outcome: answered — supported by what the run read ('8471')" in done.stderr


def test_sessions_and_show_fit_80_columns_and_never_cut_an_id(
    tmp_path: Path, env: dict[str, str]
) -> None:
    model = script(tmp_path, "hello " * 40)
    task = "a long task title that cannot fit in eighty columns beside the rest " * 3
    done = workset("run", "--model", model, "--workspace", str(DEMO), task, env=env)
    session_id = re.search(r"workset show (s[0-9a-f]+)", done.stderr)
    assert session_id is not None
    narrow = {**env, "COLUMNS": "80"}
    listed = workset("sessions", env=narrow).stdout.splitlines()
    assert all(len(line) <= 80 for line in listed)
    [row] = [line for line in listed if session_id[1] in line]
    assert row.startswith(session_id[1] + " ") and "finished" in row
    shown = workset("show", session_id[1], env=narrow).stdout
    assert all(len(line) <= 80 for line in shown.splitlines())
    assert session_id[1] in shown


def test_a_long_call_prints_a_line_when_it_is_sent_without_a_terminal(
    tmp_path: Path, env: dict[str, str]
) -> None:
    model = script(tmp_path, "done")
    done = workset("run", "--model", model, "--workspace", str(DEMO), "hi", env=env)
    assert re.search(r"… model call 1 \([\d,]+ tokens in\) sent at \d\d:\d\d:\d\d", done.stderr)


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
    # the answer-now turn keeps the tools (the answer is asked for with a schema), so the
    # prefix holds; what a withheld tool list looks like is tested in tests/context
    assert "call 3 left out tools" not in shown and "call 3 prefix reuse broke" not in shown


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
    assert done.returncode == 3, done.stderr  # answered, but nothing it ran succeeded
    assert "outcome: answered_unverified" in done.stderr
    flat = " ".join(done.stderr.split())
    assert "Blocked by the safety policy" in flat and "needs human approval" in flat
    assert not (workspace / "note.txt").exists()
    assert (workspace / "ok.txt").read_text() == "hi\n"


def test_a_small_model_reads_80_lines_by_default_and_the_config_can_change_it(
    tmp_path: Path, env: dict[str, str]
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "big.txt").write_text("".join(f"line {n}\n" for n in range(1, 301)))
    config = tmp_path / "workset.toml"
    config.write_text("[agent]\nread_lines = 120\n")
    for extra, shown in (((), "1-80"), (("--config", str(config)), "1-120")):
        model = script(
            tmp_path,
            {"tool_calls": [{"name": "read_file", "arguments": {"path": "big.txt"}}]},
            "It has 300 lines.",
        )
        done = workset(
            "run", "--model", model, "--workspace", str(workspace), *extra, "How long?", env=env
        )
        assert done.returncode in (0, 3), done.stderr  # answered, verified or not
        session_id = re.search(r"workset show (s[0-9a-f]+)", done.stderr)
        assert session_id is not None
        store = SessionLog(tmp_path / "w.db")
        [result] = [m for m in store.messages(session_id[1]) if isinstance(m, ToolMessage)]
        assert f"Showing lines {shown} of 300 total." in result.content


def test_exec_offers_run_tests_in_a_pytest_workspace_unless_the_config_turns_it_off(
    tmp_path: Path, env: dict[str, str]
) -> None:
    workspace = tmp_path / "ws"
    (workspace / "tests").mkdir(parents=True)
    (workspace / "tests" / "test_one.py").write_text("def test_one():\n    assert True\n")
    off = tmp_path / "off.toml"
    off.write_text('[agent]\ntest_command = ""\n')
    seen = {}
    for name, extra in (("auto", ()), ("off", ("--config", str(off)))):
        run_tests = {"tool_calls": [{"name": "run_tests", "arguments": {}}]}
        model = script(tmp_path, run_tests, "done")
        done = workset(
            "run", "--exec", "--model", model, "--workspace", str(workspace), *extra, "check",
            env=env,
        )  # fmt: skip
        session_id = re.search(r"workset show (s[0-9a-f]+)", done.stderr)
        assert session_id is not None, done.stderr
        store = SessionLog(tmp_path / "w.db")
        [result] = [m for m in store.messages(session_id[1]) if isinstance(m, ToolMessage)]
        seen[name] = " ".join(result.content.split())
    # offered: high risk, so without a terminal it is refused, not unknown
    assert "needs human approval" in seen["auto"] and "unknown tool" not in seen["auto"]
    assert "run_tests" in seen["off"] and "needs human approval" not in seen["off"]
