"""Earning trust: which commands are shown to be read-only or to stay inside the workspace.

The other rule families find what is dangerous. This one is the other half of failing closed:
:func:`vouch` lets a command run without asking only when its program is one whose effects
are known and the words it was given keep those effects harmless:

- **read-only** programs (``ls``, ``cat``, ``grep``, ``git log``…) may read anything but
  secrets (judged in :mod:`~workset.safety.rules.secrets`), as long as no option makes them
  write (``sort -o``);
- **workspace writers** (``cp``, ``mkdir``, ``sed -i``, ``tar``…) may change only paths inside
  the workspace or the scratch directories ``/tmp`` and ``/var/tmp``, never a path that is
  only known at run time;
- **project tools** (``make``, ``pytest``, ``npm test``, ``cargo build``, a script inside the
  workspace…) run the project's own code in the workspace; what confines them is the OS
  sandbox of the execution tools, not this analysis, and the docs say so;
- shell builtins that only change the shell itself (``cd``, ``export``, ``set -e``).

Anything else, a program not listed here, a subcommand not listed for its program, or a name
written with look-alike letters, asks with a one-line reason. The lists are
:mod:`~workset.safety.rules.known_lists`; programs with rules of their own are vouched for in
:mod:`~workset.safety.rules.known_archives` (tar, cpio, zip…),
:mod:`~workset.safety.rules.known_data` (sqlite3, duckdb, dumps),
:mod:`~workset.safety.rules.known_services` (local directory and queue queries, ffmpeg),
:mod:`~workset.safety.rules.known_runners` (``npx``, ``uvx``: judged as the tool they run) and
:mod:`~workset.safety.rules.known_tools` (editors as scripts, key tools, rclone…), with the
shared words of confinement in :mod:`~workset.safety.rules.confinement`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from workset.safety import paths
from workset.safety.rules import (
    app_platforms,
    attack_targets,
    clipboard,
    clones,
    data_clouds,
    data_tools,
    documents,
    domains,
    game_web3,
    guardrails,
    headless,
    host_state,
    known_archives,
    known_data,
    known_runners,
    known_services,
    known_tools,
    macos_reads,
    miller,
    mobile_tools,
    notebooks,
    platform_reads,
    project_inputs,
    remote_reads,
    resources,
    scanners,
    security_tools,
    server_data,
    system,
    task_targets,
    toolchains,
    windows,
)
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    is_script,
    option_value,
    parse_flags,
    unknown_program,
)
from workset.safety.rules.confinement import (
    brought_in,
    inside,
    outside,
    subcommand,
    unpacks_inside,
)
from workset.safety.rules.known_archives import ARCHIVERS, archiver, tar
from workset.safety.rules.known_data import sqlite, sqlite_destroy
from workset.safety.rules.known_lists import (
    BUILTINS,
    HELP,
    JUDGED_BY_FAMILY,
    PROJECT,
    READ_ONLY,
    SUBCOMMANDS,
    WRITERS,
    WRITING_FLAGS,
)
from workset.safety.rules.known_tools import shell_setup
from workset.safety.rules.writes import MKFS

# Shared with the other families, which reach them as ``known.inside`` and so on.
__all__ = ["inside", "outside", "shell_setup", "sqlite_destroy", "subcommand", "unpacks_inside",
           "vouch"]  # fmt: skip


def vouch(cmd: Cmd, ctx: Context) -> Finding | None:
    """None when ``cmd`` is shown to be read-only or confined; else why it must be asked."""
    name = cmd.name
    if cmd.lookalike:
        return Finding(
            "lookalike-name",
            "ask",
            f"the command name {cmd.argv[0]!r} is written with look-alike letters, which only "
            "disguises what runs; write the command name in plain ASCII",
        )
    engine = game_web3.installed(cmd)
    if engine is not None:
        return engine(cmd, ctx)  # /opt/unity/Editor/Unity: where the engine's installer put it
    if foreign_program(cmd, ctx):
        return _project(cmd, ctx)  # /tmp/ls is whatever was put there, not the system's ls
    if cmd.args() and all(a in HELP for a in cmd.args()):
        return None  # only prints its help or version
    shipped = task_targets.outward(cmd) or task_targets.shipping_script(cmd)
    if shipped is not None:
        return shipped  # make deploy, npm run release: the task's name says where it reaches
    if guardrails.config_read(cmd):
        return None  # yarn config get …, keytool -list: settings printed
    if name in JUDGED_BY_FAMILY or name in windows.HANDLERS or MKFS.match(name):
        return None  # their rules ask for everything but reads (rules.infra, rules.writes)
    if is_python(name):
        return _interpreter(cmd, ctx)
    if name in BUILTINS or name in READ_ONLY:
        return _read_only(cmd, ctx)
    if name in WRITERS:
        return _writer(cmd, ctx)
    if name in PROJECT or is_script(cmd):
        return _project(cmd, ctx)
    check = _SPECIAL.get(name)
    if check is not None:
        return check(cmd, ctx)
    if system.simulated(cmd) or system.declared_install(cmd, ctx):
        return None
    scoped = _workspace_scoped(cmd)
    if scoped is not None:
        return vouch(scoped, ctx)  # pnpm -r run build, yarn workspace web test: in each package
    allowed = SUBCOMMANDS.get(name)
    if name == "git" and subcommand(cmd)[0] == "secrets":
        return scanners.git_secrets(subcommand(cmd)[1])
    if name == "git" and subcommand(cmd)[0] == "clone":
        return clones.git_clone(subcommand(cmd)[1], cmd, ctx)
    if name == "git" and subcommand(cmd)[0] == "cliff":
        cliff = cmd.shifted(cmd.argv.index("cliff"))  # judged as the program it runs
        return vouch(cliff.with_argv(["git-cliff", *cliff.args()]), ctx)
    if allowed is not None:
        sub, _ = subcommand(cmd)
        if sub in allowed:
            return None
        what = f"{name} {sub}" if sub else name
        return unknown_program(what, " (its subcommand is not one known to be safe)")
    return unknown_program(cmd.argv[0])


_SCOPE_VALUED = frozenset({"--filter", "-F", "-C", "--dir", "--prefix", "-w", "--workspace"})
_SCOPE_FLAGS = frozenset({"-r", "--recursive", "--parallel", "--stream", "-ws", "--workspaces",
                          "--if-present", "--include-workspace-root", "-W", "-A",
                          "--all"})  # fmt: skip


def _workspace_scoped(cmd: Cmd) -> Cmd | None:
    """``pnpm -r --filter web run build``, ``yarn workspace web test``, ``npm -w web test``:
    the same subcommand in the project's own packages, without the words that pick them."""
    if cmd.name not in ("npm", "pnpm", "yarn") or any(cmd.dynamic):
        return None
    args = list(cmd.args())
    if cmd.name == "yarn" and args[:1] == ["workspace"] and len(args) > 2:
        return cmd.with_argv([cmd.name, *args[2:]])
    if cmd.name == "yarn" and args[:2] == ["workspaces", "foreach"]:
        rest = [a for a in args[2:] if a not in _SCOPE_FLAGS]
        return cmd.with_argv([cmd.name, *rest]) if rest else None
    kept: list[str] = []
    skip = changed = False
    for word in args:
        if skip:
            skip = False
        elif word in _SCOPE_VALUED:
            skip = changed = True
        elif word in _SCOPE_FLAGS or word.startswith(("--filter=", "--dir=", "--workspace=")):
            changed = True
        else:
            kept.append(word)
    return cmd.with_argv([cmd.name, *kept]) if changed and kept else None


