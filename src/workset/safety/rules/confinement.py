"""The words of confinement the vouching rules share: where a command writes, and whether that
stays in the workspace.

:func:`inside` is the workspace or scratch space (``/tmp``, ``/var/tmp``, harmless devices);
:func:`unpacks_inside` is stricter, for archives, which write whatever names they hold;
:func:`outside` is the finding when a command reaches past them; :func:`brought_in` when a copy
brings another project's or the home's files into the workspace; :func:`subcommand` reads the
subcommand of ``git``/``docker``/… past its global options.
"""

from __future__ import annotations

import re

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Finding
from workset.safety.rules.known_lists import OPTION_VALUES, SCRATCH


def subcommand(cmd: Cmd) -> tuple[str, tuple[str, ...]]:
    """The subcommand of ``git``/``docker``/…, skipping global options, and what follows."""
    args = list(cmd.args())
    with_value = OPTION_VALUES.get(cmd.name, ())
    while args and args[0].startswith("-") and cmd.name in OPTION_VALUES:
        flag = args.pop(0)
        if flag in with_value and args:
            args.pop(0)
    return (args[0], tuple(args[1:])) if args else ("", ())


def inside(word: str, ctx: Context) -> bool:
    """The path ``word`` names is in the workspace or a scratch directory (or harmless)."""
    path = ctx.resolve(word)
    return (
        paths.in_workspace(path, ctx.workspace)
        or paths.is_scratch(path)
        or path.startswith(SCRATCH)
        or paths.is_harmless_device(path)
    )


def unpacks_inside(word: str, ctx: Context) -> bool:
    """An archive unpacked into ``word`` stays in the workspace (or a folder ``mktemp`` made
    in this line). Unlike one file copied there, an archive writes whatever names it holds,
    so a shared scratch directory (``/tmp``, where others' files and links lie) asks."""
    path = ctx.resolve(word)
    return paths.in_workspace(path, ctx.workspace) or paths.is_own_temp(path)


def outside(word: str, name: str = "") -> Finding:
    via = f"{name} changes" if name else "writes"
    return Finding(
        "outside-workspace",
        "ask",
        f"{via} {word!r}, outside the workspace; a human must confirm, or work on a copy "
        "inside the workspace",
    )


def brought_in(name: str, sources: list[tuple[int, str]], cmd: Cmd, ctx: Context) -> Finding | None:
    """A copy into the workspace from another project or the home's documents (``cp -r
    ../client-b .``, ``cp ~/Documents/x .``): files that are not the project's come into it,
    where they may be committed or sent on. The system's own files (``/usr/share/…``), the
    home's settings (``~/.config/…``, whose secrets the secret rules judge) and templates may
    be copied."""
    if name == "ln":
        return None  # a link: judged where it is followed
    for index, word in sources:
        place = ctx.resolve(word)
        if cmd.is_dynamic(index) or inside(word, ctx) or ctx.wrote(word):
            continue
        if _TEMPLATE.search(place):
            continue  # ../proj-template/.github, ~/skeletons/…: kept to be copied
        if re.match(r"~/[^.]|/home/|/Users/|/root/|/mnt/|/media/|/srv/", place):
            return Finding(
                "copied-in",
                "ask",
                f"{name} brings {word} (another project's or the home's files, outside the "
                "workspace) into it; a human must confirm",
            )
    return None


_TEMPLATE = re.compile(r"(^|[/_.-])(templates?|skel(eton)?s?|boilerplates?|scaffold(ing)?s?|"
                       r"starters?|cookiecutters?)([/_.-]|$)", re.IGNORECASE)  # fmt: skip
