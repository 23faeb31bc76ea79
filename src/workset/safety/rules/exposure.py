"""A server opened to everyone, or its only door closed: clear harms of administering one.

- A firewall rule that lets the whole internet reach a service that must never face it: a
  database, a cache, a container engine's API, file sharing (``ufw allow 5432/tcp``, ``ufw
  allow from any to any port 6379``, ``iptables -A INPUT -p tcp --dport 3306 -j ACCEPT``,
  ``firewall-cmd --add-port=27017/tcp``), or every port at once (``ufw allow from any``).
  Such ports are scanned and tried within minutes; allowing one address is the fix.
- A setting written into a live service's configuration that lets anyone in: a ``pg_hba``
  line trusting every address (no password at all), fail2ban told to ignore every address
  (it never bans again), Postfix relaying for the whole internet (``mynetworks =
  0.0.0.0/0``), or an access rule limited to this machine or named addresses rewritten to
  grant everyone (``s/Require local/Require all granted/``, ``deny all`` → ``allow all``).
- The SSH server stopped, disabled, masked or removed (``systemctl disable --now ssh``,
  ``apt purge openssh-server``): on a rented server that is the way in; without it only the
  provider's console is left. The socket alone (``ssh.socket``, when switching to the
  service) still asks.
- A private key or the password hashes made readable by every account (``chmod 644
  /etc/ssl/private/site.key``).

Each is denied with what to do instead; ``sudo`` in front changes nothing (it is judged as
what it runs), and ``ufw --dry-run`` only prints.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Handler,
    Result,
    deny_finding,
    option_values,
    parse_flags,
)
from workset.safety.rules.persistence import written_text
from workset.safety.rules.secret_paths import SYSTEM_SECRETS, in_key_tree

# Services that must never face the internet, by port and by the names /etc/services gives.
_PRIVATE_PORTS = {
    3306: "MySQL", 5432: "PostgreSQL", 6379: "Redis", 27017: "MongoDB", 27018: "MongoDB",
    9200: "Elasticsearch", 9300: "Elasticsearch", 11211: "memcached", 5984: "CouchDB",
    2375: "the Docker API", 2376: "the Docker API", 2379: "etcd", 2380: "etcd",
    9042: "Cassandra", 1433: "SQL Server", 1521: "Oracle", 5672: "RabbitMQ",
    15672: "RabbitMQ's admin", 8086: "InfluxDB", 10250: "the kubelet", 5900: "VNC",
    3389: "remote desktop", 111: "rpcbind", 2049: "NFS", 445: "SMB", 139: "SMB",
    23: "telnet",
}  # fmt: skip
_PRIVATE_NAMES = {"mysql": 3306, "postgresql": 5432, "postgres": 5432, "redis": 6379,
                  "mongodb": 27017, "memcache": 11211, "memcached": 11211, "nfs": 2049,
                  "microsoft-ds": 445, "netbios-ssn": 139, "telnet": 23, "sunrpc": 111,
                  "ms-sql-s": 1433, "elasticsearch": 9200, "docker": 2375,
                  "vnc-server": 5900, "ms-wbt-server": 3389, "rdp": 3389}  # fmt: skip
_ANYONE = frozenset({"any", "0.0.0.0/0", "::/0", "0/0", "anywhere"})


def _ports(spec: str) -> list[int]:
    """The ports a ufw/iptables/firewalld port word names (``5432/tcp``, ``6000:6100``,
    ``80,3306``, ``mysql``)."""
    found: list[int] = []
    for part in re.split(r"[,\s]+", spec.split("/", 1)[0].lower()):
        low, colon, high = part.replace("-", ":").partition(":")
        if part in _PRIVATE_NAMES:
            found.append(_PRIVATE_NAMES[part])
        elif low.isdigit() and (not colon or high.isdigit()):
            top = int(high) if colon else int(low)
            found += [p for p in _PRIVATE_PORTS if int(low) <= p <= top]
    return found


def _world_open(what: str, port: int | None) -> Result:
    if port is None:
        return deny_finding(
            "firewall-open-world",
            f"{what} lets the whole internet reach every port of this machine, whatever "
            "listens there",
            "open only the ports the server offers (ufw allow 443/tcp), or allow one address",
        )
    return deny_finding(
        "firewall-open-world",
        f"{what} opens {_PRIVATE_PORTS[port]}'s port {port} to the whole internet, where it is "
        "scanned and brute-forced within minutes",
        f"allow only the address that needs it (ufw allow from ADDR to any port {port}), or "
        "reach it through an SSH tunnel",
    )


def _ufw(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``ufw allow 5432/tcp``, ``ufw allow from any to any port 6379``, ``ufw allow from any``."""
    args = [a for a in cmd.args() if not a.startswith("-")]
    if "--dry-run" in cmd.args() or any(cmd.dynamic):
        return
    while args and (args[0] in ("route", "prepend") or args[0] == "insert"):
        args = args[2:] if args[0] == "insert" else args[1:]
    if not args or args[0] != "allow":
        return
    rest = args[1:]
    if "comment" in rest:
        rest = rest[: rest.index("comment")]
    words = [w.lower() for w in rest]
    source = words[words.index("from") + 1] if "from" in words[:-1] else "any"
    if source not in _ANYONE:
        return
    if len(words) == 1 or (words and words[0] not in ("in", "out", "on", "proto", "from", "to")):
        ports = _ports(words[0]) if words else []
    else:
        named = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("port", "app")]
        if not named and "out" not in words:
            yield _world_open(f"ufw {' '.join(rest)}", None)
            return
        ports = [p for n in named for p in _ports(n)]
    if ports:
        yield _world_open(f"ufw allow {' '.join(rest)}", ports[0])


