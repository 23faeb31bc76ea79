"""Browsers showing this machine's pages: headless screenshots, PDFs, the DOM; ``open``.

``google-chrome --headless=new --user-data-dir=/tmp/p --screenshot=out/home.png
http://localhost:3000`` loads a page of the dev server into a throw-away profile and writes
one file: it runs when every page is on loopback (or a workspace file), the profile is a
folder of the workspace or a scratch folder (not the user's, with its logins and cookies),
what it writes lands in the workspace, and every option is one of the rendering options
below. Anything else (a remote page, the default profile, a debugging port, an unknown
option) asks as an unknown program.

``xdg-open http://localhost:3000``, ``open out/report.html``: the user's browser or viewer shows
a page of the dev server or a document of the workspace. A remote address (the browser holds
the user's logins), an option, or a file that is not a document (``open run.command`` runs
it) asks.
"""

from __future__ import annotations

import re

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Finding, unknown_program
from workset.safety.rules.confinement import inside, outside
from workset.safety.rules.loopback import is_local

BROWSERS = ("google-chrome", "google-chrome-stable", "chromium", "chromium-browser", "chrome",
            "headless_shell", "microsoft-edge", "brave-browser")  # fmt: skip
_RENDERING = re.compile(
    r"^--(headless(=(new|old))?|disable-gpu|no-sandbox|hide-scrollbars|no-first-run|"
    r"disable-extensions|incognito|disable-dev-shm-usage|dump-dom|mute-audio|"
    r"run-all-compositor-stages-before-draw|no-default-browser-check|"
    r"(window-size|virtual-time-budget|timeout|default-background-color|"
    r"force-device-scale-factor|lang)=[\w.,-]+)$"
)
_OUTPUTS = ("--screenshot", "--print-to-pdf", "--user-data-dir")
_FILE = re.compile(r"^file://(?!/)|^[\w./-]+\.html?$")


def rendered(cmd: Cmd, ctx: Context) -> Finding | None:
    args = cmd.args()
    why = unknown_program(cmd.name, " (a browser: only headless rendering of local pages "
                          "into a throw-away profile is known)")  # fmt: skip
    if any(cmd.dynamic) or not any(a.startswith("--headless") for a in args):
        return why
    profile = None
    for word in args:
        option, equals, value = word.partition("=")
        if option in _OUTPUTS and equals:
            if not inside(value, ctx):
                return outside(value, cmd.name)
            profile = value if option == "--user-data-dir" else profile
        elif word.startswith("-") and option not in _OUTPUTS and not _RENDERING.match(word):
            return why  # an option that is not only rendering
        elif not word.startswith("-") and not (is_local(word) or _FILE.match(word)):
            return why  # a page of another machine
    return None if profile is not None else why


_OPENERS = ("xdg-open", "open", "sensible-browser", "www-browser", "x-www-browser")
_DOCUMENT = re.compile(r"\.(html?|pdf|png|jpe?g|gif|svg|webp|md|txt|csv|json)$", re.IGNORECASE)


def opened(cmd: Cmd, ctx: Context) -> Finding | None:
    """Vouches for opening loopback pages and workspace documents in the user's viewer."""
    args = cmd.args()
    shown = [a for i, a in enumerate(args, start=1) if not cmd.is_dynamic(i)
             and not a.startswith("-") and (is_local(a) or (_DOCUMENT.search(a)
                                                            and not a.startswith(("/", "~"))
                                                            and inside(a, ctx)))]  # fmt: skip
    if args and len(shown) == len(args):
        return None
    if cmd.name == "open" and _own_app(cmd, ctx):
        return None
    return unknown_program(cmd.name, " (only pages of this machine and documents of the "
                           "workspace are known to be harmless to open)")  # fmt: skip


def _own_app(cmd: Cmd, ctx: Context) -> bool:
    """``open build/Release/App.app``: macOS starts the app the project built, as
    ``./target/release/app`` would run it (not one this line fetched)."""
    apps = [a for a in cmd.args() if a not in ("-n", "-W", "--wait-apps", "--new")]
    return (
        len(apps) == 1
        and not any(cmd.dynamic)
        and apps[0].rstrip("/").endswith(".app")
        and paths.in_workspace(ctx.resolve(apps[0]), ctx.workspace)
        and not ctx.wrote(apps[0])
    )


VOUCHERS = {**{n: rendered for n in BROWSERS}, **{n: opened for n in _OPENERS}}
