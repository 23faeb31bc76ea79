"""Vouching for macOS's own programs where they only read, or change only the workspace.

``tmutil status``, ``diskutil list``, ``mdfind``, ``mdls``, ``dscl . -read``, ``log show``,
``pkgutil --check-signature``, ``systemextensionsctl list`` and ``sysadminctl
-secureTokenStatus`` print state; ``xattr -cr build/App.app``, ``ditto -c -k`` into the
workspace, ``tmutil addexclusion`` of a workspace folder, ``stapler staple`` and ``codesign
--sign`` of the project's own build change only the workspace; ``simctl`` drives the
simulator, a sandbox of the developer's own. Preferences and privacy grants of the project's
own app (a bundle id with the workspace's name as one of its parts: ``com.dev.proj.Debug`` in
``~/proj``) are the project's state. Anything else these programs do asks as an unknown
program, and what harms is denied by :mod:`~workset.safety.rules.macos_changes`.
"""

from __future__ import annotations

import re

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Voucher,
    option_value,
    parse_flags,
    unknown_program,
)
from workset.safety.rules.confinement import inside, subcommand
from workset.safety.rules.known_lists import SUBCOMMANDS

# The first word (after options) of each program that only prints state.
_SHOWS: dict[str, frozenset[str]] = {
    "tmutil": frozenset({"status", "listlocalsnapshots", "listlocalsnapshotdates",
                         "listbackups", "latestbackup", "destinationinfo", "isexcluded",
                         "machinedirectory", "version", "calculatedrift", "uniquesize",
                         "compare", "verifychecksums"}),
    "diskutil": frozenset({"list", "info", "information", "listFilesystems", "activity"}),
    "systemextensionsctl": frozenset({"list"}),
    "log": frozenset({"show", "stream", "stats", "help"}),
}  # fmt: skip
# diskutil's two-word reads (diskutil apfs list).
_DISK_GROUPS = frozenset({"apfs", "cs", "ar", "appleRAID", "coreStorage"})
# pkgutil options that print what a package or the receipts hold.
_PKG_READS = frozenset({"--check-signature", "--pkgs", "--packages", "--pkg-info",
                        "--pkg-info-plist", "--files", "--payload-files", "--file-info",
                        "--file-info-plist", "--export-plist", "--pkg-groups",
                        "--group-pkgs", "--pkgs-plist", "--regexp", "--volume"})  # fmt: skip
# sysadminctl's status questions.
_ADMIN_STATUS = re.compile(r"-(secureTokenStatus|guestAccount|afpGuestAccess|smbGuestAccess|"
                           r"screenLock|automaticTime|filesystem)")  # fmt: skip
# simctl verbs that only touch the developer's simulators (not erase or delete them).
_SIMCTL = frozenset({"list", "help", "boot", "shutdown", "install", "uninstall", "launch",
                     "terminate", "openurl", "getenv", "get_app_container", "addmedia",
                     "status_bar", "ui", "privacy", "push", "io", "diagnose", "bootstatus",
                     "listapps", "appinfo", "logverbose"})  # fmt: skip


def own_bundle(identifier: str, ctx: Context) -> bool:
    """``com.dev.proj.DebugApp`` belongs to the project in ``~/proj``: one of its dotted parts
    is the workspace's folder name (compared without case, dashes or underscores)."""
    if not ctx.workspace:
        return False
    folder = paths.normalize(ctx.workspace).rstrip("/").rsplit("/", 1)[-1]
    key = _plain(folder)
    parts = identifier.split(".")
    return len(key) >= 3 and len(parts) > 1 and any(_plain(p) == key for p in parts)


def _plain(word: str) -> str:
    return re.sub(r"[-_]", "", word).lower()


def _state(cmd: Cmd, ctx: Context) -> Finding | None:
    sub, rest = subcommand(cmd)
    if cmd.name == "diskutil" and sub in _DISK_GROUPS and rest[:1] and rest[0].startswith("list"):
        return None
    if cmd.name == "tmutil" and sub == "addexclusion":
        return _workspace_exclusion(cmd, ctx)
    if sub in _SHOWS.get(cmd.name, ()):
        return None
    return unknown_program(" ".join(cmd.argv[:2]), " (only its reads are known)")


def _workspace_exclusion(cmd: Cmd, ctx: Context) -> Finding | None:
    """``tmutil addexclusion build/``: a mark on the workspace's own folder, left out of the
    next backups (-p, a fixed path for every user, needs root and asks)."""
    flags, operands = parse_flags(cmd.args()[1:])
    if not flags and operands and all(inside(w, ctx) for _, w in operands):
        return None
    return unknown_program("tmutil addexclusion", " (outside the workspace)")


