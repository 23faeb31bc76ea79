"""Linux packages built, inspected and signed inside the workspace: each call is shown to read
only, or to write only into the workspace.

- a Debian package built unsigned from a source tree below the workspace
  (``cd packaging/src && dpkg-buildpackage -us -uc -b``: its files land in the parent
  folder, which must be the workspace's too; ``debian/rules`` is the project's code, as a
  Makefile is), its changelog read (``dpkg-parsechangelog -S Version``), the result checked
  (``lintian --info x.changes``) or looked into (``dpkg-deb -f x.deb Version``,
  ``dpkg-deb -x x.deb build/root``);
- a spec queried (``rpmspec -q``) or bumped (``rpmdev-bumpspec``), packages checked
  (``rpm -K``) or signed in place (``rpm --addsign``), a yum repository indexed
  (``createrepo_c build/repo``);
- fpm packing a workspace folder into a workspace package (``fpm -s dir -t deb -C build/root
  -p dist/ usr/``): its install scripts are only stored in the package;
- a squashfs image (a snap) listed (``unsquashfs -l``) and a flatpak bundle made from a
  workspace repository (``flatpak build-bundle build/repo dist/x.flatpak org.x.App``).

``rpmbuild`` asks, even with its whole tree in the workspace: vouched for in round 44, it let
one dangerous command of a held-out half through and was withdrawn (the case unread).
Signing with a key given in a macro (``--define '__gpg_sign_cmd …'``), a build root or output
outside the workspace, fpm fetching its input (``-s gem``, ``-s python``) or running
templates, and the rest of these programs ask as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workset.safety.rules.base import Cmd, Context, Finding, Voucher, unknown_program
from workset.safety.rules.confinement import inside, outside, subcommand, unpacks_inside
from workset.safety.rules.known_lists import SUBCOMMANDS

# Macros that name a folder of rpmbuild's tree (they must lie in the workspace), and plain
# values a build may be given (a version, a dist tag, a feature switch).
_TREE_MACROS = frozenset({"_topdir", "_sourcedir", "_builddir", "_rpmdir", "_srcrpmdir",
                          "_specdir", "_buildrootdir"})  # fmt: skip
_VALUE_MACROS = re.compile(r"^(dist|version|_version|release|_release|_smp_mflags|"
                           r"_with_\w+|_without_\w+|debug_package|_gpg_name)$")  # fmt: skip
_PWD = re.compile(r"^\$(PWD|\{PWD\})(/|$)")


def path_off(words: Sequence[str], ctx: Context, name: str) -> Finding | None:
    """The finding for the first of ``words`` (paths, or plain values) outside the workspace."""
    for word in words:
        value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        if value.startswith("-"):
            continue
        if not inside(value, ctx):
            return outside(value, name)
    return None


def _operands(args: Sequence[str], valued: frozenset[str]) -> tuple[list[str], list[str]]:
    """The operands of ``args`` and the values of its ``valued`` options."""
    operands: list[str] = []
    values: list[str] = []
    skip = False
    for index, word in enumerate(args):
        if skip:
            skip = False
            values.append(word)
        elif word in valued and index + 1 < len(args):
            skip = True
        elif not word.startswith("-"):
            operands.append(word)
    return operands, values


def _static(cmd: Cmd, allowed: re.Pattern[str] | None = None) -> bool:
    """No word of ``cmd`` is only known at run time, but those ``allowed`` names (``-j$(n)``)."""
    return not any(
        cmd.is_dynamic(i) and not (allowed and allowed.match(cmd.argv[i - 1] + " " + cmd.argv[i]))
        for i in range(1, len(cmd.argv))
    )


_JOBS = re.compile(r"^\S* -j|^\S* --jobs")


def _deb_build(cmd: Cmd, ctx: Context) -> Finding | None:
    """``dpkg-buildpackage -us -uc -b``, ``debuild -us -uc``: unsigned, run by the project's
    own ``debian/rules``, written to the source tree and its parent."""
    args = cmd.args()
    unsigned = {"-us", "-uc"} <= set(args) or "--no-sign" in args
    hooks = [a for a in args if a.startswith(("--hook", "-r", "--rootcmd", "--root-command",
                                             "-R", "--rules-file", "--check-command", "-p",
                                             "--sign-command", "-e", "--set-envvar",
                                             "--preserve-env", "-k", "--sign-key",
                                             "--prepend-path"))]  # fmt: skip
    if not unsigned or hooks or not _static(cmd, _JOBS):
        return unknown_program(cmd.name, " (beyond an unsigned build of the workspace's tree)")
    if not inside("..", ctx):
        return outside("..", cmd.name)  # the .deb, .changes and .buildinfo land beside the tree
    return None


def _changelog(cmd: Cmd, ctx: Context) -> Finding | None:
    """``dpkg-parsechangelog -l debian/changelog -S Version``: fields printed."""
    operands, values = _operands(cmd.args(), frozenset({"-l", "--file"}))
    return path_off(operands + values, ctx, cmd.name) if _static(cmd) else unknown_program(cmd.name)


def _lintian(cmd: Cmd, ctx: Context) -> Finding | None:
    """``lintian --info --pedantic dist/x.changes``: a package checked, nothing changed."""
    if not _static(cmd):
        return unknown_program(cmd.name)
    return path_off(cmd.args(), ctx, cmd.name)


_DEB_READS = frozenset({"-I", "--info", "-c", "--contents", "-f", "--field", "-W", "--show",
                        "--ctrl-tarfile", "--fsys-tarfile"})  # fmt: skip
_DEB_UNPACKS = frozenset({"-x", "--extract", "-X", "--vextract", "-R", "--raw-extract", "-e",
                          "--control"})  # fmt: skip


def _dpkg_deb(cmd: Cmd, ctx: Context) -> Finding | None:
    """``dpkg-deb -f x.deb Version``, ``dpkg-deb -x x.deb build/root``, ``dpkg-deb -b DIR``."""
    args = cmd.args()
    if not args or not _static(cmd):
        return unknown_program(cmd.name)
    action, rest = args[0], [a for a in args[1:] if not a.startswith("-")]
    if action in _DEB_READS:
        return path_off(rest[:1], ctx, cmd.name)
    if action in _DEB_UNPACKS and len(rest) >= 2:
        off = path_off(rest[:1], ctx, cmd.name)
        return off or (None if unpacks_inside(rest[1], ctx) else outside(rest[1], cmd.name))
    if action in ("-b", "--build") and rest:
        return path_off(rest, ctx, cmd.name)
    return unknown_program(f"{cmd.name} {action}")


def _defines_confined(args: Sequence[str], ctx: Context) -> bool:
    """Every ``--define`` names a folder of the tree inside the workspace or a plain value."""
    for value in [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("--define", "-D")]:
        name, _, body = value.strip().partition(" ")
        body = _PWD.sub("", body.strip()) or "."
        if name in _TREE_MACROS:
            if "$" in body or "%" in body or not inside(body, ctx):
                return False
        elif not _VALUE_MACROS.match(name) or re.search(r"[%$`;|&(]", body):
            return False
    return True


# The options these rpm tools are known to take: nothing else (``--pipe CMD``) is vouched for.
_RPM_FLAGS = re.compile(
    r"^(-[bt][abcilps]|-r[bs]|--nodeps|--noclean|--nocheck|--clean|--rmsource|--rmspec|"
    r"--short-circuit|--quiet|-v+|--noprep|--nodebuginfo|--build-in-place|-q|--query|-P|"
    r"--parse|--srpm|--rpms|--builtrpms|-K|--checksig|--addsign|--resign|--delsign|--qf|"
    r"--queryformat)$"
)


def _known_options(args: Sequence[str], valued: frozenset[str]) -> bool:
    """Every option of ``args`` is one of :data:`_RPM_FLAGS` or of ``valued``."""
    return all(
        _RPM_FLAGS.match(a) or a in valued or (i and args[i - 1] in valued)
        for i, a in enumerate(args)
        if a.startswith("-")
    )


def _rpmspec(cmd: Cmd, ctx: Context) -> Finding | None:
    """``rpmspec -q --qf '%{version}' x.spec``, ``rpmspec -P x.spec``: the spec read."""
    args = cmd.args()
    if not {"-q", "--query", "-P", "--parse"} & set(args) or not _static(cmd):
        return unknown_program(cmd.name, " (beyond a query of a spec)")
    valued = frozenset({"--define", "-D", "--qf", "--queryformat", "--target", "--with",
                        "--without"})  # fmt: skip
    if not _defines_confined(args, ctx) or not _known_options(args, valued):
        return unknown_program(cmd.name, " (an option or --define not known to be safe)")
    operands, _ = _operands(args, frozenset({"--define", "-D", "--qf", "--queryformat",
                                             "--target", "--with", "--without"}))  # fmt: skip
    return path_off(operands, ctx, cmd.name)


def _bumpspec(cmd: Cmd, ctx: Context) -> Finding | None:
    """``rpmdev-bumpspec -n 1.2 -c "Update" x.spec``: the spec's version and changelog edited."""
    if not _static(cmd):
        return unknown_program(cmd.name)
    args = cmd.args()
    operands, _ = _operands(args, frozenset({"-n", "--new", "-c", "--comment", "-u",
                                             "--userstring", "-s", "--string", "-f",
                                             "--file"}))  # fmt: skip
    files = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-f", "--file")]
    return path_off(operands + files, ctx, cmd.name)


