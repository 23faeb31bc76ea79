"""Where a scanner, fuzzer or password guesser is aimed: this machine, a private network, or
someone else's host on the internet.

Security tools that attack (``nmap``, ``masscan``, ``nuclei``, ``nikto``, ``ffuf``,
``wfuzz``, ``gobuster``, ``hydra``, ``sqlmap``…) are the same program whether a tester checks
the dev server the agent just started or a stranger's site; what decides is the target.
Each tool's words are read with what its options mean: which take a target, a file of
targets, a file the tool writes, or any other value. A tool whose every target is this
machine (``localhost``, ``127.x``, ``::1``), whose outputs stay in the workspace and which is
given no option that runs code or reaches a third host (a proxy, a script, an update) is
vouched for like a ``curl`` of ``localhost``. A target in a private network (``10.x``, a
docker bridge ``172.18.0.0/24``, ``db.internal``) asks: it may be a lab or the office. A
public address is someone else's: :mod:`~workset.safety.rules.attack_tools` denies it.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from workset.safety.rules.base import Cmd, Context, Finding, unknown_program
from workset.safety.rules.confinement import inside, outside

Place = Literal["loopback", "private", "public", "unknown"]


@dataclass(frozen=True)
class Tool:
    """What the options of one tool mean (``kind``: ``attack`` tools are denied at any public
    target, ``scan`` tools at a public address or range, ``probe`` tools never)."""

    kind: Literal["attack", "scan", "probe"]
    targets: frozenset[str] = frozenset()
    lists: frozenset[str] = frozenset()
    outputs: frozenset[str] = frozenset()
    valued: frozenset[str] = frozenset()
    risky: frozenset[str] = frozenset()
    positional: Literal["all", "first", "last", "none"] = "all"
    needs_output: frozenset[str] = field(default_factory=frozenset)


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_NMAP_OUT = "-oN -oX -oS -oG -oA -oM -oH"
TOOLS: dict[str, Tool] = {
    "nmap": Tool(
        "scan",
        lists=_set("-iL --excludefile"),
        outputs=_set(_NMAP_OUT),
        valued=_set(
            "-p -e -T --top-ports --exclude --dns-servers --max-retries --host-timeout "
            "--min-rate --max-rate --scan-delay --max-scan-delay --version-intensity "
            "--min-hostgroup --max-hostgroup --min-parallelism --max-parallelism "
            "--max-rtt-timeout --min-rtt-timeout --initial-rtt-timeout --ttl --mtu "
            "--data-length --stylesheet --script-args --exclude-ports --port-ratio"
        ),
        risky=_set(
            "-iR --script --script-args-file --datadir --servicedb --versiondb -S -D "
            "--proxies --spoof-mac --resume -g --source-port"
        ),
    ),
    "masscan": Tool(
        "scan",
        targets=_set("--range"),
        lists=_set("-iL --includefile --excludefile"),
        outputs=_set("-oL -oX -oG -oJ -oB -oD --output-filename"),
        valued=_set(
            "-p --ports --rate --exclude --adapter -e --wait --retries --ttl "
            "--output-format --shard --seed"
        ),
        risky=_set(
            "--source-ip --source-port --router-mac --adapter-ip --adapter-mac --resume -c --conf"
        ),
    ),
    "ssh-audit": Tool(
        "probe",
        lists=_set("-T --targets"),
        valued=_set("-p --port -t --timeout -P --policy -M --make-policy"),
        positional="first",
    ),
    "nuclei": Tool(
        "attack",
        targets=_set("-u -target"),
        lists=_set("-l -list -resume"),
        outputs=_set(
            "-o -output -je -json-export -jle -jsonl-export -me -markdown-export -se -sarif-export"
        ),
        valued=_set(
            "-t -templates -w -workflows -s -severity -es -exclude-severity -tags "
            "-etags -exclude-tags -id -template-id -eid -exclude-id -rl -rate-limit "
            "-c -concurrency -bs -bulk-size -timeout -retries -H -header -pt -type "
            "-et -exclude-templates -a -author -V -var -mhe -rlm -stats-interval"
        ),
        risky=_set(
            "-code -update -up -ut -update-templates -config -p -proxy -iserver "
            "-interactsh-server -itoken -dast -fuzz -file -sandbox"
        ),
        positional="none",
    ),
    "nikto": Tool(
        "attack",
        targets=_set("-h -host -url"),
        outputs=_set("-o -output"),
        valued=_set(
            "-Format -F -p -port -Tuning -T -Display -timeout -maxtime -vhost -root "
            "-Pause -until -ask"
        ),
        risky=_set("-update -config -useproxy -Plugins -evasion -id -mutate -Save"),
        positional="none",
    ),
    "ffuf": Tool(
        "attack",
        targets=_set("-u"),
        lists=_set("-request"),
        outputs=_set("-o -od -debug-log"),
        valued=_set(
            "-w -H -X -d -b -mc -ms -mw -ml -mr -mt -fc -fs -fw -fl -fr -ft -t -rate "
            "-p -timeout -maxtime -maxtime-job -of -e -recursion-depth -mode -s "
            "-request-proto -sf -se -sa"
        ),
        risky=_set("-input-cmd -config -x -replay-proxy -input-shell"),
        positional="none",
    ),
    "wfuzz": Tool(
        "attack",
        targets=_set("-u --url"),
        outputs=_set("-f"),
        valued=_set(
            "-z -w -H -d -b -X -t -s -R -e -o -m -V --hc --sc --hl --hw --hh --sl --sw "
            "--sh --ss --hs --filter --field --efield --oF --zP --zD --zE --slice "
            "--req-delay --conn-delay"
        ),
        risky=_set("-p --script --script-args --recipe --dump-recipe"),
        positional="last",
    ),
    "gobuster": Tool(
        "attack",
        targets=_set("-u --url -d --domain"),
        outputs=_set("-o --output"),
        valued=_set(
            "-w --wordlist -t --threads -x --extensions -s -b -H -c -U -P -a "
            "--timeout --delay -m --method --exclude-length -r"
        ),
        risky=_set("-p --proxy"),
        positional="first",  # the mode (dir, dns, vhost, fuzz): not a host
    ),
    "feroxbuster": Tool(
        "attack",
        targets=_set("-u --url"),
        lists=_set("--stdin --resume-from"),
        outputs=_set("-o --output --debug-log"),
        valued=_set(
            "-w --wordlist -t --threads -x --extensions -s -C -H -b -m -d --depth "
            "-L --scan-limit --rate-limit --time-limit -T --timeout"
        ),
        risky=_set("-p --proxy -P --replay-proxy --auto-tune"),
        positional="none",
    ),
    "hydra": Tool(
        "attack",
        lists=_set("-M -R -C"),
        outputs=_set("-o"),
        valued=_set("-l -L -p -P -x -s -t -T -w -W -b -m -e -c"),
        positional="first",
    ),
    "medusa": Tool(
        "attack",
        targets=_set("-h"),
        lists=_set("-H -C"),
        outputs=_set("-O"),
        valued=_set("-u -U -p -P -M -m -n -t -T -e -r"),
        positional="none",
    ),
    "sqlmap": Tool(
        "attack",
        targets=_set("-u --url"),
        lists=_set("-r -m -l -g -d -c --crawl"),
        outputs=_set("--output-dir -t --har"),
        valued=_set(
            "--data --cookie -p --level --risk --dbms --technique -D -T -C --threads "
            "--method --user-agent -A -H --headers --prefix --suffix --time-sec "
            "--string --not-string --delay --timeout --retries --union-cols"
        ),
        risky=_set(
            "--os-shell --os-pwn --os-cmd --os-bof --os-smbrelay --file-write "
            "--file-dest --file-read --reg-read --reg-add --reg-del --sql-shell "
            "--sql-query --sql-file --eval --tamper --proxy --tor --priv-esc "
            "--dump-all --purge --update"
        ),
        positional="none",
        needs_output=_set("--output-dir"),  # else its session files go to the home
    ),
    "wpscan": Tool(
        "attack",
        targets=_set("--url"),
        outputs=_set("-o --output"),
        valued=_set(
            "-e --enumerate -f --format --api-token -P --passwords -U --usernames -t --max-threads"
        ),
        risky=_set("--proxy --update"),
        positional="none",
    ),
}
# Names the same tools go by (impacket-style and distribution wrappers).
TOOLS["nmap.exe"] = TOOLS["nmap"]
AIMED = frozenset(TOOLS)

_PRIVATE_NAME = re.compile(
    r"^[\w-]+$|\.(internal|local|lan|test|example|invalid|localdomain|home\.arpa|corp|"
    r"intranet|docker|svc|cluster\.local)$",
    re.IGNORECASE,
)
_LOOPBACK_NAME = re.compile(r"^(localhost|[\w.-]+\.localhost)$", re.IGNORECASE)
_FILE_NAME = re.compile(r"\.(txt|lst|list|csv|json|jsonl|xml|ya?ml|conf|cfg|req|http|har)$", re.I)
_OCTETS = re.compile(r"^[\d*,-]+(\.[\d*,-]+){3}(/\d+)?$")


def host_of(word: str) -> str:
    """The host a target word names: ``https://u:p@api.local:8443/x`` is ``api.local``."""
    rest = word.split("://", 1)[1] if "://" in word else word
    rest = re.split(r"[/?#]", rest, maxsplit=1)[0] if "://" in word else rest
    rest = rest.rsplit("@", 1)[-1]
    if rest.startswith("["):
        return rest[1:].split("]", 1)[0]
    if "/" in rest and "://" not in word:  # a CIDR range keeps its prefix
        return rest
    return rest.rsplit(":", 1)[0] if rest.count(":") == 1 else rest


