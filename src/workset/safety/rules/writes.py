"""Rules for commands that change files or devices: redirections, ``cp``/``tee``/``sed -i``,
``chmod``/``chown``, ``dd`` and ``mkfs``.

:func:`write_target` is the one judgement of a path being written (block devices and account
files denied, system paths and shell startup files asked), used for redirections and for
every command here that names a target.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.agent_files import rules_added
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Result,
    parse_flags,
)
from workset.safety.rules.installs import shadowed, shadowing
from workset.safety.rules.persistence import (
    HOOKS,
    is_persistence_place,
    is_service_place,
    is_workspace_hook,
    persistence,
)
from workset.safety.rules.records import erases_record, wipe
from workset.safety.rules.secrets import is_secret
from workset.safety.rules.static import static_output

WRITING_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", ">&"})
_RANDOM_SOURCES = frozenset({"/dev/zero", "/dev/urandom", "/dev/random"})
MKFS = re.compile(r"^(mkfs(\.\w+)?|mke2fs|mkdosfs|mkntfs)$")


def write_target(
    word: str,
    via: str,
    ctx: Context,
    *,
    text_judged: bool = False,
    appended: str | None = None,
    sources: tuple[str, ...] = (),
) -> Iterator[Finding]:
    """Findings about writing ``word``. ``text_judged``: the text written is analysed as code
    where it runs later (:func:`~workset.safety.rules.persistence.persisted_code`), so the
    workspace's own git hooks need no finding of their own. ``appended``: the literal text
    appended, when known; ``sources``: the files copied or moved there."""
    path = ctx.resolve(word)
    if paths.is_harmless_device(path):
        return
    if is_service_place(path):
        ctx.services.add(path)  # for a launchctl load or systemctl enable later in the line
    if paths.is_block_device(path):
        yield Finding(
            "write-block-device",
            "deny",
            f"{via} writes straight to the device {word}, destroying its filesystem; write "
            "to a file in the workspace instead",
        )
    elif path == "/etc/hosts" and appended is not None and local_names(appended):
        yield Finding(
            "hosts-local-name",
            "ask",
            f"{via} adds names for this machine to {word} (a private name such as "
            "api.proj.test to 127.0.0.1), which every program on the machine then uses; a "
            "human must confirm",
        )
    elif paths.is_sensitive(path):
        yield sensitive_write(word)
    elif (
        paths.is_agent_settings(path)
        and sources
        and all(ctx.resolve(source) in ctx.tightened for source in sources)
    ):
        yield rules_added(word, via)
    elif paths.is_agent_settings(path):
        yield Finding(
            "write-agent-settings",
            "deny",
            f"{via} changes {word}, the settings of a coding agent, which decide what it may "
            "run without asking; an agent never loosens its own rules — ask the user to "
            "change them",
        )
    elif paths.is_project_agent_config(path):
        yield Finding(
            "write-agent-config",
            "ask",
            f"{via} changes {word}, which configures a coding agent (its tools, servers, "
            "rules or the tasks its editor runs); a human must confirm",
        )
    elif _KERNEL.match(path):
        yield Finding(
            "write-kernel",
            "deny",
            f"{via} writes {word}, which reboots, crashes, suspends or kills everything on "
            "the machine at once, unsaved work of everyone on it lost; an agent never does "
            "this — ask the user",
        )
    elif _DEFAULT_TRUST.search(path):
        yield Finding(
            "trust-root",
            "deny",
            f"{via} changes {word}, the certificate bundle programs trust by default, so a "
            "certificate added there can vouch for any site; pass the CA to the one tool that "
            "needs it (--cacert, REQUESTS_CA_BUNDLE=certs/ca.pem)",
        )
    elif paths.is_system(path):
        yield system_write(word)
    elif erases_record(path, ctx) and not via.endswith(">>"):
        yield wipe(f"{via} over {word}")
    elif paths.is_startup_file(path):
        yield Finding(
            "write-startup-file",
            "ask",
            f"{via} changes {word}, which runs in every future shell; a human must confirm",
        )
    elif text_judged and shadowed(path, None) is not None:  # cat > ~/.local/bin/sudo <<…
        yield shadowing(via, word, shadowed(path, None) or "")
    elif is_persistence_place(path) and not (text_judged and is_workspace_hook(path, ctx)):
        yield persistence(f"{via} writes {word}, which runs by itself later")


# A hosts line that names this machine (127.x, ::1) with names no public DNS answers for:
# reserved for testing and private use (RFC 2606, 6761, 6762), or a single label.
_LOOPBACK_ENTRY = re.compile(r"^(127(\.\d{1,3}){3}|::1)(\s+[\w-]+(\.[\w-]+)*)+$")
_PRIVATE_NAME = re.compile(r"^[\w-]+$|\.(test|localhost|local|example|invalid|internal|lan|"
                           r"home\.arpa)$", re.IGNORECASE)  # fmt: skip


def local_names(text: str) -> bool:
    """Each line of ``text`` maps loopback to private names only (``127.0.0.1 api.proj.test``):
    it sends no real host's traffic elsewhere and blocks none."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return bool(lines) and all(
        _LOOPBACK_ENTRY.match(line) is not None
        and all(_PRIVATE_NAME.search(name) for name in line.split()[1:])
        for line in lines
    )


