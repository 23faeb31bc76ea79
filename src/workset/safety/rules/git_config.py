"""Git settings that make git run a program, and the commands they run.

``alias.* = !…``, ``core.sshCommand``, ``core.pager``, ``core.fsmonitor``,
``credential.helper``, filter, diff and merge drivers and the other keys of
:data:`_EXEC_KEYS` make git run a program: set with ``git config`` or ``git -c`` they ask, and
the command they run is analysed like the line itself. ``--global``/``--system`` settings ask,
and are denied when they reach every repository on the machine with hooks, a monitor, a URL
rewrite to another host or ssh host keys switched off; settings read from a place anyone can
write, and a credential helper that keeps or sends what it is given, are denied. Preferences
that only set defaults (:mod:`~workset.safety.rules.git_local`), hooks kept in the repository
and a URL rewrite to the same host run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules import git_local
from workset.safety.rules.base import Context, Finding, Nested, Result, ask_finding

_EXEC_KEYS = ("core.hookspath", "core.sshcommand", "core.pager", "core.editor",
              "core.fsmonitor", "core.askpass", "credential.helper", "sequence.editor",
              "diff.external", "gpg.program", "url.", "http.proxy", "include.path",
              "filter.", "uploadpack.", "protocol.")  # fmt: skip


_WORLD_WRITABLE = re.compile(r"^(/tmp|/var/tmp|/dev/shm)(/|$)")
_HOST_KEYS_OFF = re.compile(
    r"StrictHostKeyChecking[= ]+(no|off)|UserKnownHostsFile[= ]+/dev/null", re.IGNORECASE
)
# Commands git runs for a filter, a diff or a merge driver (filter.lfs.smudge, diff.x.textconv).
_DRIVER_KEY = re.compile(r"filter\..+\.(clean|smudge|process)|diff\..+\.(textconv|command)|"
                         r"merge\..+\.driver|core\.gitproxy")  # fmt: skip
# Shell code that keeps or sends what it is given (a file written, a request, a socket).
_KEEPS = re.compile(r">|\btee\b|\bcurl\b|\bwget\b|\bnc\b|/dev/(tcp|udp)|\bscp\b|\bmail\b|"
                    r"\bsendmail\b|\bssh\b")  # fmt: skip
_COMMAND_KEYS = frozenset({"core.sshcommand", "core.pager", "core.editor", "core.fsmonitor",
                           "core.askpass", "sequence.editor", "diff.external", "gpg.program",
                           "credential.helper"})  # fmt: skip


def exec_key(key: str, value: str = "") -> bool:
    """Setting ``key`` (to ``value``) makes git run a program: a key of :data:`_EXEC_KEYS`, or
    an alias that is shell code (``alias.x=!…``)."""
    key = key.lower()
    return key.startswith(_EXEC_KEYS) or (key.startswith("alias.") and value.startswith("!"))


def config_findings(flags: set[str], words: list[str], ctx: Context) -> Iterator[Result]:
    """The findings of ``git config`` given ``flags`` and the key and value in ``words``."""
    reading = flags & {"--get", "--list", "l", "--get-all", "--unset"}
    value = words[1] if len(words) > 1 else ""
    changes = flags & {"--unset", "--unset-all", "--add", "--replace-all", "--rename-section",
                       "--remove-section", "-e", "--edit"}  # fmt: skip
    if len(words) == 1 and not changes:
        return  # git config --global user.name: one key and no value only prints it
    if "--global" in flags and not changes and git_local.global_preference(words):
        return  # git config --global init.defaultBranch main: a preference, nothing runs
    if flags & {"--global", "--system"} and not flags & {"--get", "--list", "l", "--get-all"}:
        yield ask_finding(
            "git-config-global",
            "git config --global changes settings outside the workspace",
            "set it in the repository with git config --local",
        )
        if words and not reading:
            yield from configured_command(words[0], value, everywhere=True)
        return
    if not changes and git_local.local_program_setting(words):
        return  # git config core.pager 'less -FRX': a plain viewer, nothing foreign runs
    if words[:1] and words[0].lower() == "core.hookspath" and _project_hooks(value, ctx):
        return  # hooks kept in the repository are the project's code, like its Makefile
    rewrite = re.fullmatch(r"url\.(.+)\.(push)?insteadof", words[0].lower()) if words else None
    if rewrite and value and _host(rewrite.group(1)) == _host(value):
        return  # this repository reaches the same host by another protocol (https for ssh)
    if words and not reading and exec_key(words[0], value):
        yield ask_finding("git-config-exec", f"git config {words[0]} makes git run a program",
                          "a human must confirm")  # fmt: skip
        yield from configured_command(words[0], words[1] if len(words) > 1 else "")


def _project_hooks(value: str, ctx: Context) -> bool:
    """``core.hooksPath .githooks``: a directory inside the workspace, written literally."""
    return bool(value) and "$" not in value and paths.in_workspace(ctx.resolve(value),
                                                                   ctx.workspace)  # fmt: skip


def configured_command(key: str, value: str, *, everywhere: bool = False) -> Iterator[Result]:
    """The command a key such as ``alias.x=!…`` or ``core.fsmonitor`` runs, to be analysed.

    ``everywhere``: the key is set ``--global``/``--system``, so every repository on the
    machine runs it; hooks or a monitor set there are persistence, whatever the directory."""
    key = key.lower()
    builtin = value.lower() in ("true", "false", "yes", "no", "on", "off", "1", "0", "")
    rewrite = re.fullmatch(r"url\.(.+)\.(push)?insteadof", key)
    if everywhere and rewrite and value and _host(rewrite.group(1)) != _host(value):
        yield Finding(
            "git-global-url-rewrite",
            "deny",
            f"git config --global {key} {value} sends every clone, fetch or push of {value} "
            "on this machine to another address, whose code or credentials prompts are then "
            "trusted as the real ones; rewrite the URL of this repository's remote instead",
        )
    if everywhere and key == "core.sshcommand" and _HOST_KEYS_OFF.search(value):
        yield Finding(
            "ssh-host-keys-off",
            "deny",
            f"git config --global core.sshCommand {value} makes every repository's ssh stop "
            "checking who the other host is, from now on, so a machine in the middle goes "
            "unnoticed; add the host's key to known_hosts instead",
        )
    if everywhere and key in ("core.hookspath", "core.fsmonitor") and not builtin:
        yield Finding(
            "git-global-hooks",
            "deny",
            f"git config --global {key} {value} makes every repository on this machine run "
            "that code on commit, checkout or status, long after this task (persistence); set "
            "hooks per repository with git config --local core.hooksPath .githooks",
        )
    included = key == "include.path" or re.fullmatch(r"includeif\..+\.path", key)
    if included and _WORLD_WRITABLE.match(value):
        yield Finding(
            "git-config-world-writable",
            "deny",
            f"{key}={value} makes git read more settings (hooks, pagers, helpers that run "
            "programs) from a place anyone on the machine can write; keep settings in the "
            "repository's own config",
        )
    if key == "core.hookspath" and _WORLD_WRITABLE.match(value):
        yield Finding(
            "git-hooks-world-writable",
            "deny",
            f"core.hooksPath={value} makes git run, on every commit, checkout and push, "
            "whatever anyone on the machine puts in a directory they can all write; keep hooks "
            "in the repository (.githooks) instead",
        )
    if key == "credential.helper" and value.startswith("!") and _KEEPS.search(value):
        yield Finding(
            "credential-capture",
            "deny",
            "a credential helper written as shell code receives every user name and password "
            "git asks for, and this one keeps or sends them elsewhere; use the platform's "
            "helper (osxkeychain, libsecret, manager) or gh auth setup-git",
        )
    if key.startswith("alias.") and value.startswith("!"):
        yield Nested(value[1:])
    elif (key in _COMMAND_KEYS or _DRIVER_KEY.fullmatch(key)) and value:
        yield Nested(value.lstrip("!"))


def _host(url: str) -> str:
    """The host a git URL names (``https://h/…``, ``git@h:…``, ``ssh://u@h:22/…``)."""
    rest = url.split("://", 1)[-1].rsplit("@", 1)[-1] if "://" in url else url.split("@")[-1]
    return re.split(r"[:/]", rest, maxsplit=1)[0].lower()