def place_of(word: str) -> Place:
    """Whether ``word`` (a URL, host, address, range or nmap octet pattern) is this machine,
    a private network, someone else's, or cannot be told."""
    host = host_of(word).lower().rstrip(".")
    if not host or "$" in host or "`" in host or _FILE_NAME.search(host):
        return "unknown"
    if _LOOPBACK_NAME.match(host):
        return "loopback"
    if _OCTETS.match(host) and not re.fullmatch(r"[\d.]+(/\d+)?", host):
        first = host.split(".", 1)[0]
        if not first.isdigit():
            return "public"  # *.x.x.x, 1-255.x.x.x: the whole address space
        host = re.sub(r"(?<![\d])(\d+)[-,][\d,-]*|\*", lambda m: m.group(1) or "0", host)
    try:
        network = ipaddress.ip_network(host, strict=False)
    except ValueError:
        return "private" if _PRIVATE_NAME.search(host) else "public"
    if network.is_loopback:
        return "loopback"
    if network.prefixlen and any(
        network.version == p.version and network.subnet_of(p)  # type: ignore[arg-type]
        for p in _PRIVATE_RANGES
    ):
        return "private"
    return "public"  # documentation ranges too: in examples they stand for a stranger's host


# Networks that belong to whoever runs them, never routed on the internet (RFC 1918, shared
# address space, link-local, unique local IPv6), and "this host" (0.0.0.0).
_PRIVATE_RANGES = tuple(
    ipaddress.ip_network(n)
    for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10",
              "169.254.0.0/16", "0.0.0.0/32", "fc00::/7", "fe80::/10")
)  # fmt: skip


