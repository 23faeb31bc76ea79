"""What macOS's own programs do that only ever harms: denied, each with its reason.

- backups destroyed or made blind (``tmutil delete``, ``deletelocalsnapshots``,
  ``thinlocalsnapshots``, ``disable``; the home left out of them; backups sent to another
  machine);
- disks erased (``diskutil eraseDisk``/``zeroDisk``/``apfs deleteVolume``, ``asr --erase``);
- accounts made or raised (``dscl . -create /Users/…``, ``dseditgroup -a … admin``,
  ``sysadminctl -addUser``/``-resetPasswordFor``), and password hashes read (``dscl . -read
  /Users/x ShadowHashData``);
- a library injected into every program launched (``launchctl setenv DYLD_INSERT_LIBRARIES``);
- Gatekeeper's checks bypassed for a program the project did not build (``spctl --add``, the
  quarantine mark stripped with ``xattr -d com.apple.quarantine`` outside the workspace, a
  signature removed outside it, or made for a program among the installed apps, the system
  or the downloads);
- the machine's traffic routed through another host (``networksetup -setwebproxy``,
  ``-setautoproxyurl``, ``-setdnsservers``);
- the system log erased or silenced (``log erase``, ``log config --mode level:off``);
- a security extension removed (``systemextensionsctl uninstall`` of an endpoint agent,
  ``systemextensionsctl reset``);
- a configuration profile installed (it can add root certificates, proxies and VPNs, and
  hand the machine to someone's management);
- Spotlight asked for files that hold secrets (``mdfind 'kMDItemTextContent == "*password*"'``);
- Swift code given inline (``swift -e``) that runs programs, touches files or the network:
  it cannot be checked here, so it asks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    ask_finding,
    deny_finding,
    requote,
)
from workset.safety.rules.confinement import inside
from workset.safety.rules.loopback import LOCAL_HOST
from workset.safety.rules.macos_reads import marked_files, signed_files
from workset.safety.rules.processes import GUARDS

_TMUTIL_DESTROYS = frozenset(
    {
        "delete",
        "deletelocalsnapshots",
        "thinlocalsnapshots",
        "disable",
        "disablelocal",
        "removedestination",
    }
)
_ERASES = re.compile(
    r"(?i)erase\w*|zeroDisk|randomDisk|secureErase|partitionDisk|reformat|"
    r"deleteContainer|deleteVolume|deleteSnapshot"
)
_ADMIN_GROUPS = frozenset({"admin", "wheel", "_lpadmin", "root"})
_HASHES = re.compile(
    r"(?i)ShadowHashData|HeimdalSRPKey|KerberosKeys|dsAttrTypeNative:"
    r"ShadowHashData|Password$"
)
_PROXY_SETTERS = re.compile(
    r"-set(web|secureweb|socksfirewall|ftp|streaming|gopher)proxy$|"
    r"-setautoproxyurl$|-setdnsservers$|-setsearchdomains$"
)
_SECRET_QUERY = re.compile(
    r"(?i)passw|secret|token|api[_-]?key|credential|private key|id_rsa|id_ed25519|\.pem\b|"
    r"\.env\b|wallet|seed phrase|mnemonic"
)
# Where signed programs come from (installed apps and the system) or arrive (downloads):
# a signature made or replaced there passes a program off as trusted.
_TRUSTED_PLACES = re.compile(r"^(/Applications|/System|/Library|/usr|/opt|~/Applications|"
                             r"~/Downloads|~/Desktop|/tmp|/private|/Volumes)(/|$)")  # fmt: skip
_LAUNCH_FOLDER = re.compile(r"(^|/)Launch(Agents|Daemons)/[^/]+\.plist$")
_SWIFT_REACH = re.compile(
    r"\b(Process|NSTask|system|popen|posix_spawn|execv\w*|dlopen|"
    r"FileManager|URLSession|URLRequest|contentsOf\w*|write\s*\(\s*to|"
    r"NSAppleScript|launchPath|executableURL|Socket|Network)\b"
)


def _tmutil(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = [a for a in cmd.args() if not a.startswith("-")]
    verb = args[0] if args else ""
    if verb in _TMUTIL_DESTROYS:
        yield deny_finding(
            "backup-destroyed",
            f"tmutil {verb} destroys or switches off the "
            "machine's backups, the user's way back from any mistake",
            "leave backups alone — ask the user",
        )
    elif verb == "addexclusion" and any(_holds_home(w, ctx) for w in args[1:]):
        yield deny_finding(
            "backup-destroyed",
            "tmutil addexclusion leaves the home (or all of the disk) out of every future backup",
            "exclude only build folders of the workspace",
        )
    elif verb == "setdestination" and any(re.match(r"(?i)(smb|afp|nfs)://", w) for w in args):
        yield deny_finding(
            "backup-sent-away",
            "tmutil setdestination sends every future backup of this machine to another host",
            "ask the user to set up backups",
        )


def _holds_home(word: str, ctx: Context) -> bool:
    place = ctx.resolve(word).rstrip("/") or "/"
    return place in ("/", "~", "/Users", "/System/Volumes/Data") or bool(
        re.fullmatch(r"/Users/[^/]+", place)
    )


def _erase(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = [a for a in cmd.args() if not a.startswith("-")]
    verbs = args[:2] if args[:1] in (["apfs"], ["cs"], ["ar"], ["appleRAID"]) else args[:1]
    erases = any(_ERASES.fullmatch(v) for v in verbs)
    if cmd.name == "asr":
        erases = "--erase" in cmd.args() or "-erase" in cmd.args()
    if erases:
        yield deny_finding(
            "disk-erase",
            f"{cmd.name} {' '.join(verbs)} erases a disk or volume and everything on it",
            "work on files inside the workspace; ask the user to manage disks",
        )


def _accounts(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    words = " ".join(args)
    if cmd.name == "dscl":
        verb = next((a for a in args[1:] if a.startswith("-")), "")
        if verb == "-read" and _HASHES.search(words):
            yield deny_finding(
                "secret-read",
                "dscl reads a user's password hash, which can be cracked offline",
                "never read credentials",
            )
        elif verb in ("-create", "-append", "-merge", "-passwd", "-delete", "-change") and (
            verb == "-passwd"
            or re.search(r"/Groups/(admin|wheel)\b", words)
            or (verb == "-create" and re.search(r"/Users/\w", words))
        ):
            yield _account("dscl " + verb)
    elif cmd.name == "dseditgroup" and "edit" in args and _ADMIN_GROUPS & set(args[-1:]):
        yield _account("dseditgroup -o edit … admin")
    elif cmd.name == "sysadminctl" and {"-addUser", "-resetPasswordFor", "-deleteUser",
                                        "-adminUser"} & set(args):  # fmt: skip
        yield _account("sysadminctl " + next(a for a in args if a.startswith("-")))


def _account(what: str) -> Finding:
    return deny_finding(
        "account-change",
        f"{what} creates an account, changes a password or "
        "makes someone an administrator of this machine",
        "ask the user to manage accounts",
    )


def _launchctl(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if args[:1] == ("setenv",) and len(args) > 1 and re.match(r"(DYLD_|LD_)", args[1]):
        yield deny_finding(
            "library-injection",
            f"launchctl setenv {args[1]} loads a library into every program launched from now on",
            "set it for one command of the workspace instead",
        )


def _gatekeeper(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``spctl --add``, ``xattr -d com.apple.quarantine``, ``codesign --sign``/
    ``--remove-signature`` of a program outside the workspace."""
    args = cmd.args()
    files = [(i, a) for i, a in enumerate(args, 1) if not a.startswith("-")]
    if cmd.name == "spctl":
        changes = "--add" in args
        files = [(i, a) for i, a in files if args[i - 2] not in ("--label", "--rule", "--priority")]
    elif cmd.name == "xattr":
        letters = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
        quarantine = any("quarantine" in a.lower() for a in args)
        changes = "c" in letters or ("d" in letters and quarantine)
        files = marked_files(cmd)
    else:  # codesign
        changes = bool({"--sign", "-s", "--remove-signature", "-f", "--force"} & set(args))
        files = signed_files(cmd)
    outside = [a for i, a in files if cmd.is_dynamic(i) or not inside(a, ctx)]
    if cmd.name == "codesign" and "--remove-signature" not in args:
        outside = [a for a in outside if _TRUSTED_PLACES.match(ctx.resolve(a))]
    if changes and outside:
        yield deny_finding(
            "gatekeeper-bypass",
            f"{cmd.name} makes macOS trust {outside[0]!r}, "
            "a program the project did not build, without the checks it would get",
            "run only what the workspace builds; ask the user to approve other programs",
        )


