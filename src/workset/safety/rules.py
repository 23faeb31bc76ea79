"""The command rules: one resolved simple command in, findings (or code to analyse) out.

:mod:`workset.safety.commands` parses and normalises; this module only judges. Every deny
explanation says why the command is refused and what to do instead, because it becomes the
tool error the model reads.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from workset.safety import paths

Severity: TypeAlias = Literal["deny", "ask"]


@dataclass(frozen=True, slots=True)
class Finding:
    rule: str
    severity: Severity
    explanation: str


@dataclass(frozen=True, slots=True)
class Nested:
    """Code that the command would run, to be analysed in turn."""

    code: str
    language: Literal["shell", "python"] = "shell"


@dataclass(frozen=True, slots=True)
class Cmd:
    """One simple command with everything the rules need to know about its words."""

    argv: tuple[str, ...]
    dynamic: tuple[bool, ...] = ()
    inner: tuple[tuple[Cmd, ...], ...] = ()  # commands run by substitutions in each word
    process: tuple[bool, ...] = ()  # the word is a process substitution <(…)
    redirects: tuple[tuple[str, str], ...] = ()
    upstream: tuple[Cmd, ...] = ()  # earlier stages of the same pipeline
    piped: bool = False
    background: bool = False

    @property
    def name(self) -> str:
        return self.argv[0].rsplit("/", 1)[-1] if self.argv else ""

    def args(self) -> tuple[str, ...]:
        return self.argv[1:]

    def shifted(self, start: int) -> Cmd:
        """The command that starts at word ``start`` (after a wrapper such as ``sudo``)."""
        return dataclasses.replace(
            self,
            argv=self.argv[start:],
            dynamic=self.dynamic[start:],
            inner=self.inner[start:],
            process=self.process[start:],
        )

    def with_argv(self, argv: Sequence[str]) -> Cmd:
        n = len(argv)
        return dataclasses.replace(
            self,
            argv=tuple(argv),
            dynamic=(self.dynamic + (False,) * n)[:n],
            inner=(self.inner + ((),) * n)[:n],
            process=(self.process + (False,) * n)[:n],
        )

    def is_dynamic(self, index: int) -> bool:
        return index < len(self.dynamic) and self.dynamic[index]

    def inner_of(self, index: int) -> tuple[Cmd, ...]:
        return self.inner[index] if index < len(self.inner) else ()


@dataclass
class Context:
    """What the rules know beyond one command: the workspace, and files downloaded so far."""

    workspace: str | None = None
    downloaded: set[str] = field(default_factory=set)
    cwd: str | None = None  # after a ``cd``; None is the workspace

    def resolve(self, word: str) -> str:
        return paths.join(self.cwd, word)


Result: TypeAlias = Finding | Nested

DOWNLOADERS = frozenset({"curl", "wget", "fetch", "aria2c", "http", "https", "lwp-request"})
NETWORK = frozenset(
    {
        "curl",
        "wget",
        "ssh",
        "scp",
        "sftp",
        "nc",
        "ncat",
        "netcat",
        "telnet",
        "ftp",
        "socat",
        "aria2c",
        "fetch",
        "http",
        "https",
    }
)
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox"})
_PYTHON = re.compile(r"^(python|pypy)[0-9.]*$")
_OTHER_INTERPRETERS = {"perl": "-e", "ruby": "-e", "node": "-e", "php": "-r", "lua": "-e"}
DELETERS = frozenset({"rm", "shred", "unlink", "rmdir", "srm"})
_WRITING_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", ">&"})
_RANDOM_SOURCES = frozenset({"/dev/zero", "/dev/urandom", "/dev/random"})
_FORK_CODE = re.compile(r"fork\s*(\(\s*\))?\s*(while|;|\))|while.{0,40}fork", re.DOTALL)
_EXEC_STRINGS = re.compile(
    r"(?:system|exec|execSync|spawnSync|popen|shell_exec|passthru|`)\s*\(?\s*(['\"])(.+?)\1"
)
_MKFS = re.compile(r"^(mkfs(\.\w+)?|mke2fs|mkdosfs|mkntfs)$")
_HOST_ARG = re.compile(r"^([\w.-]+@)?[\w.-]+:")


def check(cmd: Cmd, ctx: Context) -> list[Result]:
    """Every finding about ``cmd`` (after unwrapping ``sudo``, ``env``, ``nohup`` and kin)."""
    out: list[Result] = []
    cmd = _unwrap(cmd, out)
    if not cmd.argv:
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
    for op, target in cmd.redirects:
        if op in _WRITING_REDIRECTS and not target.isdigit() and target != "-":
            out.extend(_write_target(target, f"redirection {op}", ctx))
    name = cmd.name
    if cmd.argv[0] in ctx.downloaded or ctx.resolve(cmd.argv[0]) in ctx.downloaded:
        out.append(_download_exec(f"runs {cmd.argv[0]}, which this line downloaded"))
    if name in ("cd", "pushd"):
        target = cmd.argv[1] if len(cmd.argv) > 1 else "~"
        ctx.cwd = None if cmd.is_dynamic(1) or target == "-" else ctx.resolve(target)
    handler = _HANDLERS.get(name)
    if handler is not None:
        out.extend(handler(cmd, ctx))
    elif _MKFS.match(name):
        out.extend(_mkfs(cmd, ctx))
    elif _PYTHON.match(name) or name in _OTHER_INTERPRETERS:
        out.extend(_interpreter(cmd, ctx))
    if name in NETWORK:
        out.append(
            Finding(
                "network",
                "ask",
                f"{name} contacts the network; confirm the host, or use a tool that fetches "
                "into the workspace",
            )
        )
    if name in DOWNLOADERS:
        ctx.downloaded.update(_download_targets(cmd, ctx))
    return out


# wrappers --------------------------------------------------------------------------------


def _unwrap(cmd: Cmd, out: list[Result]) -> Cmd:
    """Strip command wrappers, keeping what they say about privilege."""
    while cmd.argv:
        name, args = cmd.name, cmd.args()
        if name in ("sudo", "doas"):
            out.append(_sudo(name))
            cmd = cmd.shifted(1 + _skip_options(args, "ugCDhpRrtUT"))
        elif name == "su":
            out.append(_sudo(name))
            if "-c" in args and args.index("-c") + 1 < len(args):
                out.append(Nested(args[args.index("-c") + 1]))
            return cmd.shifted(len(cmd.argv))
        elif name == "env":
            start = 1
            while start < len(cmd.argv) and (
                cmd.argv[start].startswith("-") or "=" in cmd.argv[start]
            ):
                start += 2 if cmd.argv[start] in ("-u", "-C", "-S") else 1
            cmd = cmd.shifted(start)
        elif name in (
            "nohup",
            "command",
            "builtin",
            "exec",
            "time",
            "nice",
            "ionice",
            "stdbuf",
            "chrt",
            "setsid",
            "unbuffer",
            "caffeinate",
        ):
            cmd = cmd.shifted(1 + _skip_options(args, "npcsoeiIt"))
        elif name == "timeout":
            start = 1 + _skip_options(args, "sk")
            cmd = cmd.shifted(start + 1)  # the duration
        elif name == "busybox" and len(cmd.argv) > 1:
            cmd = cmd.shifted(1)
        else:
            return cmd
    return cmd


def _skip_options(args: Sequence[str], with_value: str) -> int:
    """How many leading option words ``args`` has (``-u root`` counts as two)."""
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] != "-":
        word = args[index]
        index += 1
        if word == "--":
            break
        if len(word) == 2 and word[1] in with_value and not word.startswith("--"):
            index += 1
        if word[1:].isdigit():  # nice -10
            continue
    return index


def _sudo(name: str) -> Finding:
    return Finding(
        "sudo",
        "ask",
        f"{name} runs the command with administrator rights; a human must confirm, or do the "
        "work without elevated privileges inside the workspace",
    )


# deletion --------------------------------------------------------------------------------


def _flags(args: Sequence[str]) -> tuple[set[str], list[tuple[int, str]]]:
    """Short flags (as letters) and long flags (``--x``), and the operands with their index."""
    flags: set[str] = set()
    operands: list[tuple[int, str]] = []
    only_operands = False
    for index, word in enumerate(args, start=1):
        if only_operands or not word.startswith("-") or word == "-":
            operands.append((index, word))
        elif word == "--":
            only_operands = True
        elif word.startswith("--"):
            flags.add(word.split("=", 1)[0])
        else:
            flags.update(word[1:])
    return flags, operands


def _rm(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    flags, operands = _flags(cmd.args())
    recursive = bool(flags & {"r", "R", "--recursive"})
    if "--no-preserve-root" in flags:
        yield Finding(
            "rm-no-preserve-root",
            "deny",
            "--no-preserve-root exists only to let rm delete the whole filesystem; name the "
            "directory inside the workspace you mean to delete instead",
        )
    asked = False
    for index, word in operands:
        path = ctx.resolve(word)
        if recursive and paths.is_protected(path):
            yield _protected_delete(word, path)
        elif paths.is_sensitive(path):
            yield _sensitive(word)
        elif recursive and not asked:
            asked = True
            unknown = (
                " (a variable in the path is unknown here: if it is empty the path changes meaning)"
                if cmd.is_dynamic(index)
                else ""
            )
            place = (
                "a path only known at run time"
                if unknown
                else "inside the workspace"
                if paths.in_workspace(path, ctx.workspace)
                else "outside the workspace"
            )
            yield Finding(
                "rm-recursive",
                "ask",
                f"recursive delete of {word!r} ({place}){unknown}; a human must "
                "confirm, or delete the specific files you created",
            )
        elif not recursive and paths.is_system(path):
            yield _system_write(word)


def _protected_delete(word: str, path: str) -> Finding:
    return Finding(
        "rm-recursive-protected",
        "deny",
        f"recursive delete of {word!r} (resolves to {path}) would destroy the system or the "
        "user's home; delete only paths inside the workspace, named explicitly",
    )


def _mv(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    _, operands = _flags(cmd.args())
    if len(operands) < 2:
        return
    for _, word in operands[:-1]:
        if paths.is_protected(ctx.resolve(word)):
            yield Finding(
                "move-protected",
                "deny",
                f"moving {word!r} away removes a system or home directory; move only files "
                "inside the workspace",
            )
    yield from _write_target(operands[-1][1], cmd.name, ctx)


def _find(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    roots: list[str] = []
    index = 0
    while index < len(args) and not args[index].startswith(("-", "(", "!")):
        roots.append(args[index])
        index += 1
    roots = roots or ["."]
    expression = args[index:]
    deletes = "-delete" in expression
    execs: list[list[str]] = []
    current: list[str] | None = None
    for word in expression:
        if current is None and word in ("-exec", "-execdir", "-ok", "-okdir"):
            current = []
        elif current is not None and word in (";", "\\;", "+"):
            execs.append(current)
            current = None
        elif current is not None:
            current.append(word)
    if current:
        execs.append(current)
    deletes = deletes or any(
        DELETERS & {w.rsplit("/", 1)[-1] for w in " ".join(e).split()} for e in execs
    )
    protected = [r for r in roots if paths.is_protected(ctx.resolve(r))]
    if deletes and protected:
        yield Finding(
            "find-delete-protected",
            "deny",
            f"find over {protected[0]!r} that deletes what it finds can wipe the system; run "
            "find inside the workspace (find . …) instead",
        )
    elif "-delete" in expression and not any(
        w in expression for w in ("-name", "-iname", "-path", "-ipath", "-regex", "-iregex")
    ):
        yield Finding(
            "find-delete",
            "ask",
            "find -delete without a -name/-path filter deletes everything under "
            f"{roots[0]!r}; add a filter or confirm",
        )
    for words in execs:
        if words:
            inner = cmd.with_argv([roots[0] if w == "{}" else w for w in words])
            yield from check(dataclasses.replace(inner, redirects=(), upstream=()), ctx)


def _xargs(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    start = 1 + _skip_options(cmd.args(), "IinLPdEsa")
    inner_argv = list(cmd.argv[start:]) or ["echo"]
    fed = static_output(cmd.upstream)
    if fed is not None:
        inner_argv.extend(fed.split())
    inner = dataclasses.replace(cmd.shifted(start).with_argv(inner_argv), redirects=())
    if inner.name in DELETERS and any(
        c.name == "find" and any(paths.is_protected(ctx.resolve(a)) for a in _find_roots(c))
        for c in cmd.upstream
    ):
        yield Finding(
            "find-delete-protected",
            "deny",
            "deleting what find lists over a system or home directory can wipe the machine; "
            "run find inside the workspace (find . …) instead",
        )
    yield from check(inner, ctx)


def _find_roots(cmd: Cmd) -> list[str]:
    roots = []
    for word in cmd.args():
        if word.startswith(("-", "(", "!")):
            break
        roots.append(word)
    return roots or ["."]


# writes ----------------------------------------------------------------------------------


def _write_target(word: str, via: str, ctx: Context) -> Iterator[Finding]:
    path = ctx.resolve(word)
    if paths.is_harmless_device(path):
        return
    if paths.is_block_device(path):
        yield Finding(
            "write-block-device",
            "deny",
            f"{via} writes straight to the device {word}, destroying its filesystem; write "
            "to a file in the workspace instead",
        )
    elif paths.is_sensitive(path):
        yield _sensitive(word)
    elif paths.is_system(path):
        yield _system_write(word)
    elif paths.is_startup_file(path):
        yield Finding(
            "write-startup-file",
            "ask",
            f"{via} changes {word}, which runs in every future shell; a human must confirm",
        )


def _sensitive(word: str) -> Finding:
    return Finding(
        "write-sensitive-file",
        "deny",
        f"changing {word} alters accounts or SSH keys and can lock people out or let strangers "
        "in; this is not something an agent does — ask the user to make the change",
    )


def _system_write(word: str) -> Finding:
    return Finding(
        "write-system-path",
        "ask",
        f"changes {word}, a system file outside the workspace; a human must confirm, or work "
        "on a copy inside the workspace",
    )


def _writers(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """cp, install, ln, tee, truncate, sed -i, chmod/chown/chgrp: check what they change."""
    flags, operands = _flags(cmd.args())
    name = cmd.name
    if name in ("cp", "install", "ln") and len(operands) >= 2:
        yield from _write_target(operands[-1][1], name, ctx)
    elif name in ("tee", "truncate") or (name == "sed" and ("i" in flags or "--in-place" in flags)):
        for _, word in operands:
            yield from _write_target(word, name, ctx)
    elif name in ("chmod", "chown", "chgrp"):
        recursive = bool(flags & {"R", "--recursive"})
        targets = operands[1:] if "--reference" not in flags else operands
        for _, word in targets:
            path = ctx.resolve(word)
            if path in ("/", "~") or (recursive and paths.is_protected(path)):
                yield Finding(
                    "chmod-recursive-protected",
                    "deny",
                    f"{name} {'-R ' if recursive else ''}on {word!r} changes who owns or may "
                    "use the whole system or home; change modes only of workspace files",
                )
            elif paths.is_sensitive(path):
                yield _sensitive(word)
            elif paths.is_system(path):
                yield _system_write(word)


def _dd(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    options = dict(a.split("=", 1) for a in cmd.args() if "=" in a)
    source = ctx.resolve(options.get("if", "-"))
    target_word = options.get("of")
    if target_word is None:
        return
    target = ctx.resolve(target_word)
    if paths.is_block_device(target) or paths.is_sensitive(target):
        yield from _write_target(target_word, "dd", ctx)
    elif source in _RANDOM_SOURCES and not paths.is_harmless_device(target):
        if paths.is_scratch(target):
            yield Finding(
                "dd-fill",
                "ask",
                f"dd fills {target_word} with {source}; confirm the size and the target",
            )
        elif not paths.in_workspace(target, ctx.workspace):
            yield Finding(
                "dd-wipe",
                "deny",
                f"dd from {source} over {target_word}, outside the workspace, overwrites data "
                "that cannot be recovered; write test images inside the workspace instead",
            )
    elif paths.is_system(target):
        yield _system_write(target_word)


def _mkfs(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    _, operands = _flags(cmd.args())
    devices = [w for _, w in operands if ctx.resolve(w).startswith("/dev/")]
    if devices or not operands:
        yield Finding(
            "format-device",
            "deny",
            f"{cmd.name} formats {devices[0] if devices else 'a device'}, erasing it; an agent "
            "never formats disks — build a filesystem image file inside the workspace instead",
        )
    else:
        yield Finding("format-image", "ask", f"{cmd.name} formats {operands[0][1]}; confirm")


def _shred(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    _, operands = _flags(cmd.args())
    for _, word in operands:
        if ctx.resolve(word).startswith("/dev/"):
            yield Finding(
                "shred-device",
                "deny",
                f"shred over the device {word} destroys everything on it; shred only files you "
                "created in the workspace",
            )
            return
    yield Finding("shred", "ask", "shred destroys file contents beyond recovery; confirm")


# processes and power -----------------------------------------------------------------------


def _power(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    name = cmd.name
    stops = (
        name in ("shutdown", "reboot", "halt", "poweroff")
        or (name in ("init", "telinit") and any(a in ("0", "6") for a in args))
        or (name == "systemctl" and any(a in ("poweroff", "reboot", "halt", "kexec") for a in args))
    )
    if stops:
        yield Finding(
            "power",
            "deny",
            f"{' '.join(cmd.argv)} stops or restarts the machine for everyone on it; an agent "
            "never does that — stop only the processes you started, by their id",
        )


def _kill(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = [a for a in cmd.args() if a != "--"]
    start = 0
    if args and args[0] in ("-s", "-n"):
        start = 2
    elif len(args) > 1 and args[0].startswith("-"):
        start = 1  # the signal: kill -9 …, kill -KILL …
    pids = args[start:]
    if cmd.name in ("killall", "killall5"):
        yield Finding(
            "killall",
            "deny",
            f"{cmd.name} kills processes by name, including ones the agent did not start; "
            "kill only your own processes, by their id",
        )
    elif any(p in ("1", "-1") for p in pids):
        yield Finding(
            "kill-init",
            "deny",
            "killing PID 1 (or -1, every process) takes the whole system down; kill only your "
            "own processes, by their id",
        )
    elif cmd.name == "pkill":
        yield Finding(
            "pkill",
            "ask",
            "pkill matches processes by name and may hit ones the agent did not start; "
            "prefer kill with the id of a process you started",
        )


# interpreters and downloads -------------------------------------------------------------


def _download_exec(what: str) -> Finding:
    return Finding(
        "download-exec",
        "deny",
        f"{what}: code fetched from the network runs unseen; download the file into the "
        "workspace, read it, then run it as a separate, reviewed step",
    )


def _downloads(cmds: Sequence[Cmd]) -> bool:
    return any(_unwrap(c, []).name in DOWNLOADERS | {"nc", "ncat", "netcat"} for c in cmds)


def _download_targets(cmd: Cmd, ctx: Context) -> set[str]:
    """Files a curl/wget call writes (to recognise ``curl -o x.sh …; sh x.sh``)."""
    out: set[str] = set()
    args = cmd.args()
    for index, word in enumerate(args):
        value = args[index + 1] if index + 1 < len(args) else ""
        if word in ("-o", "--output", "-O", "--output-document"):
            if not (cmd.name == "curl" and word == "-O"):
                out.add(value)
        elif word.startswith(("--output=", "--output-document=")):
            out.add(word.split("=", 1)[1])
    if (cmd.name == "wget" and not out) or (cmd.name == "curl" and ("-O" in args or "-LO" in args)):
        urls = [a for a in args if "://" in a]
        out.update(u.rstrip("/").rsplit("/", 1)[-1] for u in urls)
    out.update(t for op, t in cmd.redirects if op in (">", ">>"))
    return {w for w in out if w and w != "-"} | {ctx.resolve(w) for w in out if w}


def _interpreter(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """sh/bash/python/perl…: analyse the code they are given, wherever it comes from."""
    name = cmd.name
    language: Literal["shell", "python"] | None = (
        "shell"
        if name in SHELLS or name in ("source", ".")
        else "python"
        if _PYTHON.match(name)
        else None
    )
    code_flag = "-c" if language is not None else _OTHER_INTERPRETERS.get(name, "-e")
    args = cmd.args()
    code_index: int | None = None
    script_index: int | None = None
    for index, word in enumerate(args, start=1):
        if word == "--":
            continue
        short = word.startswith("-") and not word.startswith("--")
        if short and (word == code_flag or (language == "shell" and "c" in word[1:])):
            code_index = index + 1
            break
        if language == "python" and word == "-m":
            module = args[index] if index < len(args) else ""
            if module == "pip" and "install" in args:
                yield Finding(
                    "package-install",
                    "ask",
                    "installs Python packages; a human must confirm, or declare the "
                    "dependency in the project's configuration",
                )
            return
        if not word.startswith("-") or word == "-":
            script_index = index
            break
    if code_index is not None:
        yield from _code_argument(cmd, code_index, language)
        return
    if script_index is not None and cmd.argv[script_index] != "-":
        word = cmd.argv[script_index]
        if cmd.process[script_index] if script_index < len(cmd.process) else False:
            if _downloads(cmd.inner_of(script_index)):
                yield _download_exec(f"{name} runs a script straight from a download")
            elif language is not None:
                yield Finding(
                    "process-substitution-exec",
                    "ask",
                    f"{name} runs code produced by another command; confirm",
                )
        elif word in ctx.downloaded or ctx.resolve(word) in ctx.downloaded:
            yield _download_exec(f"{name} runs {word}, which this line downloaded")
        return
    yield from _stdin_program(cmd, ctx, language)


def _code_argument(
    cmd: Cmd, index: int, language: Literal["shell", "python"] | None
) -> Iterator[Result]:
    if index >= len(cmd.argv):
        return
    code = cmd.argv[index]
    if _downloads(cmd.inner_of(index)):
        yield _download_exec(f"{cmd.name} runs code produced by a download")
    elif cmd.is_dynamic(index):
        yield Finding(
            "dynamic-code",
            "ask",
            f"{cmd.name} runs code computed when the line runs, so it cannot be checked; "
            "write the code literally",
        )
    else:
        yield from _code(code, language)


def _code(code: str, language: Literal["shell", "python"] | None) -> Iterator[Result]:
    if language is not None:
        yield Nested(code, language)
        return
    if _FORK_CODE.search(code):
        yield fork_bomb("fork")
    for match in _EXEC_STRINGS.finditer(code):
        yield Nested(match.group(2))


def _stdin_program(
    cmd: Cmd, ctx: Context, language: Literal["shell", "python"] | None
) -> Iterator[Result]:
    """The interpreter reads its program from stdin: a heredoc, a file, or a pipe."""
    for op, target in cmd.redirects:
        if op == "<<":
            yield from _code(target, language)
            return
        if op == "<":
            if target in ctx.downloaded or ctx.resolve(target) in ctx.downloaded:
                yield _download_exec(f"{cmd.name} runs {target}, which this line downloaded")
            return
    if not cmd.piped:
        return
    if _downloads(cmd.upstream):
        yield _download_exec(f"a download is piped into {cmd.name}")
        return
    text = static_output(cmd.upstream)
    if text is not None:
        yield from _code(text, language)
    else:
        yield Finding(
            "pipe-to-interpreter",
            "ask",
            f"{cmd.name} runs whatever the pipe feeds it, which cannot be checked here; "
            "save the script to a file, read it, then run the file",
        )


def _eval(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if any(_downloads(cmd.inner_of(i)) for i in range(1, len(cmd.argv))):
        yield _download_exec("eval runs code produced by a download")
    elif any(cmd.is_dynamic(i) for i in range(1, len(cmd.argv))):
        yield Finding(
            "eval-dynamic",
            "ask",
            "eval runs a string built when the line runs, so it cannot be checked; write the "
            "command directly",
        )
    else:
        yield Nested(" ".join(cmd.args()))


def _alias(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    for word in cmd.args():
        if "=" in word:
            yield Nested(word.split("=", 1)[1])


# version control and packages -------------------------------------------------------------


def _git(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = list(cmd.args())
    while args and args[0].startswith("-"):
        args = args[2:] if args[0] in ("-C", "-c", "--git-dir", "--work-tree") else args[1:]
    if not args:
        return
    sub, rest = args[0], args[1:]
    flags, operands = _flags(rest)
    if sub == "push" and (
        flags & {"f", "--force", "--force-with-lease", "--mirror", "--force-if-includes"}
        or any(w.startswith("+") for _, w in operands)
    ):
        yield Finding(
            "git-force-push",
            "ask",
            "a force push rewrites history other people may have pulled; push normally, or "
            "ask a human to confirm",
        )
    elif sub == "reset" and "--hard" in flags:
        yield Finding(
            "git-reset-hard",
            "ask",
            "git reset --hard throws away uncommitted work; commit or stash first, or confirm",
        )
    elif sub == "clean" and flags & {"f", "--force"}:
        yield Finding(
            "git-clean",
            "ask",
            "git clean -f deletes untracked files for good; list them with git clean -n first",
        )


_INSTALLERS = {
    "pip": "install",
    "pip3": "install",
    "pipx": "install",
    "apt": "install",
    "apt-get": "install",
    "aptitude": "install",
    "yum": "install",
    "dnf": "install",
    "zypper": "install",
    "brew": "install",
    "snap": "install",
    "port": "install",
    "conda": "install",
    "mamba": "install",
    "gem": "install",
    "cargo": "install",
    "apk": "add",
    "uv": "install",
    "go": "install",
}


def _install(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    name = cmd.name
    if name in ("npm", "pnpm", "yarn"):
        hit = ("-g" in args or "--global" in args or (args[:1] == ("global",))) and any(
            a in ("install", "i", "add") for a in args
        )
    elif name == "pacman":
        hit = any(re.fullmatch(r"-S[yu]*", a) is not None for a in args)
    else:
        hit = _INSTALLERS.get(name, "") in args or (name.startswith("pip") and "install" in args)
    if hit:
        yield Finding(
            "package-install",
            "ask",
            f"{name} installs packages into the system or user environment; a human must "
            "confirm, or declare the dependency in the project's configuration",
        )


def _remote_copy(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if any(_HOST_ARG.match(a) for a in cmd.args() if not a.startswith("-")):
        yield Finding(
            "network",
            "ask",
            f"{cmd.name} copies to or from another host; confirm the host and the paths",
        )


# static evaluation ----------------------------------------------------------------------


def static_output(cmds: Sequence[Cmd]) -> str | None:
    """What a pipeline of ``echo``/``printf``/``base64 -d``/``rev``/``xxd -r`` prints, if static."""
    text: str | None = None
    for cmd in cmds:
        if any(cmd.dynamic) or cmd.redirects:
            return None
        args = list(cmd.args())
        if cmd.name == "echo":
            while args and args[0] in ("-n", "-e", "-E", "-ne", "-en"):
                args.pop(0)
            text = " ".join(args) + "\n"
        elif cmd.name == "printf" and args:
            fmt = args[0].replace("\\n", "\n")
            if "%" not in fmt:
                text = fmt
            elif fmt.strip() == "%s":
                text = "".join(args[1:])
            else:
                return None
        elif text is not None and cmd.name == "base64" and ({"-d", "--decode", "-D"} & set(args)):
            text = _b64(text)
        elif text is not None and cmd.name == "rev":
            text = "\n".join(line[::-1] for line in text.rstrip("\n").split("\n")) + "\n"
        elif text is not None and cmd.name == "xxd" and "-r" in args:
            try:
                text = bytes.fromhex(text.strip()).decode()
            except ValueError:
                return None
        elif text is not None and cmd.name == "cat" and not args:
            continue
        else:
            return None
        if text is None:
            return None
    return text


def _b64(text: str) -> str | None:
    try:
        return base64.b64decode(text.strip(), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


# findings made by the walker ----------------------------------------------------------------


def fork_bomb(name: str) -> Finding:
    return Finding(
        "fork-bomb",
        "deny",
        f"{name!r} starts copies of itself without end (a fork bomb) and exhausts the "
        "machine; write a loop with a fixed bound instead",
    )


def unparseable(text: str) -> Finding:
    return Finding(
        "unparseable",
        "ask",
        "unparseable command: it could not be parsed as shell, so it cannot be checked; "
        "fix the quoting or split it into simpler commands",
    )


def too_deep() -> Finding:
    return Finding(
        "too-deep",
        "ask",
        "commands nested this deep (bash -c inside eval inside …) cannot be checked; "
        "write the command directly",
    )


_HANDLERS: dict[str, Callable[[Cmd, Context], Iterator[Result]]] = {
    "rm": _rm,
    "unlink": _rm,
    "rmdir": _rm,
    "srm": _rm,
    "mv": _mv,
    "find": _find,
    "xargs": _xargs,
    "cp": _writers,
    "install": _writers,
    "ln": _writers,
    "tee": _writers,
    "truncate": _writers,
    "sed": _writers,
    "chmod": _writers,
    "chown": _writers,
    "chgrp": _writers,
    "dd": _dd,
    "mke2fs": _mkfs,
    "wipefs": _mkfs,
    "shred": _shred,
    "shutdown": _power,
    "reboot": _power,
    "halt": _power,
    "poweroff": _power,
    "init": _power,
    "telinit": _power,
    "systemctl": _power,
    "kill": _kill,
    "killall": _kill,
    "killall5": _kill,
    "pkill": _kill,
    "eval": _eval,
    "alias": _alias,
    "git": _git,
    "npm": _install,
    "pnpm": _install,
    "yarn": _install,
    "pacman": _install,
    "rsync": _remote_copy,
    **{n: _install for n in _INSTALLERS},
    **{n: _interpreter for n in (*SHELLS, "source", ".")},
}
