"""Package repositories and release artifacts read, or kept in the workspace.

- a reprepro repository whose base is in the workspace, read or filled from workspace
  packages (``reprepro -b packaging/apt includedeb bookworm dist/x.deb``, ``checkpool``);
  ``update`` (which fetches) and a base elsewhere ask;
- aptly's lists and details (``aptly repo list``, ``aptly snapshot show x``);
- snapcraft printing the expanded project or the store's state (``snapcraft
  expand-extensions``, ``snapcraft status x``); uploads, releases and closes ask;
- ``brew style`` of formula files in the workspace (``--fix`` rewrites only them);
- ``gem unpack`` of a workspace ``.gem`` into the workspace;
- provenance verified (``slsa-verifier verify-artifact``), an upload simulated (``dput -s``),
  a read-only command run on a ``.changes`` file's files (``dcmd ls -l x.changes``);
- release files signed into the workspace (``gpg --detach-sign -o dist/SUMS.asc dist/SUMS``,
  ``gpg --clearsign SUMS``): the signature is a new workspace file, published only by a
  later step that asks.
"""

from __future__ import annotations

import re

from workset.safety.rules import backup_confined, keytools, known_tools
from workset.safety.rules.base import Cmd, Context, Finding, Voucher, unknown_program
from workset.safety.rules.pkg_builds import _static, listed, path_off

_REPREPRO_VALUED = frozenset({"-b", "--basedir", "-C", "--component", "-A", "--architecture",
                              "-T", "--packagetype", "-S", "--section", "-P", "--priority",
                              "--outdir", "--distdir", "--dbdir", "--confdir", "--listdir",
                              "--logdir", "--morguedir", "--export"})  # fmt: skip
_REPREPRO_PLACES = frozenset({"-b", "--basedir", "--outdir", "--distdir", "--dbdir", "--confdir",
                              "--listdir", "--logdir", "--morguedir"})  # fmt: skip
_REPREPRO_ACTIONS = frozenset({"list", "ls", "listfilter", "listmatched", "lsbycomponent",
                               "listcodenames", "checkpool", "check", "dumpreferences",
                               "dumptracks", "dumpunreferenced", "includedeb", "includeudeb",
                               "includedsc", "include", "export", "createsymlinks", "remove",
                               "removefilter", "removematched", "copy", "copysrc",
                               "copyfilter", "clearvanished", "deleteunreferenced"})  # fmt: skip


def _reprepro(cmd: Cmd, ctx: Context) -> Finding | None:
    """``reprepro -b packaging/apt includedeb bookworm dist/x.deb``: a workspace repository."""
    args = cmd.args()
    if not _static(cmd):
        return unknown_program(cmd.name)
    places: list[str] = []
    words: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        name = word.split("=", 1)[0]
        if name in _REPREPRO_VALUED:
            value = word.split("=", 1)[1] if "=" in word else args[index + 1 : index + 2]
            value = value if isinstance(value, str) else "".join(value)
            places += [value] if name in _REPREPRO_PLACES else []
            index += 1 if "=" in word else 2
            continue
        if not word.startswith("-"):
            words.append(word)
        index += 1
    if not words or words[0] not in _REPREPRO_ACTIONS or not places:
        return unknown_program(f"{cmd.name} {words[0] if words else ''}".strip(),
                               " (beyond a repository whose base is in the workspace)")  # fmt: skip
    if words[0].startswith("include") or words[0] in ("checkpool",):
        places += words[2:] if words[0].startswith("include") else []
    return path_off(places, ctx, cmd.name)


_APTLY_READS = frozenset({("repo", "list"), ("repo", "show"), ("snapshot", "list"),
                          ("snapshot", "show"), ("snapshot", "diff"), ("snapshot", "verify"),
                          ("snapshot", "search"), ("mirror", "list"), ("mirror", "show"),
                          ("mirror", "search"), ("repo", "search"), ("publish", "list"),
                          ("publish", "show"), ("package", "search"), ("package", "show"),
                          ("config", "show")})  # fmt: skip


def _aptly(cmd: Cmd, ctx: Context) -> Finding | None:
    """``aptly repo list -raw``, ``aptly repo show -with-packages x``: aptly's state printed."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    if tuple(words[:2]) in _APTLY_READS or words[:1] == ["version"]:
        return None
    return unknown_program(" ".join(["aptly", *words[:2]]),
                           " (its subcommand is not one known to be safe)")  # fmt: skip


_SNAPCRAFT_READS = frozenset({"expand-extensions", "status", "list-revisions", "revisions",
                              "list-tracks", "tracks", "names", "list", "whoami", "version",
                              "help", "list-plugins", "plugins", "list-extensions",
                              "extensions"})  # fmt: skip


def _snapcraft(cmd: Cmd, ctx: Context) -> Finding | None:
    """``snapcraft expand-extensions``, ``snapcraft status x``: printed, nothing published."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:1] and words[0] in _SNAPCRAFT_READS:
        return None
    return unknown_program(f"snapcraft {words[0] if words else ''}".strip(),
                           " (its subcommand is not one known to be safe)")  # fmt: skip


