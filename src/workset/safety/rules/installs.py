"""Rules for what is put where it runs by itself or in place of a command.

An archive unpacked over the system, the home or a folder on the PATH (``tar xzf x.tgz -C /``,
``unzip -d ~``, ``tar -P``, ``cpio -i`` without ``--no-absolute-filenames``) replaces programs,
settings or startup files unseen. A file copied, moved, installed or linked into a place that
runs it by itself (XDG autostart, cron directories, launchd agents, another repository's
hooks) installs code that outlives the task. A program put onto the PATH under the name of a
standard command (``install ./agent ~/.local/bin/ls``) runs whenever the user types that
command: every later ``ls``, ``sudo`` or ``git`` runs it instead. All are denied.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Result,
    option_value,
    parse_flags,
)
from workset.safety.rules.known_lists import BUILTINS, READ_ONLY, WRITERS
from workset.safety.rules.persistence import EDITOR_AUTOLOAD, HOOKS, is_persistence_place

UNPACKERS = frozenset({"tar", "bsdtar", "unzip", "7z", "7za"})


def unpacking(cmd: Cmd) -> tuple[bool, str | None]:
    """Whether ``cmd`` (one of :data:`UNPACKERS`) unpacks an archive, and the folder it names
    to unpack into (``-C``, ``-d``, ``-o``), or None for where it runs."""
    args = cmd.args()
    flags, operands = parse_flags(args)
    first = args[0] if args and not args[0].startswith("-") else ""
    if cmd.name in ("tar", "bsdtar"):
        extracting = bool((set(first) | flags) & {"x", "--extract", "--get"})
        return extracting, option_value(args, ("-C", "--directory"))
    if cmd.name == "unzip":
        attached = [a[2:] for a in args if a.startswith("-d") and len(a) > 2]
        target = option_value(args, ("-d",)) or (attached[0] if attached else None)
        return not {"l", "t", "p", "Z", "z"} & flags, target
    words = [w for _, w in operands]  # 7z x -oDIR
    target = next((a[2:] for a in args if a.startswith("-o") and len(a) > 2), None)
    return words[:1] in (["x"], ["e"]), target


def _extract_over(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """An archive unpacked over the system or the home (``tar xzf x.tgz -C /``, ``unzip -o
    x.zip -d ~``): its members replace system programs, settings or startup files unseen."""
    flags, _ = parse_flags(cmd.args())
    extracting, target = unpacking(cmd)
    if cmd.name == "unzip" and extracting and ":" in flags:  # unzip -: keeps ../ in member names
        yield Finding(
            "extract-over-system",
            "deny",
            "unzip -: keeps '../' in member names, so the archive writes outside the folder "
            "it is unpacked in, anywhere the user can write (startup files, keys); unpack "
            "without -: inside the workspace",
        )
        return
    if cmd.name in ("tar", "bsdtar") and extracting and target is None and ctx.cwd is not None:
        target = ctx.cwd  # cd / && tar xf …
    absolute = cmd.name in ("tar", "bsdtar") and bool(flags & {"P", "--absolute-names"})
    if extracting and absolute:
        yield Finding(
            "extract-over-system",
            "deny",
            f"{cmd.name} -P unpacks each member at the absolute path it names, anywhere on the "
            "machine, replacing system programs, settings or startup files unseen; unpack "
            "without -P inside the workspace and read what it holds",
        )
        return
    if not extracting or target is None:
        return
    place = ctx.resolve(target)
    if is_persistence_place(place) or _PATH_DIRS.match(place) or _AUTORUN.match(place):
        yield Finding(
            "extract-over-system",
            "deny",
            f"{cmd.name} unpacks an archive into {target}, where its programs run by themselves "
            "or in place of commands the user types; unpack it inside the workspace and "
            "install what is needed as a reviewed step",
        )
    elif paths.is_protected(place) and not paths.is_scratch(place):
        yield Finding(
            "extract-over-system",
            "deny",
            f"{cmd.name} unpacks an archive over {target}, where its files replace system "
            "programs, settings or the home's startup files without being seen; unpack it "
            "inside the workspace and install what is needed as a reviewed step",
        )


# Folders on the PATH: a program unpacked there runs in place of the command the user types.
_PATH_DIRS = re.compile(r"^(~/\.local/bin|~/bin|/usr/local/s?bin|/usr/s?bin|/s?bin|"
                        r"/opt/homebrew/bin)(/|$)")  # fmt: skip


def on_path_folder(path: str) -> bool:
    """``path`` is itself a folder on the PATH (``~/.local/bin``)."""
    found = _PATH_DIRS.match(path)
    return found is not None and path[found.end() :].strip("/") == ""


def runs_by_itself(path: str) -> bool:
    """``path`` lies in a folder whose files run by themselves: at login, on a timer, as an
    enabled service, or when an editor or IPython starts (``~/.vim/autoload/plug.vim``)."""
    return bool(_AUTORUN.match(path))


def on_path(path: str) -> bool:
    """``path`` lies in a folder on the PATH, where a program runs in place of a command."""
    return bool(_PATH_DIRS.match(path))


# Commands every shell session types, beside the standard tools of the known lists: those
# that log in, hold keys or run as root, and the interpreters and clients agents call.
_TYPED = frozenset({"sudo", "su", "doas", "pkexec", "ssh", "scp", "sftp", "ssh-add", "git",
                    "gpg", "passwd", "login", "sh", "bash", "zsh", "dash", "fish", "python",
                    "python3", "node", "npm", "npx", "pip", "pip3", "docker", "kubectl", "curl",
                    "wget", "make", "openssl", "aws", "gcloud", "az", "gh", "vim", "nano",
                    "code", "man", "ps", "kill", "top"})  # fmt: skip
STANDARD = BUILTINS | READ_ONLY | WRITERS | _TYPED


def shadowed(target: str, source: str | None) -> str | None:
    """The standard command that a program put at ``target`` (a resolved path) would run in
    place of, when ``target`` is on the PATH and the program did not already bear that name
    (``source``, the file it was copied from, or None for text written there)."""
    name = target.rstrip("/").rsplit("/", 1)[-1]
    if not _PATH_DIRS.match(target) or name not in STANDARD:
        return None
    if source is not None and source.rstrip("/").rsplit("/", 1)[-1] == name:
        return None  # cp target/release/rg ~/.local/bin/rg: a build of that very tool
    return name


def shadowing(via: str, word: str, name: str) -> Finding:
    return Finding(
        "path-shadowing",
        "deny",
        f"{via} puts a program at {word}, on the PATH under the name of the standard command "
        f"'{name}', so every later '{name}' the user or a script types runs it instead (how "
        "credential sniffers and implants hide); give the program its own name, or leave it "
        "in the workspace",
    )


def _cpio(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``cpio -i`` writes each member where its name says, absolute names included, unless
    told ``--no-absolute-filenames``: an archive can then replace any file on the machine."""
    flags, _ = parse_flags(cmd.args())
    over = ctx.cwd is not None and paths.is_protected(ctx.cwd) and not paths.is_scratch(ctx.cwd)
    if flags & {"i", "--extract"} and ("--no-absolute-filenames" not in flags or over):
        yield Finding(
            "extract-over-system",
            "deny",
            "cpio -i unpacks each member at the path it names, absolute paths included, so "
            "the archive can replace system programs, settings or startup files unseen; list "
            "it with cpio -t, or unpack with --no-absolute-filenames inside the workspace",
        )


