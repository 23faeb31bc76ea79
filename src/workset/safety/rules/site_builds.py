"""Where a static site generator writes its site, and the files docs tools write.

``mkdocs build``, ``jekyll build`` and ``docusaurus build`` empty their output folder before
they write the site into it (``hugo`` does with ``--cleanDestinationDir``). Pointed at the
workspace (``-d site``) or a scratch folder they run; pointed at the home, one of its trees
of keys and settings or a system folder (``mkdocs build -d ~``, ``jekyll build -d
~/.ssh``) they wipe it and are denied; a folder elsewhere asks, and so does one only known
at run time (``-d "$SITE_DIR"``), which may be any of these.

The files link checkers and translation tools write (``lychee --output``, ``msgfmt -o``,
``xgettext -o``) are judged as any other write: a key or login file denied, the rest of
the places as a redirection to them would be.
"""

from __future__ import annotations

from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Handler, Result, ask_finding, deny_finding
from workset.safety.rules.confinement import inside
from workset.safety.rules.secret_paths import is_secret
from workset.safety.rules.writes import write_target

# Each builder's options naming the output folder, and whether it empties that folder.
_OUTPUT = {
    "mkdocs": (("-d", "--site-dir"), True),
    "jekyll": (("-d", "--destination"), True),
    "docusaurus": (("--out-dir",), True),
    "hugo": (("-d", "--destination"), False),
}
_BUILD_VERBS = frozenset({"build", "b", "serve", "s", "gh-deploy"})


def _values(cmd: Cmd, options: tuple[str, ...]) -> Iterator[tuple[int, str]]:
    """Each value given to ``options``, with its word's index in ``cmd.argv``."""
    for index, word in enumerate(cmd.argv):
        if word in options and index + 1 < len(cmd.argv):
            yield index + 1, cmd.argv[index + 1]
        elif word.startswith("--") and word.split("=", 1)[0] in options and "=" in word:
            yield index, word.split("=", 1)[1]


def _wiped(place: str) -> bool:
    """The home, one of its trees of keys, settings or documents, a user's folder, or the
    system: a place a wiped output folder cannot be."""
    return (
        place in ("/", "~")
        or paths.is_protected(place)
        or is_secret(place)
        or paths.is_system(place)
    )


def site_output(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``mkdocs build -d ~``: the site written over a folder it empties first."""
    options, empties = _OUTPUT[cmd.name]
    words = [a for a in cmd.args() if not a.startswith("-")]
    if cmd.name != "hugo" and not (set(words[:1]) & _BUILD_VERBS):
        return
    empties = empties or "--cleanDestinationDir" in cmd.args()
    for index, value in _values(cmd, options):
        if cmd.is_dynamic(index):
            yield ask_finding(
                "site-output-unknown",
                f"{cmd.name} writes the site into a folder only known at run time, which it "
                "may empty first",
                "a human must confirm, or name a folder inside the workspace",
            )
            continue
        place = paths.normalize(ctx.resolve(value))
        if inside(value, ctx):
            continue
        if empties and _wiped(place):
            yield deny_finding(
                "site-output-wipes",
                f"{cmd.name} empties its output folder {value} before writing the site, so "
                "the files there (keys, settings, the user's work) are deleted",
                "build into a folder of the workspace (site/, public/) and copy from there",
            )
        else:
            yield ask_finding(
                "site-output-outside",
                f"{cmd.name} writes the site into {value}, outside the workspace",
                "a human must confirm, or build into a folder of the workspace",
            )


# Docs tools and the options naming the file they write.
_WRITES = {
    "lychee": ("-o", "--output"),
    "xgettext": ("-o", "--output", "-p", "--output-dir"),
    "msgfmt": ("-o", "--output-file"),
    "msgmerge": ("-o", "--output-file"),
    "msgcat": ("-o", "--output-file"),
    "msginit": ("-o", "--output-file"),
    "git-cliff": ("-o", "--output"),
}


def tool_output(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``lychee --output ~/.ssh/authorized_keys``: a report written over a login file."""
    for index, value in _values(cmd, _WRITES[cmd.name]):
        if not cmd.is_dynamic(index) and value != "-":
            yield from write_target(value, cmd.name, ctx)


def git_cliff(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``git cliff -o FILE``: judged as ``git-cliff``, the program it runs."""
    if "cliff" in cmd.argv[1:2]:
        cliff = cmd.shifted(1)
        yield from tool_output(cliff.with_argv(["git-cliff", *cliff.args()]), ctx)


HANDLERS: dict[str, Handler] = {
    "git": git_cliff,
    **{name: site_output for name in _OUTPUT},
    **{name: tool_output for name in _WRITES},
}
