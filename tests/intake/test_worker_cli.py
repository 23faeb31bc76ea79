"""``workset worker`` from the command line: a Redis that is not there and a store URL of a
wrong scheme stop it at start with an error naming the URL and what to do; SIGTERM stops a
running worker cleanly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from workset.testing.servers import free_port


def worker(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    script = tmp_path / "model.json"
    script.write_text(json.dumps(["ok"]))
    command = [sys.executable, "-m", "workset", "worker", "--model", f"scripted:{script}",
               "--workspace", str(tmp_path), *args]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)  # fmt: skip


def test_a_worker_whose_redis_is_not_there_names_the_url_and_exits(tmp_path: Path) -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"
    proc = worker(tmp_path, "--db", f"sqlite://{tmp_path}/log.db", "--redis", url)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert f"cannot reach Redis at {url}" in " ".join(stderr.split())


def test_a_worker_given_a_store_url_of_another_scheme_says_which_work(tmp_path: Path) -> None:
    proc = worker(tmp_path, "--db", "mysql://root@127.0.0.1/ws", "--redis", "redis://x:1/0")
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 2
    text = " ".join(stderr.split())
    assert "unknown store URL scheme 'mysql'" in text and "postgresql://" in text


def test_a_running_worker_stops_on_sigterm_and_says_its_sessions_are_free(
    tmp_path: Path, redis_url: str
) -> None:
    with worker(tmp_path, "--db", f"sqlite://{tmp_path}/log.db", "--redis", redis_url) as proc:
        assert proc.stderr is not None
        for line in proc.stderr:  # wait for it to be serving
            if "(workset:events)" in line:
                break
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
        rest = proc.stderr.read()
    assert "sessions are free for other workers" in " ".join(rest.split())