def _by_option(cmd: Cmd, ctx: Context) -> Finding | None:
    """``dseditgroup -o read admin``, ``mdutil -s /``: only the named operation is a read."""
    args = cmd.args()
    if cmd.name == "dseditgroup" and option_value(args, ("-o",)) in ("read", "checkmember"):
        return None
    if cmd.name == "mdutil" and args[:1] == ("-s",):
        return None
    asked = bool(args) and _ADMIN_STATUS.fullmatch(args[0]) is not None
    if (
        cmd.name == "sysadminctl"
        and asked
        and (len(args) == 1 or args[0] == "-secureTokenStatus" or args[1:] == ("status",))
    ):
        return None
    return unknown_program(" ".join(cmd.argv[:2]), " (only its reads are known)")


def _dscl(cmd: Cmd, ctx: Context) -> Finding | None:
    """``dscl . -read /Users/dev UserShell``: directory records read (a password hash asked
    for is judged a secret by the change rules)."""
    args = [a for a in cmd.args() if a not in ("-plist", "-q", "-raw", "-url")]
    verb = args[1] if len(args) > 1 else ""
    if verb in ("-read", "-list", "-readall", "-search", "-readpl", "-readpli", "-diff"):
        return None
    return unknown_program(f"dscl {verb}".strip(), " (only its reads are known)")


def _pkgutil(cmd: Cmd, ctx: Context) -> Finding | None:
    args = cmd.args()
    if args[:1] and args[0] in ("--expand", "--expand-full", "--flatten") and len(args) == 3:
        if inside(args[2], ctx):
            return None  # unpacked into the workspace to be read
        return unknown_program(f"pkgutil {args[0]}", " (outside the workspace)")
    if args and all(a in _PKG_READS or not a.startswith("-") for a in args):
        return None
    return unknown_program(" ".join(cmd.argv[:2]), " (only its reads are known)")


def _xattr(cmd: Cmd, ctx: Context) -> Finding | None:
    """``xattr -l FILE`` reads; ``xattr -cr build/App.app`` changes marks of workspace files
    only (``-w NAME VALUE``, ``-d NAME`` take their name first)."""
    args = cmd.args()
    flags = [a for a in args if a.startswith("-")]
    letters = "".join(f[1:] for f in flags)
    if not re.fullmatch(r"[lpxrsvcdw]*", letters):
        return unknown_program(" ".join(cmd.argv[:2]), " (with an option not known)")
    if not set(letters) & set("cdw"):
        return None  # -l, -p: printed
    files = [w for _, w in marked_files(cmd)]
    if files and all(inside(w, ctx) for w in files) and not any(cmd.dynamic):
        return None
    return unknown_program(
        " ".join(cmd.argv[:2]), " (it changes marks of files outside the workspace)"
    )


def _ditto(cmd: Cmd, ctx: Context) -> Finding | None:
    """``ditto -c -k --keepParent build/App.app dist/App.zip``: a copy (or an archive)
    written to its last operand."""
    args = cmd.args()
    valued = {"--arch", "--bom"}
    words = [a for i, a in enumerate(args) if not a.startswith("-") and
             (i == 0 or args[i - 1] not in valued)]  # fmt: skip
    if len(words) >= 2 and not any(cmd.dynamic) and inside(words[-1], ctx):
        return None
    return unknown_program("ditto", " (it writes outside the workspace)")


# codesign and stapler options that take a value (an identity, a file of settings).
_SIGN_VALUED = frozenset({"-s", "--sign", "-i", "--identifier", "--entitlements", "--options",
                          "-o", "-r", "--requirements", "--keychain", "--prefix"})  # fmt: skip


def signed_files(cmd: Cmd) -> list[tuple[int, str]]:
    """The files ``codesign``/``stapler`` are given (with their argv index), not the values
    of their options."""
    args = cmd.args()
    return [(i, a) for i, a in enumerate(args, 1) if not a.startswith("-")
            and (i == 1 or args[i - 2] not in _SIGN_VALUED)]  # fmt: skip


def marked_files(cmd: Cmd) -> list[tuple[int, str]]:
    """The files ``xattr`` marks (with their argv index), after the attribute's name (``-d
    NAME``, ``-p NAME``) or name and value (``-w NAME VALUE``)."""
    letters = "".join(a[1:] for a in cmd.args() if a.startswith("-") and not a.startswith("--"))
    words = [(i, a) for i, a in enumerate(cmd.args(), 1) if not a.startswith("-")]
    return words[2 if "w" in letters else 1 if set(letters) & set("dp") else 0 :]