def _read_only(cmd: Cmd, ctx: Context) -> Finding | None:
    flags, operands = parse_flags(cmd.args())
    writing = WRITING_FLAGS.get(cmd.name)
    if cmd.name == "sort" and (flags & {"o", "--output"}):
        target = option_value(cmd.args(), ("-o", "--output"))
        return None if target is None or inside(target, ctx) else outside(target)
    if cmd.name == "tar" and writing:
        return tar(cmd, ctx, flags)
    if cmd.name in ("tee",):
        for _, word in operands:
            if cmd.is_dynamic(_) or not inside(word, ctx):
                return outside(word)
        return None
    if cmd.name in ARCHIVERS:
        return archiver(cmd, ctx, operands)
    if cmd.name in ("date", "hostname") and operands and cmd.name == "hostname":
        return unknown_program("hostname NAME", " (it renames the machine)")
    if cmd.name == "date" and ("s" in flags or "--set" in flags):
        return unknown_program("date --set", " (it sets the clock)")
    if cmd.name == "uniq" and len(operands) >= 2 and not inside(operands[1][1], ctx):
        return outside(operands[1][1])
    if cmd.name == "sqlite3":
        return sqlite(cmd, ctx)
    if cmd.name == "ip" and set(cmd.args()) & _IP_CHANGES:
        return unknown_program(
            "ip " + " ".join(a for a in cmd.args() if not a.startswith("-"))[:40],
            " (it changes the network configuration)",
        )
    return None


