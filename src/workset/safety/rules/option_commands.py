"""Options that make a program run a command of its own: ``tar --to-command=CMD``, ``tar
--checkpoint-action=exec=CMD``, ``tar -I CMD``, ``rsync -e CMD``, ``zip -TT CMD``, ``scp -S
PROG``, ``script -c CMD``, ``flock … -c CMD``, ``man -P CMD``, ``ssh -o ProxyCommand=CMD``,
``less +'!CMD'``, ``go build -toolexec PROG`` (also given in ``GOFLAGS``).

The value is code the shell runs, so it is analysed as the line itself (``tar -xf x.tar
--to-command='sh -c "rm -rf ~"'`` is ``rm -rf ~``), whatever the program does otherwise. An
archiver or pager told to start a shell or interpreter that way (``tar --to-command=sh`` runs
every file of the archive as a script; ``--checkpoint-action=exec='sh ./x.sh'``) is denied:
it hides code execution where no one looks for it. The
command a project runner runs (``poetry run CMD``, ``uv run CMD``, ``bundle exec CMD``) is
analysed for what would be denied run directly.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from workset.safety.rules import network
from workset.safety.rules.base import (
    Cmd,
    Context,
    Handler,
    Nested,
    Result,
    deny_finding,
    requote,
)
from workset.safety.rules.known_lists import JUDGED_BY_FAMILY

# For each program, its options whose value is a command line.
_COMMAND_OPTIONS: dict[str, tuple[str, ...]] = {
    "tar": ("--to-command", "--checkpoint-action", "-I", "--use-compress-program",
            "--rsh-command", "--info-script", "--new-volume-script", "-F"),
    "gtar": ("--to-command", "--checkpoint-action", "-I", "--use-compress-program",
             "--rsh-command", "--info-script", "--new-volume-script", "-F"),
    "rsync": ("-e", "--rsh", "--rsync-path"),
    "zip": ("-TT", "--unzip-command"),
    "scp": ("-S",),
    "script": ("-c", "--command"),
    "flock": ("-c", "--command"),
    "man": ("-P", "--pager"),
    "go": ("-toolexec", "-exec", "--toolexec", "--exec"),  # go build -toolexec PROG, test -exec
}  # fmt: skip


def go_flag_commands(value: str) -> list[str]:
    """The programs ``GOFLAGS`` makes every go build run (``-toolexec=PROG``, ``-exec=PROG``)."""
    return commands_in_options(Cmd(("go", *value.strip("'\"").split())))


def commands_in_options(cmd: Cmd) -> list[str]:
    """The command lines ``cmd`` is given in options that run them."""
    options = _COMMAND_OPTIONS.get(cmd.name, ())
    found: list[str] = []
    args = cmd.args()
    for index, word in enumerate(args):
        name, equals, value = word.partition("=")
        if equals and name in options and (name.startswith("--") or cmd.name == "go"):
            found.append(value)
        elif word in options and index + 1 < len(args):
            found.append(args[index + 1])
        elif cmd.name in ("script", "flock") and re.fullmatch(r"-[a-zA-Z]*c", word):
            found += args[index + 1 : index + 2]  # script -qc CMD: flags bundled before -c
    if cmd.name in ("less", "more", "most"):  # less +'!cmd' runs cmd in a shell
        found += [w.split("!", 1)[1] for w in args if w.startswith("+") and "!" in w]
    if cmd.name in ("ssh", "scp", "sftp", "autossh"):
        settings = [args[i + 1] for i, w in enumerate(args[:-1]) if w == "-o"]
        settings += [w[2:] for w in args if w.startswith("-o") and len(w) > 2]
        for setting in settings:
            key, _, value = setting.partition("=" if "=" in setting.split(" ", 1)[0] else " ")
            if key.lower() in _SSH_COMMANDS:
                found.append(value)
    if cmd.name in ("tar", "gtar"):  # --checkpoint-action=dot|echo|bell…: no command
        found = [v for v in found if v.startswith("exec=") or not _tar_action(v, args)]
    return [v.removeprefix("exec=") for v in found if v.strip()]


def _tar_action(value: str, args: tuple[str, ...]) -> bool:
    """``value`` was given to ``--checkpoint-action``: an action other than ``exec=``."""
    return any(a == f"--checkpoint-action={value}" for a in args) or any(
        a == "--checkpoint-action" and b == value for a, b in itertools.pairwise(args)
    )


# Programs that read code: a shell or interpreter run from an archiver's or pager's option
# runs the data it is handed (each file of the archive) or a script hidden where no one looks.
_RUNS_CODE = re.compile(
    r"^((ba|z|da|k|mk|a|c|tc)?sh|fish|busybox|(python|pypy)[0-9.]*|perl|ruby|node(js)?|php|"
    r"lua(jit)?|tclsh|Rscript|julia|deno|bun|osascript)$"
)
# Programs whose options run a command only as a side feature: their data is not code.
_DATA_PROGRAMS = frozenset({"tar", "gtar", "zip", "less", "more", "most", "man"})


def _hidden_interpreter(code: str) -> str | None:
    """The shell or interpreter ``code`` starts (``sh ./x.sh``, ``env python3 -``), if any."""
    words = code.split()
    while words and words[0].rsplit("/", 1)[-1] in ("env", "exec", "command", "nohup"):
        words = words[1:]
    name = words[0].rsplit("/", 1)[-1].strip("'\"") if words else ""
    return name if _RUNS_CODE.match(name) else None


# ssh settings whose value is a command ssh runs (through the user's shell).
_SSH_COMMANDS = frozenset({"proxycommand", "localcommand", "knownhostscommand",
                           "remotecommand"})  # fmt: skip


def _run_by_option(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    for code in commands_in_options(cmd):
        hidden = _hidden_interpreter(code) if cmd.name in _DATA_PROGRAMS else None
        if hidden is not None:
            yield deny_finding(
                "hidden-interpreter",
                f"{cmd.name} is told to start {hidden} from its own options, which runs the "
                "files it handles, or a script, as code where no one looks for it",
                f"run {hidden} directly on a file in the workspace that you have read",
            )
        yield Nested(code)


# Project runners: ``poetry run CMD`` runs CMD in the project's environment. They are
# vouched for as project tools; what CMD would be denied for when run directly still counts.
_RUNNERS = {"poetry": "run", "uv": "run", "pipenv": "run", "hatch": "run", "pdm": "run",
            "rye": "run", "conda": "run", "mamba": "run", "micromamba": "run",
            "bundle": "exec", "npm": "exec", "pnpm": "exec", "yarn": "exec"}  # fmt: skip
_RUNNER_VALUES = frozenset({"-n", "--name", "-p", "--prefix", "--python", "--with", "-e",
                            "--env", "--cwd", "--directory", "--project", "--package",
                            "--extra", "--group"})  # fmt: skip


def run_by_runner(cmd: Cmd) -> list[str] | None:
    """The command a project runner runs (``uv run --python 3.12 pytest -q`` runs ``pytest
    -q``), or None when ``cmd`` is not a runner call."""
    args = list(cmd.args())
    verb = _RUNNERS.get(cmd.name)
    if verb is None or verb not in args[:3]:
        return None
    rest = args[args.index(verb) + 1 :]
    while rest and rest[0].startswith("-"):
        flag = rest.pop(0)
        if flag == "--":
            break
        if flag in _RUNNER_VALUES and rest:
            rest.pop(0)
    return rest or None


def _run_by_runner(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``poetry run pytest``, ``bundle exec rake test``: a program the rules know is judged in
    full, as if run directly (``bundle exec curl …`` reaches the network as curl does); a name
    they do not know is the project's own entry point (``poetry run myapp``), judged only for
    what it would be denied for."""
    from workset.safety.rules.handlers import KNOWN_NAMES  # the registry imports this module

    inner = run_by_runner(cmd)
    if inner is not None:
        name = inner[0].rsplit("/", 1)[-1]
        known = name in KNOWN_NAMES or name in JUDGED_BY_FAMILY or bool(_RUNS_CODE.match(name))
        start = len(cmd.argv) - len(inner)  # a word known only at run time stays unknown
        words = ['"${RUN_TIME_VALUE}"' if cmd.is_dynamic(start + i) else requote([w])
                 for i, w in enumerate(inner)]  # fmt: skip
        yield Nested(" ".join(words), deny_only=not known or "/" in inner[0])