def _signed_here(cmd: Cmd, ctx: Context) -> Finding | None:
    """``stapler validate``/``staple``, ``codesign --sign``: the project's own build."""
    files = [w for _, w in signed_files(cmd)]
    verb = files[0] if cmd.name == "stapler" and files else ""
    if cmd.name == "stapler":
        files = files[1:]
        if verb == "validate":
            return None
        if verb != "staple":
            return unknown_program(f"stapler {verb}".strip())
    if files and all(inside(w, ctx) for w in files) and not any(cmd.dynamic):
        return None
    return unknown_program(" ".join(cmd.argv[:2]), " (it signs files outside the workspace)")


# codesign options that only print or check a signature.
_SIGNATURE_READS = re.compile(
    r"-d\w*|--display|-v+|--verify|--deep|--strict|-R=?.*|--verbose(=\d)?"
)


def _codesign(cmd: Cmd, ctx: Context) -> Finding | None:
    """``codesign -dv``/``--verify`` print; signing changes only the files it is given."""
    flags = [a for a in cmd.args() if a.startswith("-")]
    if flags and all(_SIGNATURE_READS.fullmatch(a) for a in flags):
        return None
    return _signed_here(cmd, ctx)


def _reads(cmd: Cmd, ctx: Context) -> Finding | None:
    """``mdfind QUERY``, ``mdls FILE``: Spotlight's index searched or a file's metadata shown
    (a search for secrets is judged by the change rules)."""
    return None


def _simctl(cmd: Cmd, ctx: Context) -> Finding | None:
    verb = next((a for a in cmd.args() if not a.startswith("-")), "")
    if verb in _SIMCTL:
        return None
    return unknown_program(f"simctl {verb}".strip(), " (it erases or runs outside a simulator)")


def _defaults(cmd: Cmd, ctx: Context) -> Finding | None:
    """``defaults read`` anything; ``write``/``delete`` the project's own app's preferences;
    ``export DOMAIN FILE`` into the workspace."""
    args = [a for a in cmd.args() if a not in ("-currentHost",)]
    verb = args[0] if args else ""
    if verb in SUBCOMMANDS["defaults"]:
        return None
    domain = args[1] if len(args) > 1 else ""
    if verb in ("write", "delete", "rename") and own_bundle(domain, ctx):
        return None
    if verb == "export" and len(args) == 3 and (args[2] == "-" or inside(args[2], ctx)):
        return None
    return unknown_program(f"defaults {verb}".strip(), " (only reads and the project's own "
                           "app's preferences are known)")  # fmt: skip


def _tccutil(cmd: Cmd, ctx: Context) -> Finding | None:
    """``tccutil reset Camera com.dev.proj.App``: the project's app asks again next time."""
    args = cmd.args()
    if args[:1] == ("reset",) and len(args) == 3 and own_bundle(args[2], ctx):
        return None
    return unknown_program(" ".join(cmd.argv[:2]), " (only the project's own app is known)")


def _screencapture(cmd: Cmd, ctx: Context) -> Finding | None:
    """``screencapture -i docs/shot.png``: the user picks what is shot, into the workspace; a
    silent shot of the whole screen asks (what else is open on it is private)."""
    flags = "".join(a[1:] for a in cmd.args() if a.startswith("-"))
    files = [a for a in cmd.args() if not a.startswith("-")]
    if set(flags) & set("iW") and files and all(inside(f, ctx) for f in files):
        return None
    return unknown_program("screencapture", " (a silent shot of the screen)")


def _security(cmd: Cmd, ctx: Context) -> Finding | None:
    """``security cms -D -i profile.mobileprovision`` decodes a signed file; ``find-identity``
    lists signing identities (never a private key); the other reads are listed."""
    sub, rest = subcommand(cmd)
    if sub == "cms" and "-D" in rest and not {"-S", "-E", "-N", "-k"} & set(rest):
        return None
    if sub in ("find-identity", *SUBCOMMANDS["security"]):
        return None
    why = " (its subcommand is not one known to be safe)"
    return unknown_program(f"security {sub}".strip(), why)


VOUCHERS: dict[str, Voucher] = {
    **dict.fromkeys(("tmutil", "diskutil", "systemextensionsctl", "log"), _state),
    **dict.fromkeys(("dseditgroup", "mdutil", "sysadminctl"), _by_option),
    "dscl": _dscl,
    "pkgutil": _pkgutil,
    "xattr": _xattr,
    "ditto": _ditto,
    "stapler": _signed_here,
    "codesign": _codesign,
    "simctl": _simctl,
    "defaults": _defaults,
    "tccutil": _tccutil,
    "screencapture": _screencapture,
    "security": _security,
    **dict.fromkeys(("mdfind", "mdls"), _reads),
}
