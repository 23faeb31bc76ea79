"""`workset run` with MCP servers from the config, discovery over the tools left out of the
prompt, and the needs a run's searches served remembered for the next run. A real MCP server
(tests/mcp/servers/counter.py) and the real MiniLM embedder; the model is scripted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from workset.log.store import SessionLog
from workset.messages import ToolMessage

ROOT = Path(__file__).parents[2]
COUNTER = ROOT / "tests" / "mcp" / "servers" / "counter.py"
POISONED = ROOT / "tests" / "mcp" / "servers" / "poisoned.py"


def config(tmp_path: Path, core: str = 'core_tools = ["read_file"]') -> Path:
    path = tmp_path / "workset.toml"
    path.write_text(
        f"""
[agent]
{core}

[mcp.servers.counter]
command = [{json.dumps(sys.executable)}, {json.dumps(str(COUNTER))}]

[mcp.servers.poisoned]
command = [{json.dumps(sys.executable)}, {json.dumps(str(POISONED))}]
"""
    )
    return path


def run(
    tmp_path: Path, script: list[object], task: str, core: str | None = None, code: int = 0
) -> str:
    """Run ``workset run`` with ``script``; its stderr. The log is ``tmp_path/w.db``."""
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script))
    env = {**os.environ, "WORKSET_DB": str(tmp_path / "w.db"), "COLUMNS": "200"}
    cfg = config(tmp_path) if core is None else config(tmp_path, core)
    done = subprocess.run(
        [sys.executable, "-m", "workset", "run", "--config", str(cfg), "--model",
         f"scripted:{path}", "--workspace", str(ROOT / "examples" / "demo"), task],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == code, done.stderr
    return done.stderr


def results(tmp_path: Path) -> list[ToolMessage]:
    log = SessionLog(tmp_path / "w.db")
    session = log.sessions()[0]
    return [m for m in log.messages(session.id) if isinstance(m, ToolMessage)]


def search(query: str) -> dict[str, object]:
    return {"tool_calls": [{"name": "tool_search", "arguments": {"query": query}}]}


def call(name: str, **arguments: object) -> dict[str, object]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def test_a_run_finds_an_mcp_tool_by_need_calls_it_and_remembers_the_need(tmp_path: Path) -> None:
    script = [
        search("will it rain in Oslo tomorrow"),
        call("counter__weather_forecast", city="Oslo"),
        "Yes: the forecast for Oslo says 4 C, light rain, wind 30 km/h.",
    ]
    stderr = run(tmp_path, script, "Will it rain in Oslo tomorrow?")
    assert "mcp: blocked poisoned/" in stderr  # the audit ran; its findings are shown
    found, forecast = results(tmp_path)
    assert not found.is_error and "counter__weather_forecast (server counter" in found.content
    assert "poisoned__" not in found.content  # a blocked tool is not in the catalog
    assert not forecast.is_error and "light rain" in forecast.content
    assert forecast.content.startswith('<external_content source="mcp:counter/weather_forecast"')
    remembered = (tmp_path / "discovery" / "needs.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in remembered] == [
        {
            "need": "will it rain in Oslo tomorrow",
            "server": "counter",
            "tool": "counter__weather_forecast",
        }
    ]


def test_a_remembered_need_whose_tool_is_gone_is_forgotten_and_the_file_kept_valid(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "discovery"
    folder.mkdir()
    gone = {"need": "translate a letter into German", "server": "old", "tool": "old__translate"}
    (folder / "needs.jsonl").write_text(json.dumps(gone) + "\n")
    script = [
        search("convert 20 euros to dollars"),
        call("counter__convert_currency", amount=20, source="EUR", target="USD"),
        "20 EUR = 40 USD.",
    ]
    stderr = run(tmp_path, script, "What is 20 EUR in USD?")
    assert "forgot 1 remembered need(s)" in stderr
    rows = [json.loads(line) for line in (folder / "needs.jsonl").read_text().splitlines()]
    assert rows == [
        {
            "need": "convert 20 euros to dollars",
            "server": "counter",
            "tool": "counter__convert_currency",
        }
    ]


def test_an_unloaded_tool_runs_when_called_again_and_a_risky_one_needs_a_person(
    tmp_path: Path,
) -> None:
    """Called by name before any search, a tool is loaded but does not run; the same call
    made next runs (it is no repeat of a call that failed). A tool without annotations may
    change things (MCP's destructiveHint defaults to true): without a terminal to ask, it is
    refused. With no ``core_tools`` every tool is in the prompt and there is no tool_search."""
    script = [
        call("counter__weather_forecast", city="Bergen"),
        call("counter__weather_forecast", city="Bergen"),
        call("counter__bump"),
        call("counter__bump"),
        "Bergen: 4 C, light rain, wind 30 km/h.",
    ]
    run(tmp_path, script, "What is the forecast for Bergen?")
    first, second, _, bumped = results(tmp_path)
    assert first.is_error and "was not loaded, so this call did not run" in first.content
    assert not second.is_error and "Bergen: 4 C, light rain" in second.content
    assert bumped.is_error and "needs human approval" in bumped.content
    other = tmp_path / "second"
    other.mkdir()
    script = [call("counter__weather_forecast", city="Bergen"), "Bergen: 4 C, light rain."]
    run(other, script, "What is the forecast for Bergen?", core="")
    [forecast] = results(other)
    assert not forecast.is_error and "Bergen: 4 C" in forecast.content
    assert not (other / "discovery").exists()