# The bundles libraries trust when given none: certifi's (in any environment, the workspace's
# venv too), pip's and botocore's copies, a JDK's cacerts, node's extra roots.
_DEFAULT_TRUST = re.compile(
    r"(^|/)(site|dist)-packages/(pip/_vendor/)?(certifi|botocore|httplib2)/[^/]*\.(pem|crt)$|"
    r"(^|/)lib/security/cacerts$|(^|/)ca-certificates\.crt$|(^|/)ca-bundle\.(crt|trust\.crt)$"
)


def _own_hook(cmd: Cmd, ctx: Context, operands: list[tuple[int, str]]) -> bool:
    """A script of the project put into the project's own ``.git/hooks`` (``cp
    ./scripts/pre-commit .git/hooks/``): the project's code, run by the project's git, all
    inside the workspace. A download of the line, a file outside, or another repository's
    hooks stays judged as persistence."""
    index, target = operands[-1]
    place = ctx.resolve(target)
    if cmd.is_dynamic(index) or not HOOKS.search(place):
        return False
    if not paths.in_workspace(place, ctx.workspace):
        return False
    for at, source in operands[:-1]:
        if cmd.name == "ln" and not source.startswith(("/", "~")):
            source = paths.normalize(target.rsplit("/", 1)[0] + "/" + source)
        where = ctx.resolve(source)
        if cmd.is_dynamic(at) or ctx.wrote(source):
            return False
        if not paths.in_workspace(where, ctx.workspace) or HOOKS.search(where):
            return False
    return True


_DROP_IN = re.compile(r"^/etc/[\w.-]+\.d/([^/]+)?$")


def _reviewed_drop_in(cmd: Cmd, ctx: Context, operands: list[tuple[int, str]]) -> bool:
    """``install -m 0440 config/sudoers.d/ci /etc/sudoers.d/ci``: a file kept in the
    repository, where a human can read it, put in a system drop-in directory. What lands there
    is known before it runs (a text piped in or a file from elsewhere stays denied)."""
    target = ctx.resolve(operands[-1][1])
    if not _DROP_IN.match(target) or not paths.is_sensitive(target) or any(cmd.dynamic):
        return False
    args = cmd.args()
    values = {i + 2 for i, a in enumerate(args) if a in ("-m", "-o", "-g", "-t", "-S")}
    sources = [w for i, w in operands[:-1] if i not in values]
    return bool(sources) and all(
        paths.in_workspace(ctx.resolve(w), ctx.workspace) and not ctx.wrote(w) for w in sources
    )


# The running kernel's power switches: magic SysRq (reboot, crash, kill every process at
# once) and the power state (suspend, hibernate). Live settings under /proc/sys are judged
# as sysctl is (rules.hardening).
_KERNEL = re.compile(r"^/proc/sysrq-trigger$|^/sys/power/(state|disk)$")


