"""Git changes that stay with the user's own files: named files restored, a subfolder
cleaned, global preferences that only set defaults.

- ``git restore src/app.py`` / ``git checkout -- README.md`` put named files back as
  committed, like ``rm`` of those files does to them (which runs); the whole tree (``.``,
  ``:/``, a folder written with its slash, a glob) stays asked, like ``git reset --hard``.
- ``git clean -fd build/`` deletes the untracked files under a folder of the workspace, as
  ``rm -rf build/`` would; the whole repository (no path, ``.``, ``:/``) stays asked.
- ``git config --global`` of a preference that only sets a default, a display or the
  identity (``user.email``, ``init.defaultBranch``, ``pull.rebase``, ``color.ui``, an editor
  or pager that is a plain program name) runs; keys that run programs, change where code
  comes from, or lower checks (hooks, ``url.*``, ``credential.helper``, ``http.*``,
  ``safe.directory``, signing switched off) stay asked or denied by :mod:`~.git`.
"""

from __future__ import annotations

import re

from workset.safety.rules.base import Cmd, Context, Finding
from workset.safety.rules.confinement import inside
from workset.safety.rules.environment import EDITORS

_WHOLE_TREE = frozenset({".", "./", ":/", ":", "*", "-A", "--all", "--", "/"})
_GLOB = re.compile(r"[*?\[]|^:\(")


def named_files(words: list[str], cmd: Cmd, ctx: Context, *, folders: bool = False) -> bool:
    """Every pathspec names a file (or, with ``folders``, a subfolder) of the workspace, not
    the whole tree, a pattern or a path known only at run time."""
    if not words or any(cmd.dynamic):
        return False
    for word in words:
        if word in _WHOLE_TREE or _GLOB.search(word) or not inside(word, ctx):
            return False
        if word.endswith("/") and not folders:
            return False
        if word.strip("./") == "" or word.startswith(("/", "~", "../")):
            return False
    return True


def confined(sub: str, rest: list[str], cmd: Cmd, ctx: Context, *, own: bool) -> bool:
    """``git restore``/``checkout --`` of named files, or ``git clean`` of subfolders, in the
    workspace's own repository."""
    folders = sub == "clean"
    return own and named_files(pathspecs(rest, sub), cmd, ctx, folders=folders)


def pathspecs(rest: list[str], sub: str = "clean") -> list[str]:
    """The pathspecs of ``git clean``/``restore``/``checkout -- …`` (option values left out)."""
    if sub == "checkout":
        return rest[rest.index("--") + 1 :] if "--" in rest else ["."]
    valued = ("-e", "--exclude", "-s", "--source", "--pathspec-from-file")
    return [w for i, w in enumerate(rest) if w != "--" and not w.startswith("-")
            and not (i and rest[i - 1] in valued)]  # fmt: skip


# Preferences that set a default, a display or the identity: nothing runs, nothing is
# fetched from elsewhere, no check is lowered.
_PREFERENCES = re.compile(
    r"^(user\.(name|email|signingkey)|init\.defaultbranch|pull\.(rebase|ff)|"
    r"push\.(default|autosetupremote|followtags)|fetch\.(prune|prunetags|parallel)|"
    r"rebase\.(autosquash|autostash|updaterefs|stat)|merge\.(conflictstyle|ff|tool|log)|"
    r"diff\.(algorithm|colormoved|renames|mnemonicprefix|tool|context)|color\.[\w.-]+|"
    r"column\.ui|(branch|tag)\.sort|help\.autocorrect|rerere\.(enabled|autoupdate)|"
    r"core\.(autocrlf|eol|whitespace|quotepath|excludesfile|ignorecase|longpaths|"
    r"precomposeunicode|safecrlf)|commit\.(verbose|cleanup|status)|gpg\.format|"
    r"log\.(date|decorate|abbrevcommit|follow)|format\.pretty|status\.[\w]+|advice\.[\w]+|"
    r"branch\.autosetuprebase|checkout\.defaultremote|submodule\.recurse|"
    r"alias\.[\w-]+)$"
)
_PROGRAM_KEYS = frozenset({"core.editor", "sequence.editor", "core.pager"})
_ON = frozenset({"true", "yes", "on", "1"})


def global_preference(words: list[str]) -> bool:
    """``git config --global KEY VALUE`` only sets a preference (see the module's docstring)."""
    if len(words) != 2:
        return False
    key, value = words[0].lower(), words[1]
    if key.startswith("alias."):
        return not value.startswith("!")  # a shortcut for git's own subcommands
    if key in ("commit.gpgsign", "tag.gpgsign"):
        return value.lower() in _ON  # signing on; signing off stays asked
    if key in _PROGRAM_KEYS:
        return _plain_program(value)
    return bool(_PREFERENCES.match(key))


def _plain_program(value: str) -> bool:
    """A plain viewer or editor and its flags (``code --wait``, ``less -FRX``, ``delta``)."""
    words = value.split()
    flags = all(re.fullmatch(r"--?[A-Za-z][\w-]*", w) for w in words[1:])
    return bool(words) and words[0] in EDITORS and flags


def local_program_setting(words: list[str]) -> bool:
    """``git config [--local] KEY VALUE`` of a key that runs a program, set to something that
    runs nothing foreign: a pager or editor that is a plain viewer or editor (``core.pager
    'less -FRX'``, ``pager.log delta``), or git's own file-system monitor (``core.fsmonitor
    true``, which starts git's built-in daemon, not a program named by the value)."""
    if len(words) != 2:
        return False
    key, value = words[0].lower(), words[1]
    if key in _PROGRAM_KEYS or re.fullmatch(r"pager\.[\w-]+", key):
        return _plain_program(value)
    return key == "core.fsmonitor" and value.lower() in ("true", "false", "yes", "no", "1", "0")


def wipes_local_work(sub: str, flags: set[str], ctx: Context) -> Finding | None:
    """``git reset --hard … && git clean -fdx``: every uncommitted change thrown away, then
    every untracked and ignored file (``.env``, local data, build caches) deleted: nothing of
    the local work is left to recover. Either alone asks; together they are denied."""
    if sub == "reset" and "--hard" in flags:
        ctx.hard_reset = True
    if sub == "clean" and ctx.hard_reset and "x" in flags and flags & {"f", "--force"}:
        return Finding(
            "git-wipe-local",
            "deny",
            "git reset --hard then git clean -x throws away every uncommitted change and "
            "deletes every untracked and ignored file (.env, local data), beyond recovery; "
            "stash or commit first, and clean only the folders you mean",
        )
    return None
