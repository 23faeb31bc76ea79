"""Backup tools kept inside the workspace, and their dry runs and reports.

- A restic or borg repository in the workspace, filled from or restored into the workspace,
  its password in a file of the workspace (``restic -r ./.tmp/repo --password-file
  tests/fixtures/pass init``, ``… backup docs --tag drill``, ``borg create
  ./.tmp/borg::docs docs``): a restore drill that touches nothing else, confined.
- ``borg extract --dry-run`` (names listed, nothing written), ``duplicity collection-status``
  / ``list-current-files`` / ``verify`` (reports), and duplicity's ``remove-*`` verbs without
  ``--force`` (they only list what would go): reads.
- ``restic help forget``: help printed.
- ``gpg --batch --passphrase-file ./.tmp/pass --symmetric -o ./.tmp/a.tar.gpg ./.tmp/a.tar``
  (or ``--decrypt``): an archive encrypted with a passphrase, no key of the keyring used,
  every file in the workspace.

Everything else goes on to :func:`~workset.safety.rules.platform_reads.backup_tool` (reads run,
forgetting and pruning denied, the rest asks).
"""

from __future__ import annotations

import re

from workset.safety.rules import keytools
from workset.safety.rules.base import Cmd, Context, Finding, Voucher
from workset.safety.rules.confinement import inside
from workset.safety.rules.platform_reads import backup_tool

# Options whose value is a place the tool reads or writes.
_PLACES = frozenset({"-r", "--repo", "--repository-file", "--password-file", "--target",
                     "--cache-dir", "--exclude-file", "--archive-dir",
                     "--tempdir", "--log-file"})  # fmt: skip
# Options whose value is a pattern, a tag or a number: no place.
_VALUES = frozenset({"--tag", "--exclude", "-e", "--iexclude", "--include", "--host",
                     "--keep-last", "--keep-daily", "--compression", "-C", "--comment",
                     "--pack-size", "--read-data-subset", "--encryption", "--pattern",
                     "--path", "--limit-upload", "--limit-download"})  # fmt: skip
# Options that run a program or reach past the workspace by themselves.
_REACHING = re.compile(r"^--(password-command|rsh|remote-path|option|stdin-from-command|"
                       r"repository-file|from-repo|files-from.*|paths-from.*|patterns-from|"
                       r"content-from-command)$|^-o$")  # fmt: skip
_CONFINED_VERBS = {
    "restic": frozenset(
        {
            "init",
            "backup",
            "check",
            "snapshots",
            "restore",
            "ls",
            "stats",
            "diff",
            "tag",
            "unlock",
            "cat",
            "find",
        }
    ),
    "borg": frozenset(
        {"init", "create", "check", "list", "info", "extract", "diff", "rcreate", "repo-create"}
    ),
}
_DUPLICITY_REPORTS = frozenset({"collection-status", "list-current-files", "verify"})
_DUPLICITY_PRUNES = ("remove-older-than", "remove-all-but-n-full", "remove-all-inc-of-but-n-full")


def _confined(cmd: Cmd, ctx: Context) -> bool:
    """Every place the call names (the repository, the password file, the paths and the
    restore target) lies in the workspace, and nothing runs a program or reads a secret from
    the environment's own configuration."""
    args = cmd.args()
    verbs: list[str] = []
    places: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        option = word.split("=", 1)[0]
        if cmd.is_dynamic(index + 1):
            return False
        if option in _PLACES and option != "--repository-file":
            value = (
                word.split("=", 1)[1] if "=" in word else (args[index + 1 : index + 2] or [""])[0]
            )
            places.append(value)
            index += 1 if "=" in word else 2
            continue
        if option in _VALUES:
            index += 1 if "=" in word else 2
            continue
        if word.startswith("-") and _REACHING.match(option):
            return False
        if not word.startswith("-"):
            (verbs if not verbs else places).append(word)
        index += 1
    if not verbs or verbs[0] not in _CONFINED_VERBS.get(cmd.name, frozenset()):
        return False
    repo = [p.split("::", 1)[0] for p in places if "::" in p]
    if cmd.name == "restic" and not any(a in ("-r", "--repo") or a.startswith("--repo=")
                                        for a in args):  # fmt: skip
        return False  # RESTIC_REPOSITORY: a repository named elsewhere
    if cmd.name == "borg" and not repo:
        return False  # BORG_REPO: a repository named elsewhere
    if cmd.name == "borg" and verbs[0] == "extract" and not inside(".", ctx):
        return False  # extract writes into the current directory
    named = [p for p in places if "::" not in p and p] + repo
    return all(not re.match(r"^[\w+.-]+:", p) and inside(p, ctx) for p in named)


def backup_in_workspace(cmd: Cmd, ctx: Context) -> Finding | None:
    """``restic -r ./.tmp/repo --password-file fixtures/pass backup docs``: confined; a dry
    run or report of borg or duplicity: a read; the rest: :func:`backup_tool`."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    flags = set(cmd.args())
    if words[:1] == ["help"] and not any(cmd.dynamic):
        return None
    if cmd.name == "borg" and words[:1] == ["extract"] and flags & {"--dry-run", "-n"}:
        return None
    if cmd.name == "duplicity" and words[:1] and words[0] in _DUPLICITY_REPORTS:
        return None
    if cmd.name == "duplicity" and words[:1] and words[0] in _DUPLICITY_PRUNES:
        return None if "--force" not in flags else backup_tool(cmd, ctx)
    if cmd.name in _CONFINED_VERBS and _confined(cmd, ctx):
        return None
    return backup_tool(cmd, ctx)


# gpg's options for a passphrase-encrypted file: the value-taking ones, and the bare ones.
_GPG_VALUED = frozenset({"--passphrase-file", "-o", "--output", "--cipher-algo",
                         "--compress-algo", "--pinentry-mode", "--s2k-digest-algo",
                         "--s2k-cipher-algo", "--s2k-count", "-z"})  # fmt: skip
_GPG_BARE = frozenset({"--batch", "--yes", "-a", "--armor", "-q", "--quiet", "-v",
                       "--no-symkey-cache"})  # fmt: skip
_GPG_MODES = frozenset({"-c", "--symmetric", "-d", "--decrypt"})


def symmetric_file(cmd: Cmd, ctx: Context) -> Finding | None:
    """``gpg --batch --passphrase-file ./.tmp/p --symmetric -o ./.tmp/a.gpg ./.tmp/a``:
    confined when every file is in the workspace; any other gpg call: :func:`keytools.gpg`."""
    args = cmd.args()
    modes = 0
    places: list[str] = []
    index = 0
    while index < len(args) and not any(cmd.dynamic):
        word = args[index]
        if word in _GPG_VALUED and index + 1 < len(args):
            if word in ("--passphrase-file", "-o", "--output"):
                places.append(args[index + 1])
            index += 2
            continue
        if word in _GPG_MODES:
            modes += 1
        elif word.startswith("-") and word not in _GPG_BARE:
            return keytools.gpg(cmd)
        elif not word.startswith("-"):
            places.append(word)
        index += 1
    passphrase = "--passphrase-file" in args and args.count("--pinentry-mode") <= 1
    if modes == 1 and passphrase and places and all(inside(p, ctx) for p in places):
        return None
    return keytools.gpg(cmd)


VOUCHERS: dict[str, Voucher] = {
    **{n: backup_in_workspace for n in ("restic", "borg", "duplicity")},
    **{n: symmetric_file for n in ("gpg", "gpg2")},
}
