"""Rules for deletion: ``rm`` (and ``unlink``/``rmdir``/``srm``), ``mv`` away, ``shred``.

Recursive deletes of protected places are denied and other recursive deletes ask;
``find -delete`` and ``xargs rm`` reach here through :mod:`workset.safety.rules.dispatch`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules import confinement as known_places
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result, parse_flags
from workset.safety.rules.records import erases_record, wipe
from workset.safety.rules.secrets import in_key_tree, plain_secret
from workset.safety.rules.server_data import rsync_dry_run
from workset.safety.rules.writes import sensitive_write, system_write, write_target

DELETERS = frozenset({"rm", "shred", "unlink", "rmdir", "srm"})


def _rm(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    flags, operands = parse_flags(cmd.args())
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
        path = ctx.resolve(_some_entries(word))
        dynamic = cmd.is_dynamic(index)
        emptied = _EMPTY_VARIABLE.sub("", word) if dynamic else word
        if recursive and (paths.is_protected(path) or paths.is_user_folder(path, ctx.workspace)):
            yield _protected_delete(word, path)
        elif (
            recursive
            and emptied != word
            and paths.is_protected(ctx.resolve(_some_entries(emptied)))
        ):
            yield Finding(
                "rm-unset-variable",
                "deny",
                f"recursive delete of {word!r}: the variable is not set in this line, and if it "
                f"is empty the command becomes rm -rf {emptied}; write ${{NAME:?}} so bash stops "
                "when it is empty, or name the directory literally",
            )
        elif recursive and _climbs_out(word, path, ctx):
            yield Finding(
                "rm-climbs-out",
                "deny",
                f"recursive delete of {word!r}, written as a path inside the workspace that "
                f"climbs out of it with '..' to {path}; delete only paths inside the workspace, "
                "and write them without '..'",
            )
        elif paths.is_sensitive(path) or (word.startswith("/") and paths.is_sensitive(word)):
            yield sensitive_write(word)  # /home/*/.ssh/authorized_keys: every home's, as a glob
        elif erases_record(path, ctx):
            yield wipe(f"{cmd.name} {word}")
        elif not dynamic and (
            plain_secret(word, ctx)
            or in_key_tree(path)
            or in_key_tree(ctx.resolve(word))
            or (word.startswith("/") and in_key_tree(word))  # /home/*/.ssh/*
        ):
            yield _keys_deleted(cmd.name, word)
        elif recursive and not dynamic and _GIT_STORE.search(path):
            yield Finding(
                "git-history-delete",
                "ask",
                f"recursive delete of {word!r} throws away the repository itself: every commit, "
                "branch and stash not pushed elsewhere, beyond recovery; a human must confirm",
            )
        elif recursive and not asked and (dynamic or not confined(path, ctx)):
            asked = True
            unknown = (
                " (a variable in the path is unknown here: if it is empty the path changes meaning)"
                if dynamic
                else ""
            )
            place = (
                "a path only known at run time"
                if unknown
                else "the whole workspace"
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
            yield system_write(word)


# A repository's own store: the .git folder, or its objects and refs.
_GIT_STORE = re.compile(r"(^|/)\.git(/(objects|refs)(/.*)?)?/?$")


# A plain "$NAME" or "${NAME}": empty when unset (unlike "${NAME:?}" or "${NAME:-default}").
_EMPTY_VARIABLE = re.compile(r"\$(\{\w+\}|\w+)")


def _climbs_out(word: str, path: str, ctx: Context) -> bool:
    """``./build/../../x``: starts inside the workspace, then '..' leads out of it."""
    parts = word.split("/")
    return (
        ".." in parts and parts[0] not in ("..", "") and not paths.in_workspace(path, ctx.workspace)
    )


def _some_entries(word: str) -> str:
    """``*.egg-info`` names some entries of its directory, not the directory: keep it a child.

    A pattern that can match every entry (``*``, ``.*``, ``*/``) still stands for the
    directory itself, and so does any pattern outside the workspace.
    """
    head, _, last = word.rstrip("/").rpartition("/")
    some = re.search(r"[*?\[]", last) and re.sub(r"[*?]|\[[^]]*\]", "", last) not in ("", ".")
    if some and not re.search(r"[*?\[]", head) and not word.startswith(("/", "~")):
        return (head + "/" if head else "") + "MATCHED"  # only in the workspace: /usr/lib/py*
    return word  # stays the system directory it globs in


def confined(path: str, ctx: Context) -> bool:
    """Inside the workspace and not the workspace itself (``.``, ``*`` or its root).

    A directory ``mktemp -d`` made in this line (``/tmp/tmp.XXXXXXXXXX``) is the line's own.
    """
    if paths.is_own_temp(path):
        return True
    if not paths.in_workspace(path, ctx.workspace) or path in (".", ""):
        return False
    root = paths.normalize(ctx.workspace) if ctx.workspace else None
    return path != root


def _protected_delete(word: str, path: str) -> Finding:
    return Finding(
        "rm-recursive-protected",
        "deny",
        f"recursive delete of {word!r} (resolves to {path}) would destroy the system or the "
        "user's home; delete only paths inside the workspace, named explicitly",
    )


def _rsync(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """rsync --delete makes the target match the source: everything else there goes."""
    flags, operands = parse_flags(cmd.args())
    if "--remove-source-files" in flags and len(operands) >= 2:
        for _, source in operands[:-1]:  # the sources are moved away, as mv moves them
            yield from _mv(cmd.with_argv(["mv", source, operands[-1][1]]), ctx)
            if not known_places.inside(source, ctx):
                yield known_places.outside(source, "rsync --remove-source-files")
    deleting = any(f.startswith("--delete") or f == "--del" for f in flags)
    if not deleting or len(operands) < 2 or rsync_dry_run(cmd):
        return  # (a dry run only lists what it would delete)
    target = operands[-1][1]
    if ":" in target.split("/", 1)[0]:
        return  # a remote target: the network rule asks
    path = ctx.resolve(target)
    if not confined(path, ctx) and paths.in_workspace(path, ctx.workspace):
        yield Finding(
            "rsync-delete",
            "ask",
            f"rsync --delete onto {target!r}, the whole workspace, deletes every file of it "
            "the source lacks; sync into a folder of the workspace, or confirm",
        )
    elif paths.is_protected(path) or paths.is_user_folder(path, ctx.workspace):
        yield Finding(
            "rsync-delete-protected",
            "deny",
            f"rsync --delete onto {target!r} (resolves to {path}) deletes whatever the source "
            "lacks there, which wipes the system or the home; sync into the workspace instead",
        )
    elif not paths.in_workspace(path, ctx.workspace):
        yield Finding(
            "rsync-delete",
            "ask",
            f"rsync --delete removes files under {target!r}, outside the workspace; a human "
            "must confirm",
        )


def _mv(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    _, operands = parse_flags(cmd.args())
    if len(operands) < 2:
        return
    for _, word in operands[:-1]:
        where = ctx.resolve(word)
        if paths.is_protected(where) or paths.is_user_folder(where, ctx.workspace):
            yield Finding(
                "move-protected",
                "deny",
                f"moving {word!r} away removes a system or home directory; move only files "
                "inside the workspace",
            )
    sources = tuple(w for _, w in operands[:-1])
    yield from write_target(operands[-1][1], cmd.name, ctx, sources=sources)


def _keys_deleted(program: str, word: str) -> Finding:
    return Finding(
        "rm-keys",
        "deny",
        f"{program} {word} deletes the user's keys or credentials, which cannot be made again "
        "and lock the user out of what they open; leave them alone, or ask the user to rotate "
        "them",
    )


def _shred(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    _, operands = parse_flags(cmd.args())
    for _, word in operands:
        if ctx.resolve(word).startswith("/dev/"):
            yield Finding(
                "shred-device",
                "deny",
                f"shred over the device {word} destroys everything on it; shred only files you "
                "created in the workspace",
            )
            return
    for _, word in operands:
        if paths.is_sensitive(ctx.resolve(word)):
            yield sensitive_write(word)  # shred ~/.ssh/id_ed25519
            return
        if erases_record(ctx.resolve(word), ctx):
            yield wipe(f"shred {word}")
            return
        if plain_secret(word, ctx) or in_key_tree(ctx.resolve(word)):
            yield _keys_deleted("shred", word)  # shred -u ~/.local/share/keyrings/*.keyring
            return
    outside = [w for _, w in operands if not paths.in_workspace(ctx.resolve(w), ctx.workspace)]
    many = next(
        (w for w in outside
         if re.search(r"[*?\[]", w) and not paths.is_scratch(ctx.resolve(w))),
        None,
    )  # fmt: skip
    if many is not None:  # shred -u ~/Documents/*: every file there, as rm -r would
        yield Finding(
            "shred",
            "deny",
            f"shred destroys every file {many} matches beyond recovery, outside the workspace; "
            "an agent never destroys the user's files — name the files you created, inside "
            "the workspace",
        )
    elif outside:
        yield Finding(
            "shred",
            "ask",
            f"shred destroys {outside[0]} beyond recovery, outside the workspace; confirm",
        )


HANDLERS: dict[str, Handler] = {
    "rm": _rm,
    "unlink": _rm,
    "rmdir": _rm,
    "srm": _rm,
    "mv": _mv,
    "rsync": _rsync,
    "shred": _shred,
}
