"""Disk images, emulators and serial consoles of embedded and systems work.

``qemu-img convert``/``create``/``resize`` on images in the workspace, ``wic ls`` of a built
image, ``qemu-system-*`` booting a kernel and disk of the workspace, and a serial console on a
board's port (``screen /dev/ttyACM0 115200``, ``minicom -D /dev/ttyUSB0 -C log``) change
nothing outside the workspace and run. ``vagrant ssh -c CMD`` runs CMD in the project's own
virtual machine, which sees the workspace through its synced folder: only what is denied
anywhere counts. Three harms are denied: an image written over a disk (``bmaptool copy
img /dev/sda``), a partition table rewritten by a scripted ``fdisk`` (``printf 'o\\nw\\n' |
fdisk /dev/nvme0n1``), a guest handed the host's root or home (``-virtfs path=/``), and a
virtual machine powered off or deleted on another host's hypervisor (``virsh -c
qemu+ssh://hv/system destroy vm``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    Voucher,
    deny_finding,
    option_value,
    parse_flags,
    serial_port,
    unknown_program,
)
from workset.safety.rules.confinement import inside, outside, subcommand
from workset.safety.rules.known_lists import SUBCOMMANDS
from workset.safety.rules.static import static_output
from workset.safety.rules.writes import write_target

# qemu-img's verbs that make or change an image: its files must all be in the workspace.
_QEMU_IMG_WRITES = frozenset({"convert", "create", "resize", "snapshot", "amend", "rebase",
                              "commit", "dd", "bitmap", "check"})  # fmt: skip
_QEMU_IMG_VALUES = frozenset({"-f", "-F", "-O", "-o", "-b", "-B", "-t", "-T", "-l", "-s", "-S",
                              "-m", "-W", "-r", "--object", "--image-opts", "-a", "-c", "-d",
                              "--target-image-opts", "--format"})  # fmt: skip


def qemu_img(cmd: Cmd, ctx: Context) -> Finding | None:
    """``qemu-img convert -O raw vm.qcow2 vm.raw``: images read and written here."""
    sub, _ = subcommand(cmd)
    if sub in SUBCOMMANDS["qemu-img"]:
        return None
    if sub not in _QEMU_IMG_WRITES:
        return unknown_program(f"qemu-img {sub}".strip(), " (its subcommand is not one known "
                               "to be safe)")  # fmt: skip
    args = cmd.args()
    for index, word in enumerate(args[1:], start=2):
        if word.startswith("-") or args[index - 2] in _QEMU_IMG_VALUES or index == 1:
            continue
        if sub in ("create", "resize") and re.fullmatch(r"[+-]?\d+[KMGTkmgt]?", word):
            continue  # a size
        if cmd.is_dynamic(index) or not inside(word, ctx):
            return outside(word, "qemu-img")
    return None


def qemu_img_target(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``qemu-img convert -O raw vm.qcow2 /dev/sdb``, ``qemu-img dd of=/dev/sda``: an image
    written over a disk, as ``dd`` does."""
    sub, rest = subcommand(cmd)
    if sub == "convert" and rest and not rest[-1].startswith("-"):
        yield from write_target(rest[-1], "qemu-img convert", ctx)
    elif sub == "dd":
        for word in rest:
            if word.startswith("of="):
                yield from write_target(word[3:], "qemu-img dd", ctx)


def _within(value: str, ctx: Context) -> bool:
    return inside(value, ctx) or paths.is_harmless_device(ctx.resolve(value))


# qemu-system options that take a value; the ones naming files the guest uses are checked.
_QEMU_FILES = frozenset({"-kernel", "-initrd", "-dtb", "-hda", "-hdb", "-hdc", "-hdd",
                         "-cdrom", "-fda", "-fdb", "-bios", "-pflash", "-mtdblock", "-sd",
                         "-D", "-pidfile"})  # fmt: skip
_QEMU_VALUES = _QEMU_FILES | frozenset({"-M", "-machine", "-m", "-cpu", "-smp", "-display",
                                        "-vga", "-append", "-drive", "-accel", "-serial",
                                        "-monitor", "-qmp", "-nic", "-net", "-netdev",
                                        "-device", "-rtc", "-name", "-boot", "-gdb", "-d",
                                        "-semihosting-config", "-object", "-global", "-L",
                                        "-chardev", "-virtfs", "-fsdev", "-k", "-audiodev",
                                        "-icount", "-watchdog-action", "-usbdevice",
                                        "-blockdev", "-mem-path", "-uuid"})  # fmt: skip
_QEMU_FLAGS = frozenset({"-nographic", "-snapshot", "-enable-kvm", "-no-reboot",
                         "-no-shutdown", "-usb", "-S", "-s", "-semihosting", "-no-hpet",
                         "-nodefaults", "-no-user-config", "-full-screen"})  # fmt: skip
