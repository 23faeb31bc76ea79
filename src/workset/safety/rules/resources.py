"""Resource exhaustion and abuse: what fills the disk or memory, floods the process table, or
spends the machine on someone else's behalf (a crypto miner), and what hides it.

- **Unbounded growth in inline code**: a loop without end (``while True``, ``iter(int, 1)``,
  ``itertools.count()``, ``for(;;)``, ``loop do``) that allocates, appends or forks is denied;
  a loop with a bound is ordinary code.
- **Disks filled**: ``dd`` from ``/dev/zero``/``/dev/urandom`` without ``count=``, and ``yes``,
  ``seq inf`` or ``cat /dev/zero`` written to a file, never stop until the disk is full
  (denied), nor does a shell loop without end or pause that creates files; ``yes | head -n
  1000 > f`` is bounded. A bounded write of 10 GB or more (``dd bs=1G count=500``, ``head -c
  200G``, ``fallocate -l 800G``) asks.
- **Stress tools** (``stress-ng``, ``stress``): vouched for with a ``--timeout`` of at most
  five minutes and at most 8 workers of each kind; otherwise they ask.
- **Miners**: known miner programs and ``stratum+tcp://`` pools are denied.
- **Disguise**: a detached session or a program named like a kernel thread or system daemon
  (``screen -dmS kworker``, ``exec -a '[kthreadd]'``) is denied; the name only hides it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from workset.safety.rules import confinement
from workset.safety.rules.base import Cmd, Context, Finding, unknown_program
from workset.safety.rules.network import beacon

_MINERS = frozenset({"xmrig", "xmr-stak", "cpuminer", "minerd", "cgminer", "bfgminer",
                     "ethminer", "t-rex", "nbminer", "lolminer", "phoenixminer", "ccminer",
                     "nanominer", "gminer", "srbminer", "teamredminer", "xmrig-cuda"})  # fmt: skip
_POOL = re.compile(r"stratum\d?\+(tcp|ssl|tls)://|\b(pool\.|minexmr|nanopool|nicehash|"
                   r"supportxmr|2miners|f2pool|moneroocean)", re.IGNORECASE)  # fmt: skip
_ENDLESS = re.compile(
    r"while\s*\(?\s*(True|1|true)\s*\)?\s*[:{]|iter\(\s*int\s*,\s*1\s*\)|itertools\.count\(|"
    r"\bcount\(\)|for\s*\(\s*;\s*;\s*\)|\bloop\s+do\b|\bloop\s*\{|\bwhile\s+1\b|"
    r"\b1\s+while\b|\bwhile\s*\(\s*1\s*\)|repeat\s*\{|\bwhile\s+true\s+do\b"
)
_GROWS = re.compile(
    r"\bfork\b|\.append\(|bytearray\(|\bpush\(|malloc|Buffer\.alloc|\.concat\(|\bspawn|"
    r"Popen\(|Thread\(|Process\(|\+=|\bx\s*\*\s*\d|\*\s*10\s*\*\*|10\*\*\d|<<\s*[23]\d\b|"
    r"\bsystem\(|\bexec\w*\(|os\.fork|pcntl_fork|\.repeat\("
)
# A repetition by a literal count of ten billion or more: ``'a' * (10**13)``, ``[0] * 2**40``.
_HUGE = re.compile(
    r"(['\"][^'\"]*['\"]|\[[^\]]*\])\s*\*\s*\(?\s*(10\s*\*\*\s*(1\d|[2-9]\d)|"
    r"2\s*\*\*\s*([4-9]\d)|\d{11,})\b"
)
_CODE_FLAGS = frozenset({"-c", "-e", "-E", "--eval", "-p", "--print", "-r"})
_SYSTEM_NAMES = re.compile(
    r"^\[?(kworker|kthreadd|ksoftirqd|kswapd|migration|rcu_\w+|watchdog|systemd[\w-]*|sshd|"
    r"crond?|dbus-daemon|rsyslogd|udevd|irqbalance|kauditd|jbd2|khugepaged|init)([/:\]\w.-]*)$"
)
_INTERPRETERS = re.compile(r"^(python[0-9.]*|pypy3?|node|nodejs|perl|ruby|php|lua|Rscript|bun|"
                           r"deno|tclsh|julia)$")  # fmt: skip


def exhaustion(cmd: Cmd, ctx: Context) -> Iterator[Finding]:
    """What ``cmd`` spends without bound (see the module's docstring)."""
    name = cmd.name
    if name in _MINERS or any(_POOL.search(a) for a in cmd.args()):
        yield Finding(
            "miner",
            "deny",
            f"{name} mines cryptocurrency (a miner program or a mining pool address), which "
            "spends this machine's power for someone else; never run miners here",
        )
    if _INTERPRETERS.match(name):
        code = _inline_code(cmd)
        stops = re.search(r"\b(break|return|exit|last|raise|die)\b", code)
        if code and _ENDLESS.search(code) and _GROWS.search(code) and not stops:
            yield _exhausts(f"{name} code loops without end while it allocates or forks")
        elif _HUGE.search(code):
            yield _exhausts(f"{name} code builds a value of 10 GB or more in memory")
    endless_device = any(a in ("if=/dev/zero", "if=/dev/urandom", "if=/dev/random")
                         for a in cmd.args())  # fmt: skip
    if name == "dd" and endless_device and not any(a.startswith("count=") for a in cmd.args()):
        yield _exhausts("dd from an endless device without count= writes until the disk is full")
    endless_source = (
        name == "yes"
        or (name == "cat" and set(cmd.args()) & {"/dev/zero", "/dev/urandom", "/dev/random"})
        or (name == "seq" and "inf" in {a.lower() for a in cmd.args()})
    )
    filled = [t for op, t in cmd.redirects if op in (">", ">>", "&>") and not t.startswith("/dev/")]
    if endless_source and filled:
        yield _exhausts(f"{name} writes to {filled[0]} without end, until the disk is full")
    written = _bytes_written(cmd)
    if written is not None and written >= _LARGE:
        yield Finding(
            "resource-exhaustion",
            "ask",
            f"{name} writes {written / 2**30:.0f} GB; a human must confirm, or write less",
        )


# A file this large (10 GB) fills many disks: writing one asks.
_LARGE = 10 * 2**30
_SCALE = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "P": 2**50}