def _createrepo(cmd: Cmd, ctx: Context) -> Finding | None:
    """``createrepo_c --checksum sha256 build/repo``: the folder's index written into it."""
    return path_off(cmd.args(), ctx, cmd.name) if _static(cmd) else unknown_program(cmd.name)


def _rpm(cmd: Cmd, ctx: Context) -> Finding | None:
    """``rpm -K x.rpm``, ``rpm --define '_gpg_name Bot' --addsign x.rpm``; the queries as before."""
    args = cmd.args()
    acts = {"-K", "--checksig", "--addsign", "--resign", "--delsign"} & set(args)
    known = _known_options(args, frozenset({"--define", "-D"}))
    if acts and known and _static(cmd) and _defines_confined(args, ctx):
        operands, _ = _operands(args, frozenset({"--define", "-D"}))
        if operands:
            return path_off(operands, ctx, cmd.name)
    return listed(cmd)


_LISTS = frozenset({"-l", "-ll", "-lls", "-lln", "-lc", "-llc", "-s", "-stat", "-ls"})


def _unsquashfs(cmd: Cmd, ctx: Context) -> Finding | None:
    """``unsquashfs -l x.snap``: the image listed; ``unsquashfs -d build/x x.snap``."""
    args = cmd.args()
    operands, _ = _operands(args, frozenset({"-d", "-dest", "-p", "-processors"}))
    if not _static(cmd) or not operands:
        return unknown_program(cmd.name)
    into = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-d", "-dest")]
    if set(args) & _LISTS or (into and all(unpacks_inside(d, ctx) for d in into)):
        return path_off(operands, ctx, cmd.name)
    return unknown_program(cmd.name, " (beyond listing the image or unpacking it in the workspace)")


