"""Rules for the machine and the project around it: power and package installs (killing
processes: :mod:`~workset.safety.rules.processes`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules import go_tools, processes, typosquat
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result, option_value
from workset.safety.rules.confinement import inside, outside


def _power(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    name = cmd.name
    stops = (
        name in ("shutdown", "reboot", "halt", "poweroff")
        or (name in ("init", "telinit") and any(a in ("0", "6") for a in args))
        or (name == "systemctl" and any(a in ("poweroff", "reboot", "halt", "kexec") for a in args))
    )
    if stops:
        yield Finding(
            "power",
            "deny",
            f"{' '.join(cmd.argv)} stops or restarts the machine for everyone on it; an agent "
            "never does that — stop only the processes you started, by their id",
        )


_INSTALLERS = {
    "pip": "install",
    "pip3": "install",
    "pipx": "install",
    "apt": "install",
    "apt-get": "install",
    "aptitude": "install",
    "yum": "install",
    "dnf": "install",
    "zypper": "install",
    "brew": "install",
    "snap": "install",
    "port": "install",
    "conda": "install",
    "mamba": "install",
    "gem": "install",
    "cargo": "install",
    "apk": "add",
    "uv": "install",
    "go": "install",
    "luarocks": "install",
    "opam": "install",
    "nimble": "install",
}
# mix's installers put an archive or an escript into the user's ~/.mix, for every project.
_MIX_INSTALLS = ("archive.install", "escript.install")


def _verb_first(args: tuple[str, ...], verb: str) -> bool:
    """``verb`` is the subcommand: only options (and their values) come before it, so ``pipx
    run pre-commit install`` is pre-commit's install, not pipx's."""
    if not verb or verb not in args:
        return False
    before = args[: args.index(verb)]
    return all(w.startswith("-") or (i and before[i - 1].startswith("-"))
               for i, w in enumerate(before))  # fmt: skip


# npm/pnpm/yarn verbs that change the installed packages without naming new ones.
_NODE_CHANGES = frozenset({"uninstall", "un", "remove", "rm", "r", "update", "up", "upgrade"})


def _install(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    name = cmd.name
    if name in ("npm", "pnpm", "yarn"):
        verbs = [a for a in args if a in ("install", "i", "add", "global")]
        packages = [a for a in args if not a.startswith("-") and a not in ("install", "i", "add",
                                                                          "global")]  # fmt: skip
        hit = bool(verbs) and ("-g" in args or "--global" in args or bool(packages))
        if verbs and args[:1] not in (("install",), ("i",), ("add",), ("global",)):
            hit = hit and args[0] in ("install", "i", "add", "global")
        if args[:1] and args[0] in _NODE_CHANGES and {"-g", "--global"} & set(args):
            hit = True  # npm uninstall -g, npm update -g: the user's global packages
    elif name == "pacman":
        hit = any(re.fullmatch(r"-S[yu]*", a) is not None for a in args)
    else:
        sub = args[1:] if name == "uv" and args[:1] in (("pip",), ("tool",)) else args
        hit = _verb_first(sub, _INSTALLERS.get(name, "")) or (
            name.startswith("pip") and _verb_first(args, "install")
        )
        hit = hit or (name in ("uv", "poetry", "pdm") and args[:1] == ("add",))
        hit = hit or (name == "mix" and any(_verb_first(args, v) for v in _MIX_INSTALLS))
    yield from _squatted(cmd)
    builds = name.startswith("pip") and bool({"wheel", "download"} & set(args))
    saved = option_value(args, ("-d", "--dest", "-w", "--wheel-dir")) if builds else None
    if saved is not None and not inside(saved, ctx):
        yield outside(saved, f"{name} {'wheel' if 'wheel' in args else 'download'}")
    fetched = _archive_urls(args) if hit or builds else []
    if fetched:  # a dry run too: pip builds an archive to read what it needs
        yield Finding(
            "install-from-url",
            "deny",
            f"{name} {'install' if hit else 'builds'} {fetched[0]}: an archive fetched from that "
            "address, whose build and install code runs now, with the user's rights, and no "
            "index or review vouches for it; install the package by name from the index, or "
            "a file in the workspace that was reviewed",
        )
    if hit and simulated(cmd):
        return  # apt-get install -s: prints what it would do
    impostor = go_tools.impostor(cmd)
    if impostor is not None:
        yield impostor
    if hit and not (
        _project_into_workspace_venv(cmd, ctx)
        or _project_declared(cmd, ctx)
        or _popular_into_project(cmd)
        or go_tools.official_tool(cmd)
    ):
        where = "the workspace's environment" if _workspace_venv(cmd, ctx) else (
            "the project's environment" if args[:1] == ("add",) and name in ("uv", "poetry",
            "pdm") else "the system or user environment")  # fmt: skip
        yield Finding(
            "package-install",
            "ask",
            f"{name} installs packages into {where}, running their build code; a human must "
            "confirm, or declare the dependency in the project's configuration",
        )


# Installer options that take a value (an index, a requirements file, a target…).
_VALUED = frozenset({"-i", "--index-url", "--extra-index-url", "-f", "--find-links", "-r",
                     "--requirement", "-c", "--constraint", "-t", "--target", "--prefix",
                     "--root", "--python", "--trusted-host", "--cert", "--client-cert",
                     "--proxy", "--registry", "--source", "-s", "--cache-dir",
                     "--platform", "--python-version"})  # fmt: skip
_ARCHIVE_URL = re.compile(r"^(https?|ftp)://", re.I)


def _archive_urls(args: tuple[str, ...]) -> list[str]:
    """Packages named by the address of an archive (not a VCS checkout, not an index)."""
    found: list[str] = []
    skip = False
    for index, word in enumerate(args):
        if skip:
            skip = False
        elif word in ("-r", "--requirement", "-c", "--constraint") and re.match(
            r"^https?://", args[index + 1] if index + 1 < len(args) else ""
        ):
            found.append(args[index + 1])  # a dependency list fetched now: unreviewed
            skip = True
        elif word in _VALUED:
            skip = True
        elif _ARCHIVE_URL.match(word.split("@", 1)[-1].strip()) and not word.startswith("git+"):
            found.append(word)
    return found


_SIMULATE = {
    "apt-get": ("-s", "--simulate", "--dry-run", "--just-print", "--no-act", "--recon"),
    "apt": ("-s", "--simulate", "--dry-run", "--just-print", "--no-act", "--recon"),
    "pip": ("--dry-run",),
    "pip3": ("--dry-run",),
    "npm": ("--dry-run",),
    "pnpm": ("--dry-run",),
    "yarn": ("--dry-run",),
    "cargo": ("--dry-run", "-n"),
    "make": ("-n", "--dry-run", "--just-print", "--recon"),
    "gmake": ("-n", "--dry-run", "--just-print", "--recon"),
}
_SIMULATED_VERBS = {"npm": ("publish",), "pnpm": ("publish",), "yarn": ("publish",),
                    "cargo": ("publish",), "apt-get": ("install", "remove", "purge", "upgrade",
                    "dist-upgrade", "autoremove"), "apt": ("install", "remove", "purge",
                    "upgrade", "full-upgrade", "autoremove")}  # fmt: skip


def simulated(cmd: Cmd) -> bool:
    """Only prints what it would do: ``apt-get install -s``, ``npm publish --dry-run`` (which
    still runs the project's own pack scripts), ``cargo publish --dry-run``, ``make -n``."""
    options = _SIMULATE.get(cmd.name)
    if options is None or not set(cmd.args()) & set(options):
        return False
    verbs = _SIMULATED_VERBS.get(cmd.name)
    return verbs is None or any(a in verbs for a in cmd.args())


_NPM_VERBS = ("install", "i", "add", "global")
_PIP_VERBS = ("install", "add")


def _squatted(cmd: Cmd) -> Iterator[Finding]:
    """``npm install crossenv``, ``pip install reqeusts``: a near miss of a popular name."""
    node = cmd.name in ("npm", "pnpm", "yarn", "bun")
    if not node and not (cmd.name.startswith("pip") or cmd.name in ("uv", "poetry", "pdm")):
        return
    args = cmd.args()
    verbs = _NPM_VERBS if node else _PIP_VERBS
    start = next((i for i, a in enumerate(args) if a in verbs), None)
    if start is None:
        return
    values = {
        "-r",
        "--requirement",
        "-c",
        "--constraint",
        "-e",
        "--editable",
        "-i",
        "--index-url",
        "--extra-index-url",
        "-f",
        "--find-links",
        "-t",
        "--target",
    }
    for index, word in enumerate(args[start + 1 :], start=start + 1):
        if word.startswith("-") or args[index - 1] in values or cmd.is_dynamic(index + 1):
            continue
        bad = typosquat.compromised(word, "npm" if node else "pypi")
        if bad is not None:
            yield Finding(
                "compromised-release",
                "deny",
                f"{cmd.name} would install {bad}, a release known to carry an attacker's code "
                "(published from a stolen account and pulled since); install a version from "
                "before or after it, pinned in the project's lockfile",
            )
        if "/" in word or word.startswith(".") or word.endswith((".whl", ".tgz", ".tar.gz")):
            continue  # a path, a URL or a scoped name: not looked up by a bare name
        imitated = typosquat.near_miss(word, typosquat.NPM if node else typosquat.PYPI)
        if imitated is not None:
            yield Finding(
                "typosquat",
                "deny",
                f"{cmd.name} would install {word!r}, one slip away from the popular package "
                f"{imitated!r}: names like it are registered to catch typing mistakes, and "
                "installing runs their code at once; check the name (did you mean "
                f"{imitated!r}?) and add it to the project's dependencies",
            )


# pip options that keep an install to the project's own files (anything else asks).
_PIP_FLAGS = frozenset({"-q", "--quiet", "-v", "--verbose", "-U", "--upgrade", "--no-deps",
                        "--no-index", "--no-build-isolation", "--no-cache-dir", "--editable",
                        "--disable-pip-version-check", "--require-hashes", "-e", "-r",
                        "--requirement", "-c", "--constraint"})  # fmt: skip


def _project_into_workspace_venv(cmd: Cmd, ctx: Context) -> bool:
    """A virtualenv of the workspace installing the project's own files into itself
    (``./.venv/bin/pip install -e . --no-deps``, ``.venv/bin/python -m pip install -r
    requirements.txt``, ``uv pip install -e .``): confined to the workspace like ``uv sync``.
    A package named by name (a typosquat is one letter away), another index or an install
    outside asks."""
    if not _workspace_venv(cmd, ctx):
        return False
    return _project_files_only(cmd, ctx, popular=typosquat.TRUSTED_PYPI)


def declared_install(cmd: Cmd, ctx: Context) -> bool:
    """``pip install`` of only the project's own files (see :func:`_project_declared`), or
    ``uv add``/``poetry add`` of popular packages into the project
    (:func:`_popular_into_project`)."""
    return (
        ("install" in cmd.args() and _project_declared(cmd, ctx))
        or _popular_into_project(cmd)
        or (bool(ctx.venv) and _project_into_workspace_venv(cmd, ctx))
    )


# Options that send an install elsewhere than the project, or take its packages from
# another index.
_ELSEWHERE = frozenset({"-g", "--global", "--location", "--registry", "--index",
                        "--default-index", "--index-url", "--extra-index-url", "-i",
                        "--source", "--find-links", "-f", "--trusted-host", "--prefix",
                        "--target"})  # fmt: skip


# Options of ``add`` that take a value which is not a package: a dependency group, extras.
_ADD_VALUED = frozenset({"--group", "-G", "--extras", "-E", "--extra", "--python"})


def _popular_into_project(cmd: Cmd) -> bool:
    """``npm install --save-dev vitest``, ``uv add httpx``: packages on the list of popular
    names that the typosquat rule guards (a near miss is denied), or of an npm scope its
    project owns (``@types/jest``), from the ecosystem's own index, into the project:
    ``node_modules`` or the project's environment. (``pip install
    NAME`` with the pip on PATH still asks: where it installs is not known.)"""
    node = cmd.name in ("npm", "pnpm", "yarn", "bun")
    if not (node or cmd.name in ("uv", "poetry", "pdm")) or any(cmd.dynamic):
        return False
    args = cmd.args()
    verbs = ("install", "i", "add") if node else ("add",)
    if not args or args[0] not in verbs:
        return False
    names = []
    valued = _ADD_VALUED | ({"--optional"} if cmd.name == "uv" else set())
    for index, word in enumerate(args[1:], start=1):
        if word.split("=", 1)[0] in _ELSEWHERE:
            return False
        if not word.startswith("-") and args[index - 1] not in valued:
            names.append(word)
    popular = typosquat.TRUSTED_NPM if node else typosquat.TRUSTED_PYPI
    return bool(names) and all(
        _bare(n, node=node) in popular
        or (node and _bare(n, node=node).startswith(typosquat.TRUSTED_NPM_SCOPES))
        for n in names
    )


def _bare(word: str, *, node: bool) -> str:
    """A package's name without its version or extras (``vitest@^2``, ``httpx[http2]>=0.27``)."""
    word = word.lower()
    if node:
        at = word.rfind("@")
        return word[:at] if at > 0 else word
    name, sign, spec = word.partition("@")  # poetry add requests@^2.32; not name@URL
    word = name if sign and not re.search(r"[:/]", spec) else word
    return re.split(r"[=<>!~\[;]", word, maxsplit=1)[0].strip()


def _project_declared(cmd: Cmd, ctx: Context) -> bool:
    """``pip install -r requirements.txt``, ``pip install -e '.[dev]'`` with the pip on PATH:
    what it installs is what the project declares (as ``npm ci`` or ``poetry install`` do),
    from the default index; where depends on the Python the shell has (a venv, or the user's
    site, or refused by an externally managed system Python). ``--user``, a target, another
    index or a file the line wrote itself still ask."""
    if not cmd.name.startswith("pip") or cmd.is_dynamic(0) or "/" in cmd.argv[0]:
        return False  # /usr/bin/pip: the system's own Python, named on purpose
    return _project_files_only(cmd, ctx)


def _project_files_only(cmd: Cmd, ctx: Context, popular: frozenset[str] = frozenset()) -> bool:
    args = cmd.args()
    if "install" not in args:
        return False
    start = args.index("install") + 1
    operands = 0
    for index, word in enumerate(args[start:], start=start + 1):
        flag = word.split("=", 1)[0]
        if args[index - 2] in ("--python", "-p") and cmd.name == "uv":
            continue  # the interpreter _workspace_venv found inside the workspace
        if word.startswith("-"):
            if flag not in _PIP_FLAGS and not (cmd.name == "uv" and flag in ("--python", "-p")):
                return False
            continue
        if _bare(word, node=False) in popular and not cmd.is_dynamic(index):
            operands += 1  # a popular package by name, into the workspace's own venv
            continue
        listed = args[index - 2] in ("-r", "--requirement", "-c", "--constraint")
        bare = listed and not re.match(r"^([/~$.]|\w+://)", word)  # -r requirements.lock
        local = _local_path("./" + word if bare else word, ctx)
        if cmd.is_dynamic(index) or not local or ctx.wrote(word):
            return False
        operands += 1
    return operands > 0


def _workspace_venv(cmd: Cmd, ctx: Context) -> bool:
    """``uv pip`` (the project's .venv, or ``--python`` of one in the workspace) or a pip
    inside the workspace (``./.venv/bin/pip``)."""
    if cmd.name == "uv" and cmd.args()[:1] == ("pip",):
        python = option_value(cmd.args(), ("--python", "-p"))
        return python is None or paths.in_workspace(ctx.resolve(python), ctx.workspace)
    if cmd.name.startswith("pip") and "/" not in cmd.argv[0] and ctx.venv:
        return True  # after "source .venv/bin/activate", pip is that virtualenv's
    if not cmd.name.startswith("pip") or "/" not in cmd.argv[0] or cmd.is_dynamic(0):
        return False
    return paths.in_workspace(ctx.resolve(cmd.argv[0]), ctx.workspace)


def _local_path(word: str, ctx: Context) -> bool:
    """``.``, ``./pkg``, ``requirements.txt``, ``dist/x.whl`` inside the workspace: a file
    of the project, not a name looked up on an index."""
    word = re.sub(r"\[[\w,. -]*\]$", "", word)  # .[dev]: the project with its extras
    if re.search(r"://|^\w+\+|@|^[\w.-]+:", word):
        return False  # git+https://…, name @ URL: fetched, not the project's file
    looks_local = word in (".", "..") or word.startswith(("./", "/", "~")) or "/" in word
    looks_local = looks_local or word.endswith((".txt", ".whl", ".tar.gz", ".zip", ".in"))
    return looks_local and paths.in_workspace(ctx.resolve(word), ctx.workspace)


HANDLERS: dict[str, Handler] = {
    "shutdown": _power,
    "reboot": _power,
    "halt": _power,
    "poweroff": _power,
    "init": _power,
    "telinit": _power,
    "systemctl": _power,
    **processes.HANDLERS,
    "npm": _install,
    "pnpm": _install,
    "yarn": _install,
    "pacman": _install,
    "poetry": lambda cmd, ctx: _squatted(cmd),  # poetry add reqeusts: a near miss is denied
    "pdm": lambda cmd, ctx: _squatted(cmd),
    **{n: _install for n in (*_INSTALLERS, "mix")},
}