# Places whose files run by themselves, with no further command: at login (XDG autostart,
# launchd agents), on a timer (cron directories), in every login shell (profile.d), or as a
# service already enabled (a systemd ``*.wants`` directory).
_AUTORUN = re.compile(
    r"^(~/\.config/autostart|/etc/xdg/autostart|/etc/cron\.(d|hourly|daily|weekly|monthly)|"
    r"/var/spool/cron(/crontabs)?|/etc/profile\.d|(~/|/)Library/Launch(Agents|Daemons)|"
    r"(~/\.config|/etc)/systemd/(user|system)/[^/]+\.wants)(/|$)|" + EDITOR_AUTOLOAD
)


_VALUED = frozenset({"-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix"})


def _installs(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """A file copied, moved or linked into a place that runs it by itself (``cp x.desktop
    ~/.config/autostart/``): unseen code installed to run at every login or on a timer."""
    args = cmd.args()
    _, operands = parse_flags(args)
    operands = [(i, w) for i, w in operands if i < 2 or args[i - 2] not in _VALUED]
    if len(operands) < 2 or cmd.is_dynamic(operands[-1][0]):
        return
    target = ctx.resolve(operands[-1][1])
    sources = [w for i, w in operands[:-1] if not cmd.is_dynamic(i)]
    into_folder = operands[-1][1].endswith("/") or len(sources) > 1 or on_path_folder(target)
    for source in sources:
        placed = target.rstrip("/") + "/" + source.rstrip("/").rsplit("/", 1)[-1]
        name = shadowed(placed if into_folder else target, source)
        if name is not None:
            yield shadowing(cmd.name, operands[-1][1], name)
            return
    if HOOKS.search(target) and not paths.in_workspace(target, ctx.workspace):
        yield Finding(
            "persistence-installed",
            "deny",
            f"{cmd.name} puts a hook into {operands[-1][1]}, another repository's .git/hooks, "
            "where it runs by itself at that repository's next commit or checkout, outside "
            "this task and this workspace; install hooks only in the workspace's own repository",
        )
    elif _AUTORUN.match(target):
        yield Finding(
            "persistence-installed",
            "deny",
            f"{cmd.name} puts a file into {operands[-1][1]}, which runs it by itself (at login, "
            "on a timer, at boot or when an editor starts): that installs code that outlives this "
            "task, unseen; leave "
            "the file in the workspace and ask the user to install it",
        )


INSTALLS: dict[str, Handler] = {
    n: _installs for n in ("cp", "mv", "install", "ln", "rsync", "ditto")
}
HANDLERS: dict[str, Handler] = {
    **{n: _extract_over for n in UNPACKERS},
    "cpio": _cpio,
}
