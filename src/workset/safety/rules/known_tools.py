"""Vouching for single programs with their own rules: editors run as scripts (``vim -es``),
key tools, ``ssh-add -l``, port checks, shell-setup printers, ``fc``, ``rclone``.

Each returns None when the call is shown read-only or confined, else why it asks.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from workset.safety import paths
from workset.safety.rules import editors, keytools, loopback
from workset.safety.rules.base import Cmd, Context, Finding, parse_flags, unknown_program
from workset.safety.rules.confinement import inside, outside, subcommand
from workset.safety.rules.known_lists import SHELL_SETUP, SUBCOMMANDS

# ex commands a scripted edit may run (vim -es -c CMD): substitutions, deletions by pattern,
# re-indenting, and writing the file being edited. Anything else (``!``, ``\=``, ``:r``,
# ``:w OTHER``, ``:source``, ``:call``…) can run programs or touch other files.
_EX_SAFE = re.compile(
    r"(%|[0-9.$,]+)?\s*(s|substitute)/([^/\\]|\\.)*/([^/\\]|\\.)*/[gcieIn]*"
    r"|(%|[0-9.$,]+)?\s*(g|v|global)/([^/\\]|\\.)*/\s*(d|delete)"
    r"|w|wq|x|q|q!|wq!|x!|wa|wqa|xa|qa!|update|retab!?|%?\s*(le|left|ri|right|ce|center)"
    r"|set\s+(no)?(ff|fileformat|et|expandtab|eol|fixeol|fixendofline|bomb)(=\w+)?"
)
_VIM = frozenset({"vim", "vi", "nvim", "ex"})


def _ex_edit(cmd: Cmd, ctx: Context) -> Finding | None:
    """``vim -es -c '%s/\\s\\+$//e' -c wq FILE``: a scripted edit of workspace files is a
    workspace write when every command is a plain edit; anything else asks."""
    args = cmd.args()
    silent = cmd.name == "ex" or any(re.fullmatch(r"-[eEs]*[eE][eEs]*", a) for a in args)
    commands: list[str] = []
    files: list[tuple[int, str]] = []
    index = 0
    while index < len(args):
        word = args[index]
        if word in ("-c", "--cmd") and index + 1 < len(args):
            commands.append(args[index + 1])
            index += 1
        elif word.startswith("+") and len(word) > 1:
            commands.append(word[1:])
        elif word in ("-u", "-i") and index + 1 < len(args) and args[index + 1] == "NONE":
            index += 1
        elif word.startswith("-") and re.fullmatch(r"-[eEsnNX]+|--clean|--noplugin", word):
            pass
        elif word.startswith("-"):
            return unknown_program(cmd.name, f" (with option {word})")
        else:
            files.append((index + 1, word))
        index += 1
    if not (silent and commands and files and not cmd.piped and not cmd.redirects):
        return unknown_program(cmd.name, " (an editor run without a plain scripted edit)")
    for command in commands:
        typed = editors.typed_text(command)
        if typed is not None and "\\=" not in typed:
            continue  # only types text into the buffer (normal Go…, call append('$', …))
        if "\\=" in command or not _EX_SAFE.fullmatch(command.strip().lstrip(":")):
            return unknown_program(f"{cmd.name} -c {command[:30]!r}", " (an ex command)")
    for position, word in files:
        if cmd.is_dynamic(position) or not paths.in_workspace(ctx.resolve(word), ctx.workspace):
            return outside(word, cmd.name)
    return None


def _keytool(cmd: Cmd, ctx: Context) -> Finding | None:
    if cmd.name in ("gpg", "gpg2"):
        return keytools.gpg(cmd)
    outside_targets = [t for t in keytools.writes(cmd) if not inside(t, ctx)]
    return keytools.write_outside(cmd, outside_targets[0]) if outside_targets else None


def _ssh_add(cmd: Cmd, ctx: Context) -> Finding | None:
    if cmd.args() and set(cmd.args()) <= {"-l", "-L", "-E", "sha256", "md5"}:
        return None  # lists the keys the agent holds (public fingerprints)
    return unknown_program("ssh-add", " (it adds or removes keys of the SSH agent)")


def _grpc_listing(cmd: Cmd, ctx: Context) -> Finding | None:
    """grpcurl listing or describing the services of a server on this machine."""
    return None if loopback.local_read(cmd) else unknown_program("grpcurl")


def _port_check(cmd: Cmd, ctx: Context) -> Finding | None:
    """nc -z localhost PORT only tries to connect; anything else of nc is not vouched for."""
    scan = any(re.fullmatch(r"-[a-zA-Z]*z[a-zA-Z]*", a) for a in cmd.args())
    args = cmd.args()
    valued = ("-w", "-p", "-s", "-i", "-q", "-W", "-x", "-X", "-I", "-O", "-T")
    hosts = [a for i, a in enumerate(args) if not a.startswith("-")
             and (i == 0 or args[i - 1] not in valued)][:1]  # fmt: skip
    quiet = all(t.isdigit() or t == "/dev/null" for _, t in cmd.redirects)
    if scan and hosts in (["localhost"], ["127.0.0.1"], ["::1"]) and quiet:
        return None
    if loopback.local_read(cmd):
        return None  # printf 'GET / HTTP/1.0\r\n\r\n' | nc localhost 8080
    return unknown_program(cmd.argv[0])


def shell_setup(cmd: Cmd) -> bool:
    """``pyenv init -``, ``ssh-agent -s``, ``direnv hook bash``: prints code that sets up
    this shell, and nothing else (see ``SHELL_SETUP``); or a known program's completion
    script for a shell (``kubectl completion bash``, ``gh completion -s zsh``)."""
    forms = SHELL_SETUP.get(cmd.name, ())
    args = tuple(a for a in cmd.args() if a not in ("--no-rehash",))
    return not any(cmd.dynamic) and (any(args == form for form in forms) or completion(cmd))


_SHELL_NAMES = frozenset({"bash", "zsh", "fish", "powershell", "pwsh"})


def completion(cmd: Cmd) -> bool:
    """``kubectl completion bash``, ``gh completion -s zsh``, ``rustup completions bash``:
    a program printing its own completion script (shell functions that complete its
    arguments), and nothing else. The program itself is judged as any other command."""
    args = [a for a in cmd.args() if a not in ("-s", "--shell")]
    return (
        len(args) == 2
        and args[0] in ("completion", "completions")
        and args[1].removeprefix("--") in _SHELL_NAMES
    )


def _shell_setup(cmd: Cmd, ctx: Context) -> Finding | None:
    if shell_setup(cmd):
        return None
    allowed = SUBCOMMANDS.get(cmd.name)
    if allowed is not None and subcommand(cmd)[0] in allowed:
        return None
    return unknown_program(cmd.argv[0])


def _fc(cmd: Cmd, ctx: Context) -> Finding | None:
    """``fc -l`` (``-ln``, ``-lr``) lists the shell's history; without ``-l`` it runs it again."""
    flags, _ = parse_flags(cmd.args())
    if "l" in flags and not flags & {"e", "s"}:
        return None
    return unknown_program("fc", " (without -l it runs earlier commands again)")