def _brew(cmd: Cmd, ctx: Context) -> Finding | None:
    """``brew style --fix Formula/x.rb``: the workspace's formula files linted and fixed."""
    args = cmd.args()
    if args[:1] == ("style",) and _static(cmd):
        files = [a for a in args[1:] if not a.startswith("-")]
        if files and set(args[1:]) - set(files) <= {"--fix", "--display-cop-names"}:
            return path_off(files, ctx, "brew style")
    return known_tools.VOUCHERS["brew"](cmd, ctx)


def _gem(cmd: Cmd, ctx: Context) -> Finding | None:
    """``gem unpack pkg/x-1.2.gem --target build/x``: a workspace gem unpacked into it."""
    args = cmd.args()
    if args[:1] == ("unpack",) and _static(cmd):
        gems = [a for a in args[1:] if a.endswith(".gem")]
        target = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--target"]
        rest = set(args[1:]) - set(gems) - set(target) - {"--target", "--spec"}
        if gems and not rest:
            return path_off(gems + target, ctx, "gem unpack")
    return listed(cmd)


def _slsa(cmd: Cmd, ctx: Context) -> Finding | None:
    """``slsa-verifier verify-artifact x --provenance-path x.intoto.jsonl …``: checked only."""
    args = cmd.args()
    if args[:1] and args[0].startswith("verify-") and _static(cmd):
        return path_off(args[1:], ctx, cmd.name)
    return unknown_program(cmd.name, " (beyond verifying provenance)")


_SIGNS = frozenset({"--detach-sign", "--detach-sig", "-b", "--clearsign", "--clear-sign",
                    "--sign", "-s"})  # fmt: skip
_SIGN_FLAGS = frozenset({"--batch", "--yes", "--armor", "-a", "--no-tty", "-q", "--quiet", "-v",
                         "--verbose"})  # fmt: skip
_SIGN_VALUED = frozenset({"--local-user", "-u", "--default-key", "-o", "--output",
                          "--digest-algo"})  # fmt: skip


_KEY_ID = re.compile(r"^(--local-user|-u|--default-key) ")


def _gpg(cmd: Cmd, ctx: Context) -> Finding | None:
    """``gpg --batch --yes --detach-sign -u KEY -o dist/SUMS.asc dist/SUMS``: a signature of a
    workspace file written into the workspace; otherwise
    :func:`~workset.safety.rules.backup_confined.symmetric_file` (both rounds register gpg)."""
    args = cmd.args()
    if _SIGNS & set(args) and _static(cmd, _KEY_ID):
        files: list[str] = []
        index = 0
        while index < len(args):
            word = args[index]
            if word in _SIGN_VALUED:
                files += [args[index + 1]] if word in ("-o", "--output") and index + 1 < len(
                    args) else []  # fmt: skip
                index += 2
                continue
            if word.startswith("-") and word not in _SIGNS | _SIGN_FLAGS:
                return keytools.gpg(cmd)
            files += [] if word.startswith("-") else [word]
            index += 1
        if files:
            return path_off(files, ctx, cmd.name)
    # a passphrase-encrypted file in the workspace (round 43), else what gpg is known to do
    return backup_confined.symmetric_file(cmd, ctx)


def _dput(cmd: Cmd, ctx: Context) -> Finding | None:
    """``dput --simulate ppa:x/y x_source.changes``: the upload checked, nothing sent."""
    args = cmd.args()
    flags = {a for a in args if a.startswith("-")}
    if {"-s", "--simulate"} & flags and flags <= {"-s", "--simulate", "-d", "--debug", "-u",
                                                  "--unchecked", "-f", "--force"}:  # fmt: skip
        changes = [a for a in args if a.endswith((".changes", ".dsc"))]
        return path_off(changes, ctx, cmd.name) if changes and _static(cmd) else None
    return unknown_program(cmd.name, " (beyond a simulated upload)")


_DCMD_READS = frozenset({"ls", "cat", "sha256sum", "sha1sum", "md5sum", "sha512sum", "file",
                         "stat", "du", "wc", "head", "echo"})  # fmt: skip


_DCMD_FILTERS = frozenset({"--deb", "--dsc", "--changes", "--orig", "--debtar", "--diff", "--tar",
                           "--no-fail-on-missing"})  # fmt: skip


def _dcmd(cmd: Cmd, ctx: Context) -> Finding | None:
    """``dcmd ls -l x.changes``: a read run on the files a ``.changes`` lists (beside it)."""
    args = [a for a in cmd.args() if a not in _DCMD_FILTERS]
    lists = [a for a in args if a.endswith((".changes", ".dsc"))]
    program = args[0] if args and not args[0].endswith((".changes", ".dsc")) else ""
    if _static(cmd) and lists and (not program or program in _DCMD_READS):
        if any(a.startswith("-") and program in ("", "echo") for a in args):
            return unknown_program(cmd.name)
        return path_off(lists, ctx, cmd.name)
    return unknown_program(cmd.name, " (beyond a read of a .changes file's files)")


VOUCHERS: dict[str, Voucher] = {
    "reprepro": _reprepro,
    "aptly": _aptly,
    "snapcraft": _snapcraft,
    "brew": _brew,
    "gem": _gem,
    "slsa-verifier": _slsa,
    "gpg": _gpg,
    "gpg2": _gpg,
    "dput": _dput,
    "dcmd": _dcmd,
}