_IP_CHANGES = frozenset({"add", "del", "delete", "change", "replace", "set", "flush", "exec",
                         "append", "prepend", "restore", "attach", "detach"})  # fmt: skip


def _writer(cmd: Cmd, ctx: Context) -> Finding | None:
    name = cmd.name
    flags, operands = parse_flags(cmd.args())
    if name in ("chmod", "chown", "chgrp") and operands:
        operands = operands[1:] if "--reference" not in flags else operands
    if name == "dd":
        target = next((a.split("=", 1)[1] for a in cmd.args() if a.startswith("of=")), None)
        operands = [(1, target)] if target is not None else []
    if name == "mv" and len(operands) >= 2 and known_tools.is_trash(ctx.resolve(operands[-1][1])):
        operands = operands[:-1]  # mv build/ ~/.Trash/: thrown away, and recoverable from there
    if name in ("cp", "install", "ln", "rsync", "mv") and len(operands) >= 2:
        if name == "rsync" and (any(":" in w.split("/", 1)[0] for _, w in operands)
                                or server_data.rsync_dry_run(cmd)):  # fmt: skip
            return None  # a remote copy (the network rule asks), or a dry run: nothing copied
        brought = brought_in(name, operands[:-1], cmd, ctx)
        if brought is not None:
            return brought
        operands = operands if name == "mv" else operands[-1:]
    if name == "mktemp":
        return None
    for index, word in operands:
        if cmd.is_dynamic(index):
            return Finding(
                "dynamic-path",
                "ask",
                f"{name} changes {word!r}, a path only known when the line runs; a human must "
                "confirm, or name the path literally",
            )
        if not inside(word, ctx):
            return outside(word, name)
        if name in ("chmod",) and (
            flags & {"s"} or re.search(r"[0-7]?[4-7][0-7]{3}|\+s|u\+s|g\+s", " ".join(cmd.args()))
        ):
            return unknown_program("chmod setuid", " (it lets a program run as its owner)")
    return None


# Where the system and its package managers install programs (only root writes there).
def foreign_program(cmd: Cmd, ctx: Context) -> bool:
    """A program run from a file outside the workspace and the system's program folders."""
    return is_script(cmd) and not paths.in_workspace(ctx.resolve(cmd.argv[0]), ctx.workspace)


