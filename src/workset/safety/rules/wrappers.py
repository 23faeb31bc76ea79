"""Command wrappers: ``sudo``, ``su -c``, ``env``, ``nohup``, ``timeout`` and kin.

:func:`unwrap` strips them so the rules judge the command that really runs, and keeps what
they say about privilege (``sudo`` and ``su`` ask a human).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workset.safety.rules.base import Cmd, Finding, Nested, Result
from workset.safety.rules.environment import assignment
from workset.safety.rules.host_state import reads_state
from workset.safety.rules.root_reads import sudo_reads

_SUDO_ASKS = frozenset({("-l",), ("-ll",), ("--list",), ("-k",), ("-K",), ("-V",),
                        ("-n", "true"), ("-n", "-l"), ("-nl",), ("-ln",)})  # fmt: skip


def unwrap(cmd: Cmd, out: list[Result]) -> Cmd:
    """Strip command wrappers, keeping what they say about privilege."""
    while cmd.argv:
        name, args = cmd.name, cmd.args()
        if name == "sudo" and args in _SUDO_ASKS:
            return cmd.shifted(len(cmd.argv))  # sudo -l, sudo -n true: what sudo allows, read
        if name in ("sudo", "doas"):
            start = 1 + skip_options(args, "ugCDhpRrtUT")
            if cmd.argv[1:start] in ((), ("-n",)) and reads_state(cmd.shifted(start)):
                return cmd.shifted(start)  # sudo ufw status: state only root may read, printed
            if sudo_reads(cmd.argv[1:start], cmd.shifted(start)):
                return cmd.shifted(start)  # sudo nginx -t, sudo -u postgres psql -c 'SHOW …'
            out.append(_sudo(name))
            while start < len(cmd.argv) and re.match(r"^[A-Za-z_]\w*=", cmd.argv[start]):
                variable, _, value = cmd.argv[start].partition("=")  # sudo EDITOR=… visudo
                out.extend(assignment(variable, value))
                start += 1
            login = {"-i", "-s", "--login", "--shell"} & set(cmd.argv[1:start])
            if (login and start >= len(cmd.argv)) or _bare_shell(cmd.argv[start:]):
                out.append(_root_shell(name))
            elif _escapes_to_shell(cmd.argv[start:]):  # sudo vim -c ':!/bin/sh'
                out.append(_root_shell(f"{name} {cmd.argv[start]}"))
            cmd = cmd.shifted(start)
        elif name == "pkexec":  # pkexec --user root CMD
            out.append(_sudo(name))
            start = 1
            while start < len(cmd.argv) and cmd.argv[start].startswith("--"):
                start += 2 if cmd.argv[start] == "--user" else 1
            if start >= len(cmd.argv) or _bare_shell(cmd.argv[start:]):
                out.append(_root_shell(name))
            cmd = cmd.shifted(start)
        elif name == "su":
            out.append(_sudo(name))
            if "-c" in args and args.index("-c") + 1 < len(args):
                out.append(Nested(args[args.index("-c") + 1]))
            elif not {"-c", "--command"} & set(args):
                out.append(_root_shell(name))
            return cmd.shifted(len(cmd.argv))
        elif name == "env" and _split_string(cmd) is not None:
            # env -S 'rm -rf ~': the string is split into the command and its words
            out.append(Nested(str(_split_string(cmd))))
            return cmd.shifted(len(cmd.argv))
        elif name == "cross-env":  # cross-env NODE_ENV=test jest: env, written for Windows too
            start = 1
            while start < len(cmd.argv) and "=" in cmd.argv[start]:
                variable, _, value = cmd.argv[start].partition("=")
                out.extend(assignment(variable, value))
                start += 1
            cmd = cmd.shifted(start)
        elif name == "env":
            start = 1
            while start < len(cmd.argv) and (
                cmd.argv[start].startswith("-") or "=" in cmd.argv[start]
            ):
                variable, equals, value = cmd.argv[start].partition("=")
                if equals and not variable.startswith("-"):
                    out.extend(assignment(variable, value))  # env GIT_SSH_COMMAND=… git fetch
                start += 2 if cmd.argv[start] in ("-u", "-C", "-S") else 1
            if start >= len(cmd.argv):
                return cmd  # env alone prints the environment
            cmd = cmd.shifted(start)
        elif name == "direnv" and args[:1] == ("exec",) and len(args) > 2:
            # direnv exec DIR CMD: CMD with DIR's .envrc loaded (the project's own code)
            if not cmd.is_dynamic(2) and not args[1].startswith(("/", "~", "..")):
                cmd = cmd.shifted(3)
            else:
                return cmd
        elif name == "opam" and args[:1] == ("exec",) and "--" in args:
            cmd = cmd.shifted(args.index("--") + 2)  # opam exec -- CMD: CMD in the switch
        elif name == "command":
            start = 1 + skip_options(args, "")
            if any(set(a[1:]) & {"v", "V"} for a in args[: start - 1]):
                return cmd  # command -v NAME only says where NAME is
            cmd = cmd.shifted(start)
        elif name in (
            "nohup",
            "builtin",
            "exec",
            "time",
            "nice",
            "ionice",
            "stdbuf",
            "chrt",
            "setsid",
            "unbuffer",
            "caffeinate",
            "coproc",
        ):
            # Options that take a value: time -p is a flag, exec -a NAME names the program.
            letters = {"time": "ofv", "exec": "a"}.get(name, "npcsoeiIt")
            start = 1 + skip_options(args, letters)
            if name == "time":  # time -o FILE: a file it writes
                for target in _outputs([w for w in cmd.argv[1:start] if w != "-f"]):
                    out.append(Cmd(argv=(":",), redirects=((">", target),), dynamic=(False,)))
            cmd = cmd.shifted(start)
        elif name == "xcrun":  # xcrun --sdk iphoneos simctl list: the developer tool it finds
            start = 1
            while start < len(cmd.argv) and cmd.argv[start].startswith("-"):
                if cmd.argv[start] in _XCRUN_PRINTS:
                    return cmd.shifted(len(cmd.argv))  # xcrun --show-sdk-path: printed
                start += 2 if cmd.argv[start] in ("--sdk", "-sdk", "--toolchain") else 1
            cmd = cmd.shifted(start)
        elif name == "perf" and args[:1] and args[0] in _PERF_READERS:
            return cmd  # perf report -i perf.data: reads a recorded profile, runs nothing
        elif name in _PREFIXES:
            start = _prefix_end(cmd.argv, *_PREFIXES[name])
            if name in _TRACERS and set(cmd.argv[1:start]) & _ATTACH:
                out.append(_attaches(name))
            if start >= len(cmd.argv):
                if name == "perf":  # perf top, perf record alone: every process, system-wide
                    out.append(_attaches(name))
                return cmd
            for target in _outputs(cmd.argv[1:start]):  # strace -o FILE: a file it writes
                out.append(Cmd(argv=(":",), redirects=((">", target),), dynamic=(False,)))
            cmd = cmd.shifted(start)  # strace -f CMD, taskset -c 0 CMD, faketime T CMD
        elif name == "timeout":
            start = 1 + skip_options(args, "sk")
            cmd = cmd.shifted(start + 1)  # the duration
        elif name == "busybox" and len(cmd.argv) > 1:
            cmd = cmd.shifted(1)
        else:
            return cmd
    return cmd


# Programs that run the command after their own options (and a fixed number of operands):
# tracers, sandboxes, schedulers, proxies. The command they run is judged as written alone.
_PREFIXES: dict[str, tuple[frozenset[str], int]] = {
    "taskset": (frozenset({"-p"}), 1),
    "firejail": (frozenset(), 0),
    "unshare": (frozenset({"-S", "-G", "-w", "-R", "--setuid", "--setgid", "--wd"}), 0),
    "strace": (frozenset({"-o", "-e", "-p", "-s", "-u", "-a", "-E", "-P", "-O", "-S", "-X"}), 0),
    "ltrace": (frozenset({"-o", "-e", "-p", "-s", "-u", "-a", "-n", "-l", "-L", "-x"}), 0),
    "valgrind": (frozenset(), 0),
    "perf": (frozenset({"-e", "-o", "-p", "-t", "-C", "-r", "-F", "-c", "--pid"}), 1),
    "faketime": (frozenset({"-f", "-m"}), 1),
    "catchsegv": (frozenset(), 0),
    "systemd-inhibit": (frozenset({"--what", "--who", "--why", "--mode"}), 0),
    "flatpak-spawn": (frozenset({"--env", "--directory", "--forward-fd"}), 0),
    "xvfb-run": (frozenset({"-s", "--server-args", "-n", "--server-num", "-e", "-f", "-p"}), 0),
    "dbus-launch": (frozenset(), 0),
    "torsocks": (frozenset({"-a", "-P", "-u", "-p"}), 0),
    "proxychains": (frozenset({"-f"}), 0),
    "proxychains4": (frozenset({"-f"}), 0),
    "entr": (frozenset(), 0),
    "watchexec": (
        frozenset(
            {
                "-e",
                "--exts",
                "-w",
                "--watch",
                "-i",
                "--ignore",
                "-d",
                "--debounce",
                "-s",
                "--signal",
                "-E",
                "--env",
                "-f",
                "--filter",
                "--workdir",
                "--delay-run",
                "--poll",
                "--project-origin",
            }
        ),
        0,
    ),
}


# xcrun options that only print where a tool or an SDK is.
_XCRUN_PRINTS = frozenset({"-f", "--find", "--show-sdk-path", "--show-sdk-version",
                           "--show-sdk-build-version", "--show-sdk-platform-path",
                           "--show-sdk-platform-version", "--version", "-h", "--help"})  # fmt: skip


# perf subcommands that read a recorded profile (``perf report -i perf.data``) and run no
# command of their own; ``perf`` itself is a known project tool.
_PERF_READERS = frozenset(
    {"report", "script", "annotate", "diff", "list", "evlist", "buildid-list", "help", "version"}
)


# Tracers told to watch processes they did not start (a pid, every CPU): they read what
# those processes hold (keys in memory, what they read and write).
_TRACERS = frozenset({"strace", "ltrace", "perf"})
_ATTACH = frozenset({"-p", "--pid", "-a", "--all-cpus", "--attach"})


def _attaches(name: str) -> Finding:
    return Finding(
        "trace-attach",
        "ask",
        f"{name} watches processes it did not start, and sees what they read, write and hold; "
        "a human must confirm, or trace a program you start",
    )


def _outputs(options: Sequence[str]) -> list[str]:
    """The files a wrapper's own options write (``-o FILE``, ``--log-file=FILE``)."""
    found = [options[i + 1] for i, w in enumerate(options[:-1]) if w in ("-o", "-e", "-f")]
    return found + [w.split("=", 1)[1] for w in options if w.startswith(("--log-file=", "-o="))]


