"""The entry point of the rules: :func:`check` judges one command by routing it to its family.

It unwraps ``sudo``/``env``/…, judges output redirections, remembers ``cd`` and downloads in
the context, and looks the command name up in the families' ``HANDLERS`` tables. A command
name written as a glob is judged as each known program it matches. ``find -exec``/``-delete``,
``fd -x`` and ``xargs`` are :mod:`~workset.safety.rules.finders`: the commands they run come
back as commands, judged in turn.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import re

from workset.safety import paths
from workset.safety.rules import (
    agent_files,
    build_files,
    clones,
    confinement,
    credentials,
    installs,
    key_names,
    known,
    persistence,
    powershell,
    resources,
    secrets,
    servers,
    windows,
)
from workset.safety.rules.admin_reads import home_tool
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Nested,
    Result,
    option_values,
    parse_flags,
)
from workset.safety.rules.forge_reads import forge_read
from workset.safety.rules.handlers import HANDLERS, KNOWN_NAMES
from workset.safety.rules.interpreters import OTHER_INTERPRETERS, PYTHON, interpreter
from workset.safety.rules.known_lists import HELP
from workset.safety.rules.network import (
    DOWNLOADERS,
    NETWORK,
    download_exec,
    download_targets,
    fetch_and_run,
    local_only,
    remote_socket,
    reverse_shell,
    uploads,
)
from workset.safety.rules.public_reads import public_read
from workset.safety.rules.remote_reads import remote_pull, remote_read
from workset.safety.rules.static import static_output
from workset.safety.rules.toolchain_names import as_host_tool
from workset.safety.rules.wrappers import unwrap
from workset.safety.rules.writes import (
    MKFS,
    WRITING_REDIRECTS,
    in_place,
    in_place_files,
    mkfs,
    symlink,
    write_target,
)
from workset.safety.unicode_fold import fold


def check(cmd: Cmd, ctx: Context) -> list[Result]:
    """Every finding about ``cmd`` (after unwrapping ``sudo``, ``env``, ``nohup`` and kin).

    The families find what is dangerous; when none of them has anything to say, the command
    still has to earn its way: :func:`~workset.safety.rules.known.vouch` asks unless it is
    shown to be read-only or confined to the workspace.
    """
    out: list[Result] = []
    written = cmd
    cmd = unwrap(cmd, out)
    if not cmd.argv and written.redirects:
        cmd = written.with_argv(["exec"])  # "exec 3<>/dev/tcp/…": redirections of the shell
    if not cmd.argv:
        return out
    cmd = as_host_tool(program_behind(cmd, ctx))  # arm-none-eabi-gcc is gcc, gcc-12 too
    if windows.windows_name(cmd.name) != cmd.name:  # git.exe, powershell.exe from WSL
        cmd = cmd.with_argv([windows.windows_name(cmd.name), *cmd.args()])
    if cmd.name in ("rimraf", "del-cli"):  # node's rm -rf, with globs
        cmd = _as_rm(cmd)
    if (
        cmd.args()
        and all(a in HELP for a in cmd.args())
        and not cmd.redirects
        and not known.foreign_program(cmd, ctx)  # /tmp/x --help runs /tmp/x
        and not _fetched_program(cmd, ctx)  # ./tool --version runs what the line downloaded
    ):
        return out  # "nc -h", "docker --version": only prints help
    globbed = _globbed_names(cmd)
    if globbed is not None:  # /bin/r? -rf ~: bash runs whatever the pattern matches
        out.append(globbed[0])
        for name in globbed[1]:
            out.extend(check(cmd.with_argv([name, *cmd.args()]), ctx))
        return out
    if cmd.is_dynamic(0):
        out.append(
            Finding(
                "dynamic-command",
                "ask",
                f"the command name {cmd.argv[0]!r} is computed when the line runs, so what "
                "it does cannot be checked; write the command name literally",
            )
        )
    disguised = next((a for a in cmd.args() if _PATH_SIGNS & set(fold(a)) - set(a)), None)
    disguised = None if cmd.name in _TEXT_ONLY else disguised
    if disguised is not None:  # rm -rf ～: a full-width tilde is a file of that name to bash
        out.append(
            Finding(
                "lookalike-path",
                "ask",
                f"{disguised!r} is written with look-alike characters for ~ or /, so the place "
                "it names is not the one it shows; write the path in plain ASCII",
            )
        )
    for index, (op, target) in enumerate(cmd.redirects):
        if op in WRITING_REDIRECTS and not target.isdigit() and target != "-":
            text = static_output((dataclasses.replace(cmd, redirects=()),))
            found = write_target(target, f"redirection {op}", ctx, text_judged=True,
                                 appended=text if op == ">>" else None)  # fmt: skip
            plain = op in (">", ">|") and agent_files.plain_tasks(ctx.resolve(target), text)
            out.extend(f for f in found if not (plain and f.rule == "write-agent-config"))
            if not _socket(target) and not known.inside(target, ctx):
                out.append(known.outside(target))
            elif (
                index < len(cmd.redirect_dynamic)
                and cmd.redirect_dynamic[index]
                and not _named_in_workspace(target)
            ):
                out.append(_dynamic_target(op, target))
    name = cmd.name
    if cmd.argv[0] in ctx.downloaded or _under_download(ctx.resolve(cmd.argv[0]), ctx):
        out.append(download_exec(f"runs {cmd.argv[0]}, which this line downloaded"))
    elif "/" in cmd.argv[0] and ctx.resolve(cmd.argv[0]) in ctx.scripts:
        out.append(Nested(ctx.scripts[ctx.resolve(cmd.argv[0])]))  # ./x.sh the line wrote
    fetched = clones.runs_clone(cmd, ctx)
    if fetched is not None:
        out.append(fetched)
    if name == "rm":
        ctx.removed.update(ctx.resolve(w) for i, w in enumerate(cmd.args(), 1)
                           if not w.startswith("-") and not cmd.is_dynamic(i))  # fmt: skip
    if name in ("cd", "pushd", "popd"):
        ctx.cwd = _new_cwd(cmd, ctx)
    if name in ("source", ".", "deactivate"):
        ctx.venv = _activated(cmd, ctx)
    for handler in HANDLERS.get(name, ()):
        out.extend(handler(cmd, ctx))
    if name.startswith(credentials.HELPER_PREFIXES):
        out.extend(credentials.printer(cmd, ctx))
    if credentials.dumper_name(name):  # impacket-secretsdump, GetUserSPNs.py, mimikatz.exe
        out.extend(credentials.dumper(cmd, ctx))
    out.extend(in_place(cmd, ctx))
    out.extend(servers.serving(cmd, ctx))
    out.extend(fetch_and_run(cmd))
    out.extend(persistence.persisted_code(cmd, ctx))
    out.extend(resources.exhaustion(cmd, ctx))
    hidden = resources.disguised(written)
    if hidden is not None:
        out.append(hidden)
    out.extend(build_files.build_code(cmd, ctx))
    if MKFS.match(name):
        out.extend(mkfs(cmd, ctx))
    elif (PYTHON.match(name) or name in OTHER_INTERPRETERS) and (
        name != "bun" or OTHER_INTERPRETERS[name] in cmd.args()
    ):  # bun's words are its subcommands (bun init, judged by its own rule); bun -e CODE is code
        out.extend(interpreter(cmd, ctx))
    shell = reverse_shell(cmd, ctx)
    if shell is not None:
        out.append(shell)
    out.extend(secrets.environment_searched(cmd, ctx))
    read = secrets.secret_words(cmd, ctx)
    loaded = name in ("source", ".") or (  # set -a; source .env.test: loaded, not printed
        bool(read) and set(read) <= set(_env_files(cmd))  # compose --env-file .env.test up
    )
    if read and not (
        (key_names.names_only(cmd) or loaded) and all(known.inside(w, ctx) for w in read)
    ):
        out.append(secrets.judge_read(cmd, ctx, read))
    offline = name == "openssl" and not set(cmd.args()[:1]) & _OPENSSL_NETWORK
    page = name in NETWORK and (public_read(cmd) or remote_read(cmd) or remote_pull(cmd, ctx))
    ctx.requests += page
    if (name in NETWORK and not (local_only(cmd) or offline or forge_read(cmd) or page)) or any(
        remote_socket(t) for _, t in cmd.redirects
    ):
        out.append(
            Finding(
                "network",
                "ask",
                f"{name} contacts the network; confirm the host, or use a tool that fetches "
                "into the workspace",
            )
        )
        if uploads(cmd):
            out.append(
                Finding(
                    "upload",
                    "ask",
                    f"{name} sends local data to another host; confirm what is sent and where",
                )
            )
    saved = {t for op, t in cmd.redirects if op in WRITING_REDIRECTS} if forge_read(cmd) else set()
    if name in DOWNLOADERS or saved:  # gh gist view ID > x.sh: it saves what it fetched
        targets = saved or download_targets(cmd, ctx)
        ctx.downloaded.update(targets)
        for target in sorted(t for t in targets if t not in (".", "-") and not t.startswith("./")):
            if not saved:  # a redirection is judged as one already
                saved_out = list(write_target(target, f"{name} -o", ctx))  # curl -o ~/.ssh/…
                if not saved_out and not confinement.inside(target, ctx):
                    saved_out.append(confinement.outside(target, f"{name} -o"))  # -o ~/x.txt
                out.extend(saved_out)
            place = ctx.resolve(target)
            if (
                persistence.is_persistence_place(place)
                or paths.is_startup_file(place)
                or installs.on_path(place)
                or installs.runs_by_itself(place)
            ):
                out.append(download_exec(f"{name} saves a download as {target}, which runs later"))
    if powershell.typed_cmdlet(cmd.argv[0]) and name not in KNOWN_NAMES:
        out.extend(powershell.analyse(" ".join(cmd.argv)))  # Get-Service | Where-Object …
    elif not any(isinstance(r, Finding) for r in out):
        vouched = known.vouch(cmd, ctx)
        if vouched is not None:
            out.append(vouched)
    elif not any(isinstance(r, Finding) and r.severity == "deny" for r in out):
        vouched = known.vouch(cmd, ctx)  # sudo borg delete: a wrapper's ask hides no denial
        if vouched is not None and vouched.severity == "deny":
            out.append(vouched)
    if name == "ln":
        out.extend(symlink(cmd, ctx))  # last: the link is judged as written, then followed
    changed = {ctx.resolve(w) for w in _writes(cmd)}
    ctx.written.update(changed)
    ctx.tightened -= changed  # written again: no longer only the rules an edit added
    _remember_copy(cmd, ctx)
    clones.remember_unpacked_download(cmd, ctx, DOWNLOADERS)
    agent_files.remember_tightening(cmd, ctx)
    return out


_SYSTEM_BIN = re.compile(r"^/(usr/(local/)?)?s?bin/[^/]+$")


def program_behind(cmd: Cmd, ctx: Context) -> Cmd:
    """``./del`` after ``cp /bin/rm ./del`` (or ``ln -s /bin/rm ./del``) is ``rm``: a system
    program copied or linked under another name is judged by what it is."""
    if "/" not in cmd.argv[0] or cmd.is_dynamic(0):
        return cmd
    place = ctx.resolve(cmd.argv[0])
    name = ctx.programs.get(place) or (place.rsplit("/", 1)[-1] if _SYSTEM_BIN.match(place)
                                       and place != cmd.argv[0] else None)  # fmt: skip
    name = name or home_tool(place, ctx)  # ~/.acme.sh/acme.sh, ~/.cargo/bin/cargo
    return cmd.with_argv([name, *cmd.args()]) if name else cmd


def _as_rm(cmd: Cmd) -> Cmd:
    kept = [i for i, a in enumerate(cmd.argv) if i and not a.startswith("-")]
    return dataclasses.replace(
        cmd,
        argv=("rm", "-rf", *(cmd.argv[i] for i in kept)),
        dynamic=(False, False, *(cmd.is_dynamic(i) for i in kept)),
        inner=((), (), *(cmd.inner_of(i) for i in kept)),
        process=(False, False, *(i < len(cmd.process) and cmd.process[i] for i in kept)),
    )


# What a target's run-time parts may be and still only name a file, not a place: numbers the
# shell keeps, and substitutions by programs that print a date, a hash or a plain name.
_NUMBERS = frozenset({"$", "RANDOM", "SECONDS", "EPOCHSECONDS", "BASHPID", "PPID", "UID"})
_NAME_PRINTERS = re.compile(
    r"^(date|basename|whoami|id|uname|hostname|nproc|git (rev-parse|describe|branch "
    r"--show-current)|git log -1 --format=%h)\b[^;&|<>`$()]*$"
)
_RUN_TIME_PART = re.compile(r"\$\(([^()]*)\)|`([^`]*)`|\$\{([^}]*)\}|\$(\w+|\$)")


def _named_in_workspace(target: str) -> bool:
    """``logs/test-$(date +%F).log``: a literal place in the workspace, whose run-time parts
    only fill in a name (a date, a commit hash, a number), so the file stays there."""
    if re.fullmatch(r"\$\{?GITHUB_(OUTPUT|STEP_SUMMARY)\}?", target):
        return True  # the CI step's own outputs and summary (not GITHUB_ENV/GITHUB_PATH)
    if target.startswith(("$", "`", "/", "~", "-")) or ".." in target:
        return False
    for match in _RUN_TIME_PART.finditer(target):
        command = match.group(1) if match.group(1) is not None else match.group(2)
        if command is not None and not _NAME_PRINTERS.match(command.strip()):
            return False
        name = match.group(3) or match.group(4)
        if name is not None and name not in _NUMBERS:
            return False
    return True


def _dynamic_target(op: str, target: str) -> Finding:
    return Finding(
        "dynamic-path",
        "ask",
        f"the redirection {op} writes {target!r}, a path only known when the line runs (it "
        "may name any file); a human must confirm, or name the file literally",
    )


def _fetched_program(cmd: Cmd, ctx: Context) -> bool:
    """The program is one this line downloaded, cloned, unpacked or wrote: asking it for its
    help or version still runs it."""
    place = ctx.resolve(cmd.argv[0])
    return (
        cmd.argv[0] in ctx.downloaded
        or _under_download(place, ctx)
        or ("/" in cmd.argv[0] and place in ctx.scripts)
        or clones.runs_clone(cmd, ctx) is not None
    )


def _remember_copy(cmd: Cmd, ctx: Context) -> None:
    """Where ``cp``/``install``/``mv`` put a copy of a system program (``/bin/rm``)."""
    _, operands = parse_flags(cmd.args())
    if cmd.name not in ("cp", "install", "mv") or len(operands) != 2 or any(cmd.dynamic):
        return
    source, target = ctx.resolve(operands[0][1]), ctx.resolve(operands[1][1])
    if _SYSTEM_BIN.match(source):
        name = source.rsplit("/", 1)[-1]
        ctx.programs[target] = name
        ctx.programs[target.rstrip("/") + "/" + name] = name  # cp /bin/rm ./tools/


def _writes(cmd: Cmd) -> list[str]:
    """The files ``cmd`` writes whose text the rules do not see (for later commands)."""
    out = [t for op, t in cmd.redirects if op in WRITING_REDIRECTS and not t.isdigit()]
    out.extend(in_place_files(cmd))
    _, operands = parse_flags(cmd.args())
    if cmd.name in ("cp", "mv", "install", "ln", "rsync", "ditto", "dd") and operands:
        out.append(operands[-1][1])
    elif cmd.name == "tee":
        out.extend(w for _, w in operands)
    return out


_OPENSSL_NETWORK = frozenset({"s_client", "s_server", "s_time", "ocsp"})


_PATH_SIGNS = frozenset("~/.*")
_TEXT_ONLY = frozenset({"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "sed", "awk"})
_NAME_GLOB = re.compile(r"[*?\[]")


def _globbed_names(cmd: Cmd) -> tuple[Finding, list[str]] | None:
    """A command name written as a glob (``/bin/r?``, ``/usr/bin/[r]m``): the finding that it
    asks, and the known programs it may match, each judged as if written out."""
    name = cmd.name
    if cmd.is_dynamic(0) or not _NAME_GLOB.search(name):
        return None
    matches = sorted(n for n in KNOWN_NAMES if fnmatch.fnmatchcase(n, name))
    return (
        Finding(
            "glob-command",
            "ask",
            f"the command name {cmd.argv[0]!r} is a pattern, so which program runs depends on "
            "the files present; write the program's name",
        ),
        matches[:8],
    )


def _new_cwd(cmd: Cmd, ctx: Context) -> str | None:
    """Where ``cd``/``pushd``/``popd`` leads: a directory only known at run time (``cd
    "$X"``, ``cd -``, ``popd``) is :data:`~workset.safety.paths.UNKNOWN_DIR`, so that the
    relative paths after it are not taken for the workspace's."""
    index, target = next(
        ((i, w) for i, w in enumerate(cmd.argv[1:], 1) if w not in ("-L", "-P", "-e", "--")),
        (0, "~"),
    )
    if cmd.name == "popd" or target == "-" or (index and cmd.is_dynamic(index)):
        return paths.UNKNOWN_DIR
    where = ctx.resolve(target)
    return None if ctx.workspace and where == paths.normalize(ctx.workspace) else where