def _bytes_written(cmd: Cmd) -> float | None:
    """How much ``dd bs=1G count=500`` or ``head -c 200G /dev/zero > f`` writes, if known."""
    args = cmd.args()
    if cmd.name == "dd":
        values = dict(a.split("=", 1) for a in args if "=" in a)
        block, count = _size(values.get("bs", "512")), values.get("count", "")
        return block * float(count) if block is not None and count.isdigit() else None
    if cmd.name == "head" and any(op in (">", ">>") for op, _ in cmd.redirects):
        amount = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-c", "--bytes")),
                      "")  # fmt: skip
        return _size(amount)
    return None


def _size(text: str) -> float | None:
    match = _SIZE.match(text)
    return float(match.group(1)) * _SCALE[match.group(2).upper()] if match else None


def endless(cmds: list[Cmd], *, contacted: bool) -> list[Finding]:
    """What a loop without end does again and again: contact a host (a beacon), or start a
    background process on every turn (a flood of processes)."""
    found = [beacon()] if contacted else []
    if any(c.background for c in cmds):
        found.append(_exhausts("a loop without end starts a background process on every turn"))
    elif not any(c.name == "sleep" for c in cmds) and any(_creates(c) for c in cmds):
        found.append(_exhausts("a loop without end or pause creates files on every turn"))
    return found


def _creates(cmd: Cmd) -> bool:
    """``mkdir``, ``touch``, ``cp``, ``dd``, ``tee`` or a redirection: a file or folder made."""
    writes = any(op in (">", ">>", "&>", "&>>") and not t.startswith("/dev/")
                 for op, t in cmd.redirects)  # fmt: skip
    return writes or cmd.name in ("mkdir", "touch", "cp", "dd", "tee", "fallocate", "ln")


_IDLE = frozenset({"sleep", "echo", "printf", "true", ":", "wait", "date"})


def delayed(cmds: list[Cmd]) -> list[Finding]:
    """Commands put in the background behind a long ``sleep`` (a minute or more): they act
    after the agent's turn and its review, when no one is watching."""
    names = [c.name for c in cmds]
    for index, cmd in enumerate(cmds):
        if cmd.name != "sleep" or any(cmd.dynamic):
            continue
        seconds = sum(_seconds(a) or 0 for a in cmd.args())
        acting = [n for n in names[index + 1 :] if n not in _IDLE]
        if seconds >= 60 and acting:
            return [
                Finding(
                    "delayed",
                    "ask",
                    f"{acting[0]} is left to run in the background {int(seconds)} seconds from "
                    "now, after this task and its review; a human must confirm, or run it now",
                )
            ]
    return []


