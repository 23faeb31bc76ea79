"""Clear harms of packaging and release work: the system's package trust switched off, its
package database destroyed, and a published release pulled or replaced unsigned.

- a network repository trusted without signatures (``deb [trusted=yes] http://…`` written to
  ``/etc/apt/sources.list.d``, ``gpgcheck=0`` with an ``http`` ``baseurl`` in
  ``/etc/yum.repos.d``, ``flatpak remote-add --no-gpg-verify x https://…``, ``dnf install
  --nogpgcheck --repofrompath=x,http://…``) or a signing key fetched over plain http
  (``rpm --import http://…``): whoever controls the path installs code as root;
- a command hooked into every apt run (``APT::Update::Pre-Invoke {"…"}`` in
  ``/etc/apt/apt.conf.d``), or a packaged sudoers file that gives passwordless root;
- dpkg's or rpm's database deleted (``rm -rf /var/lib/dpkg/info``), a package unpacked over
  ``/`` without dpkg (``dpkg-deb -x x.deb /``), every flatpak app removed with its data;
- a published apt repository switched to an unsigned snapshot (``aptly publish switch
  -skip-signing``), every package filtered out of a repository outside the workspace, a
  snap's stable channel closed, a Homebrew tap fetched over plain http;
- rpm macros that are commands (``--define '__spec_install_post rm -rf ~'``) judged as code.

A local repository (``file:``, a workspace path) trusted for a test, an ``https`` key, one
package removed, and the same commands on a workspace repository ask or pass as before.
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
    deny_finding,
    option_values,
)
from workset.safety.rules.confinement import inside
from workset.safety.rules.persistence import written_text

_WRITES = frozenset({">", ">>", ">|"})
_NETWORK = r"(https?|ftp)://"
_APT_SOURCES = re.compile(r"^/etc/apt/sources\.list(\.d/.*)?$")
_APT_CONF = re.compile(r"^/etc/apt/apt\.conf(\.d/.*)?$")
_YUM_REPOS = re.compile(r"^/etc/(yum\.repos\.d|zypp/repos\.d|dnf/repos\.d)/.*$")
_TRUSTED = re.compile(r"^\s*deb(-src)?\s+\[[^\]]*\b(trusted|allow-insecure)=yes[^\]]*\]\s*"
                      + _NETWORK, re.M)  # fmt: skip
_HOOK = re.compile(r"(Pre|Post)-Invoke(-Success)?|Pre-Install-Pkgs|AllowUnauthenticated\s+"
                   r"\"?(true|1)|AllowInsecureRepositories\s+\"?(true|1)", re.I)  # fmt: skip
_NO_GPG = re.compile(r"^\s*gpgcheck\s*=\s*(0|no|false)\s*$", re.M | re.I)
_REMOTE_BASE = re.compile(r"^\s*(baseurl|mirrorlist|metalink)\s*=\s*" + _NETWORK, re.M | re.I)
_SUDO_ALL = re.compile(r"ALL\s*=\s*\(\s*ALL(\s*:\s*ALL)?\s*\)\s*NOPASSWD\s*:\s*ALL")
_TRUST_INSTEAD = "use a signed repository with its key (signed-by, gpgcheck=1), or ask the user"


def _untrusted(what: str) -> Finding:
    return deny_finding(
        "package-trust-off",
        f"{what}: whoever controls that server or the path to it installs code as root",
        _TRUST_INSTEAD,
    )


def written(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """Text written to apt's or yum's settings, or a sudoers file, by tee or a redirect."""
    places = [t for op, t in cmd.redirects if op in _WRITES]
    if cmd.name == "tee":
        places += [a for a in cmd.args() if not a.startswith("-")]
    text = written_text(cmd, fed=cmd.name == "tee") if places else ""
    for place in places if text else ():
        path = ctx.resolve(place)
        if _APT_SOURCES.match(path) and _TRUSTED.search(text):
            yield _untrusted(f"{place} marks a network apt source trusted=yes (no signature "
                             "check)")  # fmt: skip
        elif _APT_CONF.match(path) and _HOOK.search(text):
            yield deny_finding(
                "apt-hook",
                f"{place} hooks a command into apt (or lets it take unsigned packages), run as "
                "root on every apt run",
                "run the command yourself when needed, and leave apt's settings alone",
            )
        elif _YUM_REPOS.match(path) and _NO_GPG.search(text) and _REMOTE_BASE.search(text):
            yield _untrusted(f"{place} adds a network repository with gpgcheck=0")
        elif "sudoers" in path and _SUDO_ALL.search(text):
            yield deny_finding(
                "sudoers-all",
                f"{place} gives passwordless root for every command (NOPASSWD: ALL), wherever "
                "it is installed",
                "grant only the commands the tool needs, and have a human review it",
            )


def _rpm(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    keys = [a for i, a in enumerate(args) if i and args[i - 1] == "--import"]
    if any(k.startswith("http://") or k.startswith("ftp://") for k in keys):
        yield _untrusted(f"{cmd.name} --import trusts a signing key fetched over plain http")
    yield from macros(cmd, ctx)


def macros(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``--define '__spec_install_post /bin/rm -rf $HOME/'``: rpm runs the macro's command."""
    for value in option_values(cmd.args(), ("--define", "-D")):
        name, _, body = value.strip().partition(" ")
        if name.startswith("__") and body.strip():
            yield Nested(body.strip(), deny_only=True)


