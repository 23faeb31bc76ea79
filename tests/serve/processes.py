"""``workset`` commands as real subprocesses that a test talks to while they run.

:class:`Running` reads the process's stdout and stderr on threads; :meth:`Running.expect`
waits (with a deadline, never a fixed sleep) for a line matching a pattern, and fails with
everything the process printed so far when it does not come.
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from fake_openai_server import FakeOpenAIServer, completion_json, json_reply

DEMO = Path(__file__).parents[2] / "examples" / "demo"
DEADLINE_S = 60.0


class Running:
    def __init__(self, args: Sequence[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "workset", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=env,
        )
        self.lines: dict[str, list[str]] = {"stdout": [], "stderr": []}
        self._queues: dict[str, queue.Queue[str | None]] = {
            "stdout": queue.Queue(),
            "stderr": queue.Queue(),
        }
        assert self.process.stdout is not None and self.process.stderr is not None
        for name, stream in (("stdout", self.process.stdout), ("stderr", self.process.stderr)):
            threading.Thread(target=self._read, args=(name, stream), daemon=True).start()

    def _read(self, name: str, stream: IO[str]) -> None:
        for line in stream:
            self._queues[name].put(line.rstrip("\n"))
        self._queues[name].put(None)

    def expect(
        self, pattern: str, stream: str = "stderr", timeout: float = DEADLINE_S
    ) -> re.Match[str]:
        """The first line (not seen before) of ``stream`` matching ``pattern``."""
        wanted = re.compile(pattern)
        try:
            while True:
                line = self._queues[stream].get(timeout=timeout)
                if line is None:
                    raise AssertionError(f"{stream} ended before {pattern!r}\n{self.printed()}")
                self.lines[stream].append(line)
                found = wanted.search(line)
                if found is not None:
                    return found
        except queue.Empty:
            message = f"no {pattern!r} on {stream} in {timeout} s\n{self.printed()}"
            raise AssertionError(message) from None

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def close_input(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()

    def signal(self, sig: signal.Signals) -> None:
        self.process.send_signal(sig)

    def wait(self, timeout: float = DEADLINE_S) -> int:
        return self.process.wait(timeout=timeout)

    def rest(self, stream: str) -> list[str]:
        """Every line of ``stream`` after the process ended."""
        while True:
            line = self._queues[stream].get(timeout=DEADLINE_S)
            if line is None:
                return self.lines[stream]
            self.lines[stream].append(line)

    def printed(self) -> str:
        return "\n".join(f"[{name}] {line}" for name, lines in self.lines.items() for line in lines)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@contextmanager
def running(args: Sequence[str], env: dict[str, str]) -> Iterator[Running]:
    started = Running(args, env)
    try:
        yield started
    finally:
        started.kill()
        for stream in (started.process.stdin, started.process.stdout, started.process.stderr):
            if stream is not None:
                stream.close()


def cli_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "WORKSET_DB": str(tmp_path / "w.db"), "COLUMNS": "240", **extra}


def state_of(db: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(db.with_name(f"{db.name}.serve.json").read_text())
    return data


def held(received: threading.Event) -> Callable[[Any], None]:
    """A model reply that never comes: the request is noted, then hangs until teardown."""

    def reply(handler: Any) -> None:
        received.set()
        handler.server.fake.release.wait()

    return reply


def answer(text: str) -> Callable[[Any], None]:
    return json_reply(completion_json(text))


def endpoint_model(server: FakeOpenAIServer) -> list[str]:
    """Model options that point workset at the fake OpenAI-compatible server."""
    return ["--model", "openai:test-model", "--base-url", server.url]
