"""Microcontroller tools: ESP-IDF (``idf.py``, ``esptool``, ``espefuse``), OpenOCD, DFU,
AVR and STM32 programmers.

What builds the firmware in the workspace (``idf.py build``, ``idf.py size``) or only reads a
board (``espefuse summary``, ``esptool read_flash`` into the workspace, ``dfu-util -l``,
``openocd -c 'init; verify_image fw.elf; shutdown'``, ``avrdude -U flash:r:fw.hex``) runs
without asking. Writing a board's flash asks: it is hardware a human should see being changed.
Three changes can never be taken back and are denied: burning eFuses (``idf.py efuse-burn``),
STM32 readout protection level 2 (``-ob RDP=0xCC``, which disables the debug port for good)
and an AVR fuse that switches off the reset pin or serial programming (the chip can no longer
be programmed by the tools that wrote it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Result,
    Voucher,
    deny_finding,
    option_value,
    unknown_program,
)
from workset.safety.rules.confinement import inside, outside


def _burned(what: str) -> Finding:
    return deny_finding(
        "irreversible-chip-change",
        f"{what} makes a one-time change to the chip that can never be undone (it can lock the "
        "board for good)",
        "a human does this by hand, after checking the value",
    )


# idf.py's options that take a value, before or between its actions.
_IDF_VALUES = frozenset({"-p", "--port", "-b", "--baud", "-C", "--project-dir", "-B",
                         "--build-dir", "-D", "--define-cache-entry", "-G", "--generator",
                         "--cmake-warn-uninitialized", "--preview", "--format",
                         "--output-file"})  # fmt: skip
# Actions that build, size or configure the project in the workspace, or only read a board.
_IDF_LOCAL = frozenset({"build", "all", "app", "bootloader", "partition-table",
                        "partition_table", "size", "size-components", "size-files",
                        "reconfigure", "clean", "fullclean", "python-clean", "set-target",
                        "confserver", "save-defconfig", "show-efuse-table",
                        "efuse-common-table", "efuse-custom-table", "efuse-summary",
                        "efuse-dump", "read-otadata", "docs", "add-dependency",
                        "update-dependencies", "create-component", "gdbinit",
                        "list-targets", "--list-targets", "diag"})  # fmt: skip
_IDF_BURNS = re.compile(r"^efuse[-_](burn|read[-_]protect|write[-_]protect)|^secure[-_]burn")


def _operands(
    cmd: Cmd, valued: frozenset[str] | set[str], placing: tuple[str, ...]
) -> tuple[list[str], list[str]]:
    """A tool's command words, and the values of its options in ``placing`` (folders it
    builds in, files it writes); ``valued``: every option that takes a value."""
    args = cmd.args()
    words: list[str] = []
    places: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        if word in valued and index + 1 < len(args):
            if word in placing:
                places.append(args[index + 1])
            index += 2
            continue
        if not word.startswith("-"):
            words.append(word)
        index += 1
    return words, places


def _idf_words(cmd: Cmd) -> tuple[list[str], list[str]]:
    """idf.py's actions, and the places its options name (project and build folders)."""
    return _operands(
        cmd, _IDF_VALUES, ("-C", "--project-dir", "-B", "--build-dir", "--output-file")
    )


def idf(cmd: Cmd, ctx: Context) -> Finding | None:
    """``idf.py build``, ``idf.py -B build size-components``: the project built here."""
    actions, places = _idf_words(cmd)
    project = option_value(cmd.args(), ("-C", "--project-dir"))
    if project is not None and not paths.in_workspace(ctx.resolve(project), ctx.workspace):
        return outside(project, "idf.py")  # another project's CMakeLists.txt runs
    far = next((p for p in places if not inside(p, ctx)), None)
    if far is not None:
        return outside(far, "idf.py")
    unknown = next((a for a in actions if a not in _IDF_LOCAL), None)
    if unknown is None and actions:
        return None
    return unknown_program(
        f"idf.py {unknown or ''}".strip(),
        " (it writes to or erases the "
        "board on the serial port, or is not an action known to stay local)",
    )