# Sub-options of -drive, -virtfs, -object… that name a host file or folder.
_QEMU_PLACE = re.compile(r"(?:^|,)(?:file|path|filename|mem-path|logfile)=([^,]+)")
# Devices handed from the host to the guest, and network ends open to other machines.
_PASSTHROUGH = re.compile(r"vfio|usb-host|hostbus|hostaddr=|host=|\bpci-assign")
_OPEN_END = re.compile(r"(?:hostfwd=\w*:|tcp:|telnet:|udp:)(?!127\.0\.0\.1|localhost|\[::1\])"
                       r"[^:,]*:")  # fmt: skip


def qemu_system(cmd: Cmd, ctx: Context) -> Finding | None:
    """``qemu-system-arm -M vexpress-a9 -kernel build/zImage -drive file=build/rootfs.ext4``:
    a guest booted from files of the workspace, with nothing of the host handed to it."""
    args = cmd.args()
    index = 0
    while index < len(args):
        option = args[index]
        if option in _QEMU_FLAGS:
            index += 1
            continue
        if option not in _QEMU_VALUES or index + 1 >= len(args):
            return unknown_program(f"{cmd.name} {option}", " (an option not known to keep the "
                                   "guest confined)")  # fmt: skip
        value = args[index + 1]
        places = [value] if option in _QEMU_FILES else _QEMU_PLACE.findall(value)
        if option in ("-serial", "-monitor", "-qmp", "-chardev") and value.startswith("file:"):
            places.append(value[5:])
        far = next((p for p in places if cmd.is_dynamic(index + 2) or not _within(p, ctx)), None)
        if far is not None:
            return outside(far, cmd.name)
        if option in ("-device", "-usbdevice") and _PASSTHROUGH.search(value):
            return unknown_program(f"{cmd.name} -device {value.split(',')[0]}", " (it hands a "
                                   "device of the host to the guest)")  # fmt: skip
        if option in ("-netdev", "-nic", "-net") and value.split(",")[0] not in ("user", "none"):
            return unknown_program(f"{cmd.name} {option} {value.split(',')[0]}", " (it joins "
                                   "the guest to the host's network)")  # fmt: skip
        if _OPEN_END.search(value) or (option == "-L" and not _within(value, ctx)):
            return unknown_program(f"{cmd.name} {option}", " (it opens a port to other "
                                   "machines or reads firmware from elsewhere)")  # fmt: skip
        index += 2
    return None


