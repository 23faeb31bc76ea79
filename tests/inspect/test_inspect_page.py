"""The inspect page, from one recorded session: the real Agent, the scripted model, SQLite.

Two runs in one session. The first reads a file (a tool call, its result, an answer) with a
roomy window. The second runs with a window just big enough for the first run's largest
request, and its task is long, so the first run's messages are left out for budget.
Session content carries markup that must never become live HTML.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest
from click.testing import CliRunner

from workset.cli.inspect import inspect_command
from workset.errors import SessionNotFoundError
from workset.inspect import SessionView, render_html, session_view
from workset.log.store import SessionLog
from workset.messages import AssistantMessage
from workset.session.agent import Agent, AgentConfig
from workset.testing import ScriptedModel, call, current_store
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace

INJECTED = "<script>document.title='pwned'</script>"
INJECTED_IMG = "<img src=x onerror=\"document.title='pwned'\">"
LONG_TASK = "Check the port again and explain how the service is configured. " * 8


@dataclass(frozen=True)
class RecordedSession:
    db: Path
    session_id: str


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> RecordedSession:
    root = tmp_path_factory.mktemp("inspect")
    (root / "ws").mkdir()
    notes = f"{INJECTED}\n{INJECTED_IMG}\n" + "[server]\nport = 8471\n" * 60
    (root / "ws" / "notes.toml").write_text(notes)
    tools = ToolRegistry(perception_tools(Workspace(root / "ws")))
    config = AgentConfig(output_reserve=64, margin=8, max_tokens=64)
    db = root / "log.db"
    with SessionLog(db) as log:
        read = call("read_file", '{"path": "notes.toml"}')
        roomy = ScriptedModel(
            [AssistantMessage(None, (read,)), f"The port is 8471. {INJECTED}"],
            context_window=16_384,
        )
        first = anyio.run(Agent(roomy, tools, log, config).run, f"Which port? {INJECTED}")
        assert first.status == "finished"
        largest = max(m.total_tokens for _, m in log.manifests(first.session_id))
        tight = ScriptedModel(["Still 8471."], context_window=largest + 64 + 8)
        second = anyio.run(
            functools.partial(
                Agent(tight, tools, log, config).run, LONG_TASK, session_id=first.session_id
            )
        )
        assert second.status == "finished", second
    return RecordedSession(db, first.session_id)


def view_of(recorded: RecordedSession) -> SessionView:
    with SessionLog(recorded.db) as log:
        info = log.get_session(recorded.session_id)
        return session_view(info, log.events(info.id))


def test_each_model_call_gets_its_manifest_usage_and_the_results_that_followed(
    recorded: RecordedSession,
) -> None:
    view = view_of(recorded)
    assert [c.number for c in view.calls] == [1, 2, 3]
    first, second, third = view.calls
    assert [r.name for r in first.results] == ["read_file"] and not second.results
    assert first.task == second.task != third.task
    assert not first.event.manifest.omitted and third.event.manifest.omitted
    assert view.prompt_tokens == sum(c.event.usage.prompt_tokens for c in view.calls)


def test_the_page_shows_buckets_reuse_usage_and_omissions_per_call(
    recorded: RecordedSession,
) -> None:
    view = view_of(recorded)
    page = render_html(view)
    for model_call in view.calls:
        manifest = model_call.event.manifest
        assert f"Call {model_call.number}: {manifest.total_tokens} tokens in" in page
        for bucket, tokens in manifest.buckets.items():
            assert f"{bucket} {tokens}</li>" in page
    second = view.calls[1].event.manifest.prefix
    assert f"reused {second.reused_tokens} of the previous request's" in page
    omitted = view.calls[2].event.manifest.omitted[0]
    assert omitted.reason == "budget"
    assert f'<td class="reason">budget</td><td>{omitted.detail}</td>' in page
    assert page.count("<svg") == 1 + len(view.calls)


def test_session_content_never_becomes_markup(recorded: RecordedSession) -> None:
    page = render_html(view_of(recorded))
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;" in page
    assert "<script" not in page.lower() and "<img" not in page.lower()


def test_the_page_is_self_contained(recorded: RecordedSession) -> None:
    page = render_html(view_of(recorded))
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page


def test_inspect_writes_the_page_where_asked(recorded: RecordedSession, tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    prefix = recorded.session_id[:-2]
    args = [prefix, "--db", str(recorded.db), "--out", str(out)]
    result = CliRunner().invoke(inspect_command, args)
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output
    assert out.read_text().startswith("<!doctype html>")


def test_inspect_of_an_unknown_session_says_how_to_find_one(recorded: RecordedSession) -> None:
    result = CliRunner().invoke(inspect_command, ["nope", "--db", str(recorded.db)])
    assert isinstance(result.exception, SessionNotFoundError)
    assert "workset sessions" in str(result.exception)


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("headless Chromium is needed for this test: apt-get install -y chromium")
    return found


def browser_dom(page: Path, tmp_path: Path) -> str:
    """The DOM after Chromium loaded the page (and would have run any script in it)."""
    command = [
        chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--dump-dom",
        page.as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_chromium_shows_calls_buckets_and_omissions_and_runs_nothing(
    recorded: RecordedSession, tmp_path: Path
) -> None:
    view = view_of(recorded)
    page = tmp_path / "session.html"
    page.write_text(render_html(view))
    dom = browser_dom(page, tmp_path)
    text = re.sub(r"<[^>]+>", " ", dom)  # what a person reads: the text between tags
    assert f"<title>workset · session {view.info.id}</title>" in dom  # no script renamed it
    for model_call in view.calls:
        heading = f"Call {model_call.number}: {model_call.event.manifest.total_tokens} tokens in"
        assert heading in text
    tools = view.calls[0].event.manifest.buckets["tools"]
    assert f"tools {tools}" in text
    omitted = view.calls[2].event.manifest.omitted[0]
    assert re.search(rf"{omitted.item_id}\s.*\sbudget\s+{re.escape(omitted.detail)}", text)
    assert "<script" not in dom.lower() and "<img" not in dom.lower()
    assert "&lt;script&gt;document.title='pwned'&lt;/script&gt;" in dom


def test_a_session_whose_run_failed_shows_the_error_and_no_calls(tmp_path: Path) -> None:
    tools = ToolRegistry(perception_tools(Workspace(tmp_path)))
    with current_store() as log:
        tiny = ScriptedModel(["never asked"], context_window=600)
        result = anyio.run(Agent(tiny, tools, log).run, "Which port? <b>now</b>")
        assert result.status == "failed"
        info = log.get_session(result.session_id)
        page = render_html(session_view(info, log.events(info.id)))
    assert "no model calls recorded" in page and "run failed: the required context" in page
    assert "Which port? &lt;b&gt;now&lt;/b&gt;" in page
