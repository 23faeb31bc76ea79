"""Rules for persistence: anything that makes code run again later, on its own.

Scheduled jobs (``crontab``, ``at``), services (``systemctl enable``, ``launchctl load``) and
the places that run code at login, at boot or on every commit (shell startup files,
``~/.config/systemd``, ``~/.config/autostart``, ``LaunchAgents``, ``.git/hooks``, git's
``core.hooksPath``) all ask: an agent's work ends when its task does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result

_PLACES = re.compile(
    r"(^|/)\.git/hooks(/|$)|^~/\.config/(systemd|autostart)(/|$)|^/etc/(systemd|cron[^/]*|"
    r"init\.d|rc\.local|profile\.d|xdg/autostart)(/|$)|^/var/spool/cron(/|$)|"
    r"(^~|^/Library)/Library/Launch(Agents|Daemons)(/|$)|^/Library/Launch(Agents|Daemons)(/|$)|"
    r"^~/\.local/bin(/|$)|^~/\.(bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|"
    r"zlogin|config/fish/config\.fish|xprofile|xinitrc)$|^/etc/(bash\.bashrc|profile|"
    r"environment|ld\.so\.preload)$"
)
_SERVICE_CHANGES = frozenset({"enable", "start", "restart", "reload", "daemon-reload", "mask",
                              "unmask", "link", "edit", "set-property", "preset", "revert",
                              "import-environment", "set-environment", "stop", "disable",
                              "kill", "isolate", "try-restart", "reenable"})  # fmt: skip


def is_persistence_place(path: str) -> bool:
    """Code written to ``path`` runs later by itself (at login, boot, or a git event)."""
    return bool(_PLACES.search(path))


def persistence(what: str) -> Finding:
    return Finding(
        "persistence",
        "ask",
        f"{what}, so code keeps running after this task ends; a human must confirm, or run "
        "the command directly instead",
    )


def _crontab(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if cmd.args() != ("-l",):
        yield persistence(f"crontab {' '.join(cmd.args())} changes scheduled jobs".rstrip())


def _at(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if not set(cmd.args()) & {"-l", "-c"}:
        yield persistence(f"{cmd.name} schedules a command to run later")


def _services(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a for a in cmd.args() if not a.startswith("-")]
    changes = [w for w in words if w in _SERVICE_CHANGES]
    if cmd.name == "launchctl" and words[:1] and words[0] in ("load", "bootstrap", "submit",
                                                              "enable", "kickstart"):  # fmt: skip
        yield persistence(f"launchctl {words[0]} installs or starts a service")
    elif cmd.name == "service" and len(words) >= 2 and words[1] != "status":
        yield persistence(f"service {words[0]} {words[1]} changes a system service")
    elif cmd.name == "systemctl" and changes:
        yield persistence(f"systemctl {changes[0]} changes which services run")


HANDLERS: dict[str, Handler] = {
    "crontab": _crontab,
    "at": _at,
    "batch": _at,
    "systemctl": _services,
    "launchctl": _services,
    "service": _services,
}