@dataclass(frozen=True)
class Aim:
    """A tool's words sorted: the targets, the files it writes, the risky options given."""

    targets: tuple[str, ...]
    outputs: tuple[str, ...]
    risky: tuple[str, ...]
    listed: bool


def aim(cmd: Cmd) -> Aim:
    tool = TOOLS[cmd.name]
    args = cmd.args()
    targets: list[str] = []
    outputs: list[str] = []
    risky: list[str] = []
    positional: list[str] = []
    listed = any(cmd.dynamic)
    index = 0
    while index < len(args):
        word = args[index]
        option, equals, attached = word.partition("=")
        value = attached if equals and word.startswith("-") else None
        key = option if value is not None else word
        takes = key in tool.targets | tool.lists | tool.outputs | tool.valued
        if key in tool.risky:
            risky.append(key)
        if not word.startswith("-") or word == "-":
            positional.append(word)
        elif takes or (key in tool.risky and key in _RISKY_VALUED):
            if value is None:
                index += 1
                value = args[index] if index < len(args) else ""
            if key in tool.targets:
                targets.extend(v for v in value.split(",") if v)
            elif key in tool.lists:
                listed = True
            elif key in tool.outputs:
                outputs.append(value.split(",", 1)[0] if cmd.name == "wfuzz" else value)
        index += 1
    if tool.positional == "all":
        targets.extend(positional)
    elif tool.positional == "first" and cmd.name == "gobuster":
        pass  # gobuster MODE: the target is given by -u or -d
    elif tool.positional == "first":
        targets.extend(positional[:1])
    elif tool.positional == "last":
        targets.extend(positional[-1:])
    missing = [o for o in tool.needs_output if o not in args]
    return Aim(tuple(targets), tuple(outputs), tuple(risky + missing), listed)