# rclone subcommands that copy, compare or list files; judged by where they touch.
_RCLONE_FILES = frozenset({"copy", "copyto", "sync", "move", "moveto", "check", "ls", "lsf",
                           "lsd", "lsl", "size", "tree", "md5sum", "sha1sum", "dedupe",
                           "delete", "purge", "mkdir", "rmdir", "cat", "listremotes", "about",
                           "lsjson"})  # fmt: skip


def _rclone(cmd: Cmd, ctx: Context) -> Finding | None:
    """``rclone copy ./src ./backup/src``: with no remote named, a local copy, confined when
    every path lies in the workspace (a remote is asked by the network rules)."""
    sub, _ = subcommand(cmd)
    if sub not in _RCLONE_FILES:
        return unknown_program(f"rclone {sub}".strip())
    for index, word in enumerate(cmd.args(), start=1):
        if word.startswith("-") or word == sub:
            continue
        if cmd.is_dynamic(index) or not inside(word, ctx):
            return outside(word, "rclone")
    return None


_TRASH = re.compile(r"^~/(\.Trash|\.local/share/Trash/files)(/|$)")


def is_trash(path: str) -> bool:
    """The user's trash: what is moved there can be taken back."""
    return bool(_TRASH.match(path))


def _trash(cmd: Cmd, ctx: Context) -> Finding | None:
    """``trash-put old/``, ``gio trash x``: workspace files moved to the trash, recoverable."""
    args = cmd.args()[1:] if cmd.name == "gio" else cmd.args()
    if cmd.name == "gio" and cmd.args()[:1] != ("trash",):
        return unknown_program(cmd.argv[0])
    for index, word in enumerate(args, start=len(cmd.args()) - len(args) + 1):
        if word.startswith("-"):
            continue
        if cmd.is_dynamic(index) or not paths.in_workspace(ctx.resolve(word), ctx.workspace):
            return outside(word, cmd.name)
    return None


