from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from lint_support import Recorder, turn

from workset.cli.lint import lint_command
from workset.log.store import SessionLog
from workset.messages import Message, UserMessage

BAD = """
[agent]
system_prompt = "You help the billing team. Today is {date}."
tools = { read_file = true, grep = true }

[status]
placement = "after_system"
"""


def lint(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(lint_command, list(args))
    return result.exit_code, result.output


def record(db: Path, *, status_first: bool) -> str:
    with SessionLog(db) as log:
        recorder = Recorder(log)
        history: list[Message] = []
        for k in range(3):
            history += turn(k)
            status = UserMessage(f"<agent_status>round {k}</agent_status>")
            if status_first:
                recorder.call([status, *history])
            else:
                recorder.call(history, suffix=[status])
        return recorder.session_id


def test_the_default_configuration_lints_clean_and_exits_0() -> None:
    code, output = lint()
    assert code == 0
    assert "linted <defaults>" in output and "clean: no prefix-cache breakers found" in output


def test_a_config_with_prefix_breakers_prints_each_with_why_and_fix_and_exits_1(
    tmp_path: Path,
) -> None:
    path = tmp_path / "agent.toml"
    path.write_text(BAD, encoding="utf-8")
    code, output = lint(str(path))
    assert code == 1
    for expected in ("error WS101", "error WS102", "error WS105", "why: ", "fix: "):
        assert expected in output
    assert "'Today is'" in output and "'{date}'" in output
    assert "4 error(s), 0 warning(s)" in output


def test_a_clean_config_file_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "agent.toml"
    path.write_text('[agent]\ntools = ["read_file", "grep"]\n', encoding="utf-8")
    code, output = lint(str(path))
    assert code == 0 and "2 tools in the prompt" in output


def test_an_unknown_tool_in_the_config_is_a_warning_only(tmp_path: Path) -> None:
    path = tmp_path / "agent.toml"
    path.write_text('[agent]\ntools = ["read_file", "read_fiel"]\n', encoding="utf-8")
    code, output = lint(str(path))
    assert code == 0 and "warning WS100" in output and "'read_fiel'" in output


def test_a_config_that_cannot_be_read_exits_2_naming_the_key_and_the_fix(
    tmp_path: Path,
) -> None:
    path = tmp_path / "agent.toml"
    path.write_text("[agent]\nmax_iterations = 'many'\n", encoding="utf-8")
    code, output = lint(str(path))
    assert code == 2
    assert "[agent] max_iterations" in output and "Fix: max_iterations = 8" in output


def test_a_session_with_rotating_state_near_the_start_exits_1(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    session_id = record(db, status_first=True)
    code, output = lint("--session", session_id[:9], "--db", str(db))
    assert code == 1
    assert f"linted session {session_id}: 3 model calls" in output
    assert "error WS203" in output and "at calls 2, 3" in output


def test_a_session_with_the_status_at_the_end_exits_0(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    session_id = record(db, status_first=False)
    code, output = lint("--session", session_id, "--db", str(db))
    assert code == 0 and "clean" in output


def test_an_unknown_session_exits_2_and_says_how_to_list_sessions(tmp_path: Path) -> None:
    code, output = lint("--session", "s-nope", "--db", str(tmp_path / "log.db"))
    assert code == 2 and "workset sessions" in output


def test_mcp_tools_and_tool_search_in_the_config_are_not_unknown(tmp_path: Path) -> None:
    """They exist once the servers start (`workset run`): the lint does not start them."""
    path = tmp_path / "agent.toml"
    path.write_text(
        '[agent]\ntools = ["read_file", "files__read", "tool_search", "other__x"]\n'
        'core_tools = ["read_file", "tool_search"]\n'
        '[mcp.servers.files]\ncommand = ["files-server"]\n',
        encoding="utf-8",
    )
    code, output = lint(str(path))
    assert code == 0 and "'other__x'" in output  # no server "other" is configured
    assert "'files__read'" not in output and "'tool_search'" not in output
