"""The OS-level sandbox and resource limits that the execution tools run commands under.

:class:`BubblewrapSandbox` wraps a command line in ``bwrap`` (Linux namespaces, no root
needed where unprivileged user namespaces are allowed). Inside it:

- the file system is a fresh root holding read-only views of ``/usr``, ``/bin``, ``/lib*``,
  ``/etc`` and the Python installation, a private empty ``/tmp`` (also ``$HOME``), a
  ``/proc`` of the sandbox's own processes and a minimal ``/dev``; the workspace is the only
  place a command can change on the host;
- the network is off (a new, empty network namespace) unless ``allow_network=True``;
- the environment is cleared (API keys and tokens of the host do not leak into commands)
  and set to a plain ``PATH``, ``HOME=/tmp`` and ``LANG=C.UTF-8``;
- the command gets its own PID, IPC and UTS namespaces, a new session (no terminal
  injection) and dies with its parent, so killing the tool's process kills everything.

What it does not protect: files readable under the read-only binds (``/etc`` is visible),
everything inside the workspace (a command may delete it all; use version control), resource
exhaustion (the tools set CPU/memory/file-size limits separately) and kernel bugs (the kernel
is shared). A Python virtual environment is not a sandbox at all: it only separates packages.
For untrusted input, run the whole agent in a container (shares the host kernel) or a
microVM such as Firecracker (own kernel) — deployment options outside workset.

:func:`detect_sandbox` returns a working sandbox or ``None``; inside some containers user
namespaces are refused, and :func:`sandbox_unavailable_reason` then says why.

:func:`run_confined` runs one command (sandboxed when a sandbox is given) in its own process
group under optional :class:`Limits` (memory, CPU, file size, process count — quotas belong
to every isolation tier), kills the whole group at the end or at the timeout, and returns the
exit code and the stdout+stderr text in the order it was written.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol

from workset.tools.workspace import Workspace

_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
_TRIAL_TIMEOUT_S = 15
_last_reason: str | None = None


class Sandbox(Protocol):
    """Something that turns a command line into one that runs confined."""

    def wrap(self, argv: list[str], *, cwd: Path) -> list[str]:
        """The command line that runs ``argv`` in ``cwd`` inside the sandbox."""
        ...

    def describe(self) -> str:
        """One line saying what the sandbox allows, for status output and logs."""
        ...


class BubblewrapSandbox:
    """Confinement with ``bwrap``: read-only system, writable workspace, no network."""

    def __init__(
        self,
        workspace: Workspace | Path,
        *,
        allow_network: bool = False,
        bwrap: str = "bwrap",
    ) -> None:
        self._root = workspace.root if isinstance(workspace, Workspace) else workspace.resolve()
        self._allow_network = allow_network
        self._bwrap = bwrap

    @property
    def root(self) -> Path:
        return self._root

    def wrap(self, argv: list[str], *, cwd: Path) -> list[str]:
        args = [self._bwrap, "--unshare-all", "--die-with-parent", "--new-session"]
        if self._allow_network:
            args.append("--share-net")
        args += _system_binds()
        args += ["--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev"]
        for prefix in _python_prefixes():
            args += ["--ro-bind", prefix, prefix]
        root = str(self._root)
        args += ["--bind", root, root, "--chdir", str(cwd)]
        args += ["--clearenv", "--setenv", "PATH", _path(), "--setenv", "HOME", "/tmp"]
        args += ["--setenv", "LANG", "C.UTF-8", "--setenv", "PYTHONDONTWRITEBYTECODE", "1"]
        return [*args, "--", *argv]

    def describe(self) -> str:
        network = "network on" if self._allow_network else "network off"
        return (
            f"bubblewrap: writable {self._root}, read-only system directories, private /tmp, "
            f"{network}, cleared environment"
        )


def detect_sandbox(workspace: Workspace | Path, *, allow_network: bool = False) -> Sandbox | None:
    """A :class:`BubblewrapSandbox` when ``bwrap`` is installed and a trial run works."""
    global _last_reason
    found = shutil.which("bwrap")
    if found is None:
        _last_reason = (
            "bwrap is not on PATH; install bubblewrap (Debian/Ubuntu: apt-get install "
            "bubblewrap) to run commands in a sandbox"
        )
        return None
    sandbox = BubblewrapSandbox(workspace, allow_network=allow_network, bwrap=found)
    problem = trial_run(sandbox)
    _last_reason = problem
    return None if problem else sandbox


def trial_run(sandbox: BubblewrapSandbox) -> str | None:
    """``None`` when the sandbox can run ``true``; otherwise the reason it cannot."""
    try:
        done = subprocess.run(
            sandbox.wrap(["true"], cwd=sandbox.root),
            capture_output=True,
            timeout=_TRIAL_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap could not start: {exc}"
    if done.returncode != 0:
        error = done.stderr.decode("utf-8", "replace").strip() or f"exit code {done.returncode}"
        return (
            f"bwrap failed a trial run ({error}); this machine probably refuses unprivileged "
            "user namespaces (in a container: allow them, or run without the OS sandbox)"
        )
    return None


def sandbox_unavailable_reason() -> str | None:
    """Why the last :func:`detect_sandbox` returned ``None`` (``None`` if it did not)."""
    return _last_reason


def _system_binds() -> list[str]:
    """Read-only binds of the system directories; merged-/usr symlinks are recreated."""
    args: list[str] = []
    for name in _SYSTEM_DIRS:
        path = Path(name)
        if path.is_symlink():
            args += ["--symlink", str(path.readlink()), name]
        elif path.is_dir():
            args += ["--ro-bind", name, name]
    return args


def _python_prefixes() -> list[str]:
    """Where this Python lives, when outside ``/usr`` (pyenv, a venv), so it runs inside.

    Each prefix is bound both as spelled and resolved, so ``sys.executable`` works either way.
    """
    found: set[str] = set()
    for prefix in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix):
        for path in (Path(os.path.abspath(prefix)), Path(prefix).resolve()):  # noqa: PTH100
            system = any(path.is_relative_to(d) for d in _SYSTEM_DIRS)
            if not system and path.is_dir():
                found.add(str(path))
    return sorted(found)


def _path() -> str:
    """``PATH`` inside: this Python's bin directory first, then the system directories."""
    own = str(Path(sys.executable).parent)
    system = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"
    return f"{own}:{system}"