def _run_by_package_runner(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``npx rimraf ~``, ``npx cross-env A=1 rm -rf ~``: the tool a runner finds, judged for
    what it would be denied for run directly."""
    tool, _ = network.package_runner(cmd)
    if tool is not None:
        judged = tool.name in WRAPPED_BY_RUNNERS  # rimraf, cross-env: judged as what they run
        words = ['"${RUN_TIME_VALUE}"' if tool.is_dynamic(i) else requote([w])
                 for i, w in enumerate(tool.argv)]  # fmt: skip
        yield Nested(" ".join(words), deny_only=not judged)


# hyperfine's options: those whose value is a command, a file it writes, or another value.
_BENCH_COMMANDS = frozenset({"-p", "--prepare", "-c", "--cleanup", "-s", "--setup",
                             "--conclude"})  # fmt: skip
_BENCH_EXPORTS = frozenset({"--export-json", "--export-csv", "--export-markdown",
                            "--export-asciidoc", "--export-orgmode", "--output"})  # fmt: skip
_BENCH_VALUES = frozenset({"-w", "--warmup", "-r", "--runs", "-m", "--min-runs", "-M",
                           "--max-runs", "-n", "--command-name", "-S", "--shell", "-u",
                           "--time-unit", "--style", "--sort", "-i", "--ignore-failure",
                           "-P", "--parameter-scan", "-L", "--parameter-list", "-D",
                           "--parameter-step-size", "--input"})  # fmt: skip


def _benchmark(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``hyperfine --warmup 3 'python3 bench.py'``: each command it times runs as if written
    here, and so do its setup and cleanup commands; its exports are files it writes."""
    args = cmd.args()
    index = 0
    while index < len(args):
        word = args[index]
        option, equals, value = word.partition("=")
        value = value if equals else (args[index + 1] if index + 1 < len(args) else "")
        step = 1 if equals or not word.startswith("-") else 2
        if option in _BENCH_COMMANDS:
            yield Nested(value)
        elif option in _BENCH_EXPORTS:
            yield Cmd(argv=(":",), redirects=((">", value),), dynamic=(False,))
        elif option in _BENCH_VALUES:
            pass
        elif word.startswith("-"):
            step = 1
        else:
            yield Nested(word)
        index += step


# Tools a runner finds that stand for a command judged in full (rm -rf, env).
WRAPPED_BY_RUNNERS = frozenset({"rimraf", "del-cli", "cross-env"})


HANDLERS: dict[str, Handler] = {
    **{name: _run_by_runner for name in _RUNNERS},
    "npx": _run_by_package_runner,
    "hyperfine": _benchmark,
    "bunx": _run_by_package_runner,
    **{
        name: _run_by_option
        for name in (*_COMMAND_OPTIONS, "ssh", "scp", "sftp", "autossh", "less", "more", "most")
    },
}
