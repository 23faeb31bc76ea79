"""Rules for ``mount`` and ``umount``: what a filesystem mounted somewhere hides or replaces.

``mount`` with no device or directory only lists what is mounted (``mount -l -t ext4``,
``mount | grep nfs``) and is allowed. Mounting over a system directory, the home, a key or
settings tree or an account file (``mount -t tmpfs tmpfs /etc``, ``mount --bind ./hosts
/etc/hosts``; the directory is the last operand, a device alone is looked up in fstab) hides
the real files behind others: programs then read settings, libraries or keys that someone
else chose, so it is denied. Any other mount, a remount and every
``umount`` ask.
"""

from __future__ import annotations

from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Handler,
    Result,
    ask_finding,
    deny_finding,
    option_value,
)

# mount's options that take a value (the type, options, label…), not a device or directory.
_VALUES = frozenset({"-t", "--types", "-o", "--options", "-L", "--label", "-U", "--uuid",
                     "-O", "--test-opts", "-N", "--namespace", "--target", "--source",
                     "-T", "--fstab"})  # fmt: skip
# Options that only list or print.
_LISTING = frozenset({"-l", "--show-labels", "-v", "--verbose", "-t", "--types", "-h",
                      "--help", "-V", "--version"})  # fmt: skip


def _operands(args: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The options (with their values) and the operands (devices and directories)."""
    options: list[str] = []
    operands: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        if word in _VALUES and index + 1 < len(args):
            options.append(word)
            if word in ("--target", "--source"):
                operands.append(args[index + 1])
            index += 2
            continue
        (options if word.startswith("-") else operands).append(word)
        index += 1
    return options, operands


def _mount(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    options, operands = _operands(cmd.args())
    if cmd.name == "mount" and not operands and set(options) <= _LISTING:
        return  # lists what is mounted
    target = option_value(cmd.args(), ("--target",)) or (operands[-1] if operands else "")
    remount = any("remount" in a for a in cmd.args())
    if cmd.name == "mount" and target and not remount and hides(target, ctx):
        yield deny_finding(
            "mount-over",
            f"mount puts another filesystem over {target}, so programs read settings, "
            "libraries or keys someone else chose instead of the real ones",
            "mount into a folder of the workspace, or ask the user to make the change",
        )
        return
    yield ask_finding(
        "mount",
        f"{cmd.name} changes which filesystems the machine sees, outside the workspace",
    )


# Places that are meant to be mount points: a filesystem mounted there hides nothing.
_MOUNT_POINTS = ("/mnt", "/media", "/srv", "/run", "/tmp", "/var/tmp", "/Volumes")


def hides(word: str, ctx: Context) -> bool:
    path = ctx.resolve(word)
    if paths.is_block_device(path) or any(path == p or path.startswith(p + "/")
                                          for p in _MOUNT_POINTS):  # fmt: skip
        return False
    return (
        paths.is_protected(path)
        or paths.is_system(path)
        or paths.is_sensitive(path)
        or paths.is_startup_file(path)
    )


HANDLERS: dict[str, Handler] = {"mount": _mount, "umount": _mount}
