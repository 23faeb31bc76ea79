"""Rules for what switches off the machine's defences.

Turning off address-space randomisation or ptrace protection (``sysctl -w
kernel.randomize_va_space=0``), SELinux (``setenforce 0``), the firewall (``ufw disable``),
macOS's integrity protection and Gatekeeper (``csrutil disable``, ``spctl --master-disable``)
or the audit and confinement services (``aa-teardown``, ``auditctl -e 0``), and making a
root-owned or system program setuid (``chown root X && chmod 4755 X``, ``chmod u+s /bin/bash``),
giving a program a capability that amounts to root (``setcap cap_setuid+ep python3``) or
loading a kernel module from outside the system's modules and the workspace (``insmod
/tmp/x.ko``) only ever open the machine to others; they are denied. Other kernel settings
ask; reading them runs.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.admin_reads import visudo_check
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result, parse_flags
from workset.safety.rules.static import static_output

# Kernel settings that protect the machine, and the values that switch the protection off.
_DEFENCES = {
    "kernel.randomize_va_space": "0",
    "kernel.yama.ptrace_scope": "0",
    "kernel.kptr_restrict": "0",
    "kernel.dmesg_restrict": "0",
    "kernel.unprivileged_bpf_disabled": "0",
    "kernel.perf_event_paranoid": "-1",
    "kernel.modules_disabled": "0",
    "fs.protected_symlinks": "0",
    "fs.protected_hardlinks": "0",
    "fs.protected_regular": "0",
    "fs.protected_fifos": "0",
    "fs.suid_dumpable": "1",
}
# (and the watchers that report an intrusion: falco, osquery, wazuh/ossec, auditbeat, sysmon,
# network sensors such as suricata, snort and zeek, file integrity checkers)
_DEFENCE_SERVICES = re.compile(
    r"^(apparmor|firewalld|ufw|auditd|fail2ban|selinux|nftables|iptables|clamav[\w-]*|"
    r"falcon-sensor|osqueryd|falco([-\w]*)?|wazuh-[\w-]+|ossec[\w-]*|auditbeat|sysmon[\w-]*|"
    r"suricata|snort\d?|zeek|aide(check)?|tripwire|crowdstrike[\w-]*|sentinel[\w-]*|"
    r"elastic-agent|cbagentd|mdatp)(\.service)?$"
)
# The control scripts that start and stop such a watcher themselves.
_WATCHER_CONTROLS = frozenset({"osqueryctl", "wazuh-control", "ossec-control", "fail2ban-client",
                               "falcoctl"})  # fmt: skip
_SETUID = re.compile(r"^([0-7]?[2467][0-7]{3}|[ugoa]*[+=][rwxXt]*s[rwxXt]*)$")
_ROOT = re.compile(r"^(root|0)([:.].*)?$")


def _off(what: str) -> Finding:
    return Finding(
        "defence-off",
        "deny",
        f"{what} switches off a defence of the machine, which only ever opens it to others; "
        "leave it on — ask the user if a tool truly needs it",
    )


def _sysctl(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    settings = [a for a in cmd.args() if "=" in a and not a.startswith("-")]
    for setting in settings:
        key, _, value = setting.partition("=")
        key = key.replace("/", ".")
        if _DEFENCES.get(key) == value.strip():
            yield _off(f"sysctl {key}={value}")
            return
    if settings or any(a in ("-p", "--load", "--system") for a in cmd.args()):
        yield Finding(
            "kernel-setting",
            "ask",
            "sysctl changes kernel settings for the whole machine; a human must confirm, or "
            "only read them (sysctl NAME)",
        )


_SYSCTL_FILE = re.compile(r"^/etc/sysctl\.conf$|^(/etc|/run|/usr/lib|/lib)/sysctl\.d/[^/]+$")


def defence_file(path: str, text: str) -> Finding | None:
    """Writing ``text`` into ``/proc/sys/…`` turns a protection off (``echo 0 > …``), and so
    does a line ``key = value`` in a sysctl file the machine loads at boot."""
    if _SYSCTL_FILE.match(path):
        for line in text.splitlines():
            key, equals, value = line.partition("=")
            key = key.strip().replace("/", ".")
            if equals and _DEFENCES.get(key) == value.strip():
                return _off(f"{key}={value.strip()} written to {path}")
        return None
    if path == "/sys/fs/selinux/enforce" and text.strip() == "0":
        return _off(f"writing 0 to {path} (SELinux permissive)")
    if not path.startswith("/proc/sys/"):
        return None
    key = path.removeprefix("/proc/sys/").replace("/", ".")
    if _DEFENCES.get(key) == text.strip():
        return _off(f"writing {text.strip()} to {path}")
    return None


def _setenforce(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if cmd.args()[:1] in (("0",), ("Permissive",), ("permissive",)):
        yield _off("setenforce 0")


# macOS and Linux switches whose "off" words disable a protection: System Integrity
# Protection, Gatekeeper, the application firewall, AppArmor, the audit system.
_SWITCHES_OFF = {
    "csrutil": (("disable",), ("authenticated-root", "disable")),
    "spctl": (("--master-disable",), ("--global-disable",), ("--disable",)),
    "socketfilterfw": (("--setglobalstate", "off"),),
    "aa-teardown": ((),),
    "auditctl": (("-e", "0"), ("-D",)),
    "aa-disable": None,
    "aa-complain": None,
}


_TRUST_VERBS = {"security": "add-trusted-cert", "trust": "anchor", "certutil": "-A"}


def _trusted_root(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``security add-trusted-cert -r trustRoot``, ``trust anchor FILE``, ``certutil -A -t C``:
    a certificate every TLS connection of the machine (or the browser) then trusts."""
    args = cmd.args()
    words = [a for a in args if not a.startswith("-")]
    adds = (
        (cmd.name == "security" and words[:1] == ["add-trusted-cert"])
        or (cmd.name == "trust" and words[:1] == ["anchor"] and "--remove" not in args)
        or (cmd.name == "certutil" and "-A" in args and any("C" in a for a in args))
    )
    if adds:
        yield Finding(
            "trusted-root",
            "deny",
            f"{cmd.name} {_TRUST_VERBS[cmd.name]} makes the machine trust a new root "
            "certificate, so whoever holds its key can read and change every TLS connection; "
            "pass the certificate to the one tool that needs it (--cacert) instead",
        )


