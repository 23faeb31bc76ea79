"""Discovery over an agent's own tools behind a servability probe: ``[discovery] probe`` in the
config, a probe fitted on the discovery index and saved, then loaded by the next run (real
MiniLM; the small test catalog as MCP-bridged tools)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from discovery_catalog import SERVERS

from workset.config import load_config
from workset.discovery.local import LocalDiscovery
from workset.discovery.probe import Fitting, ServabilityProbe, fit_probe
from workset.errors import UsageError
from workset.messages import ToolCall
from workset.retrieval import Embedder
from workset.tools.base import Tool
from workset.tools.registry import ToolRegistry

SERVED = [
    "weather forecast for Lisbon this weekend",
    "will it rain in Oslo tomorrow?",
    "read the file notes.txt",
    "what is inside config.yaml?",
    "severe weather warnings in Texas",
    "list what is in the downloads folder",
]
UNSERVED = [
    "what temperature is my living room thermostat set to?",
    "is the heating on in my apartment right now?",
    "how many steps did my watch count today?",
    "what was my heart rate on this morning's run?",
    "did my salary arrive in my checking account?",
]


def _tools() -> list[Tool]:
    def handler(**_: object) -> str:
        return "ok"

    return [
        Tool(spec.__class__(f"{server}__{spec.name}", spec.description, spec.parameters), handler)
        for server, specs in SERVERS.items()
        for spec in specs
    ]


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder.load()


def _open(folder: Path, embedder: Embedder | None, probe: ServabilityProbe | None = None):
    return LocalDiscovery.open(
        _tools(), ["read_file"], folder, loaded=set(), embedder=embedder, probe=probe
    )


def _search(discovery: LocalDiscovery, query: str) -> str:
    registry = ToolRegistry([discovery.tool])
    call = ToolCall("call_1", discovery.tool.name, json.dumps({"query": query}))
    return anyio.run(registry.execute, call).content


def test_a_probe_fitted_on_the_discovery_index_refuses_a_device_need_next_run(
    tmp_path: Path, embedder: Embedder
) -> None:
    plain = _open(tmp_path / "d", embedder)
    assert plain is not None
    labelled = [(n, True) for n in SERVED] + [(n, False) for n in UNSERVED]
    probe = fit_probe(plain.index, labelled, Fitting(folds=4))
    path = tmp_path / "probe.npz"
    probe.save(path)
    need = "what is the temperature of my fridge right now?"
    assert not _search(plain, need).startswith("Not found")  # the index alone offers a tool
    probed = _open(tmp_path / "d", embedder, ServabilityProbe.load(path))
    assert probed is not None
    answer = _search(probed, need)
    assert answer.startswith("Not found") and "labelled needs" in answer
    assert not _search(probed, "will it snow in Denver tonight?").startswith("Not found")


def test_a_probe_without_an_embedder_is_refused_with_the_fix(
    tmp_path: Path, embedder: Embedder
) -> None:
    plain = _open(tmp_path / "d", embedder)
    assert plain is not None
    labelled = [(n, True) for n in SERVED] + [(n, False) for n in UNSERVED]
    probe = fit_probe(plain.index, labelled, Fitting(folds=4))
    with pytest.raises(UsageError, match=r"remove \[discovery\] probe"):
        _open(tmp_path / "words", None, probe)


def test_the_config_key_names_a_file_beside_the_config(tmp_path: Path) -> None:
    path = tmp_path / "workset.toml"
    path.write_text('[discovery]\nprobe = "probes/catalog.npz"\n')
    assert load_config(path).discovery.probe == tmp_path / "probes" / "catalog.npz"
    path.write_text("[discovery]\nsearch = 'auto'\n")
    assert load_config(path).discovery.probe is None
    path.write_text("[discovery]\nprobe = 3\n")
    with pytest.raises(UsageError, match="probe"):
        load_config(path)


def test_a_run_whose_probe_file_is_missing_stops_before_the_model_and_names_the_key(
    tmp_path: Path,
) -> None:
    config = tmp_path / "workset.toml"
    config.write_text('[agent]\ncore_tools = ["read_file"]\n\n[discovery]\nprobe = "gone.npz"\n')
    script = tmp_path / "script.json"
    script.write_text(json.dumps(["The port is 8471."]))
    demo = Path(__file__).parents[2] / "examples" / "demo"
    done = subprocess.run(
        [sys.executable, "-m", "workset", "run", "--config", str(config), "--model",
         f"scripted:{script}", "--workspace", str(demo), "Which port?"],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "WORKSET_DB": str(tmp_path / "w.db"), "COLUMNS": "200"},
    )  # fmt: skip
    assert done.returncode == 2
    assert "[discovery] probe: no probe file at" in done.stderr
    assert str(tmp_path / "gone.npz") in done.stderr