def _tightens(mode: str) -> bool:
    """``chmod 600``/``go-rwx`` only takes rights away: no one gains access to a key."""
    if re.fullmatch(r"0?[0-7]00", mode):
        return True
    return re.fullmatch(r"([ugoa]*-[rwxXst]+)(,[ugoa]*-[rwxXst]+)*", mode) is not None


def sensitive_write(word: str) -> Finding:
    return Finding(
        "write-sensitive-file",
        "deny",
        f"changing {word} alters accounts, logins, SSH keys, trusted certificates or where "
        "the machine's traffic and libraries come from, which can lock people out or let "
        "strangers in; this is not something an agent does — ask the user to make the change",
    )


def system_write(word: str) -> Finding:
    return Finding(
        "write-system-path",
        "ask",
        f"changes {word}, a system file outside the workspace; a human must confirm, or work "
        "on a copy inside the workspace",
    )


def _writers(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """cp, install, ln, tee, truncate, sed -i, chmod/chown/chgrp: check what they change."""
    flags, operands = parse_flags(cmd.args())
    name = cmd.name
    if name in ("cp", "install", "ln") and len(operands) >= 2:
        if name != "ln" and _reviewed_drop_in(cmd, ctx, operands):
            yield Finding(
                "install-policy-file",
                "ask",
                f"{name} puts a file of the workspace in {operands[-1][1]}, which "
                "changes who may log in or use sudo; a human must read the file and confirm",
            )
        elif not _own_hook(cmd, ctx, operands):
            sources = tuple(w for _, w in operands[:-1]) if name == "cp" else ()
            yield from write_target(operands[-1][1], name, ctx, sources=sources)
    elif name in ("tee", "truncate"):
        added = name == "tee" and ("a" in flags or "--append" in cmd.args())
        text = static_output(cmd.upstream) if added else None
        for _, word in operands:
            yield from write_target(word, name, ctx, text_judged=name == "tee", appended=text)
    elif name in ("chmod", "chown", "chgrp"):
        recursive = bool(flags & {"R", "--recursive"})
        targets = operands[1:] if "--reference" not in flags else operands
        for _, word in targets:
            path = ctx.resolve(word)
            if path in ("/", "~") or (recursive and paths.is_protected(path)):
                yield Finding(
                    "chmod-recursive-protected",
                    "deny",
                    f"{name} {'-R ' if recursive else ''}on {word!r} changes who owns or may "
                    "use the whole system or home; change modes only of workspace files",
                )
            elif paths.is_sensitive(path) and not (name == "chmod" and _tightens(operands[0][1])):
                yield sensitive_write(word)
            elif paths.is_system(path):
                yield system_write(word)


_IN_PLACE_PERL = re.compile(r"^-[a-zA-Z]*i")


def in_place(cmd: Cmd, ctx: Context) -> Iterator[Finding]:
    """Files edited in place (``sed -i``, ``perl -pi``, ``yq -i``, ``dos2unix``) are written.

    Each must lie inside the workspace (or scratch space) like any other write.
    """
    for word in in_place_files(cmd):
        yield from write_target(word, f"{cmd.name} -i", ctx)
        path = ctx.resolve(word)
        if not (paths.in_workspace(path, ctx.workspace) or paths.is_scratch(path)):
            yield Finding(
                "outside-workspace",
                "ask",
                f"{cmd.name} edits {word!r} in place, outside the workspace; a human must "
                "confirm, or work on a copy inside the workspace",
            )


def in_place_files(cmd: Cmd) -> list[str]:
    """The files ``cmd`` rewrites in place, or none."""
    name, args = cmd.name, cmd.args()
    flags, operands = parse_flags(args)
    words = [w for _, w in operands]
    if name == "sed" and ("i" in flags or any(a.startswith("--in-place") for a in args)):
        scripted = any(a in ("-e", "-f", "--expression", "--file") for a in args)
        return [w for w in words if not _value_of(args, w, ("-e", "-f"))][0 if scripted else 1 :]
    if name in ("perl", "ruby") and any(_IN_PLACE_PERL.match(a) for a in args):
        return [w for w in words if not _value_of(args, w, ("-e", "-E"), code=True)]
    if name == "yq" and flags & {"i", "--inplace"}:
        files = [w for w in words if w not in ("e", "eval", "ea", "eval-all")]
        return files[1:]
    if name in ("dos2unix", "unix2dos", "mac2unix", "unix2mac"):
        return words[1::2] if "n" in flags else words
    return []


def _value_of(
    args: tuple[str, ...], word: str, options: tuple[str, ...], *, code: bool = False
) -> bool:
    """``word`` is the value of one of ``options`` (``-e CODE``, ``-pe CODE``), not a file."""
    return any(
        args[i + 1] == word
        and (args[i] in options or (code and re.fullmatch(r"-[a-zA-Z]*[eE]", args[i])))
        for i in range(len(args) - 1)
    )


def _dd(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    options = dict(a.split("=", 1) for a in cmd.args() if "=" in a)
    source = ctx.resolve(options.get("if", "-"))
    target_word = options.get("of")
    if target_word is None:
        return
    target = ctx.resolve(target_word)
    if paths.is_block_device(target) or paths.is_sensitive(target) or _KERNEL.match(target):
        yield from write_target(target_word, "dd", ctx)
    elif source in _RANDOM_SOURCES and not paths.is_harmless_device(target):
        if paths.is_scratch(target):
            yield Finding(
                "dd-fill",
                "ask",
                f"dd fills {target_word} with {source}; confirm the size and the target",
            )
        elif not paths.in_workspace(target, ctx.workspace):
            yield Finding(
                "dd-wipe",
                "deny",
                f"dd from {source} over {target_word}, outside the workspace, overwrites data "
                "that cannot be recovered; write test images inside the workspace instead",
            )
    elif paths.is_system(target):
        yield system_write(target_word)


def mkfs(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    _, operands = parse_flags(cmd.args())
    devices = [w for _, w in operands if ctx.resolve(w).startswith("/dev/")]
    if devices or not operands:
        yield Finding(
            "format-device",
            "deny",
            f"{cmd.name} formats {devices[0] if devices else 'a device'}, erasing it; an agent "
            "never formats disks — build a filesystem image file inside the workspace instead",
        )
    else:
        image = operands[0][1]
        path = ctx.resolve(image)
        if not (paths.in_workspace(path, ctx.workspace) or paths.is_scratch(path)):
            yield Finding(
                "format-image",
                "ask",
                f"{cmd.name} formats {image}, outside the workspace; a human must confirm, or "
                "build the image inside the workspace",
            )


# Programs that erase a whole disk or its partition table, or overwrite firmware, and the words
# that make them do it (an empty tuple: any call with a device operand).
_ERASERS: dict[str, tuple[str, ...]] = {
    "nvme": ("format", "sanitize", "delete-ns", "fw-download", "fw-commit"),
    "blkdiscard": (),
    "sg_format": (),
    "hdparm": ("--security-erase", "--security-erase-enhanced", "--trim-sector-ranges",
               "--write-sector", "--fwdownload", "--make-bad-sector"),
    "sgdisk": ("--zap-all", "-Z", "--zap", "-z", "--clear", "-o", "--delete", "-d", "--new",
               "-n", "--load-backup", "-l"),
    "sfdisk": ("--delete", "--wipe", "-w"),
    "parted": ("mklabel", "rm", "mkpart", "resizepart"),
    "flashrom": ("-w", "--write", "-E", "--erase"),
}  # fmt: skip


def _erases(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``nvme format /dev/nvme0n1``, ``blkdiscard``, ``hdparm --security-erase``, ``sgdisk
    --zap-all``, ``parted /dev/sda mklabel``, ``flashrom -w`` (a BIOS image): a disk
    erased or repartitioned, or firmware overwritten — nothing to recover, possibly a machine
    that no longer starts. Denied; the read-only calls (``nvme list``, ``sgdisk -p``) are not."""
    args = cmd.args()
    verbs = _ERASERS[cmd.name]
    said = next((a for a in args if a.split("=", 1)[0] in verbs), None)
    device = next((a for a in args if ctx.resolve(a).startswith("/dev/")), None)
    firmware = cmd.name == "flashrom"
    if said is None and (verbs or device is None):
        return
    if device is None and not firmware:
        return
    what = f"{cmd.name} {said}" if said else cmd.name
    target = device or "the firmware"
    yield Finding(
        "erase-device",
        "deny",
        f"{what} erases or rewrites {target} as a whole (a disk, its partition table or "
        "firmware): nothing is left to recover, and the machine may not start again; an agent "
        "never does this — work on an image file inside the workspace",
    )


_VM_STORAGE = frozenset({"--remove-all-storage", "--storage", "--wipe-storage", "vol-delete",
                         "vol-wipe", "pool-delete"})  # fmt: skip


def _vm_storage(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``virsh undefine VM --remove-all-storage``, ``virsh vol-delete``: a virtual machine's
    disks deleted with it, beyond recovery. Denied; stopping or undefining alone asks."""
    said = next((a for a in cmd.args() if a.split("=", 1)[0] in _VM_STORAGE), None)
    if said is not None:
        yield Finding(
            "erase-device",
            "deny",
            f"virsh {said} deletes a virtual machine's disks, which cannot be recovered; a "
            "human must do it, after checking which machine it is",
        )


# eFuses are written once: a burned fuse (a key, JTAG off, secure boot on) cannot be undone.
def _burns_fuses(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    burned = next((a for a in cmd.args() if a.startswith(("burn_", "burn-"))), None)
    if burned is not None:
        yield Finding(
            "erase-device",
            "deny",
            f"{cmd.name} {burned} burns eFuses, a one-time change of the chip that can never "
            "be undone (it can lock the board for good); a human does this by hand",
        )


HANDLERS: dict[str, Handler] = {
    **{n: _erases for n in _ERASERS},
    **{n: _burns_fuses for n in ("espefuse.py", "espefuse", "espsecure.py")},
    "virsh": _vm_storage,
    "cp": _writers,
    "install": _writers,
    "ln": _writers,
    "tee": _writers,
    "truncate": _writers,
    "sed": _writers,
    "chmod": _writers,
    "chown": _writers,
    "chgrp": _writers,
    "dd": _dd,
    "mke2fs": mkfs,
    "wipefs": mkfs,
}


def symlink(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``ln [-s] TARGET LINK``: later words of the line that name LINK reach TARGET, and a link
    in the workspace that leads out of it lets any later write land outside."""
    _, operands = parse_flags(cmd.args())
    words = [w for _, w in operands]
    if not words or any(cmd.is_dynamic(i) for i, _ in operands):
        return
    targets, place = (words[:-1], words[-1]) if len(words) > 1 else (words, ".")
    for target in targets:
        link = place
        if len(targets) > 1 or place in (".", "./") or place.endswith("/"):
            link = place.rstrip("/") + "/" + target.rstrip("/").rsplit("/", 1)[-1]
        lands = ctx.add_link(target, link)
        if _guarded(lands):
            yield Finding(
                "link-outside",
                "ask",
                f"{cmd.name} makes {link} lead to {lands}, where what is later written through "
                "it changes the home, the system, keys or code that runs by itself; a human "
                "must confirm, or copy the file into the workspace instead",
            )


def _guarded(path: str) -> bool:
    """Writing here is never confined: the home itself, system files, keys, startup files."""
    return (
        paths.is_protected(path)
        or (paths.is_system(path) and not path.startswith(("/usr/", "/opt/", "/nix/store/")))
        or paths.is_sensitive(path)
        or paths.is_startup_file(path)
        or is_persistence_place(path)
        or is_secret(path)
        or path.startswith(("~/.", "/root"))
    )
