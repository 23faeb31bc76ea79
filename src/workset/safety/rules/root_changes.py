"""Changes made as root that reach past one file: the distribution's own files replaced,
root handed to every account, the kernel or its devices changed under running programs.

- A build installed into ``/usr`` (``cmake --install build --prefix /usr``), a system
  library overwritten (``cp libssl.so.3 /usr/lib/x86_64-linux-gnu/``), or files whose names
  are only known when the line runs copied into the system's program folders (``cp
  zig-out/bin/* /usr/bin/``): files the distribution's packages own are replaced, so every
  program using them runs the build and the packages break. ``/usr/local`` and a prefix in
  the workspace are where builds go.
- A container engine's socket opened to everyone (``chmod 666 /var/run/docker.sock``):
  whoever can write to it starts containers as root, so every account becomes root.
- A module forced out of the running kernel (``rmmod -f nvme``): the devices it drives stop
  mid-operation.
- A tracer on what users type or send encrypted (``bpftrace -e 'uretprobe:/bin/bash:readline
  …'``, probes on ``SSL_write``): a keylogger for every account.
- A device rule (``/etc/udev/rules.d``) that runs a program of the home or the workspace as
  root at every device event, or opens every device of a subsystem to every user.

They are denied, each with what to do instead.
"""

from __future__ import annotations

import dataclasses
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
from workset.safety.rules.static import static_output

_PROGRAM_DIRS = re.compile(r"^/(usr/)?s?bin/?$")
_LIBRARY_DIRS = re.compile(r"^/(usr/)?lib(32|64|x32)?(/[\w.+-]+-linux-gnu\w*)?(/|$)")
_LIBRARY = re.compile(r"\.so(\.\d+)*$")


def _owned(what: str) -> Result:
    return deny_finding(
        "distribution-files",
        f"{what}, files the distribution's packages own: every program using them then runs "
        "the build, and the packages break on their next update",
        "install under /usr/local or a prefix in the workspace (cmake --install build "
        "--prefix ./dist)",
    )