def _dnf(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    nogpg = "--nogpgcheck" in args or any(re.search(r"gpgcheck=(0|False)", a) for a in args)
    remote = [a for a in args if re.search(r"repofrompath[= ].*" + _NETWORK, a)]
    remote += [v for v in option_values(args, ("--repofrompath",)) if re.search(_NETWORK, v)]
    remote += [a for a in args if re.match(r"https?://.*\.rpm$", a)]
    if nogpg and remote and {"install", "localinstall", "upgrade"} & set(args):
        yield _untrusted(f"{cmd.name} --nogpgcheck installs unsigned packages from the network")


def _flatpak(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    words = [a for a in args if not a.startswith("-")]
    trusted = words[:1] in (["remote-add"], ["remote-modify"]) and "--no-gpg-verify" in args
    if trusted and any(re.match(_NETWORK, w) for w in words):
        yield _untrusted("flatpak adds a network remote with --no-gpg-verify")
    if words[:1] in (["uninstall"], ["remove"]) and "--all" in args and "--delete-data" in args:
        yield deny_finding(
            "apps-wiped",
            "flatpak uninstall --all --delete-data removes every flatpak app and the user's "
            "data of each",
            "uninstall the one app you installed (flatpak uninstall APP), keeping its data",
        )


_SYSTEM_ROOTS = re.compile(r"^/(usr|etc|bin|sbin|lib\w*|boot|opt|var)?/?$")


def _dpkg_deb(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if args[:1] and args[0] in ("-x", "--extract", "-X", "--vextract", "-R", "--raw-extract"):
        operands = [a for a in args[1:] if not a.startswith("-")]
        if len(operands) >= 2 and _SYSTEM_ROOTS.match(ctx.resolve(operands[1])):
            yield deny_finding(
                "unpacked-over-system",
                f"dpkg-deb unpacks a package over {operands[1]} without dpkg: it overwrites "
                "files other packages own and nothing records them",
                "install it with the package manager, or unpack into the workspace",
            )


_PACKAGE_DB = re.compile(r"^/var/lib/(dpkg|rpm)(/(?!lock|updates|tmp\.ci|\.)\S*)?/?$")


def _rm(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    for word in (a for a in cmd.args() if not a.startswith("-")):
        if _PACKAGE_DB.match(ctx.resolve(word)):
            yield deny_finding(
                "package-db-deleted",
                f"deleting {word} destroys the package manager's record of what is installed: "
                "the system can no longer update, repair or remove its software",
                "repair it with the package manager (dpkg --configure -a, rpm --rebuilddb)",
            )
            return


def _aptly(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    words = [a for a in args if not a.startswith("-")]
    if words[:2] in (["publish", "switch"], ["publish", "update"]) and any(
        a.split("=")[0] in ("-skip-signing", "--skip-signing") for a in args
    ):
        yield deny_finding(
            "repo-unsigned",
            f"aptly publish {words[1]} replaces a live repository with an unsigned one: every "
            "client's apt update fails, or is taught to trust it unsigned",
            "publish signed, or to a new test distribution first",
        )


_MATCH_ALL = re.compile(r"^\s*(Package|\$Source|Source)\s*\(\s*%\s*\*\s*\)\s*$")


def _reprepro(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    bases = option_values(args, ("-b", "--basedir"))
    words = [a for a in args if not a.startswith("-") and a not in bases]
    live = bool(bases) and not inside(bases[-1], ctx) and not any(cmd.dynamic)
    if (
        live
        and words[:1] in (["removefilter"], ["removematched"])
        and any(_MATCH_ALL.match(w) or w.strip() == "*" for w in words[2:])
    ):
        yield deny_finding(
            "repo-emptied",
            f"reprepro {words[0]} removes every package of {bases[-1]}, a repository "
            "outside the workspace that machines install from",
            "remove the one package that must go, by name",
        )


def _snapcraft(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:1] == ["close"] and len(words) >= 3:
        channels = [c for w in words[2:] for c in w.split(",")]
        if "stable" in channels:
            yield deny_finding(
                "channel-closed",
                "snapcraft close stable stops the released channel: its users get no fixed "
                "release and new installs from it fail or get a less tested one",
                "release a fixed revision to stable instead, or ask the user",
            )


def _brew(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:1] == ["tap"] and any(w.startswith(("http://", "git://")) for w in words[2:]):
        yield deny_finding(
            "tap-insecure",
            "brew tap fetches formulae over an unencrypted URL: anyone on the way can swap the "
            "Ruby code that brew install then runs",
            "tap over https from the project's own host, or ask the user",
        )


HANDLERS: dict[str, Handler] = {
    "brew": _brew,
    **{n: written for n in ("tee", "echo", "printf", "cat")},
    **{n: _rpm for n in ("rpm", "rpmkeys")},
    **{n: macros for n in ("rpmbuild", "rpmspec")},
    **{n: _dnf for n in ("dnf", "yum", "microdnf", "dnf5")},
    "flatpak": _flatpak,
    "dpkg-deb": _dpkg_deb,
    "rm": _rm,
    "aptly": _aptly,
    "reprepro": _reprepro,
    "snapcraft": _snapcraft,
}
