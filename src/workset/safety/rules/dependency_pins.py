"""The checks that keep a project's dependencies what was reviewed: hashes and version pins.

A requirements file with ``--hash=sha256:…`` lines, a lockfile's ``integrity`` fields, a
``go.sum`` and exact pins (``requests==2.31.0``) make every install fetch exactly what was
vetted. An in-place edit (``sed -i``) that deletes the hashes or strips the
pins from such a file lets the next install take whatever a registry serves under the name,
which is how a poisoned release gets in; it asks. Other edits of the same files (a version
bumped by hand, a comment fixed) stay workspace writes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result
from workset.safety.rules.writes import in_place_files

_MANIFEST = re.compile(
    r"(^|/)(requirements[\w.-]*\.(txt|in)|constraints[\w.-]*\.txt|Pipfile\.lock|poetry\.lock|"
    r"uv\.lock|pdm\.lock|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|"
    r"go\.sum|Cargo\.lock|Gemfile\.lock|composer\.lock|gradle\.lockfile|packages\.lock\.json)$"
)
# A script that names the hashes, or deletes a pin: ``/--hash=/d``, ``s/==[0-9.]*//``.
_HASHES = re.compile(r"hash|sha(1|256|384|512)|integrity|checksum|h1:", re.IGNORECASE)
_UNPINS = re.compile(r"s(.)[^\1]*(==|~=|@)[^\1]*\1\1")


def _unpinned(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    files = in_place_files(cmd)
    hit = next((f for f in files if _MANIFEST.search(f)), None)
    if hit is None:
        return
    script = " ".join(a for a in cmd.args() if a not in files)
    if _HASHES.search(script) or _UNPINS.search(script):
        yield Finding(
            "dependency-unpinned",
            "ask",
            f"{cmd.name} -i strips hashes or version pins from {hit}, so the next install takes "
            "whatever the registry serves under those names; a human must confirm, or change "
            "the versions with the package manager, which records new hashes",
        )


# (sed only: giving perl or ruby a handler would stop them being judged as code)
HANDLERS: dict[str, Handler] = {"sed": _unpinned}
