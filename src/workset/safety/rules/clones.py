"""Clones: ``git clone URL [DIR]``, ``gh repo clone OWNER/REPO [DIR]``, ``gh pr checkout N``.

A clone reads a repository from another host and writes it into a directory; git does not
copy hooks, so nothing of it runs until the project's tools are pointed at it. It is vouched
for when the address is literal (``https://``, ``ssh://``, ``git@host:``, a forge's
``owner/repo``), the directory lies in the workspace, and no option makes git run a program
(``-c``/``--config``, ``--template``, ``-u``/``--upload-pack``, ``ext::`` transports); a clone
beside the workspace (``../repo``) is a write outside it and asks.
"""

from __future__ import annotations

import re

from workset.safety.rules.base import Cmd, Context, Finding, option_value, unknown_program
from workset.safety.rules.confinement import inside, outside
from workset.safety.rules.installs import UNPACKERS, unpacking

_ADDRESS = re.compile(r"^(https://|ssh://|git://|git@[\w.-]+:)[\w.@:/~-]+$")
_VALUED = frozenset({"-b", "--branch", "--depth", "-o", "--origin", "--reference", "--filter",
                     "-j", "--jobs", "--shallow-since", "--separate-git-dir"})  # fmt: skip
_RUNS = ("-c", "--config", "--template", "-u", "--upload-pack")


def git_clone(words: tuple[str, ...], cmd: Cmd, ctx: Context) -> Finding | None:
    """``words``: what follows ``clone``."""
    operands: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word.split("=", 1)[0] in _RUNS:
            return unknown_program("git clone", f" (with {word.split('=', 1)[0]})")
        if word in _VALUED:
            index += 1
        elif not word.startswith("-"):
            operands.append(word)
        index += 1
    if any(cmd.dynamic) or not operands or not _ADDRESS.match(operands[0]):
        return unknown_program("git clone", " (of an address that is not plain https or ssh)")
    target = operands[1] if len(operands) > 1 else _default_dir(operands[0])
    ctx.cloned.add(ctx.resolve(target))
    return None if inside(target, ctx) else outside(target, "git clone")


def _default_dir(address: str) -> str:
    name = re.split(r"[/:]", address.rstrip("/"))[-1]
    return name.removesuffix(".git") or "."


WORKSPACE = "."  # ctx.cloned's mark for the workspace itself (a pull request checked out)


def gh_clone(cmd: Cmd, ctx: Context) -> Finding | None:
    """``gh repo clone owner/repo [DIR]`` writes DIR; ``gh pr checkout N`` works in the
    workspace's repository, whose files are then the pull request's (someone else's code, not
    yet reviewed: what runs it later in the line asks)."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:2] == ["repo", "clone"] and len(words) >= 3:
        target = words[3] if len(words) > 3 else words[2].rstrip("/").rsplit("/", 1)[-1]
        ctx.cloned.add(ctx.resolve(target))
        return None if inside(target, ctx) else outside(target, "gh repo clone")
    if words[:2] in (["pr", "checkout"], ["mr", "checkout"], ["pr", "co"]):
        ctx.cloned.add(WORKSPACE)
    if words[:2] in (["release", "download"], ["run", "download"]):  # assets: built by others
        _fetched_into(option_value(cmd.args(), ("-D", "--dir")) or ".", ctx)
    return None


def remember_unpacked_download(cmd: Cmd, ctx: Context, downloaders: frozenset[str]) -> None:
    """``curl -sL URL | tar xz -C .``, ``unzip deps.zip`` of a file the line downloaded: the
    folder it unpacks into holds code nobody read, like a clone."""
    if cmd.name not in UNPACKERS:
        return
    fed = any(c.name in downloaders for c in cmd.upstream)
    archive = next((a for a in cmd.args() if not a.startswith("-")), "")
    if not (fed or (archive and ctx.resolve(archive) in ctx.downloaded)):
        return
    extracting, target = unpacking(cmd)
    if extracting:
        _fetched_into(target or ".", ctx)


def _fetched_into(place: str, ctx: Context) -> None:
    """Remember that code nobody read now lies in ``place`` (the workspace itself for ".")."""
    where = ctx.resolve(place)
    ctx.cloned.add(WORKSPACE if where in (".", "") else where)


# Programs that run the code of the folder they are pointed at or started in: builds, package
# installs of a path, interpreters given a script, a script run by its path.
_RUNNERS = frozenset({"make", "gmake", "cmake", "ninja", "meson", "npm", "pnpm", "yarn", "bun",
                      "pip", "pip3", "uv", "poetry", "pipx", "cargo", "go", "bundle", "rake",
                      "composer", "dotnet", "mvn", "gradle", "just", "task", "tox", "nox",
                      "pytest", "bash", "sh", "zsh", "dash", "python", "python3", "node",
                      "ruby", "perl", "php", "deno", "source", ".", "docker", "podman",
                      "docker-compose", "open"})  # fmt: skip


def runs_clone(cmd: Cmd, ctx: Context) -> Finding | None:
    """``git clone URL x && bash x/install.sh``, ``cd x && make``: code the line just fetched
    runs before anyone has read it (the clone alone only writes files)."""
    if not ctx.cloned:
        return None

    def under(place: str) -> bool:
        if WORKSPACE in ctx.cloned and not place.startswith(("/", "~", "..")):
            return True  # a relative place, in the workspace whose files were replaced
        return any(place == d or place.startswith(d.rstrip("/") + "/") for d in ctx.cloned)

    words = [w for w in cmd.args() if not w.startswith("-")]
    here = ctx.cwd if ctx.cwd is not None else WORKSPACE
    runs_here = (
        cmd.name in _RUNNERS and (ctx.cwd is not None or WORKSPACE in ctx.cloned) and (under(here))
    )
    script = "/" in cmd.argv[0] and under(ctx.resolve(cmd.argv[0]))
    pointed = cmd.name in _RUNNERS and any(under(ctx.resolve(w.split("=", 1)[-1])) for w in words)
    if not (runs_here or script or pointed):
        return None
    return Finding(
        "runs-fetched-code",
        "ask",
        f"{cmd.name} runs code the line just cloned, checked out or unpacked, which no one "
        "has read; a human must confirm, or fetch it first and review it before running it",
    )