def _switched_off(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``csrutil disable``, ``spctl --master-disable``, ``aa-teardown``, ``auditctl -e 0``."""
    forms = _SWITCHES_OFF[cmd.name]
    args = cmd.args()
    if forms is None or any(args[: len(form)] == form for form in forms):
        yield _off(f"{cmd.name} {' '.join(args)}".strip())


def _iptables(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``iptables -F``, ``-P INPUT ACCEPT``, ``nft flush ruleset``: the firewall emptied or
    told to let everything in."""
    args = cmd.args()
    flushes = any(a in ("-F", "--flush", "-X") for a in args) or args[:2] == ("flush", "ruleset")
    opens = any(args[i : i + 3] in (("-P", "INPUT", "ACCEPT"), ("--policy", "INPUT", "ACCEPT"))
                for i in range(len(args)))  # fmt: skip
    if flushes or opens:
        yield _off(f"{cmd.name} {' '.join(args)}")


def _ufw(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if args[:1] in (("disable",), ("reset",)):
        yield _off(f"ufw {args[0]}")
    elif args[:2] == ("default", "allow") and "outgoing" not in args[2:]:
        yield _off(f"ufw {' '.join(args)}")  # every port open to whoever connects


def _pf(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``pfctl -d`` turns macOS's packet filter off; ``pfctl -F all`` drops every rule."""
    args = cmd.args()
    letters = "".join(a[1:] for a in args if re.fullmatch(r"-[a-zA-Z]+", a))
    if "d" in letters or ("F" in letters and {"all", "rules"} & set(args)):
        yield _off(f"pfctl {' '.join(args)}")


def _defaults(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``defaults write com.apple.LaunchServices LSQuarantine -bool false``: downloads no
    longer marked, so Gatekeeper never checks what they run."""
    args = [a.lower() for a in cmd.args()]
    if args[:1] != ["write"]:
        return
    for domain, key, off in _DEFENCE_DEFAULTS:
        if domain in args[1].removesuffix(".plist") and key in args and off & set(args[3:]):
            yield _off(f"defaults write {args[1]} {cmd.args()[args.index(key)]}")
            return


# Preferences that switch off a defence (domain part, key, values that mean off): downloads
# no longer marked for Gatekeeper, the application firewall off, the screen lock without a
# password, Xcode running package plugins and macros never reviewed.
_OFF = frozenset({"false", "no", "0"})
_ON = frozenset({"true", "yes", "1"})
_DEFENCE_DEFAULTS = (
    ("com.apple.launchservices", "lsquarantine", _OFF),
    ("com.apple.alf", "globalstate", frozenset({"0"})),
    ("com.apple.screensaver", "askforpassword", _OFF),
    ("com.apple.security", "gkautorearm", _OFF),
    ("com.apple.dt.xcode", "ideskipmacrofingerprintvalidation", _ON),
    ("com.apple.dt.xcode", "ideskippackagepluginfingerprintvalidatation", _ON),
)


def _services(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:1] and words[0] in ("stop", "disable", "mask", "kill"):
        hit = [w for w in words[1:] if _DEFENCE_SERVICES.match(w)]
        if hit:
            yield _off(f"{cmd.name} {words[0]} {hit[0]}")


def _watcher_control(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``osqueryctl stop``, ``wazuh-control stop``, ``fail2ban-client stop``."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:1] and words[0] in ("stop", "disable", "kill", "uninstall"):
        yield _off(f"{cmd.name} {words[0]}")


def _service(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``service NAME stop``: the verb after the name."""
    yield from _services(cmd.with_argv([cmd.argv[0], *cmd.argv[2:3], *cmd.argv[1:2]]), ctx)


def _chown(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """Remember the files the line gives to root, for :func:`_chmod`."""
    _, operands = parse_flags(cmd.args())
    if operands and _ROOT.match(operands[0][1]):
        ctx.root_owned.update(ctx.resolve(w) for _, w in operands[1:])
    yield from ()


def _proc_write(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``echo 0 > /proc/sys/kernel/randomize_va_space``, or the same through ``tee``."""
    if cmd.name == "tee":
        text = static_output(cmd.upstream)
        targets = [w for _, w in parse_flags(cmd.args())[1]]
    else:
        text = static_output([dataclasses.replace(cmd, redirects=())])
        targets = [t for op, t in cmd.redirects if op in (">", ">>", ">|")]
    for target in targets if text is not None else ():
        found = defence_file(paths.normalize(ctx.resolve(target)), text or "")
        if found is not None:
            yield found


def _chmod(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    _, operands = parse_flags(cmd.args())
    if not operands or not _SETUID.match(operands[0][1]):
        return
    for _, word in operands[1:]:
        place = ctx.resolve(word)
        if place in ctx.root_owned or paths.is_system(place):
            yield Finding(
                "setuid-root",
                "deny",
                f"chmod {operands[0][1]} on {word}, a program owned by root or the system, "
                "lets anyone run it with root's rights (a backdoor); never make programs "
                "setuid — ask the user if a tool truly needs it",
            )
            return
        if place in ctx.programs:  # cp /bin/bash /tmp/.b && chmod +s /tmp/.b
            yield Finding(
                "setuid-copy",
                "deny",
                f"chmod {operands[0][1]} on {word}, a copy of the system's {ctx.programs[place]}, "
                "makes it run whatever anyone asks of it with its owner's rights (a backdoor "
                "kept for later); never make programs setuid — ask the user",
            )
            return


# Capabilities that let a program become root, read or write any file, or load code into the
# kernel or other processes: setcap of one is a backdoor, whatever the program.
_ROOT_CAPABILITIES = re.compile(
    r"cap_(setuid|setgid|sys_admin|dac_override|dac_read_search|sys_ptrace|sys_module|chown|"
    r"fowner|setfcap|sys_rawio|bpf)\b|^all[=+]|[,\s]all[=+]",
    re.IGNORECASE,
)


def _setcap(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``setcap cap_setuid+ep /usr/bin/python3``: the program may make itself root."""
    args = [a for a in cmd.args() if not a.startswith("-")]
    if "-r" in cmd.args() or not args:
        return  # setcap -r removes capabilities
    found = _ROOT_CAPABILITIES.search(args[0])
    grants = re.search(r"[+=][eip]*[eip]", args[0]) is not None  # cap_x-ep takes it away
    if found is not None and grants:
        yield Finding(
            "capability-root",
            "deny",
            f"setcap {args[0]} gives {' '.join(args[1:]) or 'a program'} the capability "
            f"{found.group(0).strip(',=+ ')}, with which it can make itself root or read and "
            "change any file (a backdoor); never grant such capabilities — ask the user",
        )


# Groups whose members are administrators (or root in all but name: docker, lxd).
_ADMIN_GROUPS = frozenset({"sudo", "wheel", "admin", "root", "adm", "docker", "lxd", "libvirt",
                           "disk", "shadow"})  # fmt: skip


def _accounts(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """Accounts given root's rights or opened without a password: ``usermod -aG sudo x``,
    ``useradd -o -u 0``, ``passwd -d root``, ``gpasswd -a x wheel``."""
    args = cmd.args()
    name = cmd.name
    what = ""
    if name in ("usermod", "useradd", "adduser") and any(
        g in _ADMIN_GROUPS for i, a in enumerate(args[:-1]) if a in ("-G", "-aG", "-g", "--groups",
                                                                  "--gid", "--group")
        for g in args[i + 1].split(",")
    ):  # fmt: skip
        what = f"{name} adds an account to an administrators' group"
    elif name in ("adduser", "gpasswd") and set(args[-1:]) & _ADMIN_GROUPS and len(args) >= 2:
        what = f"{name} adds an account to the {args[-1]} group"
    elif (
        name in ("usermod", "useradd")
        and ("-o" in args or "--non-unique" in args)
        and any(a == "0" for a in args)
    ):
        what = f"{name} makes a second account with root's id"
    elif name == "passwd" and any(a in ("-d", "--delete", "-u", "--unlock") for a in args):
        what = "passwd removes or unlocks a password"
    elif name in ("chpasswd", "visudo", "vipw", "vigr") and not visudo_check(cmd):
        what = f"{name} changes passwords or who may use sudo"
    if what:
        yield Finding(
            "account-change",
            "deny",
            f"{what}, which hands out root's rights or opens a login; an agent never changes "
            "accounts — ask the user to make the change",
        )


def _kernel_code(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``insmod /tmp/x.ko``, ``kexec -l /tmp/vmlinuz``: code loaded into the running kernel
    (or a kernel booted) from a file that is not the system's own modules nor a build of the
    workspace: with kernel rights it can hide itself and anything else. Denied; a module the
    workspace builds, or the system's by name (``modprobe vfio``), asks as the change it is."""
    _, operands = parse_flags(cmd.args())
    files = [w for _, w in operands if "/" in w or w.endswith((".ko", ".ko.xz", ".ko.zst"))]
    foreign = next(
        (w for w in files if not paths.in_workspace(ctx.resolve(w), ctx.workspace)
         and not ctx.resolve(w).startswith(("/lib/modules/", "/usr/lib/modules/", "/boot/"))),
        None,
    )  # fmt: skip
    if foreign is not None:
        yield Finding(
            "kernel-code",
            "deny",
            f"{cmd.name} loads {foreign} into the kernel, code from outside the system's modules "
            "and the workspace that runs with every right and can hide itself; a human must "
            "review and load it",
        )
    else:
        yield Finding(
            "kernel-code", "ask", f"{cmd.name} changes the running kernel; a human must confirm"
        )


HANDLERS: dict[str, Handler] = {
    **{n: _kernel_code for n in ("insmod", "modprobe", "kexec", "rmmod")},
    **{
        n: _accounts
        for n in (
            "usermod",
            "useradd",
            "adduser",
            "gpasswd",
            "passwd",
            "chpasswd",
            "visudo",
            "vipw",
            "vigr",
        )
    },
    "sysctl": _sysctl,
    "setenforce": _setenforce,
    **{n: _switched_off for n in _SWITCHES_OFF},
    **{n: _trusted_root for n in ("security", "trust", "certutil")},
    "ufw": _ufw,
    "pfctl": _pf,
    "defaults": _defaults,
    **{n: _iptables for n in ("iptables", "ip6tables", "iptables-nft", "nft")},
    "systemctl": _services,
    **{n: _watcher_control for n in _WATCHER_CONTROLS},
    "service": _service,
    "chown": _chown,
    "chmod": _chmod,
    "setcap": _setcap,
    **{n: _proc_write for n in ("tee", "echo", "printf")},
}
