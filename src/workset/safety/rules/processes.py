"""Rules for killing processes: by id, by a search, by name, by the port they hold.

An agent may stop what it started. Killing by id runs (``kill 4242``, ``kill %1``, ``kill -0``
only asks if it is alive); every process at once (``kill -9 -1``, PID 1) is denied, and so is
``killall``. A search by name (``pkill -f gunicorn``, ``kill $(pgrep node)``) may hit the
user's other work, and asks. Two shapes are judged by what they hit:

- **the holder of a port**: ``kill $(lsof -t -i:3000)``, ``fuser -k 3000/tcp`` stop whatever
  serves on an unprivileged port of this machine (a dev server left running), and run; a
  port below 1024 (a system service) asks;
- **the machine's guards**: a search or name that picks a security, audit or logging agent
  (``osqueryd``, ``falcond``, ``auditd``, ``rsyslogd``, an agent's audit daemon) is denied,
  whatever the signal: stopping it hides what happens next.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result

_SEARCHERS = frozenset({"pgrep", "pidof", "ps", "lsof", "fuser"})
# Security, audit and logging agents: endpoint protection, auditing, log shippers.
GUARDS = re.compile(
    r"falcon|crowdstrike|osquery|audit|sysmon|mdatp|wdavdaemon|defender|sentinel|cbagent|"
    r"carbonblack|tanium|jamf|santa(d|-daemon)?\b|elastic-agent|wazuh|ossec|clamd|splunk|"
    r"datadog|fluent-?bit|fluentd|rsyslog|syslog|journald|filebeat|lulu|littlesnitch|xagt|"
    r"cylance|sophos|esets|mcafee|kaspersky|qualys|nessus|firewalld|apparmor|falco\b",
    re.IGNORECASE,
)
# Signals that ask a daemon to reload its settings or reopen its logs, not to stop.
_RELOADS = frozenset({"-HUP", "-1", "-SIGHUP", "-USR1", "-SIGUSR1", "-USR2", "-SIGUSR2",
                      "-10", "-12"})  # fmt: skip


def _reload_signal(args: list[str]) -> bool:
    """``killall -HUP mDNSResponder``, ``killall -s USR1 nginx``: a reload, asked for by name."""
    signal = f"-{args[1]}" if args[:1] == ["-s"] and len(args) > 1 else (args or [""])[0]
    return signal.upper() in _RELOADS


_PORT = re.compile(r"^(?:-i)?(?:tcp|udp|TCP|UDP)?:?(\d{2,5})(?:/(?:tcp|udp))?$")


def _kill(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = [a for a in cmd.args() if a != "--"]
    start = 0
    if args and args[0] in ("-s", "-n"):
        start = 2
    elif len(args) > 1 and args[0].startswith("-"):
        start = 1  # the signal: kill -9 …, kill -KILL …
    pids = args[start:]
    signal = args[0] if start else ""
    if signal in ("-0", "-s0") or args[:2] in (["-s", "0"], ["-n", "0"]):
        return  # signal 0 only asks whether the process is alive
    searches = [c for i in range(start + 1, len(cmd.argv)) for c in cmd.inner_of(i)]
    guard = _guard_named(cmd, searches + list(cmd.upstream))
    searches += [u for u in cmd.upstream if u.name in _SEARCHERS]
    if guard is not None:
        yield Finding(
            "kill-guard",
            "deny",
            f"{cmd.name} stops {guard!r}, a security, audit or logging agent of this machine, "
            "which hides what happens next; leave it running and ask the user",
        )
    elif cmd.name == "killall" and _reload_signal(args):
        yield Finding(
            "killall",
            "ask",
            f"{cmd.name} {' '.join(args[:2] if args[0] == '-s' else args[:1])} tells every "
            "process of that name to reload (or reopen its "
            "logs), the agent's or not; a human must confirm",
        )
    elif cmd.name in ("killall", "killall5"):
        yield Finding(
            "killall",
            "deny",
            f"{cmd.name} kills processes by name, including ones the agent did not start; "
            "kill only your own processes, by their id",
        )
    elif any(p in ("1", "-1") for p in pids):
        yield Finding(
            "kill-init",
            "deny",
            "killing PID 1 (or -1, every process) takes the whole system down; kill only your "
            "own processes, by their id",
        )
    elif cmd.name == "kill" and any(p == "0" or re.fullmatch(r"-\d+", p) for p in pids):
        yield Finding(
            "kill-group",
            "ask",
            "kill 0 or kill -PGID signals every process of a process group (for 0, the group "
            "of the agent's own shell); kill only your own processes, by their id",
        )
    elif cmd.name == "kill" and any(c.name in _SEARCHERS for c in searches):
        if not all(_port_holder(c) for c in searches if c.name in _SEARCHERS):
            yield Finding(
                "kill-by-name",
                "ask",
                "kill of the processes a search by name finds (pgrep, pidof, ps) may hit ones "
                "the agent did not start, as pkill does; kill the id of a process you started",
            )
    elif cmd.name == "pkill":
        yield Finding(
            "pkill",
            "ask",
            "pkill matches processes by name and may hit ones the agent did not start; "
            "prefer kill with the id of a process you started",
        )


def _guard_named(cmd: Cmd, searches: list[Cmd]) -> str | None:
    """The security or logging agent a kill names or searches for, if any."""
    words = list(cmd.args()) if cmd.name in ("pkill", "killall") else []
    words += [a for c in searches if c.name in ("pgrep", "pidof") for a in c.args()]
    words += [a for c in searches if c.name not in _SEARCHERS for a in c.argv]  # ps … | grep x
    for word in words:
        found = GUARDS.search(word)
        if found is not None and not word.startswith("-"):
            return word
    return None


def _port_holder(search: Cmd) -> bool:
    """``lsof -t -i:3000`` (``-ti tcp:8080``, ``-sTCP:LISTEN``), ``fuser 3000/tcp``: the
    processes that hold one unprivileged port of this machine, and nothing else."""
    args = search.args()
    if search.name == "lsof":
        specs: list[str] = []
        expect = False
        for word in args:
            option = re.fullmatch(r"-[tnP]*i(.*)", word)
            if expect:
                specs.append(word)
                expect = False
            elif option is not None:
                specs += [option.group(1)] if option.group(1) else []
                expect = not option.group(1)
            elif word not in _LSOF_PLAIN:
                return False
        return bool(specs) and not expect and all(_unprivileged(s) for s in specs)
    if search.name == "fuser":
        ports = [a for a in args if not a.startswith("-")]
        return bool(ports) and all(_unprivileged(p) for p in ports)
    return False


# lsof options that only shape its output: ids only, no name or port lookups, listeners only.
_LSOF_PLAIN = frozenset(
    {"-t", "-n", "-P", "-nP", "-Pn", "-tn", "-sTCP:LISTEN", "-sTCP:ESTABLISHED"}
)


def _unprivileged(spec: str) -> bool:
    match = _PORT.match(spec.removeprefix("-i"))
    return match is not None and 1024 <= int(match.group(1)) <= 65535


def _fuser(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``fuser -k 3000/tcp`` kills the holders of a port; ``fuser 3000/tcp`` only lists them."""
    if "-k" in cmd.args() and not _port_holder(cmd):
        yield Finding(
            "kill-by-name",
            "ask",
            "fuser -k kills every process using that file, folder or port, the agent's or not; "
            "kill the id of a process you started",
        )


HANDLERS: dict[str, Handler] = {
    "kill": _kill,
    "killall": _kill,
    "killall5": _kill,
    "pkill": _kill,
    "fuser": _fuser,
}