def _activated(cmd: Cmd, ctx: Context) -> str:
    """The workspace virtualenv ``source .venv/bin/activate`` puts first on the PATH."""
    script = cmd.args()[0] if cmd.args() and not cmd.is_dynamic(1) else ""
    place = ctx.resolve(script)
    inside = paths.in_workspace(place, ctx.workspace) and place.endswith("/bin/activate")
    return place.removesuffix("/bin/activate") if inside else ""


def _socket(target: str) -> bool:
    return target.startswith(("/dev/tcp/", "/dev/udp/"))


def _under_download(place: str, ctx: Context) -> bool:
    """``place`` was downloaded by the line, or lies in a folder a download filled."""
    return place in ctx.downloaded or any(
        place.startswith(d.removeprefix("./").rstrip("/") + "/")
        for d in ctx.downloaded
        if d.strip("./")
    )


def _env_files(cmd: Cmd) -> list[str]:
    """Files a tool loads as the environment of what it runs, without printing them:
    ``docker compose --env-file F``, ``docker run --env-file F``, ``dotenv -e F -- CMD``,
    ``env-cmd -f F CMD``."""
    args = cmd.args()
    if "config" in args:
        return []  # docker compose config prints the values it substituted
    options = {"docker": ("--env-file",), "podman": ("--env-file",), "dotenv": ("-e",),
               "env-cmd": ("-f", "--file")}.get(cmd.name, ())  # fmt: skip
    return option_values(args, options)
