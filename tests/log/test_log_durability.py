"""Every event the log acknowledged survives the process being killed mid-write."""

from __future__ import annotations

import os
import selectors
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from contextlib import closing
from pathlib import Path

from workset.events import ToolFinished
from workset.log.store import SessionLog

WRITER = textwrap.dedent(
    """
    import sys
    from workset.log.store import SessionLog
    from workset.events import RunStarted, ToolFinished, ToolStarted
    from workset.messages import ToolCall, ToolMessage

    log = SessionLog(sys.argv[1])
    sid = log.create_session(title="crash", workspace="/w", model="m")
    print(sid, flush=True)
    log.append(RunStarted("run1", sid, task="loop forever", model="m", at=0.0))
    i = 0
    while True:
        call = ToolCall(f"call_{i}", "noop")
        log.append(ToolStarted("run1", sid, call, at=float(i)))
        result = ToolMessage(call.id, "x" * 200, name="noop")
        print(log.append(ToolFinished("run1", sid, call, result, 0.0, at=float(i))), flush=True)
        i += 1
    """
)


def read_lines(process: subprocess.Popen[bytes], count: int, timeout_s: float) -> list[str]:
    """The first ``count`` lines the process prints, or fail once ``timeout_s`` has passed."""
    assert process.stdout is not None
    deadline = time.monotonic() + timeout_s
    buffer = b""
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while buffer.count(b"\n") < count:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"writer printed only {buffer!r:.200} in time"
            if selector.select(remaining):
                chunk = os.read(process.stdout.fileno(), 65536)
                if not chunk:
                    _, err = process.communicate()
                    raise AssertionError(f"writer exited early: {err.decode()[-2000:]}")
                buffer += chunk
    return buffer.decode().splitlines()[:count]


def test_acknowledged_events_survive_a_sigkill(tmp_path: Path) -> None:
    path = tmp_path / "workset.db"
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    process = subprocess.Popen(
        [sys.executable, str(script), str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        sid, *acknowledged = read_lines(process, 51, timeout_s=60)
    finally:
        process.send_signal(signal.SIGKILL)
        process.communicate()
    assert process.returncode == -signal.SIGKILL

    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    with SessionLog(path) as log:
        events = log.events(sid)  # every row decodes
        stored = {s.seq for s in events}
        assert {int(seq) for seq in acknowledged} <= stored
        assert sum(isinstance(s.event, ToolFinished) for s in events) >= 50
        assert log.get_session(sid).status == "interrupted"
        assert log.append_record(sid, "external_event", {"note": "reopened"}) > max(stored)