# --- running one confined process ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits set in the child before it starts (``None``: leave as inherited)."""

    memory_bytes: int | None = None  # RLIMIT_AS: bigger allocations fail (MemoryError)
    cpu_s: int | None = None  # RLIMIT_CPU: SIGXCPU after this much CPU time
    file_bytes: int | None = None  # RLIMIT_FSIZE: no written file grows past this
    processes: int | None = None  # RLIMIT_NPROC: fork fails past this many (not for root)

    def apply(self) -> None:
        """Lower the limits of the current process (never above the hard limit)."""
        wanted = {
            resource.RLIMIT_AS: self.memory_bytes,
            resource.RLIMIT_CPU: self.cpu_s,
            resource.RLIMIT_FSIZE: self.file_bytes,
            resource.RLIMIT_NPROC: self.processes,
        }
        for kind, value in wanted.items():
            if value is None:
                continue
            _soft, hard = resource.getrlimit(kind)
            capped = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(kind, (capped, hard))


@dataclass(frozen=True, slots=True)
class Finished:
    """How a confined command ended: ``exit_code`` is ``None`` when killed at the timeout,
    negative (``-signal``) when a signal ended it."""

    exit_code: int | None
    output: str
    invalid_utf8: bool = False  # some output bytes were not UTF-8 and show as U+FFFD

    @property
    def timed_out(self) -> bool:
        return self.exit_code is None


def run_confined(
    argv: list[str],
    *,
    cwd: Path,
    timeout_s: float,
    sandbox: Sandbox | None = None,
    stdin: IO[bytes] | None = None,
    limits: Limits | None = None,
) -> Finished:
    """Run ``argv`` in ``cwd`` in a new process group; stdout and stderr share one file.

    The group is killed when the command ends (background jobs do not outlive the call) or at
    ``timeout_s``. Raises :class:`OSError` when the program cannot be started.
    """
    command = sandbox.wrap(argv, cwd=cwd) if sandbox is not None else argv
    with tempfile.TemporaryFile(prefix="workset-output-") as out:
        process = subprocess.Popen(
            command,
            cwd=cwd,
            stdin=stdin if stdin is not None else subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=limits.apply if limits is not None else None,  # only setrlimit calls
        )
        try:
            code: int | None = process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            code = None
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        out.seek(0)
        data = out.read()
    try:
        return Finished(code, data.decode("utf-8"))
    except UnicodeDecodeError:
        return Finished(code, data.decode("utf-8", errors="replace"), invalid_utf8=True)