def _project(cmd: Cmd, ctx: Context) -> Finding | None:
    if foreign_program(cmd, ctx):
        return Finding(
            "script-outside",
            "ask",
            f"runs {cmd.argv[0]}, a program outside the workspace; a human must confirm, or "
            "copy it into the workspace and read it first",
        )
    if cmd.name in ("gdb", "lldb") and (
        {"-p", "--pid", "attach"} & set(cmd.args())
        or any(a.startswith("--pid=") for a in cmd.args())
    ):
        return unknown_program(f"{cmd.name} -p", " (it attaches to a running process and "
                               "reads its memory)")  # fmt: skip
    if cmd.name == "rails" and any(a.startswith(("credentials:", "secrets:")) for a in cmd.args()):
        return unknown_program("rails credentials", " (it decrypts the app's secrets)")
    if cmd.name == "tflint" and any(a.startswith("--init") for a in cmd.args()):
        return unknown_program("tflint --init", " (it downloads plugins, which are programs)")
    if (
        cmd.name in ("make", "gmake")
        and {"install", "uninstall"} & set(cmd.args())
        and not (system.simulated(cmd) or _staged_inside(cmd, ctx))
    ):
        return Finding(
            "install-outside",
            "ask",
            "make install copies files into system or user directories outside the "
            "workspace; a human must confirm",
        )
    loaded = project_inputs.foreign_input(cmd, ctx)
    if loaded is not None:
        return loaded  # gradle -I /tmp/init.gradle, make -C /tmp/x, java -jar /tmp/x.jar
    if cmd.name in _REWRITERS:
        _, operands = parse_flags(cmd.args())
        args = cmd.args()
        for index, word in operands:
            if index > 1 and args[index - 2] in _REWRITER_VALUES:
                continue  # --config ~/.eslintrc.js: a setting read, not a file rewritten
            if cmd.is_dynamic(index) or not inside(word, ctx):
                return outside(word, cmd.name)  # black ~/notes.py: formats a file out there
    return None


# Project tools that rewrite the files they are given (formatters, fixers).
_REWRITERS = frozenset({"black", "isort", "ruff", "prettier", "eslint", "rustfmt", "gofmt",
                        "shfmt", "clang-format", "biome", "stylelint", "autopep8", "yapf",
                        "markdownlint", "codespell", "sqlfluff"})  # fmt: skip
# Their options that take a value (a settings file, a pattern, a format): not files rewritten.
_REWRITER_VALUES = frozenset({"--config", "-c", "--settings-path", "--settings-file", "--sp",
                              "--config-path", "--rcfile", "--ignore-path", "--stdin-filename",
                              "--stdin-filepath", "--cache-location", "--output-file", "-o",
                              "--format", "-f", "--line-length", "-l", "--target-version",
                              "-t", "--exclude", "--extend-exclude", "--include", "--select",
                              "--ignore", "--extend-select", "--plugin", "--parser", "--style",
                              "--ext", "--rule", "--dialect", "--skip", "-S", "-L",
                              "--ignore-words-list", "--resolve-plugins-relative-to"})  # fmt: skip


def _interpreter(cmd: Cmd, ctx: Context) -> Finding | None:
    """python/node/perl…: inline code was analysed already; a script must be in the workspace."""
    args = cmd.args()
    if _syntax_check(cmd):
        return None  # zsh -n ~/.zshrc: read and parsed, nothing run
    for index, word in enumerate(args, start=1):
        if word in ("-c", "-e", "-E", "-r", "--eval", "-p", "--print", "-m", "-"):
            return None
        if not is_python(cmd.name) and re.fullmatch(r"-[a-zA-Z]*[eE]", word):
            return None  # perl -pe CODE: the code was analysed already
        if word.startswith("-"):
            continue
        if word in ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"):
            return None  # the program is the input, analysed already
        if ctx.resolve(word) in ctx.scripts:
            return None  # a script the line wrote: its text was analysed already
        if cmd.is_dynamic(index):
            return Finding(
                "dynamic-script",
                "ask",
                f"{cmd.name} runs a script whose path is only known at run time; a human must "
                "confirm, or name the script literally",
            )
        if not paths.in_workspace(ctx.resolve(word), ctx.workspace):
            return Finding(
                "script-outside",
                "ask",
                f"{cmd.name} runs {word}, a script outside the workspace; a human must "
                "confirm, or copy it into the workspace and read it first",
            )
        return None
    return None


_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})


