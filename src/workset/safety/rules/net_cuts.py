"""A host cut off the network, or its traffic sent elsewhere: clear harms of network work.

- a physical interface taken down or stripped of its addresses (``ip link set eth0 down``,
  ``ip addr flush dev eth0``), the DHCP lease released (``dhclient -r``): every connection
  through it, the SSH session included, ends and only a console brings it back;
- the default route replaced or removed (``ip route replace default via X``): all the
  machine's traffic goes through another gateway, or nowhere;
- SSH closed by the firewall or traffic control for every address (``ufw deny 22/tcp``,
  ``iptables -A INPUT -p tcp --dport 22 -j DROP``, ``tc filter … dport 22 … action drop``),
  or every packet dropped (``tc qdisc add dev eth0 root netem loss 100%``);
- the sockets of a whole state killed (``ss -K state established``), or the processes that
  hold SSH, a system port (below 1024) or every established connection killed
  (``fuser -k 443/tcp``, ``lsof -t -i :22 | xargs kill``).

Loopback, bridges and virtual interfaces (``lo``, ``veth0``, ``docker0``, ``wg-test``),
another network namespace (``ip -n lab …``), one blocked address (``ufw deny from X to any
port 22``) and a developer's port (``fuser -k 8080/tcp``) still ask.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Handler, Result, deny_finding
from workset.safety.rules.wrappers import unwrap

# Interfaces that carry the machine's own traffic (not loopback, bridges, veth, tunnels).
_PHYSICAL = re.compile(r"^(eth\d+|en[ops]\w+|eno\d+|ens\d+|wlan\d+|wl[op]\w+|em\d+|bond\d+|"
                       r"team\d+|p\d+p\d+)(\.\d+)?$")  # fmt: skip
_SSH = re.compile(r"^(22|ssh|openssh|OpenSSH)(/tcp)?$")
_CUT_INSTEAD = (
    "test on a lab machine or a network namespace, or have a human with console access do it"
)


def _cut(what: str) -> Result:
    return deny_finding(
        "network-cut",
        f"{what}: the machine's connections end, the SSH session with them, and only a console "
        "brings it back",
        _CUT_INSTEAD,
    )


def _ip(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = list(cmd.args())
    if any(a in ("-n", "-netns", "--netns") for a in args) or any(cmd.dynamic):
        return  # ip -n lab …: another namespace
    words = [a for a in args if not a.startswith("-")]
    if words[:1] in (["link"], ["l"]) and words[1:2] == ["set"] and "down" in words:
        device = next((w for w in words[2:] if w not in ("dev", "down")), "")
        if _PHYSICAL.match(device):
            yield _cut(f"ip link set {device} down takes the interface down")
    elif words[:1] in (["addr"], ["address"], ["a"]) and words[1:2] == ["flush"]:
        device = words[-1]
        if _PHYSICAL.match(device):
            yield _cut(f"ip addr flush {device} removes the interface's addresses")
    elif words[:1] in (["route"], ["r"], ["ro"]) and words[1:3] in (
        ["add", "default"], ["replace", "default"], ["change", "default"],
        ["del", "default"], ["delete", "default"],
    ):  # fmt: skip
        yield _cut(f"ip route {words[1]} default reroutes all of the machine's traffic")


def _dhclient(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if {"-r", "-x"} & set(args):
        devices = [a for a in args if not a.startswith("-")]
        if not devices or any(_PHYSICAL.match(d) for d in devices):
            yield _cut("dhclient -r releases the DHCP lease and with it the address")


def _closes_ssh(what: str) -> Result:
    return deny_finding(
        "ssh-blocked",
        f"{what} closes SSH to every address: the session ends and no one can log in again",
        "block one address (ufw deny from ADDR to any port 22), or allow your own first",
    )


def _ufw(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = [a for a in cmd.args() if a not in ("in", "--dry-run")]
    if "--dry-run" in cmd.args() or args[:1] not in (["deny"], ["reject"]):
        return
    rest = args[1:]
    if len(rest) == 1 and _SSH.match(rest[0]):
        yield _closes_ssh(f"ufw {args[0]} {rest[0]}")
    elif "from" not in rest and "port" in rest[:-1] and _SSH.match(rest[rest.index("port") + 1]):
        yield _closes_ssh(f"ufw {args[0]} … port 22")


def _iptables(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if not {"-A", "-I", "--append", "--insert"} & set(args) or "INPUT" not in args:
        return
    target = args[args.index("-j") + 1] if "-j" in args[:-1] else ""
    port = args[args.index("--dport") + 1] if "--dport" in args[:-1] else ""
    if target in ("DROP", "REJECT") and _SSH.match(port) and not {"-s", "--source"} & set(args):
        yield _closes_ssh("the rule")


def _tc(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    device = args[args.index("dev") + 1] if "dev" in args[:-1] else ""
    if not _PHYSICAL.match(device) or not {"add", "replace", "change"} & set(args):
        return
    if "loss" in args[:-1] and re.fullmatch(r"100(\.0+)?%?", args[args.index("loss") + 1]):
        yield _cut(f"netem loss 100% on {device} drops every packet")
    if "drop" in args and "dport" in args[:-1] and args[args.index("dport") + 1] == "22":
        yield _closes_ssh(f"the filter on {device}")


def _ss(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    kills = {"-K", "--kill"} & set(args) or any(
        re.fullmatch(r"-[a-zA-Z]*K[a-zA-Z]*", a) for a in args
    )
    narrow = {"dst", "src", "dport", "sport"} & set(args) or any(
        re.search(r"\d+\.\d+|:\d+|\[", a) for a in args
    )
    if kills and not narrow:
        yield _cut("ss -K kills every socket the filter matches")


def _service_port(word: str) -> bool:
    number = re.match(r"^(\d+)/(tcp|udp)$", word) or re.match(r"^:(\d+)$", word)
    return number is not None and int(number.group(1)) < 1024


def _fuser(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if any(re.fullmatch(r"-[a-zA-Z]*k[a-zA-Z]*", a) for a in args) and any(
        _service_port(a) for a in args
    ):
        yield _killed("fuser -k")


def _killed(what: str) -> Result:
    return deny_finding(
        "service-killed",
        f"{what} kills what holds a system port or live connections (SSH, the web server, "
        "every established session)",
        "stop the one service by name (systemctl restart NAME), or kill one process you have read",
    )


def _kill(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``lsof -t -i :22 | xargs kill``: the PIDs come from a socket listing."""
    for stage in (unwrap(u, []) for u in cmd.upstream):
        words = stage.args()
        if stage.name == "lsof" and any(_service_port(w) or w.endswith(":22") for w in words):
            yield _killed("killing lsof's PIDs")
            return
        if stage.name in ("netstat", "ss") and any(
            "ESTABLISHED" in " ".join(u.argv) for u in cmd.upstream
        ):
            yield _killed(f"killing the PIDs {stage.name} lists")
            return


HANDLERS: dict[str, Handler] = {
    "ip": _ip,
    "dhclient": _dhclient,
    "ufw": _ufw,
    "iptables": _iptables,
    "ip6tables": _iptables,
    "tc": _tc,
    "ss": _ss,
    "fuser": _fuser,
    "kill": _kill,
}
