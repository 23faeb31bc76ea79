"""Windows administration reached from WSL that takes the machine's defences apart.

The system tools of :mod:`~workset.safety.rules.windows` ask for any change; these are the
changes that are never an agent's to make, denied with the reason:

- accounts: ``net user NAME PASS /add``, ``net localgroup administrators NAME /add``, the Guest
  account switched on (``net user guest /active:yes``): a way back in that outlives the task;
- the registry: ``reg save|export HKLM\\SAM`` (or SECURITY, SYSTEM: the machine's password
  hashes) and User Account Control switched off (``EnableLUA 0``);
- files: ``icacls … /grant Everyone:F`` (or Users, Authenticated Users: every account may
  change them, or read keys), ``takeown`` of a file of Windows itself;
- code from elsewhere: ``mshta`` of a web address or inline script, ``cmd /c start`` of a
  program on a network share, ``certutil -urlcache`` of a program;
- ``winget`` removing security software or skipping the installer's hash check.

Reads and ordinary changes keep the asks of the windows rules (``net user`` lists accounts,
``icacls key /grant:r dev:R`` fixes a key's permissions, ``winget install --id …`` asks).
``cmd /c start msedge http://localhost:5173`` only opens a page: :data:`VOUCHERS`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result, Voucher
from workset.safety.rules.secret_paths import is_secret

_EVERYONE = re.compile(r"^\*?(everyone|users|builtin[\\/]users|authenticated users|guests?|"
                       r"anonymous( logon)?|s-1-1-0|s-1-5-11|s-1-5-32-545)$")  # fmt: skip
_SECRET_PLACE = re.compile(r"[\\/]\.(ssh|aws|gnupg|kube|azure)([\\/]|$)|credentials|[\\/]sam$")
_SYSTEM_FILES = re.compile(r"^(\"?[a-z]:)?[\\/](windows|program files[^\\/]*|programdata)"
                           r"([\\/]|$)|^[a-z]:[\\/]?$")  # fmt: skip
_HIVES = re.compile(r"^(hklm|hkey_local_machine)[\\/](sam|security|system)$")
_UAC = re.compile(r"[\\/]policies[\\/]system$")
_UAC_OFF = {"enablelua": "0", "consentpromptbehavioradmin": "0", "promptonsecuredesktop": "0",
            "localaccounttokenfilterpolicy": "1", "filteradministratortoken": "0"}  # fmt: skip
_REMOTE = re.compile(r"^(https?://|\\\\|//)|^(vbscript|javascript):")
_RUNNABLE = re.compile(r"\.(exe|dll|ps1|bat|cmd|vbs|js|hta|msi|scr|com)$")
_SECURITY_SOFTWARE = re.compile(r"malwarebytes|defender|eset|kaspersky|norton|symantec|avast|"
                                r"\bavg\b|bitdefender|sophos|crowdstrike|sentinel|mcafee|"
                                r"trendmicro|trend micro|webroot|f-secure|"
                                r"windows\.?security")  # fmt: skip
_ADMINS = re.compile(r"^(administrators|remote desktop users|remote management users)$")
_BROWSERS = frozenset({"msedge", "chrome", "firefox", "brave", "microsoft-edge:"})


def _net(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a.lower() for a in cmd.args()]
    if not words:
        return
    if words[0] == "user" and "/add" in words:
        yield _deny("net user /add", "creates a Windows account, a way back in that outlives "
                    "the task")  # fmt: skip
    elif words[0] == "user" and any(w in ("/active:yes", "/active") for w in words):
        yield _deny("net user /active:yes", "switches on a disabled account such as Guest")
    elif words[0] == "localgroup" and "/add" in words and _ADMINS.search(" ".join(words[1:2])):
        yield _deny(f"net localgroup {words[1]} /add", "gives an account the machine's "
                    "administration")  # fmt: skip


def _reg(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a.lower().strip('"') for a in cmd.args()]
    if words[:1] in (["save"], ["export"]) and len(words) > 1 and _HIVES.match(words[1]):
        yield _deny(f"reg {words[0]} {words[1]}", "copies the registry hive that holds the "
                    "machine's password hashes")  # fmt: skip
    elif words[:1] == ["add"] and len(words) > 1 and _UAC.search(words[1]):
        name = _value(words, "/v")
        if name in _UAC_OFF and _value(words, "/d") == _UAC_OFF[name]:
            yield _deny(f"reg add {name}", "switches User Account Control off, so any program "
                        "gets administrator rights unasked")  # fmt: skip


def _icacls(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = list(cmd.args())
    target = args[0].lower().strip('"') if args else ""
    if not re.match(r"^([a-z]:|\\\\|//|%|\$env:)", target):
        return  # a path of the project (.\\build): the windows rules' ask stands
    for index, word in enumerate(args[:-1]):
        if not word.lower().startswith("/grant"):
            continue
        grantee, _, rights = args[index + 1].lower().rpartition(":")
        if not _EVERYONE.match(grantee.strip('"')):
            continue
        if _writes(rights) or _SECRET_PLACE.search(target) or _SYSTEM_FILES.match(target):
            yield _deny(f"icacls {target} /grant {args[index + 1]}", "opens the files to every "
                        "account of the machine")  # fmt: skip
            return


def _writes(rights: str) -> bool:
    """``F``, ``M``, ``(OI)(CI)W``, ``(GA)``: rights that change the files, not only read them."""
    granted = re.sub(r"\((oi|ci|io|np|i)\)", "", rights)
    return bool(
        set(re.split(r"[(),\s]+", granted)) & {"f", "m", "w", "ga", "gw", "wd", "ad", "wo", "dc"}
    )


def _takeown(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    target = _value([a.lower() for a in cmd.args()], "/f")
    if target and _SYSTEM_FILES.match(target.strip('"')):
        yield _deny(f"takeown /f {target}", "takes a file of Windows itself from the system, "
                    "which removes what keeps it from being changed")  # fmt: skip


def _mshta(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if any(_REMOTE.match(a.lower()) for a in cmd.args()):
        yield _deny("mshta", "runs an HTML application from the network or inline script, a "
                    "common way in for malware")  # fmt: skip


def _certutil(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a.lower() for a in cmd.args()]
    if any(w in ("-urlcache", "/urlcache", "-verifyctl") for w in words) and any(
        _RUNNABLE.search(w.strip('"')) for w in words
    ):
        yield _deny("certutil -urlcache", "downloads a program past the web filters, the way "
                    "malware fetches its payload")  # fmt: skip


def _winget(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a.lower() for a in cmd.args()]
    if "--ignore-security-hash" in words:
        yield _deny("winget --ignore-security-hash", "installs a program whose installer does "
                    "not match its published hash")  # fmt: skip
    elif words[:1] in (["uninstall"], ["remove"], ["rm"]) and _SECURITY_SOFTWARE.search(
        " ".join(words[1:])
    ):
        yield _deny(f"winget {words[0]}", "removes the machine's security software")


def _started(cmd: Cmd) -> list[str]:
    """What cmd's ``start`` opens: its words after the window title and start's switches."""
    args = list(cmd.args())
    if args and (args[0] == "" or " " in args[0]):
        args = args[1:]  # start "" prog: the first quoted word is the window's title
    while args and re.fullmatch(r"/\w+", args[0]):
        args = args[2:] if args[0].lower() == "/d" else args[1:]
    return args


def _start(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = _started(cmd)
    if args and re.match(r"^(\\\\|//)[^\\/]+[\\/]", args[0]):
        yield _deny(f"start {args[0]}", "runs a program from another machine's share")


def _opens_page(cmd: Cmd, ctx: Context) -> Finding | None:
    """``start msedge http://localhost:5173``, ``start https://docs.example.com``: a page
    shown in a browser, as ``wslview URL`` is."""
    args = _started(cmd)
    if args and args[0].lower() in _BROWSERS:
        args = args[1:]
    if args and all(re.match(r"^https?://[^\s\"']+$", a) and not _RUNNABLE.search(a) for a in args):
        return None
    return Finding("windows", "ask", "cmd's start opens a program or file, which may run it; "
                   "a human must confirm")  # fmt: skip


_PUBLIC = re.compile(r"(?i)^(/mnt/[a-z]|[a-z]:)[\\/]users[\\/](public|default)([\\/]|$)")


def _to_public(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``cp .env /mnt/c/Users/Public/Documents/``: a secret left where every account of the
    Windows machine reads it."""
    operands = [a for a in cmd.args() if not a.startswith("-")]
    if len(operands) < 2 or not _PUBLIC.match(paths.normalize(operands[-1])):
        return
    secret = next((o for o in operands[:-1] if is_secret(o)), None)
    if secret is not None:
        yield _deny(f"{cmd.name} {secret}", "leaves a secret in the Windows Public folder, "
                    "which every account of the machine reads")  # fmt: skip


def _value(words: list[str], option: str) -> str:
    return next((words[i + 1] for i, w in enumerate(words[:-1]) if w == option), "")


def _deny(what: str, why: str) -> Finding:
    return Finding("windows-harm", "deny", f"{what[:60]} {why}; never run it")


HANDLERS: dict[str, Handler] = {
    "net": _net,
    "net1": _net,
    "reg": _reg,
    "icacls": _icacls,
    "takeown": _takeown,
    "mshta": _mshta,
    "certutil": _certutil,
    "winget": _winget,
    "start": _start,
    **{n: _to_public for n in ("cp", "mv", "rsync", "install")},
}
VOUCHERS: dict[str, Voucher] = {"start": _opens_page}