def _syntax_check(cmd: Cmd) -> bool:
    """``bash -n FILE``, ``zsh -n ~/.zshrc``: the shell reads the file and checks its syntax
    without running a command of it (``-n`` is set before any startup file is read)."""
    flags = [a for a in cmd.args() if a.startswith("-")]
    files = [a for a in cmd.args() if not a.startswith("-")]
    return (
        cmd.name in _SHELLS
        and "-n" in flags
        and set(flags) <= {"-n", "--"}
        and len(files) == 1
        and not any(cmd.dynamic)
    )


def _staged_inside(cmd: Cmd, ctx: Context) -> bool:
    """``make install DESTDIR=./staging``, ``PREFIX=$PWD/dist``: installed into the workspace
    (DESTDIR is put before every path; PREFIX alone is where everything goes)."""
    staged = re.compile(r"(DESTDIR|PREFIX|prefix)=.+")
    values = dict(a.split("=", 1) for i, a in enumerate(cmd.args(), 1)
                  if staged.fullmatch(a) and not cmd.is_dynamic(i))  # fmt: skip
    place = values.get("DESTDIR") or values.get("PREFIX") or values.get("prefix")
    return (
        place is not None
        and inside(place, ctx)
        and paths.in_workspace(ctx.resolve(place), ctx.workspace)
    )


def _package_runner(cmd: Cmd, ctx: Context) -> Finding | None:
    return known_runners.package_runner(cmd, ctx, vouch)


def _tool_runner(cmd: Cmd, ctx: Context) -> Finding | None:
    return known_runners.tool_runner(cmd, ctx, vouch)


def _network_client(cmd: Cmd, ctx: Context) -> Finding | None:
    return None  # judged by the network rules: they ask unless the host is this machine


_SPECIAL: dict[str, Callable[[Cmd, Context], Finding | None]] = {
    **{
        n: _interpreter
        for n in (
            "python",
            "python3",
            "python2",
            "pypy",
            "pypy3",
            "node",
            "nodejs",
            "perl",
            "ruby",
            "php",
            "lua",
            "luajit",
            "Rscript",
            "julia",
            "bash",
            "sh",
            "zsh",
            "dash",
            "ksh",
            "fish",
            "tclsh",
            "groovy",
            "scala",
            "kotlin",
            "ts-node",
            "tsx",
            "busybox",
        )
    },
    **{
        n: _network_client
        for n in (
            "curl",
            "wget",
            "http",
            "https",
            "xh",
            "ping",
            "ping6",
            "dig",
            "nslookup",
            "host",
            "traceroute",
            "tracepath",
            "mtr",
            "whois",
        )
    },
    **{n: _package_runner for n in ("npx", "bunx")},
    **{n: _tool_runner for n in ("uvx", "pipx")},
    **{n: clones.gh_clone for n in ("gh", "glab")},  # forge reads pass, the rest the network asks
    "ssh": _network_client,  # ssh -G only prints its settings; any other call asks as network
    "socat": _network_client,  # a relay between two loopback ends; the rest asks as network
    "cpio": known_archives.cpio,
    **known_tools.VOUCHERS,
    **platform_reads.VOUCHERS,
    **known_data.VOUCHERS,
    **known_services.VOUCHERS,
    **headless.VOUCHERS,
    **clipboard.VOUCHERS,
    **miller.VOUCHERS,
    **documents.VOUCHERS,
    **scanners.VOUCHERS,
    **resources.VOUCHERS,
    **toolchains.VOUCHERS,
    **host_state.VOUCHERS,
    **data_tools.VOUCHERS,
    **data_clouds.VOUCHERS,
    **notebooks.VOUCHERS,
    **macos_reads.VOUCHERS,
    **remote_reads.VOUCHERS,
    **attack_targets.VOUCHERS,
    **security_tools.VOUCHERS,
    **app_platforms.VOUCHERS,
    **mobile_tools.VOUCHERS,
    **domains.VOUCHERS,
}


def is_python(name: str) -> bool:
    return re.match(r"^(python|pypy)[0-9.]*$", name) is not None