def system_copies(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``cp zig-out/bin/* /usr/bin/``, ``cp build/libssl.so.3 /usr/lib/x86_64-linux-gnu/``."""
    args = cmd.args()
    _, operands = parse_flags(args)
    operands = [(i, w) for i, w in operands if i < 2 or args[i - 2] not in ("-m", "-o", "-g")]
    if len(operands) < 2 or cmd.is_dynamic(operands[-1][0]):
        return
    target_word = operands[-1][1]
    target = paths.normalize(ctx.resolve(target_word))
    sources = [w for _, w in operands[:-1]]
    unnamed = next((s for s in sources if re.search(r"[*?\[]", s) or s.endswith("/")), None)
    if _PROGRAM_DIRS.match(target) and unnamed is not None:
        yield _owned(f"{cmd.name} {unnamed} {target_word} copies files whose names are only "
                     "known when it runs over the system's commands")  # fmt: skip
        return
    if not _LIBRARY_DIRS.match(target) or target.startswith("/usr/local/"):
        return
    named = _LIBRARY.search(target) and not target_word.endswith("/") and len(sources) == 1
    placed = [target] if named else [
        target.rstrip("/") + "/" + s.rstrip("/").rsplit("/", 1)[-1] for s in sources
    ]  # fmt: skip
    library = next((p for p in placed if _LIBRARY.search(p) or "*" in p), None)
    if library is not None:
        yield _owned(
            f"{cmd.name} puts {library} among the system's libraries, over the one of that name"
        )


_USR = frozenset({"/usr", "/usr/", "/"})


def usr_install(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``cmake --install build --prefix /usr``, ``make install PREFIX=/usr``."""
    args = cmd.args()
    if cmd.name == "cmake" and "--install" in args:
        prefixes = option_values(args, ("--prefix",))
    elif cmd.name in ("make", "gmake") and "install" in args:
        prefixes = [a.split("=", 1)[1] for a in args if re.match(r"(PREFIX|prefix)=", a)]
        if any(a.startswith("DESTDIR=") and a != "DESTDIR=/" for a in args):
            return  # staged under DESTDIR, not over /usr
    else:
        return
    if any(p in _USR for p in prefixes):
        yield _owned(f"{cmd.name} installs the build into /usr")


_DAEMON_SOCKET = re.compile(r"^/+(var/)?run/(docker|containerd/containerd|podman/podman|"
                            r"crio/crio|libvirt/libvirt-sock)(\.sock)?$")  # fmt: skip
_OPEN_MODE = re.compile(r"^0?[0-7][0-7][2367]$|^[ugoa]*o[ugoa]*[+=][rwx]*w|^a?\+[rwx]*w")


def socket_opened(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``chmod 666 /var/run/docker.sock``: the engine's socket writable by every account."""
    _, operands = parse_flags(cmd.args())
    if len(operands) < 2 or not _OPEN_MODE.match(operands[0][1]):
        return
    hit = next((w for _, w in operands[1:] if _DAEMON_SOCKET.match(ctx.resolve(w))), None)
    if hit is not None:
        yield deny_finding(
            "socket-opened",
            f"chmod {operands[0][1]} {hit} lets every account on the machine use the engine's "
            "socket, and whoever can write to it starts containers as root",
            "add the one user to the engine's group, or use a rootless engine",
        )


def forced_unload(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``rmmod -f nvme``, ``modprobe -rf ext4``: a module torn out while it is in use."""
    flags, operands = parse_flags(cmd.args())
    removes = cmd.name == "rmmod" or flags & {"r", "--remove"}
    if removes and flags & {"f", "--force"} and operands:
        yield deny_finding(
            "kernel-forced-unload",
            f"{cmd.name} forces {operands[0][1]} out of the running kernel while it is in use: "
            "the devices it drives (disks, network) stop mid-operation, which can crash the "
            "machine and corrupt data",
            "stop what uses the module and remove it without -f, or ask the user",
        )


# Probes on what people type at a shell or send through TLS or PAM.
_KEYLOG = re.compile(
    r"u(ret)?probe:[^:\s]*:(readline|rl_\w+|SSL_(read|write)\w*|gnutls_record_(recv|send)|"
    r"PR_(Read|Write)|pam_\w+|getpass|crypt)\b|kprobe:(n_)?tty_(write|read|insert_flip\w*)|"
    r"kprobe:pty_write|tracepoint:tty:"
)


def keylogger(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``bpftrace -e 'uretprobe:/bin/bash:readline { printf("%s", str(retval)); }'``."""
    hit = next((m for a in cmd.args() if (m := _KEYLOG.search(a)) is not None), None)
    if hit is not None:
        yield deny_finding(
            "input-capture",
            f"{cmd.name} attaches to {hit.group(0)}, which records what every user types or "
            "sends encrypted (passwords, tokens, keys)",
            "trace your own program's functions instead",
        )


_UDEV_RULES = re.compile(r"^/(etc|lib|usr/lib|run)/udev/rules\.d/[^/]+$")
_UDEV_RUN = re.compile(r"\b(RUN|PROGRAM|IMPORT\{program\})\+?=\s*\"([^\"]+)\"")
_UDEV_OPEN = re.compile(r"\bMODE:?=\s*\"0?[0-7][0-7][2367]\"")
_UDEV_ONE_DEVICE = re.compile(r"idVendor|idProduct|ID_VENDOR_ID|ID_MODEL_ID|ID_SERIAL|serial|"
                              r"KERNEL==\"[^\"*?]+\"")  # fmt: skip
_SYSTEM_PROGRAMS = ("/usr/", "/bin/", "/sbin/", "/lib/")


def device_rule(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``echo 'SUBSYSTEM=="usb", MODE="0666"' | tee /etc/udev/rules.d/99.rules``."""
    if cmd.name == "tee":
        text = static_output(cmd.upstream)
        targets = [w for _, w in parse_flags(cmd.args())[1]]
    else:
        text = static_output([dataclasses.replace(cmd, redirects=())])
        targets = [t for op, t in cmd.redirects if op in (">", ">>", ">|")]
    rules = [t for t in targets if _UDEV_RULES.match(paths.normalize(ctx.resolve(t)))]
    if text is None or not rules:
        return
    for line in text.splitlines():
        run = _UDEV_RUN.search(line)
        program = run.group(2).split()[0] if run else ""
        if program.startswith("/") and not program.startswith(_SYSTEM_PROGRAMS):
            yield deny_finding(
                "device-rule-root",
                f"the device rule written to {rules[0]} runs {program} as root at every "
                "matching device event: a file anyone with the user's rights can change",
                "leave the rule in the workspace and ask the user to install it",
            )
            return
        if _UDEV_OPEN.search(line) and not _UDEV_ONE_DEVICE.search(line):
            yield deny_finding(
                "device-rule-open",
                f"the device rule written to {rules[0]} opens every device it matches (not one "
                "board) to every account on the machine",
                'match the board\'s idVendor and idProduct, and use GROUP or TAG+="uaccess"',
            )
            return


HANDLERS: dict[str, Handler] = {
    **{n: system_copies for n in ("cp", "install", "mv")},
    **{n: usr_install for n in ("cmake", "make", "gmake")},
    "chmod": socket_opened,
    **{n: forced_unload for n in ("rmmod", "modprobe")},
    "bpftrace": keylogger,
    **{n: device_rule for n in ("tee", "echo", "printf")},
}
