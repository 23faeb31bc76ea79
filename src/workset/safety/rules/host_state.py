"""Firewall and security state printed: the reads behind ``system_tampering`` look-alikes.

``iptables -L -n``, ``nft list ruleset``, ``ufw status verbose``, ``firewall-cmd --list-all``,
``getcap /usr/bin/ping``, ``aa-status``, ``aa-enabled``, ``auditctl -s``, ``fdesetup
status``, ``fail2ban-client status`` and the audit trail searched (``ausearch``,
``aureport``) only show how the machine is protected and what its watchers recorded; the
same programs with a change (``iptables -F``, ``ufw disable``, ``nft flush``,
``firewall-cmd --add-port``) ask as before (or are denied by the hardening rules).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    unknown_program,
)

# iptables options that only list, and those that only shape the listing.
_LISTS = frozenset({"-L", "--list", "-S", "--list-rules"})
_SHAPES = re.compile(r"-[nvx]+|--numeric|--verbose|--exact|--line-numbers|-t|--table|\w+")
_READS = {
    "nft": (("list",),),
    "ufw": (("status",), ("status", "verbose"), ("status", "numbered"), ("show", "raw"),
            ("app", "list"), ("version",), ("--version",)),
    "firewall-cmd": (("--state",), ("--list-all",), ("--get-active-zones",),
                     ("--get-default-zone",), ("--list-ports",), ("--list-services",)),
    "fdesetup": (("status",), ("isactive",)),
    "mokutil": (("--sb-state",),),
    "getsebool": (("-a",),),
    "auditctl": (("-s",), ("-l",)),
    "fail2ban-client": (("status",), ("ping",), ("version",), ("banned",), ("--version",)),
    # pf's rules and state shown, or a rules file parsed without loading it (-n)
    "pfctl": (("-s",), ("-sr",), ("-sa",), ("-sn",), ("-ss",), ("-si",), ("-vsr",), ("-nf",),
              ("-vnf",), ("-n", "-f"), ("-nvf",)),
    "socketfilterfw": (("--getglobalstate",), ("--getstealthmode",), ("--getblockall",),
                       ("--getloggingmode",), ("--listapps",), ("--getappblocked",),
                       ("--getallowsigned",)),
}  # fmt: skip
# Programs that only answer whether a protection is on, or list what is loaded.
_ANSWERS = frozenset({"getcap", "aa-status", "apparmor_status", "aa-enabled", "lsmod",
                      "selinuxenabled"})  # fmt: skip
# The audit trail searched or summed up (who changed accounts, which rules fired): reads only.
_AUDIT_READERS = frozenset({"ausearch", "aureport"})


def state_read(cmd: Cmd, ctx: Context) -> Finding | None:
    args = cmd.args()
    if cmd.name in ("iptables", "ip6tables", "iptables-save", "ip6tables-save"):
        if cmd.name.endswith("-save") and not any(a.startswith(">") for a in args):
            return None  # prints the rules
        if set(args) & _LISTS and all(_SHAPES.fullmatch(a) for a in args if a not in _LISTS):
            return None
    elif cmd.name in _ANSWERS:
        return None  # setcap, aa-disable, modprobe, setenforce are the changes
    elif cmd.name in _AUDIT_READERS and not any(cmd.dynamic):
        return None  # ausearch -k identity -i, aureport --auth: the audit log read
    else:
        reads = _READS.get(cmd.name, ())
        words = tuple(a for a in args if a not in ("-a", "--all")) if cmd.name == "nft" else args
        if any(words[: len(r)] == r for r in reads) and (
            cmd.name not in ("ufw", "firewall-cmd") or len(args) <= 2
        ):
            return None
    return unknown_program(" ".join(cmd.argv[:2]))


_NAMES = (
    "iptables",
    "ip6tables",
    "iptables-save",
    "ip6tables-save",
    *_ANSWERS,
    *_READS,
    *_AUDIT_READERS,
)
VOUCHERS = {n: state_read for n in _NAMES}


def reads_state(cmd: Cmd) -> bool:
    """``cmd`` only prints how the machine is protected or connected (``ufw status``,
    ``iptables -L -n``, ``ss -tlnp``, ``lsof -i :3000``): under ``sudo`` it reads as root what
    only root may read, and changes nothing."""
    if cmd.name in _NAMES:
        return state_read(cmd, Context()) is None
    if cmd.name == "ss":
        return not {"-K", "--kill"} & set(cmd.args())
    return cmd.name in ("lsof", "netstat") and not any(cmd.dynamic)


def _getent(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``getent shadow root`` prints what ``/etc/shadow`` holds: judged as reading it."""
    database = next((a for a in cmd.args() if not a.startswith("-")), "")
    if database in ("shadow", "gshadow"):
        yield Nested(f"cat /etc/{database}")


HANDLERS: dict[str, Handler] = {"getent": _getent}
