"""The example skills in examples/skills load clean, and their scripts work as their bodies say."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import anyio

from workset.messages import ToolCall
from workset.skills import discover_skills, install_skill, skill_tools
from workset.tools.registry import ToolRegistry

EXAMPLES = Path(__file__).parents[2] / "examples" / "skills"


def _script_command(skill_name: str, script: str, skills_dir: Path) -> str:
    """The shell command load_skill gives the model for ``script``."""
    skills, _ = discover_skills(skills_dir)
    registry = ToolRegistry(skill_tools(skills))
    call = ToolCall("c1", "load_skill", json.dumps({"name": skill_name}))
    text = anyio.run(registry.execute, call).content
    match = re.search(rf"^- {re.escape(script)}: (.+)$", text, re.MULTILINE)
    assert match, text
    return match.group(1)


def _run(command: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        f"{command} {' '.join(args)}",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_example_skills_load_without_any_diagnostic() -> None:
    skills, diagnostics = discover_skills(EXAMPLES)
    assert diagnostics == ()
    assert [s.name for s in skills] == ["read-service-config", "summarize-log-errors"]
    for skill in skills:
        assert "Use when" in skill.description and "Do not use when" in skill.description
        assert skill.scripts and skill.files
        for rel in skill.files:  # every bundled reference is mentioned by the body
            assert rel in skill.body


def test_the_example_skills_install_as_trusted(tmp_path: Path) -> None:
    for folder in sorted(p for p in EXAMPLES.iterdir() if p.is_dir()):
        assert install_skill(folder, tmp_path / "skills").installed
    skills, diagnostics = discover_skills(tmp_path / "skills")
    assert diagnostics == () and all(s.installed for s in skills)


def test_show_config_prints_settings_with_lines_and_masks_secrets(tmp_path: Path) -> None:
    install_skill(EXAMPLES / "read-service-config", tmp_path / "skills")
    command = _script_command("read-service-config", "scripts/show_config.py", tmp_path / "skills")
    unit = tmp_path / "api.service"
    unit.write_text(
        "[Service]\nExecStart=/usr/bin/api --port 8080\n"
        'Environment="DB_PASSWORD=hunter2" "PORT=8080"\n'
    )
    result = _run(command, str(unit))
    assert result.returncode == 0, result.stderr
    assert "Service.ExecStart = /usr/bin/api --port 8080  (line 2)" in result.stdout
    assert "DB_PASSWORD=****** (masked, 7 characters) PORT=8080  (line 3)" in result.stdout
    assert "hunter2" not in result.stdout

    toml = tmp_path / "app.toml"
    toml.write_text('[server]\nport = 9000\napi_token = "abc123"\n[log]\nlevel = "info"\n')
    result = _run(command, str(toml), "--key", "server")
    assert result.stdout.splitlines() == [
        "server.port = 9000",
        "server.api_token = ****** (masked, 6 characters)",
        f"# 2 of 3 settings from {toml}",
    ]


def test_show_config_says_what_to_do_with_an_unsupported_format(tmp_path: Path) -> None:
    command = _script_command("read-service-config", "scripts/show_config.py", EXAMPLES)
    odd = tmp_path / "conf.xml"
    odd.write_text("<x/>")
    result = _run(command, str(odd))
    assert result.returncode == 1
    assert "unsupported format '.xml'; read it with read_file" in result.stderr


def test_error_summary_groups_errors_by_signature_with_counts_and_lines(tmp_path: Path) -> None:
    command = _script_command("summarize-log-errors", "scripts/error_summary.py", EXAMPLES)
    log = tmp_path / "app.log"
    lines = ["2024-05-01 10:00:00 INFO started"]
    lines += [
        f"2024-05-01 10:0{i}:01 ERROR timeout after {30 + i}s to 10.0.0.{i}:5432" for i in range(5)
    ]
    lines += ["Traceback (most recent call last):", '  File "/a.py", line 1', "KeyError: 'port'"]
    lines += ["2024-05-01 10:09:00 WARN slow request 8f3a9b2c11", "an error-free line"]
    log.write_text("\n".join(lines) + "\n")
    result = _run(command, str(log))
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0] == f"{log}: 11 lines, 6 matching lines, 2 distinct signatures"
    assert out[1].split()[:4] == ["5", "ERROR", "lines", "2-6"]
    assert out[2].split()[:4] == ["1", "ERROR", "lines", "7-7"] and "KeyError" in out[2]
    with_warnings = _run(command, str(log), "--level", "WARN").stdout
    assert "3 distinct signatures" in with_warnings and "WARN" in with_warnings
