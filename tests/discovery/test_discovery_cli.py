"""``workset discovery fit-probe`` and ``search``: a run indexes the tools left out of its
prompt, a probe is fitted on needs labelled for them and used by the next run (real
subprocesses, the real MiniLM embedder, a scripted model)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workset.discovery.labelled import catalog_key, read_indexed, read_labelled
from workset.discovery.probe import ServabilityProbe
from workset.errors import UsageError

DEMO = Path(__file__).parents[2] / "examples" / "demo"
SERVED = {
    "list_dir": ["what is in the docs folder?", "show me the entries of src", "list the root"],
    "find_files": ["where are the yaml files?", "find every test file", "locate setup.cfg"],
    "grep": ["which lines mention timeout?", "search the code for TODO", "find uses of port"],
}
UNSERVED = [
    "what temperature is my living room thermostat set to?",
    "is the heating on in my apartment right now?",
    "how many steps did my watch count today?",
    "what was my heart rate on this morning's run?",
    "did my salary arrive in my checking account?",
    "book a table for two tonight",
]


def _workset(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workset", *args],
        capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "WORKSET_DB": str(tmp / "w.db"), "COLUMNS": "200"},
    )  # fmt: skip


def _run(tmp: Path, config: str) -> subprocess.CompletedProcess[str]:
    (tmp / "workset.toml").write_text(config)
    script = tmp / "script.json"
    script.write_text(json.dumps(["The port is 8471."]))
    return _workset(
        tmp, "run", "--config", str(tmp / "workset.toml"), "--model", f"scripted:{script}",
        "--workspace", str(DEMO), "Which port?",
    )  # fmt: skip


def _needs(tmp: Path) -> Path:
    path = tmp / "needs.jsonl"
    rows = [{"need": n, "tools": [tool]} for tool, needs in SERVED.items() for n in needs]
    rows += [{"need": n, "tools": []} for n in UNSERVED]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder whose store's discovery folder a run filled (tools.json and vectors)."""
    tmp = tmp_path_factory.mktemp("run")
    done = _run(tmp, '[agent]\ncore_tools = ["read_file"]\n')
    assert done.returncode == 0, done.stderr
    return tmp


def test_a_run_writes_the_tools_it_indexed_beside_its_store(indexed: Path) -> None:
    servers = read_indexed(indexed / "discovery")
    names = {spec.name for specs in servers.values() for spec in specs}
    assert {"list_dir", "find_files", "grep"} <= names
    assert "read_file" not in names  # in the prompt, so not searched for


def test_fit_probe_saves_a_probe_keyed_to_those_tools_and_search_uses_it(indexed: Path) -> None:
    done = _workset(indexed, "discovery", "fit-probe", str(_needs(indexed)), "--folds", "3")
    assert done.returncode == 0, done.stderr
    assert "needs: 9 servable, 6 that no tool serves" in done.stdout
    assert "out of fold" in done.stdout and "probe = " in done.stdout
    path = indexed / "discovery" / "probe.npz"
    probe = ServabilityProbe.load(path)
    assert probe.catalog == catalog_key(read_indexed(indexed / "discovery"))
    need = "how many steps did I walk yesterday?"  # a need of a kind labelled unservable
    plain = _workset(indexed, "discovery", "search", need)
    assert plain.returncode == 0, plain.stderr
    assert not plain.stdout.startswith("Not found")  # the index alone offers a tool
    probed = _workset(indexed, "discovery", "search", need, "--probe", str(path))
    assert probed.stdout.startswith("Not found") and "labelled needs" in probed.stdout
    found = _workset(indexed, "discovery", "search", "search the source files for the word timeout",
                     "--probe", str(path))  # fmt: skip
    assert found.stdout.startswith("Tools for") and "grep" in found.stdout


def test_a_run_on_other_tools_is_told_to_refit_the_probe(indexed: Path, tmp_path: Path) -> None:
    path = indexed / "discovery" / "probe.npz"
    if not path.is_file():
        assert _workset(indexed, "discovery", "fit-probe", str(_needs(indexed)),
                        "--folds", "3").returncode == 0  # fmt: skip
    done = _run(tmp_path, f'[agent]\ncore_tools = ["grep"]\n\n[discovery]\nprobe = "{path}"\n')
    assert done.returncode == 0, done.stderr
    assert "the probe was fitted on other tools" in done.stderr
    assert "workset discovery fit-probe" in done.stderr


def test_fit_probe_before_any_run_says_how_to_get_an_index(tmp_path: Path) -> None:
    done = _workset(tmp_path, "discovery", "fit-probe", str(_needs(tmp_path)))
    assert done.returncode == 2
    assert "no indexed tools" in done.stderr and "core_tools" in done.stderr


def test_a_labelled_need_naming_an_unknown_tool_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "needs.jsonl"
    path.write_text('{"need": "list the root", "tools": ["list_dir"]}\n'
                    '{"need": "forecast", "tools": ["weather__forecast"]}\n')  # fmt: skip
    with pytest.raises(UsageError, match=r"needs.jsonl:2: 'weather__forecast' is not among"):
        read_labelled(path, ["list_dir", "grep"])
    path.write_text('{"need": "list the root"}\n')
    with pytest.raises(UsageError, match=r"needs.jsonl:1: say which tools serve the need"):
        read_labelled(path, ["list_dir"])
    path.write_text("not json\n")
    with pytest.raises(UsageError, match=r"needs.jsonl:1: not a JSON object"):
        read_labelled(path, ["list_dir"])


def test_the_benchmark_form_of_a_labelled_need_is_read(tmp_path: Path) -> None:
    path = tmp_path / "needs.jsonl"
    rows = [
        {"need": "weather in Oslo", "expected": [{"server": "weather", "tool": "forecast"}]},
        {"need": "list the root", "expected": [{"server": "workset", "tool": "list_dir"}]},
        {"need": "my thermostat", "expected": []},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    needs = read_labelled(path, ["weather__forecast", "list_dir"])
    assert needs == [("weather in Oslo", True), ("list the root", True), ("my thermostat", False)]


def test_too_few_labelled_needs_for_the_folds_name_the_option(indexed: Path) -> None:
    done = _workset(indexed, "discovery", "fit-probe", str(_needs(indexed)))  # 10 folds
    assert done.returncode == 2
    assert "got 6 of one kind" in done.stderr and "--folds" in done.stderr