# Risky options that take a value (so the value is not read as a target).
_RISKY_VALUED = frozenset({"--script", "--script-args-file", "--datadir", "--servicedb",
                           "--versiondb", "-S", "-D", "--proxies", "--spoof-mac", "--resume",
                           "-g", "--source-port", "-iR", "--source-ip", "--router-mac",
                           "--adapter-ip", "--adapter-mac", "-c", "--conf", "-config", "-p",
                           "-proxy", "-iserver", "-interactsh-server", "-itoken", "-useproxy",
                           "-Plugins", "-evasion", "-id", "-mutate", "-Save", "-input-cmd",
                           "-x", "-replay-proxy", "--recipe", "--dump-recipe", "--proxy",
                           "-P", "--replay-proxy", "--os-cmd", "--file-write", "--file-dest",
                           "--file-read", "--reg-read", "--sql-query", "--sql-file", "--eval",
                           "--tamper", "--script-args", "-file"})  # fmt: skip


def places(cmd: Cmd) -> Iterator[tuple[str, Place]]:
    for target in aim(cmd).targets:
        yield target, place_of(target)


def at_loopback(cmd: Cmd) -> bool:
    """Every target of ``cmd`` is this machine, and none is read from a file or at run time."""
    if cmd.name not in TOOLS:
        return False
    found = aim(cmd)
    return (
        bool(found.targets)
        and not found.listed
        and all(place_of(t) == "loopback" for t in found.targets)
    )


def _aimed(cmd: Cmd, ctx: Context) -> Finding | None:
    """Vouched for when aimed only at this machine, writing only into the workspace."""
    found = aim(cmd)
    if found.risky:
        return _asks(f"{cmd.name} {found.risky[0]}", "runs code, reaches a third host or "
                     "writes outside the workspace")  # fmt: skip
    if not at_loopback(cmd):
        where = next((t for t in found.targets if place_of(t) != "loopback"), "")
        return _asks(cmd.name, f"is aimed at {where or 'targets read from a file or at run time'}"
                     ", not only at this machine")  # fmt: skip
    for output in found.outputs:
        if not inside(output, ctx):
            return outside(output, cmd.name)
    return None


def _asks(what: str, why: str) -> Finding:
    return Finding(
        "attack-tool",
        "ask",
        f"{what} {why}; a human must confirm the target is theirs to test, or aim it at 127.0.0.1",
    )


def _msfvenom(cmd: Cmd, ctx: Context) -> Finding | None:
    """``msfvenom -l payloads``: lists what it can generate, generates nothing."""
    args = cmd.args()
    if args[:1] in (("-l",), ("--list",), ("-h",), ("--help",)) and len(args) <= 2:
        return None
    return unknown_program(cmd.name, " (it generates exploit payloads)")


VOUCHERS: dict[str, Callable[[Cmd, Context], Finding | None]] = {
    **{n: _aimed for n in TOOLS},
    "msfvenom": _msfvenom,
}
