"""Language runtimes installed by version from their official distributions, and local certs.

``nvm install 20``, ``fnm install 22.3.0``, ``pyenv install 3.12.4``, ``rustup update stable``,
``volta install node@20`` and ``corepack prepare pnpm@9.1.0 --activate`` put a version of the
language's own runtime (nodejs.org's, python.org's source, the Rust project's) into the
version manager's folder of the user; nothing else of the machine changes and nothing but the
runtime's publisher is trusted, as round 16 let ``go install`` of the Go project's tools run.
A version is a number or a channel (``lts/*``, ``stable``); a name that is not one
(``pyenv install miniconda3-latest`` is a vendor's installer, ``nvm install
https://…``), a plugin (``asdf plugin add``) or a mirror asks as before. ``mkcert HOST…``
signs a certificate for local names into the workspace with the CA already there; ``mkcert
-install`` puts that CA into the trust stores and asks.
"""

from __future__ import annotations

import re

from workset.safety.rules.base import Cmd, Context, Finding, unknown_program
from workset.safety.rules.confinement import inside
from workset.safety.rules.known_lists import SUBCOMMANDS
from workset.safety.rules.known_tools import shell_setup

_VERSION = re.compile(r"v?\d+(\.\d+){0,2}|lts/[\w*-]+|--lts|node|stable|beta|nightly|latest")
_MANAGERS = {"nvm": "install", "fnm": "install", "pyenv": "install", "nodenv": "install",
             "rbenv": "install", "goenv": "install"}  # fmt: skip
_VOLTA_TOOLS = re.compile(r"(node|npm|yarn|pnpm)(@[\w.^~-]+)?")


def _versions(words: tuple[str, ...], pattern: re.Pattern[str]) -> bool:
    operands = [w for w in words if not w.startswith("-") or w == "--lts"]
    options = [w for w in words if w.startswith("-") and w != "--lts"]
    return (
        bool(operands)
        and all(pattern.fullmatch(w) for w in operands)
        and all(o in ("-s", "--skip-existing", "--default", "--use", "--latest") for o in options)
    )


def runtime_install(cmd: Cmd, ctx: Context) -> Finding | None:
    """None when ``cmd`` installs an official runtime by version; else why it asks."""
    args = cmd.args()
    if (args[:1] and args[0] in SUBCOMMANDS.get(cmd.name, ())) or shell_setup(cmd):
        return None  # nvm ls, rustup show: their reads; pyenv init -: this shell's setup
    verb = _MANAGERS.get(cmd.name)
    if verb is not None and args[:1] == (verb,) and _versions(args[1:], _VERSION):
        return None
    if cmd.name == "rustup" and args[:1] == ("update",) and _versions(args[1:] or ("stable",),
                                                                     _VERSION):  # fmt: skip
        return None
    if (
        cmd.name == "volta"
        and args[:1] in (("install",), ("pin",))
        and _versions(args[1:], _VOLTA_TOOLS)
    ):
        return None
    if cmd.name == "corepack" and (
        args in (("enable",), ("enable", "pnpm"), ("enable", "yarn"), ("--version",))
        or (args[:1] in (("prepare",), ("use",), ("install",)) and _versions(
            tuple(a for a in args[1:] if a != "--activate"), _VOLTA_TOOLS))
    ):  # fmt: skip
        return None
    if cmd.name == "mkcert" and not {"-install", "-uninstall"} & set(args):
        files = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-cert-file", "-key-file",
                                                                      "-p12-file")]  # fmt: skip
        if all(inside(f, ctx) for f in files):
            return None
    return unknown_program(" ".join(cmd.argv[:2]))


VOUCHERS = {n: runtime_install for n in (*_MANAGERS, "rustup", "volta", "corepack", "mkcert")}
