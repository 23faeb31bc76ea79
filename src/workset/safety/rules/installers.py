"""A vendor's published installer run as ``curl … | sh``: still code unseen, but the
project's own, on the exact https host and path that serve it, so it asks instead of being
denied (``https://sh.rustup.rs | sh``). Applied to a command's findings after the analysis
(:func:`workset.safety.commands.analyze_command`): only when every address the line names is
such an installer and the download run is the only thing denied.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workset.safety.rules.base import Finding

# The install scripts projects publish for ``curl … | sh``, by the exact https host and path
# that serve them: running one is still code unseen, but the vendor's own, so it asks.
_OFFICIAL_INSTALLERS = {
    "install.python-poetry.org": "", "sh.rustup.rs": "", "get.docker.com": "",
    "astral.sh": "/uv/", "bun.sh": "/install", "deno.land": "/install.sh",
    "get.pnpm.io": "/install.sh", "get.sdkman.io": "", "pyenv.run": "",
    "getcomposer.org": "/installer", "starship.rs": "/install.sh", "fnm.vercel.app": "/install",
    "get.volta.sh": "", "micro.mamba.pm": "/install.sh", "sdk.cloud.google.com": "",
    "ollama.com": "/install.sh", "install.determinate.systems": "/nix",
    "nixos.org": "/nix/install", "raw.githubusercontent.com": ("/nvm-sh/nvm/",
    "/Homebrew/install/", "/helm/helm/"),
}  # fmt: skip


def _official(url: str) -> bool:
    match = re.match(r"https://([a-z0-9.-]+)(/[^?#]*)?", url, re.IGNORECASE)
    if match is None:
        return False
    prefixes = _OFFICIAL_INSTALLERS.get(match.group(1).lower())
    if prefixes is None:
        return False
    path = match.group(2) or "/"
    return any(path.startswith(p) for p in ((prefixes,) if isinstance(prefixes, str) else prefixes))


_URL = re.compile(r"[a-z][a-z0-9+.-]*://[^\s'\"|;&)<>`]+", re.IGNORECASE)


def official_installer(command: str, found: Sequence[Finding]) -> list[Finding]:
    """``found`` with a download run unseen asked instead of denied when every address the
    line names serves a project's published installer and nothing else is denied."""
    denied = [f for f in found if f.severity == "deny"]
    if not denied or any(f.rule != "download-exec" for f in denied):
        return list(found)  # the common case: no address is read at all
    urls = _URL.findall(command)
    if not urls or not all(_official(u) for u in urls):
        return list(found)
    return [
        Finding(
            "official-installer",
            "ask",
            f"runs the installer {urls[0]} publishes, unread; it installs software outside "
            "the workspace, so a human must confirm",
        )
        if f.rule == "download-exec"
        else f
        for f in found
    ]
