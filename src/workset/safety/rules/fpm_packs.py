"""fpm packing a workspace folder into a package, and what such a package must not carry.

:func:`fpm` vouches for ``fpm -s dir -t deb -n x -v 1.2 -C build/root -p dist/ usr/``: the
input read from the workspace, the package written there, its install scripts only stored
in it (they run where the package is installed, later). Only known options count; a source
that fetches (``-s gem``, ``-s python``), templates that run Ruby (``--template-scripts``),
signing and editing ask.

:func:`fpm_harms` denies a package that carries the home's keys (``-C / home/dev/.ssh``) and
judges, as code, the install scripts this line wrote (``printf '…curl … | sh' > postinst &&
fpm … --after-install postinst``): what would be denied run now is denied shipped in a
package that runs it as root on every machine that installs it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    Voucher,
    deny_finding,
    unknown_program,
)
from workset.safety.rules.confinement import inside, outside
from workset.safety.rules.secret_paths import in_key_tree, is_secret

_SOURCES = frozenset({"dir", "tar", "deb", "rpm", "zip", "empty"})
_SCRIPTS = frozenset({"--after-install", "--before-install", "--after-remove", "--before-remove",
                      "--after-upgrade", "--before-upgrade", "--rpm-posttrans",
                      "--rpm-pretrans", "--deb-after-purge"})  # fmt: skip
_PLACES = frozenset({"-p", "--package", "-C", "--chdir", "--workdir", "--inputs",
                     "--exclude-file", "--deb-changelog", "--rpm-changelog",
                     "--deb-custom-control", "--config-files", *_SCRIPTS})  # fmt: skip
_TEXT = frozenset({"-s", "--input-type", "-t", "--output-type", "-n", "--name", "-v",
                   "--version", "--iteration", "--epoch", "-a", "--architecture", "-m",
                   "--maintainer", "--vendor", "--license", "--description", "--url",
                   "--category", "-d", "--depends", "--provides", "--conflicts", "--replaces",
                   "--directories", "-x", "--exclude", "--rpm-digest", "--rpm-compression",
                   "--deb-compression", "--rpm-os", "--deb-priority", "--deb-field",
                   "--rpm-summary", "--rpm-user", "--rpm-group", "--deb-user", "--deb-group",
                   "--prefix", "--log", "--deb-recommends", "--deb-suggests",
                   "--deb-pre-depends", "--rpm-dist", "--rpm-tag", "--deb-dist"})  # fmt: skip
_FLAGS = frozenset({"-f", "--force", "--verbose", "--debug", "--no-depends", "--no-auto-depends",
                    "--deb-no-default-config-files", "--rpm-auto-add-directories",
                    "--rpm-use-file-permissions", "--deb-use-file-permissions",
                    "--no-deb-use-file-permissions"})  # fmt: skip
_DYNAMIC_OK = frozenset({"-v", "--version", "--iteration", "--epoch"})


def _split(cmd: Cmd) -> tuple[dict[str, list[str]], list[str], str | None]:
    """The options with their values, the inputs, and the first word fpm is not known to take."""
    options: dict[str, list[str]] = {}
    inputs: list[str] = []
    argv = cmd.argv
    index = 1
    while index < len(argv):
        word = argv[index]
        name, eq, value = word.partition("=")
        if name in _PLACES | _TEXT:
            if not eq:
                index += 1
                value = argv[index] if index < len(argv) else ""
            if cmd.is_dynamic(index) and name not in _DYNAMIC_OK:
                return options, inputs, word
            options.setdefault(name, []).append(value)
        elif word.startswith("-"):
            if word not in _FLAGS:
                return options, inputs, word
        elif cmd.is_dynamic(index):
            return options, inputs, word
        else:
            inputs.append(word)
        index += 1
    return options, inputs, None


def _input_places(options: dict[str, list[str]], inputs: list[str]) -> list[str]:
    """Where the inputs are read from: each relative to ``-C`` (``src=dest`` reads ``src``)."""
    base = (options.get("-C") or options.get("--chdir") or [""])[-1]
    found = []
    for word in inputs:
        source = word.split("=", 1)[0]
        found.append(source if source.startswith(("/", "~")) or not base else f"{base}/{source}")
    return found


def fpm(cmd: Cmd, ctx: Context) -> Finding | None:
    options, inputs, unknown = _split(cmd)
    if unknown is not None:
        return unknown_program("fpm", f" (the option {unknown!r} is not one known to be safe)")
    source = (options.get("-s") or options.get("--input-type") or [""])[-1]
    if source not in _SOURCES:
        return unknown_program("fpm", f" (-s {source or '?'} may fetch its input)")
    places = [v for name in _PLACES for v in options.get(name, ())]
    for word in places + _input_places(options, inputs):
        if not inside(word, ctx):
            return outside(word, "fpm")
    return None


def fpm_harms(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    options, inputs, _ = _split(cmd)
    for place in _input_places(options, inputs):
        path = paths.normalize(place if place.startswith(("/", "~")) else ctx.resolve(place))
        if is_secret(path) or in_key_tree(path):
            yield deny_finding(
                "package-secrets",
                f"fpm packs {place} (the home's keys or credentials) into a package, where "
                "anyone who gets the package reads them",
                "package only the build's output, and keep secrets out of artifacts",
            )
            return
    for name in _SCRIPTS:
        for word in options.get(name, ()):
            text = ctx.scripts.get(ctx.resolve(word))
            if text:  # written by this line: judged as what the package runs when installed
                yield Nested(re.sub(r"^#!.*\n", "", text), deny_only=True)


VOUCHERS: dict[str, Voucher] = {"fpm": fpm}
HANDLERS: dict[str, Handler] = {"fpm": fpm_harms}
