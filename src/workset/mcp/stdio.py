"""A stdio transport for the SDK client that remembers how its server ended.

The SDK's own ``stdio_client`` hides the process, so a server that dies mid-call shows up only
as "connection closed". This transport speaks the same newline-delimited JSON-RPC, but keeps
the exit code and the last lines the server wrote to stderr, which is what a person (or the
model) needs to tell a crash from a config mistake. The server inherits only the SDK's short
list of safe variables (``PATH``, ``HOME``…) plus the ``env`` configured for it, so one
server's credentials never reach another.
"""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from types import TracebackType
from typing import Any

import anyio
import anyio.abc
import mcp_types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from anyio.streams.text import TextReceiveStream
from mcp.client.stdio import get_default_environment
from mcp.shared.message import SessionMessage

_STDERR_LINES = 20
_GRACE_S = 2.0

Streams = tuple[
    MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]
]


class StdioProcess(AbstractAsyncContextManager[Any]):
    """Start ``command`` on enter, yield the SDK's (read, write) streams, stop it on exit.

    Exit closes stdin, waits up to two seconds, then sends SIGTERM and finally SIGKILL to the
    server's process group.
    """

    def __init__(
        self, command: Sequence[str], env: Mapping[str, str], cwd: str | None = None
    ) -> None:
        self._command = list(command)
        self._env = {**get_default_environment(), **env}
        self._cwd = cwd
        self._process: anyio.abc.Process | None = None
        self._stderr: deque[str] = deque(maxlen=_STDERR_LINES)
        self._context: AbstractAsyncContextManager[Streams] | None = None

    @property
    def returncode(self) -> int | None:
        """The exit code once the process has ended; None while it runs (or before start)."""
        return None if self._process is None else self._process.returncode

    def stderr_tail(self) -> str:
        """The last lines the server wrote to stderr, oldest first."""
        return "\n".join(self._stderr)

    async def wait_exit(self, timeout_s: float) -> int | None:
        """The exit code, waiting up to ``timeout_s`` for the process to be reaped."""
        if self._process is not None:
            with anyio.move_on_after(timeout_s):
                await self._process.wait()
        return self.returncode

    async def __aenter__(self) -> Streams:
        self._context = self._run()
        return await self._context.__aenter__()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        assert self._context is not None, "exit without enter"
        return await self._context.__aexit__(exc_type, exc, tb)

    @asynccontextmanager
    async def _run(self) -> AsyncIterator[Streams]:
        process = await anyio.open_process(
            self._command, env=self._env, cwd=self._cwd, start_new_session=True
        )
        self._process = process
        read_in, read_out = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        write_in, write_out = anyio.create_memory_object_stream[SessionMessage](0)
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._read_stdout, process, read_in)
            tg.start_soon(self._write_stdin, process, write_out)
            tg.start_soon(self._read_stderr, process)
            try:
                yield read_out, write_in
            finally:
                with anyio.CancelScope(shield=True):
                    await write_in.aclose()
                    await read_out.aclose()
                    await self._stop(process)
                tg.cancel_scope.cancel()

    async def _read_stdout(
        self,
        process: anyio.abc.Process,
        sink: MemoryObjectSendStream[SessionMessage | Exception],
    ) -> None:
        assert process.stdout is not None
        async with sink:
            buffer = ""
            with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                async for chunk in TextReceiveStream(process.stdout, errors="replace"):
                    *lines, buffer = (buffer + chunk).split("\n")
                    for line in lines:
                        if line.strip():
                            await sink.send(_parse(line))

    async def _write_stdin(
        self, process: anyio.abc.Process, source: MemoryObjectReceiveStream[SessionMessage]
    ) -> None:
        assert process.stdin is not None
        with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            async with source:
                async for item in source:
                    data = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await process.stdin.send((data + "\n").encode())

    async def _read_stderr(self, process: anyio.abc.Process) -> None:
        assert process.stderr is not None
        buffer = ""
        with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            async for chunk in TextReceiveStream(process.stderr, errors="replace"):
                *lines, buffer = (buffer + chunk).split("\n")
                self._stderr.extend(line.rstrip() for line in lines if line.strip())
        if buffer.strip():
            self._stderr.append(buffer.rstrip())

    async def _stop(self, process: anyio.abc.Process) -> None:
        assert process.stdin is not None
        with suppress(OSError, anyio.ClosedResourceError, anyio.BrokenResourceError):
            await process.stdin.aclose()
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None and process.returncode is None:
                with suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, sig)
            if await self.wait_exit(_GRACE_S) is not None:
                break
        with suppress(OSError, anyio.ClosedResourceError, anyio.BrokenResourceError):
            await process.aclose()


def _parse(line: str) -> SessionMessage | Exception:
    try:
        message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError as exc:  # a server printing logs on stdout: the session reports it
        return exc
    return SessionMessage(message)