def _exhausts(what: str) -> Finding:
    return Finding(
        "resource-exhaustion",
        "deny",
        f"{what}, which takes the machine down for everyone on it; bound it (a count, a size, "
        "a timeout)",
    )


def _inline_code(cmd: Cmd) -> str:
    args = cmd.args()
    code = [args[i + 1] for i, a in enumerate(args[:-1]) if a in _CODE_FLAGS]
    code += [t for op, t in cmd.redirects if op == "<<"]
    return "\n".join(code)


def disguised(written: Cmd) -> Finding | None:
    """A session or process given the name of a kernel thread or system daemon."""
    args = written.args()
    names: list[str] = []
    if written.name == "screen":
        names += [args[i + 1] for i, a in enumerate(args[:-1]) if re.fullmatch(r"-\w*S", a)]
    elif written.name == "tmux":
        names += [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-s", "-n")]
    elif written.name == "exec":
        names += [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-a"]
    hidden = next((n for n in names if _SYSTEM_NAMES.match(n)), None)
    if hidden is None:
        return None
    return Finding(
        "disguised-process",
        "deny",
        f"{written.name} names what it runs {hidden!r}, like a process of the system itself, "
        "which only hides it from whoever looks; give it the project's own name",
    )


_STRESS_WORKERS = re.compile(r"^--?([a-z-]+)$")


def _stress(cmd: Cmd, ctx: Context) -> Finding | None:
    """``stress-ng --cpu 1 --timeout 10s``: bounded in time and in workers."""
    args = cmd.args()
    seconds: float | None = None
    many = False
    for index, word in enumerate(args):
        value = args[index + 1] if index + 1 < len(args) else ""
        if word in ("--timeout", "-t"):
            seconds = _seconds(value)
        elif _STRESS_WORKERS.match(word) and value.isdigit():
            many = many or int(value) == 0 or int(value) > 8  # 0: one per CPU
    if seconds is not None and seconds <= 300 and not many and not cmd.background:
        return None
    return Finding(
        "resource-exhaustion",
        "ask",
        f"{cmd.name} loads the machine without a short --timeout or with many workers; a human "
        "must confirm, or give it --timeout of a few seconds and a worker or two",
    )


def _seconds(value: str) -> float | None:
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([smhd]?)", value)
    if match is None:
        return None
    return float(match.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[match.group(2)]


_LOADERS = frozenset({"ab", "hey", "wrk", "oha", "siege", "vegeta", "bombardier"})
_SIZE = re.compile(r"^(\d+(?:\.\d+)?)([kKmMgGtTpP]?)(i?B)?$")


def _load_test(cmd: Cmd, ctx: Context) -> Finding | None:
    """``ab -n 1000 -c 10 http://localhost:8000/``: load on this machine's own server; any
    other host gets a flood of requests from here (asked)."""
    urls = [a for a in cmd.args() if "://" in a or a.startswith(("localhost", "127."))]
    local = all(re.match(r"^(https?://)?(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(/|$)", u)
                for u in urls)  # fmt: skip
    if urls and local and not any(cmd.dynamic):
        return None
    return Finding(
        "load-test",
        "ask",
        f"{cmd.name} floods a server with requests; against another host that is an attack on "
        "it; a human must confirm, or aim it at localhost",
    )


def _allocate(cmd: Cmd, ctx: Context) -> Finding | None:
    """``fallocate -l 1G fixture.img``: a file of a given size in the workspace; 10 GB or
    more asks (a disk filled for everyone)."""
    args = cmd.args()
    size = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-l", "--length")), "")
    match = _SIZE.match(size)
    target = args[-1] if args else ""
    if match is None or any(cmd.dynamic) or not confinement.inside(target, ctx):
        return confinement.outside(target, cmd.name) if target else unknown_program(cmd.name)
    scale = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "P": 2**50}
    if float(match.group(1)) * scale[match.group(2).upper()] >= 10 * 2**30:
        return Finding(
            "resource-exhaustion",
            "ask",
            f"fallocate reserves {size} of disk; a human must confirm, or make the file smaller",
        )
    return None


VOUCHERS: dict[str, Callable[[Cmd, Context], Finding | None]] = {
    **{n: _load_test for n in _LOADERS},
    "fallocate": _allocate,
    "stress-ng": _stress,
    "stress": _stress,
}
