"""Attack tools used against others: what a security engineer's agent never runs.

The same scanners and guessers that test this machine (vouched for in
:mod:`~workset.safety.rules.attack_targets`) are attacks when aimed elsewhere, and some tools
only ever serve an attack. Denied, each with the reason:

- a scanner, fuzzer or password guesser aimed at a public host (``hydra … ssh://203.0.113.9``,
  ``ffuf -u https://someone-else.example/FUZZ``, ``masscan 0.0.0.0/0``): someone else's
  system, tested without their permission. A port scan of a public *name* asks: it may be the
  user's own service;
- a generated payload run at once (``msfvenom -p cmd/unix/reverse_bash … | bash``);
- commands run on another host with a password or hash given on the command line
  (``psexec``, ``wmiexec``, ``evil-winrm``, ``netexec -x``): lateral movement;
- the local network poisoned to sit between other machines (``arpspoof``, ``ettercap -M``,
  ``bettercap`` spoofing, ``mitm6``);
- a live capture searched for other people's logins (``tcpdump -A … | grep -i pass``,
  ``tshark -Y http.authorization``); reading a saved capture is analysis and is allowed.

``msfvenom -l`` only lists what it can generate and is vouched for with the targets.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.attack_targets import TOOLS, aim, host_of, place_of
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result
from workset.safety.rules.wrappers import unwrap


def _aimed_away(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    tool = TOOLS[cmd.name]
    for target in aim(cmd).targets:
        if place_of(target) != "public":
            continue
        named = re.search(r"[a-z]", host_of(target).split("/", 1)[0], re.IGNORECASE)
        if tool.kind == "probe" or (tool.kind == "scan" and named):
            continue  # a port scan or audit of a public name: maybe the user's own service
        yield Finding(
            "attack-external",
            "deny",
            f"{cmd.name} is aimed at {target}, a host on the internet that is not this "
            "machine: scanning or attacking someone else's system without their written "
            "permission is an attack; aim it at 127.0.0.1 or a lab the user owns, and ask",
        )
        return


# Programs that write an exploit's payload (shellcode, a reverse shell) to stdout.
_PAYLOAD_MAKERS = frozenset({"msfvenom", "msfpc", "donut", "sgn"})
# (the shells only: an interpreter given a handler would no longer be judged as code)
_RUNNERS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "eval", "source", "."})


def _payload_run(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    makers = [c.name for c in (unwrap(u, []) for u in cmd.upstream) if c.name in _PAYLOAD_MAKERS]
    if makers:
        yield Finding(
            "payload-run",
            "deny",
            f"{makers[0]} generates an exploit payload and {cmd.name} runs it at once, opening "
            "this machine to whoever it calls back; write payloads to a file in the "
            "workspace for analysis, never run them",
        )


_REMOTE_EXEC = re.compile(
    r"^(impacket-)?(psexec|wmiexec|smbexec|atexec|dcomexec)(\.py)?$|^evil-winrm$|"
    r"^(pth-)?winexe$|^(crackmapexec|cme|netexec|nxc)$"
)
_SECRET_OPTIONS = frozenset({"-hashes", "-H", "-p", "--password", "--hashes", "-aesKey"})
_LOGIN_TARGET = re.compile(r"^([\w.-]+/)?[^/:@\s]+:[^@\s]+@(?P<host>[\w.:\[\]-]+)$")


def _remote_exec(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``psexec 'corp/admin:Pass@10.0.0.5' cmd``, ``evil-winrm -i host -u a -p pw``."""
    args = cmd.args()
    hosts = [m.group("host") for a in args if (m := _LOGIN_TARGET.match(a))]
    secret = bool(hosts) or any(a in _SECRET_OPTIONS for a in args)
    if cmd.name in ("crackmapexec", "cme", "netexec", "nxc"):
        secret = secret and bool({"-x", "-X", "--exec-method"} & set(args))
    hosts += [a for a in args if not a.startswith("-") and place_of(a) in ("public", "private")]
    if secret and any(place_of(h) != "loopback" for h in hosts):
        yield Finding(
            "remote-exec",
            "deny",
            f"{cmd.name} logs in to another machine with a password or hash given here and "
            "runs commands there (lateral movement); an agent never does this — ask the user",
        )


def _spoof(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``arpspoof``, ``ettercap -M arp``, ``bettercap -eval 'arp.spoof on'``, ``mitm6``."""
    args = cmd.args()
    if {"-h", "--help", "-v", "--version"} & set(args):
        return
    if cmd.name == "ettercap" and not any(a in ("-M", "--mitm") or a.startswith("-M")
                                          for a in args):  # fmt: skip
        return
    if cmd.name == "bettercap" and not any("spoof" in a.lower() for a in args):
        return
    yield Finding(
        "network-spoof",
        "deny",
        f"{cmd.name} poisons the local network so that other machines' traffic passes through "
        "this one (a man in the middle), exposing their logins; test against your own "
        "service on 127.0.0.1 instead",
    )


_CAPTURES = frozenset({"tcpdump", "tshark", "ngrep", "tcpflow", "dumpcap", "termshark"})
_CREDENTIAL = re.compile(
    r"pass|authori[sz]ation|(^|[^a-z])auth([^a-z]|$)|cookie|credential|token|secret|login|"
    r"(^|[^a-z])user",
    re.IGNORECASE,
)


def live(cmd: Cmd) -> bool:
    """A capture from an interface, not from a saved file (``-r capture.pcap``)."""
    if cmd.name not in _CAPTURES:
        return False
    return not any(a == "-r" or re.fullmatch(r"-[a-zA-Z]*r", a) or a.startswith("--read-file")
                   for a in cmd.args())  # fmt: skip


def _sniffed(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """A live capture whose filter or fields pick out logins, or that is searched for them."""
    upstream = [unwrap(u, []) for u in cmd.upstream]
    picks = live(cmd) and cmd.name == "tshark" and any(_CREDENTIAL.search(a) for a in cmd.args())
    searched = (
        cmd.name not in _CAPTURES
        and any(live(u) for u in upstream)
        and any(_CREDENTIAL.search(a) for a in cmd.args())
    )
    if picks or searched or cmd.name == "dsniff":
        yield Finding(
            "credential-sniff",
            "deny",
            "a live capture picked for passwords, tokens or authorization headers takes other "
            "people's logins off the wire; capture only your own test traffic into the "
            "workspace (-w) and read it back with -r",
        )


HANDLERS: dict[str, Handler] = {
    **{n: _aimed_away for n in TOOLS},
    **{n: _payload_run for n in _RUNNERS},
    **{
        n: _remote_exec
        for n in (
            "psexec",
            "psexec.py",
            "impacket-psexec",
            "wmiexec",
            "wmiexec.py",
            "impacket-wmiexec",
            "smbexec",
            "smbexec.py",
            "impacket-smbexec",
            "atexec",
            "atexec.py",
            "impacket-atexec",
            "dcomexec",
            "dcomexec.py",
            "impacket-dcomexec",
            "evil-winrm",
            "winexe",
            "pth-winexe",
            "crackmapexec",
            "cme",
            "netexec",
            "nxc",
        )
    },
    **{n: _spoof for n in ("arpspoof", "dnsspoof", "mitm6", "ettercap", "bettercap", "macof")},
    **{n: _sniffed for n in ("tshark", "grep", "egrep", "fgrep", "rg", "awk", "ngrep", "dsniff")},
}