def _prefix_end(argv: Sequence[str], valued: frozenset[str], operands: int) -> int:
    """Where the wrapped command starts: after the options (``valued`` ones take the next
    word) and ``operands`` words of the wrapper's own."""
    index = 1
    while index < len(argv):
        word = argv[index]
        if word == "--":
            return index + 1
        if word.startswith("-"):
            index += 2 if word in valued else 1
        elif operands:
            operands -= 1
            index += 1
        else:
            break
    return index


def skip_options(args: Sequence[str], with_value: str) -> int:
    """How many leading option words ``args`` has (``-u root`` counts as two)."""
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] != "-":
        word = args[index]
        index += 1
        if word == "--":
            break
        if len(word) == 2 and word[1] in with_value and not word.startswith("--"):
            index += 1
        if word[1:].isdigit():  # nice -10
            continue
    return index


_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "ash"})


def _bare_shell(argv: Sequence[str]) -> bool:
    """``bash``, ``/bin/sh -i``, ``zsh -l``: a shell given no command or script to run, which
    reads its commands from whoever types them next."""
    if not argv or argv[0].rsplit("/", 1)[-1] not in _SHELLS:
        return False
    return all(a.startswith("-") and "c" not in a[1:] and a not in ("-s", "--") for a in argv[1:])