def _iptables(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``iptables -A INPUT -p tcp --dport 3306 -j ACCEPT`` with no source address."""
    args = cmd.args()
    if "INPUT" not in args or not {"-A", "-I", "--append", "--insert"} & set(args):
        return
    if option_values(args, ("-j", "--jump")) != ["ACCEPT"]:
        return
    sources = option_values(args, ("-s", "--source", "--src"))
    if sources and not set(sources) <= _ANYONE:
        return
    ports = [p for v in option_values(args, ("--dport", "--destination-port", "--dports"))
             for p in _ports(v)]  # fmt: skip
    if ports:
        yield _world_open(f"{cmd.name} {' '.join(args)}", ports[0])


def _firewalld(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``firewall-cmd --add-port=3306/tcp``, ``--add-service=redis`` (not in a trusted zone)."""
    args = cmd.args()
    zones = option_values(args, ("--zone",))
    if set(zones) & {"trusted", "internal", "home", "work"}:
        return
    ports = [p for v in option_values(args, ("--add-port", "--add-service")) for p in _ports(v)]
    if ports:
        yield _world_open(f"firewall-cmd {' '.join(args)}", ports[0])


# Settings that let anyone in, as written in a service's configuration.
_OPENED = (
    (re.compile(r"^\s*host\w*\s+\S+\s+\S+\s+(0\.0\.0\.0/0|::/0|all|0\.0\.0\.0\s+0\.0\.0\.0)\s+"
                r"trust\b", re.M | re.I),
     "lets anyone who reaches PostgreSQL log in to any database as any user with no password",
     "trust only local connections, and require scram-sha-256 from a named network"),
    (re.compile(r"^\s*ignoreip\s*=.*(0\.0\.0\.0/0|::/0)", re.M | re.I),
     "tells fail2ban to ignore every address, so it never bans anyone again",
     "list only your own addresses in ignoreip"),
    (re.compile(r"^\s*mynetworks\s*=.*(0\.0\.0\.0/0|::/0)", re.M | re.I),
     "makes Postfix an open relay: anyone on the internet can send mail through this server, "
     "which gets it blacklisted",
     "keep mynetworks to this machine and the networks you run"),
)  # fmt: skip
# An access rule limited to this machine or named addresses, and one that grants everyone.
_LIMITED = re.compile(r"Require\s+(local|ip|host)|\bdeny\s+all|Deny\s+from\s+all|"
                      r"Allow\s+from\s+(127\.|::1|localhost)|\ballow\s+127\.", re.I)  # fmt: skip
_EVERYONE = re.compile(r"Require\s+all\s+granted|\ballow\s+all|Allow\s+from\s+all", re.I)


def _opened(text: str, where: str) -> Iterator[Result]:
    for pattern, what, instead in _OPENED:
        if pattern.search(text):
            yield deny_finding("service-opened", f"{where} {what}", instead)
            return


def _written(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``echo 'host all all 0.0.0.0/0 trust' | tee -a …/pg_hba.conf``, ``printf '…ignoreip =
    0.0.0.0/0' > /etc/fail2ban/jail.d/x.local``: the text known, written under /etc."""
    if cmd.name == "tee":
        targets = [w for _, w in parse_flags(cmd.args())[1]]
    else:
        targets = [t for op, t in cmd.redirects if op in (">", ">>", ">|")]
    if not any(ctx.resolve(t).startswith("/etc/") for t in targets):
        return
    yield from _opened(
        written_text(cmd, fed=cmd.name == "tee"), f"the text written to {targets[0]}"
    )


def _postconf(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``postconf -e 'mynetworks = 0.0.0.0/0'``."""
    if {"-e", "-X", "-#"} & set(cmd.args()):
        yield from _opened("\n".join(cmd.args()), "postconf")


_SUBSTITUTION = re.compile(r"s(.)(?P<old>(?:\\.|(?!\1).)*)\1(?P<new>(?:\\.|(?!\1).)*)\1")


def _sed(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``sed -i 's/Require local/Require all granted/' /etc/apache2/…/status.conf``."""
    flags, operands = parse_flags(cmd.args())
    if not ({"i"} & flags or any(a.startswith(("-i", "--in-place")) for a in cmd.args())):
        return
    scripts = option_values(cmd.args(), ("-e", "--expression")) or [w for _, w in operands[:1]]
    files = [w for _, w in operands if w not in scripts]
    if not any(ctx.resolve(f).startswith("/etc/") for f in files):
        return
    for script in scripts:
        for match in _SUBSTITUTION.finditer(script):
            old, new = match.group("old"), match.group("new")
            if _LIMITED.search(old) and _EVERYONE.search(new):
                yield deny_finding(
                    "service-opened",
                    f"sed turns {old!r} into {new!r} in {files[0]}: what was limited to this "
                    "machine or named addresses (a status page, an admin panel) is served to "
                    "anyone on the internet",
                    "grant only the address that needs it (Require ip ADDR)",
                )
                return
            yield from _opened(new.replace("\\n", "\n"), f"sed -i on {files[0]}")


_SSH_UNITS = re.compile(r"^(ssh|sshd|openssh-server)(\.service)?$")
_SSH_PACKAGES = frozenset({"openssh-server", "ssh", "openssh", "sshd"})
_REMOVES = frozenset({"remove", "purge", "autoremove", "erase", "-R", "-Rs", "-Rns", "rm"})


def _ssh_cut(what: str) -> Result:
    return deny_finding(
        "ssh-cut-off",
        f"{what}: SSH is the way into this server, and without it only the provider's console "
        "is left",
        "leave SSH running; ask the user to make this change from a console",
    )


def _services(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``systemctl disable --now ssh``, ``service ssh stop``."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    if cmd.name == "service" and len(words) >= 2:
        words = [words[1], words[0]]
    if words[:1] and words[0] in ("stop", "disable", "mask", "kill"):
        hit = next((w for w in words[1:] if _SSH_UNITS.match(w)), None)
        if hit is not None:
            yield _ssh_cut(f"{cmd.name} {words[0]} {hit} shuts the SSH server")


def _packages(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``apt purge -y openssh-server``, ``dnf remove openssh-server``."""
    words = [a for a in cmd.args() if not a.startswith("-") or a in _REMOVES]
    if words[:1] and words[0] in _REMOVES:
        hit = next((w for w in words[1:] if w.split("=")[0] in _SSH_PACKAGES), None)
        if hit is not None:
            yield _ssh_cut(f"{cmd.name} {words[0]} {hit} removes the SSH server")


_KEY_FILE = re.compile(r"^/etc/ssl/private(/|$)|\.key$|^/etc/(shadow|gshadow)$")


def _chmod(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``chmod 644 /etc/ssl/private/site.key``: a key everyone on the machine may read."""
    _, operands = parse_flags(cmd.args())
    if len(operands) < 2 or not _others_read(operands[0][1]):
        return
    for index, word in operands[1:]:
        place = paths.normalize(ctx.resolve(word))
        if cmd.is_dynamic(index) or paths.in_workspace(place, ctx.workspace):
            continue
        if _KEY_FILE.search(place) or SYSTEM_SECRETS.match(place) or in_key_tree(place):
            yield deny_finding(
                "key-exposed",
                f"chmod {operands[0][1]} makes {word}, a private key or password file, "
                "readable by every account and service on the machine",
                "keep it 600 (or 640 with the group of the one service that needs it)",
            )
            return


def _others_read(mode: str) -> bool:
    if re.fullmatch(r"[0-7]{3,4}", mode):
        return int(mode[-1]) & 4 != 0
    return any(
        re.fullmatch(r"[ugoa]*[+=][rwxXst]*", part)
        and "r" in part.split("+")[-1].split("=")[-1]
        and (re.match(r"[ugo]*[oa]|[+=]", part) is not None)
        for part in mode.split(",")
    )


HANDLERS: dict[str, Handler] = {
    "ufw": _ufw,
    "iptables": _iptables,
    "ip6tables": _iptables,
    "firewall-cmd": _firewalld,
    "tee": _written,
    "echo": _written,
    "printf": _written,
    "cat": _written,
    "postconf": _postconf,
    "sed": _sed,
    "systemctl": _services,
    "service": _services,
    **{n: _packages for n in ("apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "pacman")},
    "chmod": _chmod,
}
