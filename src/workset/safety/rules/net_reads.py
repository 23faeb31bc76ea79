"""A network engineer's reads and configuration checks, shown to change nothing.

- a firewall rule file parsed without loading it: ``iptables-restore --test < rules.v4``,
  ``nft -c -f edge.nft`` (what ``nft list`` already reads stays with
  :mod:`~workset.safety.rules.host_state`);
- the capture tools asked what they could listen on (``tcpdump -D``, ``tshark -D``) and a
  saved capture summed up by tshark's statistics (``tshark -r x.pcapng -q -z conv,tcp``);
- nmap asked about itself (``nmap --script-help ssl-enum-ciphers``, ``--iflist``): it scans
  nothing, so :func:`offline` keeps it from asking as network contact;
- WireGuard's key tools, which only compute (``wg genkey``, ``wg pubkey``), ``wg show``
  without the fields that print keys, and ``wg-quick strip`` of a configuration in the
  workspace; ``sudo wg show`` reads as root (:func:`root_read`);
- the neighbour table and traffic control listed (``arp -an``, ``tc -s qdisc show``).

The same programs with a change (``arp -d``, ``tc qdisc add``, ``wg set``, ``nft -f``
without ``-c``) ask as before, or are denied by :mod:`~workset.safety.rules.net_cuts`.
"""

from __future__ import annotations

import re

from workset.safety.rules.attack_targets import VOUCHERS as _AIMED
from workset.safety.rules.base import Cmd, Context, Finding, unknown_program
from workset.safety.rules.confinement import inside, outside
from workset.safety.rules.host_state import state_read
from workset.safety.rules.security_tools import VOUCHERS as _CAPTURES

# tshark -z statistics: a name and its comma-separated parameters, nothing a shell reads.
_STATISTIC = re.compile(r"^[\w.-]+(,[\w.:/=()!&|<> -]*)*$")
_NMAP_SELF = frozenset({"--script-help", "--iflist", "-V", "--version", "-h", "--help"})
_WG_KEYS = frozenset({"genkey", "pubkey", "genpsk"})
_WG_SECRET_FIELDS = frozenset({"private-key", "preshared-keys", "dump"})
_ARP_READS = re.compile(r"^-[anve]+$")
_TC_FLAGS = re.compile(r"^-(s|d|j|p|stats|details|json|pretty|statistics|iec|n|netns)$")
_TC_OBJECTS = frozenset({"qdisc", "class", "filter", "actions", "chain", "monitor"})


def _restore_test(cmd: Cmd, ctx: Context) -> Finding | None:
    """``iptables-restore --test < rules.v4``: the rules parsed, nothing loaded."""
    args = cmd.args()
    if any(cmd.dynamic) or not {"-t", "--test"} & set(args):
        return unknown_program(cmd.name, " (beyond testing a rules file)")
    files = [a for a in args if not a.startswith("-")]
    files += [t for op, t in cmd.redirects if op == "<"]
    for path in files:
        if not inside(path, ctx):
            return outside(path, cmd.name)
    return None


def _nft(cmd: Cmd, ctx: Context) -> Finding | None:
    """``nft -c -f edge.nft``: the file checked, not applied; ``nft list`` as before."""
    args = cmd.args()
    if {"-c", "--check"} & set(args) and not any(cmd.dynamic):
        files = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-f", "--file")]
        if files and all(inside(f, ctx) for f in files):
            return None
    return state_read(cmd, ctx)


def _capture(cmd: Cmd, ctx: Context) -> Finding | None:
    """``tcpdump -D``; ``tshark -r x.pcapng -q -z conv,tcp`` (tcpdump's -z runs a program)."""
    args = cmd.args()
    if args and all(a in ("-D", "--list-interfaces") for a in args):
        return None
    if cmd.name == "tshark" and "-z" in args:
        kept: list[str] = [cmd.argv[0]]
        skip = False
        for index, word in enumerate(args):
            if skip:
                skip = False
            elif word == "-z" and index + 1 < len(args) and _STATISTIC.match(args[index + 1]):
                skip = True
            else:
                kept.append(word)
        if len(kept) < len(cmd.argv) and "-z" not in kept:
            return _CAPTURES["tshark"](cmd.with_argv(kept), ctx)
    return _CAPTURES[cmd.name](cmd, ctx)


def offline(cmd: Cmd) -> bool:
    """``nmap --script-help NAME``, ``nmap --iflist``: nmap describes itself, scans nothing."""
    args = cmd.args()
    return cmd.name == "nmap" and bool(args) and args[0] in _NMAP_SELF and not any(cmd.dynamic)


def _nmap(cmd: Cmd, ctx: Context) -> Finding | None:
    return None if offline(cmd) else _AIMED["nmap"](cmd, ctx)


def _wg(cmd: Cmd, ctx: Context) -> Finding | None:
    """``wg genkey | wg pubkey``, ``wg show wg0 latest-handshakes``: computed or listed."""
    args = cmd.args()
    if args[:1] and args[0] in _WG_KEYS and len(args) == 1:
        return None
    if (args[:1] in ((), ("show",))) and not _WG_SECRET_FIELDS & set(args):
        return None
    return unknown_program(" ".join(cmd.argv[:2]), " (its subcommand is not one known to be safe)")


def _wg_quick(cmd: Cmd, ctx: Context) -> Finding | None:
    """``wg-quick strip configs/vpn/wg0.conf``: the file printed without wg-quick's keys."""
    args = cmd.args()
    if len(args) == 2 and args[0] == "strip" and not any(cmd.dynamic) and "/" in args[1]:
        return None if inside(args[1], ctx) else outside(args[1], cmd.name)
    return unknown_program(" ".join(cmd.argv[:2]))


def _arp(cmd: Cmd, ctx: Context) -> Finding | None:
    """``arp -an``: the neighbour table listed (``-d``, ``-s``, ``-f`` change it)."""
    args = list(cmd.args())
    if "-i" in args[:-1]:
        del args[args.index("-i") : args.index("-i") + 2]
    if all(_ARP_READS.match(a) or not a.startswith("-") for a in args) and len(args) <= 2:
        return None
    return unknown_program(cmd.name)


def _tc(cmd: Cmd, ctx: Context) -> Finding | None:
    """``tc -s qdisc show dev eth0``, ``tc filter ls``: traffic control listed."""
    words = [a for a in cmd.args() if not _TC_FLAGS.match(a)]
    if any(cmd.dynamic) or len(words) < 1 or words[0] not in _TC_OBJECTS:
        return unknown_program(cmd.name)
    if words[0] == "monitor" or (len(words) > 1 and words[1] in ("show", "list", "ls")):
        return None
    if len(words) == 1:
        return None  # tc qdisc: shows them
    return unknown_program(" ".join(cmd.argv[:3]))


def root_read(cmd: Cmd) -> bool:
    """``sudo wg show wg0``, ``sudo tc -s qdisc show``: only root may list them."""
    check = VOUCHERS.get(cmd.name)
    return cmd.name in ("wg", "tc", "arp") and check is not None and check(cmd, Context()) is None


VOUCHERS = {
    "iptables-restore": _restore_test,
    "ip6tables-restore": _restore_test,
    "nft": _nft,
    "nmap": _nmap,
    "tcpdump": _capture,
    "tshark": _capture,
    "wg": _wg,
    "wg-quick": _wg_quick,
    "arp": _arp,
    "tc": _tc,
}