# Programs that start another program from their options or their inline code (GTFOBins'
# "shell" escapes): run as root, a shell they start is a root shell.
_ESCAPERS = frozenset({
    "vi", "vim", "nvim", "view", "rvim", "ex", "ed", "awk", "gawk", "mawk", "nawk", "busybox",
    "find", "xargs", "python", "python2", "python3", "perl", "ruby", "lua", "php", "node",
    "irb", "script", "tar", "zip", "rsync", "less", "more", "man", "git", "gdb", "expect",
    "nmap", "timeout", "nice", "strace", "ltrace", "taskset", "flock", "socat", "tclsh",
    "wish", "jjs", "openssl", "make", "ssh", "scp", "sed", "emacs", "nano", "pico", "ftp",
    "watch", "journalctl", "systemctl", "run-parts", "start-stop-daemon", "stdbuf", "unshare",
})  # fmt: skip
# A shell named as a whole word inside an argument (``:!/bin/sh``, ``system("/bin/bash")``,
# ``exec=/bin/sh``, ``pty.spawn('sh')``), not followed by a command or a script to run.
_SHELL_WORD = re.compile(
    r"(?<![\w/.-])(?:/usr)?(?:/bin/)?(?:sh|bash|zsh|dash|ksh|ash)(?![\w./-])"
    r"(?![\"']?\s*,?\s*[\"']?\s*-c\b)(?!\s+[\w./~-]+)"
)


def _escapes_to_shell(argv: Sequence[str]) -> bool:
    """``vim -c ':!/bin/sh'``, ``awk 'BEGIN {system("/bin/bash")}'``, ``find . -exec /bin/sh
    \\;``: a program that can start programs, told to start a shell with nothing to run (one
    that reads its commands from whoever types them next)."""
    if not argv or argv[0].rsplit("/", 1)[-1] not in _ESCAPERS:
        return False
    return any(_SHELL_WORD.search(a) for a in argv[1:])


def _root_shell(name: str) -> Finding:
    return Finding(
        "root-shell",
        "deny",
        f"{name} opens a shell with administrator rights that takes whatever commands come "
        "next, none of them seen or approved here; run the one command that needs the "
        "rights, and ask the user first",
    )


def _sudo(name: str) -> Finding:
    return Finding(
        "sudo",
        "ask",
        f"{name} runs the command with administrator rights; a human must confirm, or do the "
        "work without elevated privileges inside the workspace",
    )


def _split_string(cmd: Cmd) -> str | None:
    """The string of ``env -S STRING``/``--split-string=STRING`` with the words after it."""
    args = list(cmd.args())
    for index, word in enumerate(args):
        if word in ("-S", "--split-string") and index + 1 < len(args):
            return " ".join([args[index + 1], *args[index + 2 :]])
        if word.startswith(("--split-string=", "-S")) and len(word) > 2 and word != "-S":
            value = word.split("=", 1)[1] if word.startswith("--") else word[2:]
            return " ".join([value, *args[index + 1 :]])
        if not word.startswith("-"):
            return None
    return None