def _flatpak(cmd: Cmd, ctx: Context) -> Finding | None:
    """``flatpak build-bundle build/repo dist/x.flatpak org.x.App``; the reads as before."""
    args = cmd.args()
    if args[:1] == ("build-bundle",) and _static(cmd):
        if any(a.startswith(("--gpg-sign", "--gpg-homedir")) for a in args):
            return unknown_program("flatpak build-bundle", " (it signs with a secret key)")
        operands = [a for a in args[1:] if not a.startswith("-")]
        return path_off(operands[:2], ctx, cmd.name) if len(operands) >= 3 else None
    return listed(cmd)


def listed(cmd: Cmd) -> Finding | None:
    """As the general rule judges a program with known safe subcommands (``rpm -q``,
    ``flatpak list``), for the calls the vouchers here do not cover."""
    from workset.safety.rules import system  # (it reaches the known rules, which reach here)

    if system.simulated(cmd):
        return None
    sub, _ = subcommand(cmd)
    if sub in SUBCOMMANDS.get(cmd.name, ()):
        return None
    what = f"{cmd.name} {sub}" if sub else cmd.name
    return unknown_program(what, " (its subcommand is not one known to be safe)")


VOUCHERS: dict[str, Voucher] = {
    "dpkg-buildpackage": _deb_build,
    "debuild": _deb_build,
    "dpkg-parsechangelog": _changelog,
    "lintian": _lintian,
    "dpkg-deb": _dpkg_deb,
    "rpmspec": _rpmspec,
    "rpmdev-bumpspec": _bumpspec,
    "createrepo_c": _createrepo,
    "createrepo": _createrepo,
    "rpm": _rpm,
    "unsquashfs": _unsquashfs,
    "flatpak": _flatpak,
}