# Words that make a network tool change the configuration instead of showing it.
_NET_CHANGES = frozenset({"up", "down", "add", "del", "delete", "change", "replace", "flush",
                          "set", "mtu", "netmask", "inet", "inet6", "alias", "-alias", "promisc",
                          "modify", "mod", "connect", "disconnect", "reapply", "import",
                          "export", "load", "reload", "edit", "on", "off", "hostname"})  # fmt: skip


def _net_show(cmd: Cmd, ctx: Context) -> Finding | None:
    """``ifconfig``, ``ifconfig en0``, ``route -n``, ``nmcli device status``: the network's
    configuration shown; a verb that changes it (``up``, ``add``, ``modify``…) asks."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    too_many = cmd.name == "ifconfig" and len(words) > 1
    if too_many or _NET_CHANGES & {w.lower() for w in words}:
        return unknown_program(cmd.name, " (it changes the network configuration)")
    return None


# Editors opened on files: the user sees the files, nothing runs; extensions do run code.
_EDITOR_APPS = frozenset({"code", "code-insiders", "codium", "cursor", "subl", "zed", "mate",
                          "idea", "pycharm", "charm", "webstorm", "goland"})  # fmt: skip


_EXTENSION_OPTIONS = ("--install-extension", "--uninstall-extension", "--enable-proposed",
                      "--extensions-dir", "tunnel", "serve-web")  # fmt: skip


def _editor_app(cmd: Cmd, ctx: Context) -> Finding | None:
    """``code .``, ``code -g src/app.ts:12``, ``code --list-extensions``: an editor window
    opened or its extensions listed; installing an extension (code that runs in every
    window) asks."""
    args = cmd.args()
    installed = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--install-extension"]
    installed += [a.split("=", 1)[1] for a in args if a.startswith("--install-extension=")]
    fetched = next((w for w in installed if ctx.wrote(w) or ctx.resolve(w) in ctx.downloaded), None)
    if fetched is not None:
        return Finding(
            "download-exec",
            "deny",
            f"{cmd.name} installs {fetched}, an extension this line downloaded, which then runs "
            "in every editor window unseen; install extensions from the marketplace by id, "
            "after a human has looked",
        )
    if any(a.startswith(_EXTENSION_OPTIONS) for a in args):
        return unknown_program(f"{cmd.name} --install-extension", " (extensions run code)")
    return None


_EMACS_VALUED = ("-l", "--load", "-f", "--funcall", "-L", "--directory", "--eval", "-eval")


def _emacs_batch(cmd: Cmd, ctx: Context) -> Finding | None:
    """``emacs --batch -l ert -l test/x-tests.el -f ert-run-tests-batch-and-exit``: the project's
    Lisp (and Emacs's own libraries, by bare name) run over the project's files, as ``python
    tests/…`` would. Lisp given inline (``--eval``) or loaded from outside asks."""
    args = cmd.args()
    if not {"--batch", "-batch", "--script"} & set(args):
        return unknown_program(cmd.name)
    for index, word in enumerate(args):
        value = args[index + 1] if index + 1 < len(args) else ""
        if word in ("--eval", "-eval") or word.startswith("--eval="):
            return unknown_program(cmd.name, " (with Lisp given inline)")
        if (
            word in ("-l", "--load", "-L", "--directory", "--script")
            and ("/" in value or value.startswith("~"))
            and not paths.in_workspace(ctx.resolve(value), ctx.workspace)
        ):
            return unknown_program(cmd.name, f" (it loads {value}, outside the workspace)")
        previous = args[index - 1] if index else ""
        if not word.startswith("-") and previous not in _EMACS_VALUED and not inside(word, ctx):
            return unknown_program(cmd.name, f" (it opens {word}, outside the workspace)")
    return None


VOUCHERS: dict[str, Callable[[Cmd, Context], Finding | None]] = {
    "emacs": _emacs_batch,
    **{n: _net_show for n in ("ifconfig", "route", "nmcli")},
    **{n: _editor_app for n in _EDITOR_APPS},
    **{n: _trash for n in ("trash-put", "trash", "gio", "gtrash", "rmtrash")},
    "fc": _fc,
    **{n: _shell_setup for n in SHELL_SETUP if n not in ("conda",)},
    "rclone": _rclone,
    **{n: _keytool for n in ("ssh-keygen", "openssl", "gpg", "gpg2")},
    "ssh-add": _ssh_add,
    **{n: _ex_edit for n in _VIM},
    "ed": editors.ed_vouch,
    "red": editors.ed_vouch,
    **{n: _port_check for n in ("nc", "ncat", "netcat")},
    "grpcurl": _grpc_listing,
}