def idf_harms(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    burned = next((a for a in _idf_words(cmd)[0] if _IDF_BURNS.match(a)), None)
    if burned is not None:
        yield _burned(f"idf.py {burned}")


# espefuse's commands that only read the fuses.
_EFUSE_READS = frozenset({"summary", "dump", "get_custom_mac", "get-custom-mac", "adc_info",
                          "adc-info", "check_error", "check-error"})  # fmt: skip
_ESP_VALUES = frozenset({"-p", "--port", "-b", "--baud", "-c", "--chip", "--before", "--after",
                         "--connect-attempts", "-t", "--trace", "--virt", "--path-efuse-file",
                         "--format", "--file", "--file_name", "--file-name", "-o",
                         "--output"})  # fmt: skip


def _verbs(cmd: Cmd) -> tuple[list[str], list[str]]:
    """esptool's and espefuse's command words, and the files its options write."""
    return _operands(cmd, _ESP_VALUES, ("--file", "--file_name", "--file-name", "-o", "--output"))


def espefuse(cmd: Cmd, ctx: Context) -> Finding | None:
    """``espefuse.py --port P summary``: the fuses read, none written."""
    words, files = _verbs(cmd)
    far = next((f for f in files if not inside(f, ctx)), None)
    if words[:1] and words[0] in _EFUSE_READS and far is None:
        return None
    if far is not None:
        return outside(far, cmd.name)
    return unknown_program(f"{cmd.name} {' '.join(words[:1])}".strip(), " (it writes eFuses)")


# esptool's commands that only read the chip, or make files from files here.
_ESPTOOL_READS = frozenset({"chip_id", "chip-id", "flash_id", "flash-id", "read_mac",
                            "read-mac", "image_info", "image-info", "version", "verify_flash",
                            "verify-flash", "read_flash_status", "read-flash-status",
                            "get_security_info", "get-security-info", "read_flash",
                            "read-flash", "elf2image", "merge_bin", "merge-bin",
                            "dump_mem", "dump-mem"})  # fmt: skip
# Where those write their file: the last operand, or -o.
_ESPTOOL_FILES = frozenset({"read_flash", "read-flash", "dump_mem", "dump-mem"})


def esptool(cmd: Cmd, ctx: Context) -> Finding | None:
    """``esptool.py -p P read_flash 0 0x400000 dump.bin``, ``verify_flash``, ``merge_bin
    -o out.bin``: the chip read, or files made here; writing or erasing the flash asks."""
    words, files = _verbs(cmd)
    if not words or words[0] not in _ESPTOOL_READS:
        return unknown_program(f"{cmd.name} {' '.join(words[:1])}".strip(), " (it writes or "
                               "erases the board's flash)")  # fmt: skip
    if words[0] in _ESPTOOL_FILES:
        files.append(words[-1])
    far = next((f for f in files if not inside(f, ctx)), None)
    return outside(far, cmd.name) if far is not None else None


# OpenOCD commands that start, halt or reset the target, or only read and compare it.
_OCD_READS = re.compile(
    r"^(init|halt|resume|reset( (halt|run|init))?|shutdown|exit|version|targets|scan_chain|"
    r"verify_image \S+( \S+)*|flash (info|banks|list|probe) ?\S*|mdw \S+( \d+)?|mdh \S+( \d+)?|"
    r"mdb \S+( \d+)?|reg( \S+)?|sleep \d+|poll|adapter (speed|name|list)( \S+)?|"
    r"transport select \S+|echo .*)$"
)
# Folders of OpenOCD's own scripts (board/…, target/…, interface/…).
_OCD_SCRIPTS = ("/usr/share/openocd/", "/usr/local/share/openocd/", "/opt/homebrew/share/openocd/")


def openocd(cmd: Cmd, ctx: Context) -> Finding | None:
    """``openocd -f board/x.cfg -c 'init; reset halt; verify_image fw.elf; shutdown'``: the
    board started, halted and compared with a build; nothing is written to its flash, and it
    exits after. Without commands it serves GDB and whatever its scripts say; that asks."""
    args = cmd.args()
    commands: list[str] = []
    for index, word in enumerate(args[:-1]):
        value = args[index + 1]
        if word in ("-f", "--file", "-s", "--search") and not value.startswith(_OCD_SCRIPTS):
            if not paths.in_workspace(ctx.resolve(value), ctx.workspace):
                return outside(value, "openocd")  # a script of elsewhere, run as Tcl
        elif word in ("-c", "--command"):
            commands += [c.strip() for c in re.split(r"[;\n]", value) if c.strip()]
        elif word in ("-l", "--log_output") and not inside(value, ctx):
            return outside(value, "openocd")
    said = [c for c in commands if not _OCD_READS.match(c)]
    if commands and not said and commands[-1] in ("shutdown", "exit"):
        return None
    what = said[0].split()[0] if said else "without -c '…; shutdown'"
    return unknown_program(f"openocd {what}", " (it writes the board or keeps serving a "
                           "debugger)")  # fmt: skip


def dfu_util(cmd: Cmd, ctx: Context) -> Finding | None:
    """``dfu-util -l`` lists devices; ``-U FILE`` reads the device into a file here."""
    args = cmd.args()
    upload = option_value(args, ("-U", "--upload"))
    if any(a in ("-D", "--download", "-e", "--detach", "-E", "--detach-delay") for a in args):
        return unknown_program("dfu-util -D", " (it writes the device's firmware)")
    if upload is not None and not inside(upload, ctx):
        return outside(upload, "dfu-util")
    return None


# avrdude: -U memory:op:file[:format]
_AVR_OP = re.compile(r"^([\w-]+):([rwv]):(.+?)(?::([a-z]))?$")
# Parts whose high fuse holds RSTDISBL in bit 7 (the reset pin) and SPIEN in bit 5.
_RSTDISBL_BIT7 = re.compile(r"^(m|atmega)(48|88|168|328)(p|pa|pb)?$|^(m|atmega)8a?$|"
                            r"^(t|attiny)(25|45|85|24|44|84)a?$", re.IGNORECASE)  # fmt: skip


def _avr_operations(args: tuple[str, ...]) -> list[tuple[str, str, str, str]]:
    values = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-U"]
    values += [a[2:] for a in args if a.startswith("-U") and len(a) > 2]
    found = [_AVR_OP.match(v) for v in values]
    return [(m.group(1), m.group(2), m.group(3), m.group(4) or "") for m in found if m]


def avrdude(cmd: Cmd, ctx: Context) -> Finding | None:
    """``avrdude -c usbasp -p m328p -U flash:r:backup.hex:i``, ``-U flash:v:fw.hex``: the chip
    read or compared; every write (-U …:w:…, -e chip erase) asks."""
    args = cmd.args()
    if "-e" in args or any(op == "w" for _, op, _, _ in _avr_operations(args)):
        return unknown_program("avrdude -U …:w", " (it writes the chip's flash or fuses)")
    for _, op, file, form in _avr_operations(args):
        if op == "r" and form != "m" and not inside(file, ctx):
            return outside(file, "avrdude")
    return None


def avr_fuse_harms(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``-U hfuse:w:0x5E:m`` on an ATmega328P programs RSTDISBL: the reset pin is gone, and
    with it the serial programming that wrote the fuse."""
    args = cmd.args()
    part = (option_value(args, ("-p", "--part")) or "").lower()
    for memory, op, value, form in _avr_operations(args):
        if memory != "hfuse" or op != "w" or form != "m":
            continue
        try:
            bits = int(value, 0)
        except ValueError:
            continue
        if bits & 0x20 or (_RSTDISBL_BIT7.match(part) and not bits & 0x80):
            yield _burned(f"avrdude -U hfuse:w:{value} (reset pin or serial programming "
                          "switched off)")  # fmt: skip
            return


def stm32_programmer(cmd: Cmd, ctx: Context) -> Finding | None:
    """STM32CubeProgrammer connecting to a probe and listing it: anything else (a download,
    an erase, option bytes, a read into a file) asks."""
    shown = {"-c", "--connect", "-l", "--list", "-q", "--quietmode", "-vb", "--verbosity"}
    args = cmd.args()
    if all(a.lower() in shown or (i and args[i - 1].lower() in ("-c", "--connect", "-vb"))
           or ("=" in a and not a.startswith("-")) for i, a in enumerate(args)):  # fmt: skip
        return None
    return unknown_program("STM32_Programmer_CLI", " (it writes, erases or reads the chip)")


_RDP2 = re.compile(r"^rdp=(0xcc|2|level2|lvl2)$", re.IGNORECASE)


def stm32_harms(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``-ob RDP=0xCC``: readout protection level 2, which disables the debug port and the
    option bytes for good."""
    if any(_RDP2.match(a) for a in cmd.args()):
        yield _burned(f"{cmd.name} -ob RDP=0xCC (readout protection level 2)")


_STM32 = ("STM32_Programmer_CLI", "STM32_Programmer_CLI.exe", "STM32CubeProgrammer")
VOUCHERS: dict[str, Voucher] = {
    **{n: idf for n in ("idf.py", "idf")},
    **{n: espefuse for n in ("espefuse.py", "espefuse")},
    **{n: esptool for n in ("esptool.py", "esptool")},
    "openocd": openocd,
    "dfu-util": dfu_util,
    "avrdude": avrdude,
    **{n: stm32_programmer for n in _STM32},
}
HANDLERS: dict[str, Handler] = {
    **{n: idf_harms for n in ("idf.py", "idf")},
    "avrdude": avr_fuse_harms,
    **{n: stm32_harms for n in _STM32},
}
