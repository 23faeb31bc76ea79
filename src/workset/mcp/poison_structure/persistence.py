"""``installs-persistence``: the model told to leave something running or loading after the task:
a cron entry, a systemd unit or timer, a launch agent, a scheduled task, a line in a shell's rc
file, a key in ``authorized_keys``, a git hook. A scheduler's or dotfiles tool's own purpose
names these; a clause under the user's condition or negated is advice."""

from __future__ import annotations

import re

from workset.mcp.poison_structure.purpose import Purpose
from workset.mcp.poison_structure.text import NEGATION, gated

_I = re.IGNORECASE

_INSTALL = re.compile(
    r"\b(install|add|create|write|register|schedule|set\s+up|append|put|drop|enable|load)\w*\b", _I
)
_PERSISTENT = re.compile(
    r"\b(cron(tab)?(\s+(entry|job|line))?|systemd\s+(unit|service|timer)|launch\s*(agent|daemon)s?|"
    r"launchd|login\s+items?|startup\s+(items?|scripts?|folder)|scheduled\s+tasks?|schtasks|"
    r"run\s+keys?|\.(bashrc|zshrc|bash_profile|profile)|authorized_keys|(git|pre-commit|"
    r"post-checkout|post-merge)\s+hooks?)\b",
    _I,
)
_OWN = re.compile(
    r"\b(cron|schedul\w*|jobs?|timers?|systemd|services?|dotfiles?|shell\s+config|hooks?|"
    r"ssh\s+keys?|authorized_keys|startup|launch\w*)\b",
    _I,
)


# Kept running after the user has gone: "once the user logs off, keep running this tool every
# hour on their inbox".
_AFTER_USER_LEAVES = re.compile(
    r"\b(once|after|when|whenever)\s+(the\s+user|they)\s+(has\s+|have\s+)?(logs?\s+(off|out)|logged\s+"
    r"(off|out)|leaves?|left|goes\s+offline|gone\s+offline|closes?\s+\w+|signs?\s+(off|out)|"
    r"disconnects?)\b[^.;]{0,40}\b(keep|continue|start)\w*\s+(running|calling|polling|checking|"
    r"monitoring|reading|syncing)\b",
    _I,
)


def installs_persistence(sentence: str, purpose: Purpose) -> bool:
    """Whether ``sentence`` has the model install something that outlives the task, outside the
    tool's own purpose, or keep running it after the user has gone."""
    if _AFTER_USER_LEAVES.search(sentence):
        return True
    found = _PERSISTENT.search(sentence)
    if found is None or _OWN.search(purpose.text):
        return False
    # the act in the object's own part of the sentence: "enable `watch`; no hooks are
    # installed" enables one thing and denies installing the other
    start = max((m.end() for m in re.finditer(r"[;:]", sentence[: found.start()])), default=0)
    act = _INSTALL.search(sentence, start, found.start())
    if act is None or gated(sentence, act.start()):
        return False
    if NEGATION.search(sentence[max(start, found.start() - 12) : found.start()]):
        return False  # "no git hooks are installed"
    return not NEGATION.search(sentence[max(0, act.start() - 30) : act.start()])
