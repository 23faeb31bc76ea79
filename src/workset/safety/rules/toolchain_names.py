"""Compilers and binary tools under the names a cross or versioned toolchain gives them.

``arm-none-eabi-gcc``, ``aarch64-linux-gnu-objdump``, ``avr-size``, ``gcc-12`` and
``clang-17`` are the host's ``gcc``, ``objdump``, ``size`` and ``clang`` built for another
target or pinned to a version: they read and write the same files and are judged as those
programs (:func:`as_host_tool`). The binutils that write (``objcopy``, ``strip``, ``as``,
``ranlib``) are workspace writers: what they write must be inside the workspace. elfutils'
readers (``eu-readelf``, ``eu-stack --core``) only read, unless ``eu-stack -p`` attaches to a
running process. ``ccache`` shows or zeroes its own statistics, or runs the compiler it wraps.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    Voucher,
    parse_flags,
    requote,
    unknown_program,
)
from workset.safety.rules.confinement import inside, outside

# What a toolchain prefix or version suffix may stand before or after.
_TOOLS = ("gcc|g\\+\\+|cc|c\\+\\+|cpp|clang|clang\\+\\+|gfortran|as|ld|ld\\.bfd|ld\\.gold|ar|"
          "ranlib|nm|objdump|objcopy|readelf|size|strings|strip|addr2line|c\\+\\+filt|gdb|"
          "gcc-ar|gcc-nm|gcc-ranlib|gcov")  # fmt: skip
_ARCH = ("arm|armv\\w+|aarch64|riscv32|riscv64|xtensa|mips\\w*|powerpc\\w*|ppc\\w*|x86_64|"
         "i[3-6]86|sparc\\w*|s390x|loongarch64|m68k|or1k|arc|msp430|avr")  # fmt: skip
_CROSS = re.compile(rf"^(?:{_ARCH})(?:-[a-z0-9_.]+){{0,3}}-({_TOOLS})$")
_VERSIONED = re.compile(rf"^({_TOOLS})-\d+(?:\.\d+)*$")


def as_host_tool(cmd: Cmd) -> Cmd:
    """``arm-none-eabi-gcc …`` as ``gcc …``, ``gcc-12`` as ``gcc``; other commands as given."""
    if not cmd.argv or cmd.is_dynamic(0):
        return cmd
    found = _CROSS.match(cmd.name) or _VERSIONED.match(cmd.name)
    return cmd.with_argv([found.group(1), *cmd.args()]) if found else cmd


# Options of objcopy and strip that take a value which is not a file they write.
_BINUTILS_VALUES = frozenset({"-O", "-I", "-B", "-j", "-R", "-K", "-N", "-F", "-b",
                              "--output-target", "--input-target", "--only-section",
                              "--remove-section", "--keep-symbol", "--strip-symbol",
                              "--set-section-flags", "--change-addresses", "--gap-fill",
                              "--pad-to", "--add-section", "--update-section",
                              "--redefine-sym", "--rename-section", "--set-start"})  # fmt: skip


def _writes_inside(cmd: Cmd, ctx: Context) -> Finding | None:
    """``objcopy -O binary fw.elf fw.bin``, ``strip -o app.stripped app``, ``as x.s -o x.o``:
    every file named (the ones rewritten in place among them) stays in the workspace."""
    args = cmd.args()
    for index, word in enumerate(args, start=1):
        if word.startswith("-") or (index > 1 and args[index - 2] in _BINUTILS_VALUES):
            continue
        if cmd.is_dynamic(index) or not inside(word, ctx):
            return outside(word, cmd.name)
    return None


def _eu_stack(cmd: Cmd, ctx: Context) -> Finding | None:
    """``eu-stack --core=core.123 -e build/app`` reads a core file; ``-p PID`` attaches."""
    if any(a in ("-p", "--pid") or a.startswith(("--pid=", "-p")) for a in cmd.args()):
        return unknown_program("eu-stack -p", " (it attaches to a running process and reads "
                               "its memory)")  # fmt: skip
    return None


def _reads(cmd: Cmd, ctx: Context) -> Finding | None:
    return None


# ccache's own maintenance: statistics shown or zeroed, settings shown, the cache trimmed.
_CCACHE_OWN = frozenset({"-s", "--show-stats", "-z", "--zero-stats", "-p", "--show-config",
                         "-x", "--show-compression", "-c", "--cleanup", "-V", "--version",
                         "-v", "--verbose", "--print-stats", "-k", "--get-config",
                         "--show-log-stats", "--evict-older-than"})  # fmt: skip


def _ccache(cmd: Cmd, ctx: Context) -> Finding | None:
    args = cmd.args()
    if args and args[0].startswith("-"):
        taken = {i + 1 for i, a in enumerate(args[:-1]) if a in ("-k", "--get-config",
                                                                "--evict-older-than")}  # fmt: skip
        if all(a in _CCACHE_OWN or i in taken for i, a in enumerate(args)):
            return None
        return unknown_program(f"ccache {args[0]}", " (it changes the cache's settings or "
                               "clears it)")  # fmt: skip
    return None  # ccache gcc …: the compiler is judged as the command it is (HANDLERS)


def _ccache_wraps(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``ccache gcc -c x.c``: the compiler it wraps, judged as run directly."""
    args = cmd.args()
    if args and not args[0].startswith("-"):
        yield Nested(requote(args))


def _addr2line(cmd: Cmd, ctx: Context) -> Finding | None:
    flags, _ = parse_flags(cmd.args())
    return None if not flags & {"o", "--output"} else unknown_program("addr2line -o")


VOUCHERS: dict[str, Voucher] = {
    **{n: _writes_inside for n in ("objcopy", "strip", "as", "ranlib")},
    **{
        n: _reads
        for n in (
            "c++filt",
            "eu-readelf",
            "eu-nm",
            "eu-objdump",
            "eu-size",
            "eu-addr2line",
            "eu-elflint",
            "eu-findtextrel",
            "eu-elfclassify",
            "eu-strings",
        )
    },
    "addr2line": _addr2line,
    "eu-stack": _eu_stack,
    "ccache": _ccache,
}
HANDLERS: dict[str, Handler] = {"ccache": _ccache_wraps}
