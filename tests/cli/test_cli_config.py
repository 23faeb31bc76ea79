"""`workset run --config`: memory, evidence, skills, status bar and policy from one file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from workset.log.store import SessionLog

ROOT = Path(__file__).parents[2]


def test_a_config_file_wires_memory_evidence_skills_status_and_policy(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "runbook.md").write_text(
        "# Billing service runbook\n\n## Ports\n\nThe billing API listens on port 8471 and "
        "its metrics endpoint on port 9464.\n\n## Restarts\n\nRestart with systemctl.\n"
    )
    config = tmp_path / "workset.toml"
    config.write_text(
        f"""
[memory]
db = "memory.db"
tenant = "acme"
subject = "u1"

[evidence]
paths = ["{docs}"]

[skills]
dirs = ["{ROOT / "examples" / "skills"}"]

[status]
enabled = true

[history]
policy = "user_verbatim"
params = {{ turns = 2 }}
"""
    )
    script = tmp_path / "script.json"
    script.write_text(json.dumps(["Noted: port 8471."]))
    env = {**os.environ, "WORKSET_DB": str(tmp_path / "w.db"), "COLUMNS": "160"}
    task = "Always answer in one sentence. Which port does the billing API listen on?"
    done = subprocess.run(
        [sys.executable, "-m", "workset", "run", "--config", str(config), "--model",
         f"scripted:{script}", "--workspace", str(ROOT / "examples" / "demo"), task],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    log = SessionLog(tmp_path / "w.db")
    [session] = log.sessions()
    [(_, manifest)] = log.manifests(session.id)
    kinds = {i.kind: i for i in manifest.included}
    assert manifest.history_policy == "user_verbatim"
    assert "standing rule" in kinds["memory"].why  # "Always answer in one sentence." pinned
    evidence = [i for i in manifest.included if i.kind == "evidence"]
    assert all(i.trust == "untrusted" for i in evidence)
    assert any("runbook.md" in i.source for i in evidence)  # the configured documents
    assert any("service.toml" in i.source for i in evidence)  # the workspace's own files
    assert kinds["status"].bucket == "status" and manifest.included[-2].kind == "status"
    assert manifest.notes["status_strategy"] == "replace"
    assert (tmp_path / "memory.db").exists()
    stored = log.get_session(session.id).config or {}
    assert "read-service-config" in stored["system_prompt"]  # the skills catalog, in the prefix
    assert "load_skill" in stored["tools"]


def test_the_policy_flag_selects_a_history_policy_and_names_unknown_ones(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps(["hello"]))
    env = {**os.environ, "WORKSET_DB": str(tmp_path / "w.db")}

    def run(policy: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "workset", "run", "--model", f"scripted:{script}",
             "--policy", policy, "hi"],
            capture_output=True, text=True, env=env, timeout=120, check=False,
        )  # fmt: skip

    assert run("window").returncode == 3  # answered, with nothing read to support it
    [session] = SessionLog(tmp_path / "w.db").sessions()
    [(_, manifest)] = SessionLog(tmp_path / "w.db").manifests(session.id)
    assert manifest.history_policy == "window"
    wrong = run("user_verbatm")
    assert wrong.returncode != 0 and "did you mean 'user_verbatim'" in wrong.stderr
