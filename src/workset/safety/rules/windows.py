"""Windows programs reached from WSL or Git Bash (``powershell.exe``, ``cmd.exe``, ``reg``…).

A name ending in ``.exe`` is the same program as without it (``git.exe status`` is ``git
status``); :func:`windows_name` says which. PowerShell's ``-Command`` text and a decoded
``-EncodedCommand`` are judged by :mod:`~workset.safety.rules.powershell`, ``-File`` runs a
script (the project's own when its path stays in the workspace); ``cmd /c`` text is analysed as
commands. The system tools are judged by subcommand: listing and hashing run (``vssadmin
list``, ``certutil -hashfile``, ``schtasks /query``, ``reg query``), what destroys recovery
or the record of what ran is denied (``vssadmin delete shadows``, ``wevtutil cl``, ``bcdedit
/set … recoveryenabled no``), a scheduled task or a registry change asks, and a task's ``/tr``
command is analysed as code that runs later.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from workset.safety.rules import powershell, powershell_acts
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Nested, Result
from workset.safety.rules.network import download_exec, downloads

_POWERSHELL = frozenset({"powershell", "pwsh"})
_ENCODED = ("-encodedcommand", "-enc", "-e", "-ec", "-en", "-encoded")
_WITH_VALUE = ("-executionpolicy", "-ep", "-ex", "-exec", "-windowstyle", "-w", "-workingdirectory",
               "-wd", "-configurationname", "-inputformat", "-outputformat", "-version",
               "-psconsolefile", "-settingsfile")  # fmt: skip
# Programs that only read or show (explorer opens a folder window).
READ_ONLY = frozenset({"wslpath", "where", "whoami", "ver", "systeminfo", "hostname", "tasklist",
                       "ipconfig", "explorer", "wslview", "clip", "cmdkey-list", "findstr",
                       "wslinfo", "getmac", "driverquery", "dir", "vol"})  # fmt: skip


def windows_name(name: str) -> str:
    """``powershell.exe`` → ``powershell``; names without ``.exe`` are returned as they are."""
    low = name.lower()
    return low[:-4] if low.endswith(".exe") and len(low) > 4 else name


def _powershell(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = list(cmd.args())
    hidden = False
    index = 0
    while index < len(args):
        word = args[index]
        low = word.lower()
        if low in _ENCODED and index + 1 < len(args):
            text = _decoded(args[index + 1])
            if text is None:
                yield from powershell_acts.undecodable(args[index + 1], powershell.analyse)
                yield Finding("powershell", "ask", "the -EncodedCommand text does not decode, "
                              "so what it runs cannot be checked")  # fmt: skip
                return
            yield from _encoded(text, hidden)
            return
        if low in ("-windowstyle", "-w") and index + 1 < len(args):
            hidden = args[index + 1].lower() in ("hidden", "h", "1")
        if low in ("-file", "-f") and index + 1 < len(args):
            yield from _script(args[index + 1])
            return
        if low in ("-command", "-c") or not low.startswith("-"):
            start = index + 1 if low.startswith("-") else index
            text = " ".join(args[start:])
            if text.strip() == "-":
                break  # -Command -: the commands come from stdin
            yield from powershell.analyse(f"-w hidden; {text}" if hidden else text)
            return
        index += 2 if low in _WITH_VALUE else 1
    if not _fed(cmd):
        return  # an interactive shell: nothing runs until a human types it
    if downloads(cmd.upstream):
        yield download_exec(f"a download is piped into {cmd.name}")
        return
    yield from powershell_acts.fed(cmd, powershell.analyse)
    yield Finding("powershell", "ask", "PowerShell runs what its input gives it, which cannot "
                  "be checked; save the script to a file, read it, then run the file")  # fmt: skip


def _fed(cmd: Cmd) -> bool:
    """The shell reads commands from a pipe, a here-document or a file."""
    return cmd.piped or bool(cmd.stdin_inner) or any(op.startswith("<") for op, _ in cmd.redirects)


def _decoded(text: str) -> str | None:
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
        return raw.decode("utf-16-le")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


def _encoded(text: str, hidden: bool) -> Iterator[Result]:
    found = list(powershell.analyse(text))
    if hidden and found:
        yield Finding("powershell", "deny", "runs encoded PowerShell in a hidden window, which "
                      "only hides what it does; never run it")  # fmt: skip
        return
    yield from found
    if not any(isinstance(f, Finding) and f.severity == "deny" for f in found):
        yield Finding("powershell", "ask", "the PowerShell command is base64-encoded, which "
                      "hides it from whoever approves; pass it as plain -Command text")  # fmt: skip


_RELATIVE = re.compile(r"^(\.[\\/]?)?[\w.-]+([\\/][\w.-]+)*$")


def _script(path: str) -> Iterator[Result]:
    if _RELATIVE.match(path) and ".." not in path:
        return  # the project's script, like ``bash scripts/build.sh``
    yield Finding("script-outside", "ask", f"runs {path}, a script outside the workspace; "
                  "a human must confirm, or copy it into the workspace first")  # fmt: skip


def command_line(text: str, *, later: bool = False) -> Iterator[Result]:
    """A Windows command line (a task's ``/tr``): PowerShell's text goes to its analyser
    whole (its ``|`` is PowerShell's), anything else is analysed as shell code."""
    words = text.split()
    if words and windows_name(words[0].rsplit("\\", 1)[-1].rsplit("/", 1)[-1]) in _POWERSHELL:
        found = list(_powershell(Cmd(tuple(words)), Context()))
        if (
            later
            and any(isinstance(f, Finding) for f in found)
            and powershell.HIDDEN.search(text.lower())
        ):
            yield _deny("the task", "runs PowerShell in a hidden window, which only hides it")
        yield from found
    elif words:
        yield Nested(text.replace("\\", "/"), later=later)


def _cmd(cmd: Cmd, ctx: Context, drives: dict[str, str] | None = None) -> Iterator[Result]:
    args = list(cmd.args())
    run = next((i for i, a in enumerate(args) if a.lower() in ("/c", "/k", "/r")), None)
    if run is None:
        if _fed(cmd):
            yield Finding("pipe-to-interpreter", "ask", "cmd runs the commands its input gives "
                          "it, which cannot be checked; run a script file instead")  # fmt: skip
        return
    text = " ".join(args[run + 1 :])
    for part in re.split(r"&&|\|\||&|\n", text):
        yield from command_line(_builtin(part.strip(), drives or _WSL_DRIVES))


# Where Windows drives lie as the shell sees them: under WSL (C: is the Windows home's drive,
# its Users folder the home), and under wine (Z: is the whole Linux file system).
_WSL_DRIVES = {"c:/users/*/": "~/", "c:/": "/", "*:/": "/mnt/*/"}
_WINE_DRIVES = {"z:/": "/", "c:/users/*/": "~/", "c:/": "~/.wine/drive_c/", "*:/": "/mnt/*/"}
# cmd's own commands that delete or print files, as the shell commands that do the same.
_BUILTINS = {"del": "rm", "erase": "rm", "rd": "rm", "rmdir": "rm", "type": "cat"}


def _builtin(text: str, drives: dict[str, str]) -> str:
    """``del /s /q Z:\\home\\dev\\*`` as ``rm -r -f /home/dev/*`` (under wine): cmd's delete and
    print commands, their drive paths mapped to where they lie, so the shell rules judge them."""
    words = text.split()
    if not words or words[0].lower() not in _BUILTINS:
        return text
    program = _BUILTINS[words[0].lower()]
    flags = {"/s": "-r", "/q": "-f", "/f": "-f"} if program == "rm" else {}
    out = [program, *(["-r"] if words[0].lower() in ("rd", "rmdir") else [])]
    for word in words[1:]:
        if word.lower() in flags:
            out.append(flags[word.lower()])
        elif not re.fullmatch(r"/\w", word):  # other switches (/p, /a) change no target
            out.append(_drive_path(word.strip('"'), drives))
    return " ".join(out)


def _drive_path(word: str, drives: dict[str, str]) -> str:
    path = word.replace("\\", "/")
    low = path.lower() + ("/" if re.fullmatch(r"[a-z]:", path.lower()) else "")
    for pattern, place in drives.items():
        regex = "^" + re.escape(pattern).replace(r"\*", "([^/]+)")
        match = re.match(regex, low)
        if match:
            mapped = place.replace("*", match.group(1)) if match.groups() else place
            return mapped + path[match.end() :]
    return path


def _wine(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``wine cmd /c …`` runs cmd's commands with Z: as the Linux root; a program of the
    workspace (``wine ./build/app.exe``) is the project's own; anything else asks."""
    args = cmd.args()
    program = windows_name(args[0].rsplit("\\", 1)[-1]).lower() if args else ""
    if program == "cmd":
        yield from _cmd(cmd.shifted(1), ctx, _WINE_DRIVES)
    elif args and _RELATIVE.match(args[0]) and ".." not in args[0] and "/" in args[0]:
        return
    else:
        yield _ask(f"wine {' '.join(args[:1])}", "runs a Windows program whose effects are unknown")


def _subcommand_rule(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    name = windows_name(cmd.name).lower()
    words = [a.lower() for a in cmd.args()]
    line = " ".join(words)
    if name == "vssadmin" and words[:1] == ["list"]:
        return
    if name in ("vssadmin", "wbadmin") and (("delete" in words) or "resize" in words):
        yield _deny(f"{name} {line}", "deletes backups or restore points")
    elif name == "wevtutil" and words[:1] in (["cl"], ["clear-log"], ["sl"], ["set-log"]):
        yield _deny(f"wevtutil {line}", "clears or changes the event logs, the record of what ran")
    elif name == "bcdedit" and words[:1] in (["/set"], ["/deletevalue"], ["/delete"]):
        if re.search(r"recoveryenabled|bootstatuspolicy|testsigning|nointegritychecks", line):
            yield _deny(f"bcdedit {line}", "disables recovery or integrity checks at boot")
        else:
            yield _ask(f"bcdedit {line}", "changes how the machine boots")
    elif name == "schtasks":
        yield from _schtasks(cmd, words)
    elif name == "reg":
        yield from _reg(words, line)
    elif name == "certutil":
        yield from _certutil(words, line)
    elif name == "netsh" and not re.search(r"\b(show|dump)\b", line):
        if re.search(r"state\s+off|opmode\s+disable", line):
            yield _deny(f"netsh {line}", "switches the firewall off")
        else:
            yield _ask(f"netsh {line}", "changes network or firewall settings")
    elif name == "wsl":
        yield from _wsl(cmd, words)
    elif name == "winget" and words[:1] not in (["list"], ["search"], ["show"], ["--version"]):
        yield _ask("winget " + " ".join(words[:2]), "installs or changes Windows programs")
    elif name == "icacls" and re.search(r"/(grant|deny|remove|reset|setowner|setintegrity)", line):
        yield _ask("icacls " + line, "changes who may use the files")
    elif name == "wmic" and not re.search(r"\b(get|list)\b", line):
        if re.search(r"shadowcopy\s+delete", line):
            yield _deny("wmic " + line, "deletes the volume shadow copies, the restore points")
        else:
            yield _ask("wmic " + line, "is not a read")
    elif name in ("bcdedit", "wevtutil") and words and words[0] not in _LISTINGS:
        yield _ask(f"{name} {line}", "is not a listing")


_RUNNABLE = re.compile(r"(?i)\.(exe|bat|cmd|com|ps1|lnk|vbs|vbe|js|jse|wsf|msi|hta|scr|cpl|"
                       r"jar|sh|appref-ms|url)$")  # fmt: skip
_LISTINGS = frozenset({"/enum", "/v", "el", "qe", "gl", "gli", "enum-logs"})


def _schtasks(cmd: Cmd, words: list[str]) -> Iterator[Result]:
    if words[:1] != ["/create"] and words[:1] != ["/change"]:
        if words[:1] in (["/delete"], ["/run"], ["/end"]):
            yield _ask("schtasks " + words[0], "changes scheduled tasks")
        return
    yield Finding("persistence", "ask", "schtasks /create leaves a task that runs later by "
                  "itself; an agent's work ends when its task does")  # fmt: skip
    args = list(cmd.args())
    action = next((args[i + 1] for i, a in enumerate(args[:-1]) if a.lower() == "/tr"), "")
    name = next((args[i + 1] for i, a in enumerate(args[:-1]) if a.lower() == "/tn"), "")
    if re.match(r"(\\)?(microsoft|windows|onedrive|google|adobe)", name.lower()):
        yield _deny(f"schtasks /tn {name}", "names a task like a vendor's, which only disguises it")
    if action:
        yield from command_line(action, later=True)


def _reg(words: list[str], line: str) -> Iterator[Result]:
    if words[:1] in (["query"], ["export"], ["compare"]):
        return
    if re.search(
        r"[\\/]currentversion[\\/](run|runonce)\b|[\\/]winlogon|image file execution|"
        r"windows defender|[\\/]lsa\b",
        line,
    ):  # fmt: skip (cmd /c text has / for \\)
        yield _deny("reg " + line, "writes an autorun, Defender or logon key of the registry")
        return
    yield _ask("reg " + (words[0] if words else ""), "changes the registry")


def _certutil(words: list[str], line: str) -> Iterator[Result]:
    verb = next((w for w in words if w.startswith(("-", "/"))), "")[1:]
    reads = ("hashfile", "dump", "verify", "dumppfx", "store", "viewstore", "user", "f")
    if verb in reads and not re.search(r"-(addstore|urlcache|decode|encode|importpfx)", line):
        return
    if re.search(r"-addstore\s+(-\w+\s+)*(\"?root|authroot|trustedpublisher)", line):
        yield _deny("certutil " + line, "trusts a new root certificate for the whole machine")
    elif "-urlcache" in line or "-verifyctl" in line:
        yield _ask("certutil " + line, "downloads a file, a common way to fetch payloads")
    else:
        yield _ask("certutil " + line, "is not a read")


def _wsl(cmd: Cmd, words: list[str]) -> Iterator[Result]:
    args = list(cmd.args())
    while words and words[0] in ("-d", "--distribution", "-u", "--user", "--cd"):
        words, args = words[2:], args[2:]  # which distribution, as whom, where: then the command
    if not words or words[0] in ("-l", "--list", "--status", "--version", "-v", "--help"):
        return
    if words[0] in ("-e", "--exec", "--"):
        yield Nested(" ".join(args[1:]))
    elif words[0] in ("--unregister", "--shutdown", "--terminate", "-t", "--import", "--install"):
        yield _ask("wsl " + words[0], "changes the installed Linux distributions")
    elif not words[0].startswith("-"):
        yield Nested(" ".join(args))
    else:
        yield _ask("wsl " + words[0], "is not a listing")


def _deny(what: str, why: str) -> Finding:
    return Finding("windows", "deny", f"{what[:60]} {why}; never run it")


def _ask(what: str, why: str) -> Finding:
    return Finding("windows", "ask", f"{what[:60]} {why}; a human must confirm")


def _read_only(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if cmd.name.lower() in ("explorer", "wslview") and any(
        _RUNNABLE.search(a) for a in cmd.args()
    ):  # explorer.exe x.exe runs it: opening a program is running it
        yield _ask(f"{cmd.name} {cmd.args()[-1]}", "opens a program, which runs it")


HANDLERS: dict[str, Handler] = {
    **{n: _powershell for n in _POWERSHELL},
    "cmd": _cmd,
    **{n: _wine for n in ("wine", "wine64")},
    **{
        n: _subcommand_rule
        for n in (
            "vssadmin",
            "wbadmin",
            "wevtutil",
            "bcdedit",
            "schtasks",
            "reg",
            "certutil",
            "netsh",
            "wsl",
            "wmic",
            "winget",
            "icacls",
        )
    },
    **{n: _read_only for n in READ_ONLY},
}
