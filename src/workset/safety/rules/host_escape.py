"""Ways out of a container or a sandbox onto the host: ``nsenter`` into the namespaces of
process 1, a privileged LXD/Incus container with the host's ``/`` as a disk, a pod whose spec
(``kubectl run --overrides``) shares the host's processes or network, runs privileged or
mounts the host's root. Each of these is root on the whole machine, and is denied; other
uses of the same tools ask.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Handler, Result, option_value
from workset.safety.rules.base import ask_finding as _ask
from workset.safety.rules.base import deny_finding as _deny
from workset.safety.rules.known import subcommand

_INSTEAD = "work inside the container or the workspace; a human with root must do this"


def _nsenter(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``nsenter -t 1 -m -u -i -n -p sh``: a shell in the namespaces of the host's init."""
    args = cmd.args()
    target = option_value(args, ("-t", "--target"))
    joined = [a for a in args if re.fullmatch(r"-[a-zA-Z]*t1", a) or a == "--target=1"]
    if target == "1" or joined:
        yield _deny(
            "host-escape",
            "nsenter enters the namespaces of process 1, which is a root shell on the host",
            _INSTEAD,
        )
    else:
        yield _ask("host-escape", "nsenter enters another process's namespaces")


# LXD/Incus settings that give the container the host: privileged, or the host's / as a disk.
_LXC_HOST = re.compile(r"security\.privileged=true|security\.nesting=true.*privileged|"
                       r"\bsource=/(\s|$)|raw\.lxc=", re.IGNORECASE)  # fmt: skip
_LXC_READS = frozenset({"list", "ls", "info", "image", "version", "remote", "help", "--version"})


def _lxc(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    sub, rest = subcommand(cmd)
    line = " ".join(cmd.args())
    if _LXC_HOST.search(line):
        yield _deny(
            "host-escape",
            f"{cmd.name} {sub} makes a privileged container or gives it the host's / as a "
            "disk, which any user of the container can use as root on the host",
            _INSTEAD,
        )
    elif sub not in _LXC_READS or (sub == "image" and rest[:1] not in (("list",), ("ls",))):
        yield _ask("container-change", f"{cmd.name} {sub} changes containers on this machine")


# A pod spec that shares the host: its processes, network or IPC, privileged, or the host's /.
_POD_HOST = re.compile(
    r"\"(hostPID|hostNetwork|hostIPC|privileged|allowPrivilegeEscalation)\"\s*:\s*true|"
    r"\"hostPath\"\s*:\s*\{[^}]*\"path\"\s*:\s*\"/\"",
    re.IGNORECASE,
)


def _pod_spec(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``kubectl run … --overrides='{"spec":{"hostPID":true,…}}'``: the host, not a pod."""
    sub, _ = subcommand(cmd)
    if sub not in ("run", "debug", "create", "apply", "patch", "replace"):
        return
    text = " ".join(cmd.args())
    profile = option_value(cmd.args(), ("--profile",))
    if _POD_HOST.search(text) or (sub == "debug" and profile == "sysadmin"):
        yield _deny(
            "host-escape",
            f"{cmd.name} {sub} starts a pod that shares the node's processes or network, runs "
            "privileged or mounts the node's /, which is root on the node",
            "run an ordinary pod, or ask the cluster's owner",
        )


HANDLERS: dict[str, Handler] = {
    "nsenter": _nsenter,
    **{n: _lxc for n in ("lxc", "incus")},
    **{n: _pod_spec for n in ("kubectl", "oc")},
}