def qemu_harms(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``-virtfs local,path=/,…``: the guest reads and writes the host's root or home."""
    args = cmd.args()
    for option, value in itertools.pairwise(args):
        if option not in ("-virtfs", "-fsdev"):
            continue
        for place in _QEMU_PLACE.findall(value):
            where = paths.normalize(ctx.resolve(place))
            if paths.is_protected(where):
                yield deny_finding(
                    "vm-host-share",
                    f"{cmd.name} {option} shares the host's {place} with the guest, whose code "
                    "can then read and change the machine's files (keys and settings included)",
                    "share only a folder of the workspace",
                )
                return


def wic(cmd: Cmd, ctx: Context) -> Finding | None:
    """``wic ls image.wic:1``: a built image's partitions listed; ``wic cp``/``rm``/``write``
    change an image or a disk and ask."""
    sub, rest = subcommand(cmd)
    if sub in ("ls", "list", "help"):
        return None
    if sub == "create":
        out = option_value(rest, ("-o", "--outdir"))
        return None if out is None or inside(out, ctx) else outside(out, "wic create")
    return unknown_program(f"wic {sub}".strip(), " (it changes an image or writes a disk)")


def bmaptool(cmd: Cmd, ctx: Context) -> Finding | None:
    """``bmaptool create -o x.bmap x.img``, ``bmaptool copy x.img.bz2 out.img``: files here."""
    sub, rest = subcommand(cmd)
    _, operands = parse_flags(rest)
    out = option_value(rest, ("-o", "--output"))
    targets = [out] if out else []
    if sub == "copy":
        targets += [w for _, w in operands[-1:]]
    elif sub != "create":
        return unknown_program(f"bmaptool {sub}".strip())
    far = next((t for t in targets if not inside(t, ctx)), None)
    return outside(far, "bmaptool") if far is not None else None


def bmap_copy(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``bmaptool copy img /dev/sda``: the image written over a whole disk, as dd does."""
    sub, rest = subcommand(cmd)
    _, operands = parse_flags(rest)
    if sub == "copy" and len(operands) >= 2:
        yield from write_target(operands[-1][1], "bmaptool copy", ctx)


_PARTITIONERS = frozenset({"fdisk", "gdisk", "cfdisk", "sfdisk"})


def scripted_partitioning(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``printf 'o\\nw\\n' | fdisk /dev/nvme0n1``: the answers piped in write a new partition
    table (``w``), which takes every partition and the data on them with it."""
    _, operands = parse_flags(cmd.args())
    disks = [w for _, w in operands if paths.is_block_device(ctx.resolve(w))]
    if not disks or {"-l", "--list", "-s", "--show-size", "-d", "--dump"} & set(cmd.args()):
        return
    fed = static_output(cmd.upstream) if cmd.upstream else None
    here = [t for op, t in cmd.redirects if op == "<<"]
    text = fed if fed is not None else (here[0] if here and not cmd.stdin_dynamic else None)
    if text is None:
        return
    answers = [line.strip() for line in text.replace("\\n", "\n").splitlines()]
    if "w" in answers or (cmd.name == "sfdisk" and any(answers)):
        yield deny_finding(
            "erase-device",
            f"{cmd.name} {disks[0]} is fed answers that write a new partition table, which "
            "loses every partition of the disk and the data on them",
            "an agent never repartitions disks — partition an image file in the workspace",
        )


def _serial_console(cmd: Cmd, ctx: Context) -> Finding | None:
    """``minicom -D /dev/ttyUSB0 -b 115200 -C build/serial.log``, ``picocom -b 115200
    /dev/ttyACM0``, ``tio /dev/ttyUSB0``: a terminal on the board's console, its log here."""
    args = cmd.args()
    if any(a in ("-S", "--script", "-s", "--setup") for a in args) and cmd.name == "minicom":
        return unknown_program("minicom -S", " (it runs a script or changes the settings)")
    logs = [args[i + 1] for i, a in enumerate(args[:-1])
            if a in ("-C", "--capturefile", "-g", "--logfile", "--log-file")]  # fmt: skip
    logs += [a.split("=", 1)[1] for a in args
             if a.startswith(("--capturefile=", "--logfile=", "--log-file="))]  # fmt: skip
    far = next((f for f in logs if not inside(f, ctx)), None)
    if far is not None:
        return outside(far, cmd.name)
    port = option_value(args, ("-D", "--device")) or next(
        (a for a in args if a.startswith("/dev/")), None
    )
    if port is None or serial_port(port):
        return None
    return unknown_program(f"{cmd.name} {port}", " (not a serial port)")


def screen(cmd: Cmd, ctx: Context) -> Finding | None:
    """``screen /dev/ttyACM0 115200``: a terminal on a serial port; other uses as before."""
    _, operands = parse_flags(cmd.args())
    if operands and serial_port(operands[0][1]):
        return None
    sub, _ = subcommand(cmd)
    if sub in SUBCOMMANDS["screen"]:
        return None
    return unknown_program(f"screen {sub}".strip(), " (its subcommand is not one known to be "
                           "safe)")  # fmt: skip


def vagrant(cmd: Cmd, ctx: Context) -> Finding | None:
    sub, rest = subcommand(cmd)
    if sub in SUBCOMMANDS["vagrant"] or (sub == "ssh" and _vagrant_command(rest) is not None):
        return None
    return unknown_program(f"vagrant {sub}".strip(), " (its subcommand is not one known to be "
                           "safe)")  # fmt: skip


def _vagrant_command(rest: tuple[str, ...]) -> str | None:
    return option_value(rest, ("-c", "--command"))


def vagrant_inside(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``vagrant ssh -c 'cd /vagrant && make test'``: run in the project's own machine."""
    sub, rest = subcommand(cmd)
    code = _vagrant_command(rest) if sub == "ssh" else None
    if code is not None:
        yield Nested(code, deny_only=True)


# virsh verbs that cut a machine's power, reset it or delete its definition.
_VM_HARD_STOP = frozenset({"destroy", "undefine", "reset", "managedsave-remove"})
_REMOTE_URI = re.compile(r"^\w+(\+\w+)?://([^/@]*@)?(?!localhost|127\.0\.0\.1|\[::1\])[^/]+/")


def virsh_remote(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``virsh -c qemu+ssh://root@hv01/system destroy vm``: another host's machine stopped."""
    uri = option_value(cmd.args(), ("-c", "--connect"))
    said = next((a for a in cmd.args() if a in _VM_HARD_STOP), None)
    if uri and said and _REMOTE_URI.match(uri):
        yield deny_finding(
            "remote-vm-stop",
            f"virsh {said} on {uri.split('//', 1)[-1].split('/')[0]}'s hypervisor powers off or "
            "deletes a virtual machine of another host, which others' work runs on",
            "ask its owner to stop it",
        )


_QEMU_SYSTEMS = tuple(f"qemu-system-{a}" for a in (
    "x86_64", "i386", "aarch64", "arm", "riscv64", "riscv32", "mips", "mipsel", "mips64",
    "mips64el", "ppc", "ppc64", "s390x", "xtensa", "avr", "m68k", "sparc", "sparc64",
    "loongarch64"))  # fmt: skip
_CONSOLES = ("minicom", "picocom", "tio")
VOUCHERS: dict[str, Voucher] = {
    "qemu-img": qemu_img,
    **{n: qemu_system for n in _QEMU_SYSTEMS},
    "wic": wic,
    "bmaptool": bmaptool,
    **{n: _serial_console for n in _CONSOLES},
    "screen": screen,
    "vagrant": vagrant,
}
HANDLERS: dict[str, Handler] = {
    "qemu-img": qemu_img_target,
    **{n: qemu_harms for n in _QEMU_SYSTEMS},
    "bmaptool": bmap_copy,
    **{n: scripted_partitioning for n in _PARTITIONERS},
    "vagrant": vagrant_inside,
    "virsh": virsh_remote,
}