def _networksetup(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    setter = next((a for a in args if _PROXY_SETTERS.match(a)), "")
    if not setter:
        return
    values = args[args.index(setter) + 2 :]
    away = [v for v in values if not (LOCAL_HOST.match(v) or v in ("Empty", "off", "on")
                                      or v.isdigit())]  # fmt: skip
    if away:
        yield deny_finding(
            "traffic-hijack",
            f"networksetup {setter} sends the machine's traffic "
            f"(or its name lookups) through {away[0]}",
            "leave network settings to the user",
        )


def _log(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    words = " ".join(args).lower()
    if args[:1] == ("erase",) or (args[:1] == ("config",) and re.search(r":off\b", words)):
        yield deny_finding(
            "log-wiped",
            f"log {args[0]} erases or silences the system log, which "
            "hides what happened on this machine",
            "leave the log alone",
        )


def _extensions(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if args[:1] == ("reset",) or (args[:1] == ("uninstall",) and GUARDS.search(" ".join(args))):
        yield deny_finding(
            "defence-off",
            f"systemextensionsctl {args[0]} removes a security extension of this machine",
            "leave security software alone",
        )


def _profiles(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if args[:1] in (("install",), ("-I",)) or "-I" in args:
        yield deny_finding(
            "profile-install",
            "profiles install adds a configuration profile, "
            "which can trust new root certificates, route traffic and hand the "
            "machine to someone's management",
            "ask the user to install profiles",
        )


def _mdfind(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    query = " ".join(a for a in cmd.args() if not a.startswith("-"))
    scope = [cmd.args()[i + 1] for i, a in enumerate(cmd.args()[:-1]) if a == "-onlyin"]
    if not _SECRET_QUERY.search(query) or (scope and all(inside(s, ctx) for s in scope)):
        return
    yield Finding(
        "secret-read",
        "ask",
        "mdfind names the files that hold passwords, keys or tokens, which a line reads "
        "next; a human must confirm, or search the workspace with -onlyin",
    )


def _plutil(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``plutil -replace ProgramArguments -json '[…]' ~/Library/LaunchAgents/x.plist``: the
    program a launch agent runs at login is changed; what it will run is judged as a command
    left to run later."""
    args = cmd.args()
    edit = next((i for i, a in enumerate(args) if a in ("-replace", "-insert")), None)
    if edit is None or edit + 1 >= len(args) or not _LAUNCH_FOLDER.search(args[-1]):
        return
    key = args[edit + 1]
    if key not in ("Program", "ProgramArguments"):
        return
    value = args[edit + 3] if edit + 3 < len(args) - 1 else ""
    try:
        words = json.loads(value) if args[edit + 2] == "-json" else [value]
    except ValueError:
        words = [value]
    program = requote([str(w) for w in words]) if isinstance(words, list) else ""
    yield Finding(
        "persistence",
        "ask",
        f"plutil changes the program {args[-1]} runs by itself "
        "at login or boot, so it keeps running after this task ends; a human must "
        "confirm",
    )
    if program:
        yield Nested(program, later=True)


def _swift(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    code = args[args.index("-e") + 1] if "-e" in args[:-1] else None
    if code is not None and (_SWIFT_REACH.search(code) or cmd.is_dynamic(args.index("-e") + 2)):
        yield ask_finding(
            "inline-code",
            "swift -e runs Swift code that starts programs or "
            "reaches files or the network, which cannot be checked here",
            "a human must confirm, or put it in a file of the workspace",
        )


HANDLERS: dict[str, Handler] = {
    "tmutil": _tmutil,
    "diskutil": _erase,
    "asr": _erase,
    **dict.fromkeys(("dscl", "dseditgroup", "sysadminctl"), _accounts),
    "launchctl": _launchctl,
    **dict.fromkeys(("spctl", "xattr", "codesign"), _gatekeeper),
    "networksetup": _networksetup,
    "log": _log,
    "systemextensionsctl": _extensions,
    "profiles": _profiles,
    "mdfind": _mdfind,
    "swift": _swift,
    "plutil": _plutil,
}
