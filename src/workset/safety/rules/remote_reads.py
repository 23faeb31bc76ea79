"""Looking at another machine without changing it: ``ssh HOST 'CMD'`` where CMD only reads,
and ``rsync -n`` (a dry run) to or from a host.

``ssh api-3.internal 'systemctl is-active api; uptime; df -h /'`` changes nothing there or
here, and sends nothing the line does not show. Such a look runs without asking when every
part of it is shown harmless:

- the host is a literal name (or a private or loopback address), with no variable, no
  substitution and no password in it; ssh's options are among those that only shape the
  connection (a port, a user, a key file, a timeout, batch mode), never ones that run code
  here (``ProxyCommand``, ``LocalCommand``), forward ports or the agent, or read a config
  file;
- nothing of this machine is fed to it: no pipe into ssh, no ``<`` redirection, no
  here-document;
- the remote command is literal, holds no run of letters and digits that looks like data,
  and every command in it is one that only reads (``ls``, ``cat``, ``df``, ``systemctl
  status``, ``journalctl``, ``docker ps``, ``kubectl get``…), judged by the same analysis as
  a local command run from ``/`` with no workspace, so that any write there, any secret read
  and any program that runs code (``make``, ``pytest``, a script) keeps it asking.

What the remote command prints reaches the agent's context, as a local read does; the
database clients are left out on purpose (a query of production data asks).
"""

from __future__ import annotations

import re

from workset.safety import paths
from workset.safety.rules.attack_targets import place_of
from workset.safety.rules.base import Cmd, Context, Finding, Voucher, unknown_program
from workset.safety.rules.known_lists import BUILTINS, READ_ONLY, SUBCOMMANDS
from workset.safety.rules.public_reads import data_like
from workset.safety.rules.secret_paths import in_key_tree, is_secret
from workset.safety.rules.server_data import rclone_look

# ssh options that only shape the connection: flags, and options with a value of their own.
_SSH_FLAGS = frozenset("TqvCtx46kan")  # not -A/-K (agent, tickets), -X/-Y, -N, -f, -M
_SSH_VALUED = frozenset({"-p", "-l", "-i", "-o", "-c", "-m", "-b"})  # not -L/-R/-D/-W/-J/-F/-E
_SSH_SETTINGS = frozenset(
    {
        "batchmode", "connecttimeout", "stricthostkeychecking", "serveraliveinterval",
        "serveralivecountmax", "loglevel", "port", "user", "identityfile", "identitiesonly",
        "connectionattempts", "passwordauthentication", "preferredauthentications",
        "userknownhostsfile", "hashknownhosts", "addressfamily", "compression",
        "checkhostip", "updatehostkeys", "kbdinteractiveauthentication",
        "numberofpasswordprompts", "requesttty", "visualhostkey", "tcpkeepalive",
    }
)  # fmt: skip
_NAME = re.compile(r"^([a-z_][\w.-]*@)?([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*"
                   r"[a-z0-9])?)*)$", re.IGNORECASE)  # fmt: skip
# Builtins that run code or signal processes are not looks.
_QUIET_BUILTINS = BUILTINS - {"eval", "exec", "source", ".", "trap", "kill", "alias", "command",
                              "history", "fg", "bg", "disown", "read", "mapfile",
                              "readarray"}  # fmt: skip
# Readers whose options can also write or run (a database file, a sandboxed script, a pane's
# scrollback, a parallel job): left out.
_NOT_LOOKS = frozenset({"sqlite3", "xargs", "parallel", "watch", "timeout", "nice", "nohup",
                        "time", "tee", "tar", "zip", "unzip", "7z", "gzip", "gunzip", "bzip2",
                        "bunzip2", "xz", "unxz", "zstd", "unzstd", "sed", "awk", "gawk",
                        "mawk", "nawk", "env", "printenv"})  # fmt: skip
# Subcommands that only show state, per program.
_SHOWS: dict[str, frozenset[str]] = {
    "systemctl": frozenset({"status", "is-active", "is-enabled", "is-failed", "list-units",
                            "list-timers", "list-unit-files", "show", "cat", "--version",
                            "list-dependencies", "list-sockets"}),
    "docker": frozenset({"ps", "logs", "inspect", "images", "info", "version", "port", "top",
                         "stats", "events", "diff", "history", "system", "volume", "network",
                         "image", "container", "compose"}),
    "kubectl": frozenset({"get", "describe", "logs", "top", "version", "cluster-info",
                          "api-resources", "api-versions", "explain", "auth", "events"}),
    "git": frozenset({"status", "log", "show", "diff", "rev-parse", "describe", "shortlog",
                      "ls-files", "ls-remote", "blame", "cat-file", "for-each-ref"}),
    **{name: verbs for name, verbs in SUBCOMMANDS.items()
       if name in ("systemd-analyze", "loginctl", "timedatectl", "hostnamectl", "networkctl",
                   "coredumpctl", "rabbitmqctl", "rabbitmq-diagnostics", "virsh", "nvme")},
}  # fmt: skip
# docker/kubectl/git subcommands above whose second word changes things.
_CHANGING = re.compile(r"\b(rm|prune|create|connect|disconnect|up|down|start|stop|restart|"
                       r"kill|pull|push|exec|run|apply|delete|edit|patch|set|scale)\b")  # fmt: skip


def remote_read(cmd: Cmd) -> bool:
    """``cmd`` is an ssh look (``ssh HOST 'READ-ONLY CMD'``) or an rsync dry run to a host,
    with every part of it shown harmless (the module's list)."""
    if any(cmd.dynamic) or any(cmd.inner) or any(cmd.process) or cmd.upstream:
        return False
    if cmd.stdin_inner or cmd.stdin_dynamic or any(op.startswith("<") for op, _ in cmd.redirects):
        return False
    if cmd.name == "ssh":
        return _ssh_look(cmd.args())
    if cmd.name == "rsync":
        return _rsync_dry_run(cmd.args())
    return rclone_look(cmd)  # rclone check www b2:site-mirror: listed and compared


def _ssh_look(args: tuple[str, ...]) -> bool:
    index = 0
    while index < len(args) and args[index].startswith("-"):
        word = args[index]
        if word in _SSH_VALUED and index + 1 < len(args):
            value = args[index + 1]
            if word == "-o" and value.split("=", 1)[0].strip().lower() not in _SSH_SETTINGS:
                return False
            index += 2
        elif len(word) > 1 and set(word[1:]) <= _SSH_FLAGS:
            index += 1
        else:
            return False
    if index + 1 >= len(args) or not _literal_host(args[index]):
        return False  # no command after the host: an interactive shell there
    return _only_looks(" ".join(args[index + 1 :]))


def _rsync_dry_run(args: tuple[str, ...]) -> bool:
    """``rsync -avn --delete ./deploy/ admin@bastion:/opt/ansible/``: lists what it would
    copy and delete, and copies nothing."""
    dry = any(a in ("-n", "--dry-run") or re.fullmatch(r"-[a-zA-Z]*n[a-zA-Z]*", a) for a in args)
    if not dry or any(a.startswith(("-e", "--rsh", "--rsync-path", "--password-file",
                                    "--files-from", "--include-from", "--exclude-from",
                                    "--log-file", "--write-batch", "--only-write-batch"))
                      for a in args):  # fmt: skip
        return False
    hosts = [a.split(":", 1)[0] for a in args if not a.startswith("-") and ":" in a]
    return bool(hosts) and all(_literal_host(h) for h in hosts)


def _keyscan(cmd: Cmd, ctx: Context) -> Finding | None:
    """``ssh-keyscan -t ed25519 devbox.internal``: a host's public keys asked for, as a name
    is looked up; nothing of this machine is sent."""
    args = cmd.args()
    index, hosts = 0, []
    while index < len(args):
        word = args[index]
        if word in ("-t", "-p", "-T"):
            index += 2
            continue
        if word.startswith("-") and set(word[1:]) <= set("46cDHv"):
            index += 1
            continue
        if word.startswith("-") or cmd.is_dynamic(index + 1) or not _literal_host(word):
            return unknown_program("ssh-keyscan", " (with a host list or a host not named)")
        hosts.append(word)
        index += 1
    return None if hosts and not cmd.redirects else unknown_program("ssh-keyscan")


def _literal_host(word: str) -> bool:
    """A name (``admin@api-3.internal``), or an address of a private network or this machine;
    a public raw address (where listeners of implants usually sit) is not a look."""
    host = word.rsplit("@", 1)[-1]
    if re.fullmatch(r"[\d.]+|\[?[0-9a-f:]+\]?", host, re.IGNORECASE):
        return place_of(host) in ("loopback", "private")
    return bool(_NAME.match(word))


def _only_looks(remote: str) -> bool:
    """Every command of ``remote`` only reads, judged as if it ran from ``/`` with no
    workspace: no finding at all, and each program one that shows state."""
    if data_like(remote):
        return False
    # The walker analyses whole lines; a rule asking for a second analysis imports it here
    # (the walker imports the rules).
    from workset.safety.shell_walker import Walker

    walker = Walker(Context(workspace="/nonexistent-remote-workspace", cwd="/"))
    walker.run(remote, depth=1)
    if walker.findings or not walker.cmds:
        return False
    return all(_looks(c) for c in walker.cmds)


def _looks(cmd: Cmd) -> bool:
    name, args = cmd.name, cmd.args()
    if any(op not in ("2>", ">", "2>&1", ">&") or t not in ("/dev/null", "1", "2")
           for op, t in cmd.redirects):  # fmt: skip
        return False  # only output thrown away (2>/dev/null, 2>&1)
    if name in _QUIET_BUILTINS or (name in READ_ONLY and name not in _NOT_LOOKS):
        return True
    verbs = _SHOWS.get(name)
    if verbs is None:
        return False
    words = [a for a in args if not a.startswith("-")]
    return bool(words) and words[0] in verbs and not _CHANGING.search(" ".join(words[1:2]))


# Options of a pull that only shape the copy here (rsync's archive, progress and deletion of
# local files the source lacks are its own; -e, --rsync-path and filter files are not).
_PULL_FLAGS = frozenset("avzrPhutlpgoDHAXSWcqiRmnC346")
_PULL_LONG = frozenset({"--archive", "--verbose", "--compress", "--recursive", "--progress",
                        "--partial", "--human-readable", "--update", "--times", "--checksum",
                        "--info", "--exclude", "--include", "--stats", "--append-verify",
                        "--ignore-existing", "--size-only", "--itemize-changes", "--mkpath",
                        "--no-perms", "--no-owner", "--no-group", "--delete", "--prune-empty-dirs",
                        "--dry-run", "--quiet", "--inplace", "--sparse", "--timeout"})  # fmt: skip
_SCP_VALUED = frozenset({"-P", "-i", "-l", "-o", "-c"})


def remote_pull(cmd: Cmd, ctx: Context) -> bool:
    """``rsync -avP cluster:/scratch/$USER/run_7/out/ results/run_7/``, ``scp -r
    hpc:/data/x.csv data/``: files of another host, named literally (the user's own name
    aside), copied into the workspace; nothing of this machine is sent there and nothing
    there changes. A key or credential file asked for by name is not a pull (rules.secrets)."""
    if cmd.name not in ("rsync", "scp") or cmd.upstream or cmd.stdin_inner or any(cmd.inner):
        return False
    args = cmd.args()
    operands = [(i, a) for i, a in enumerate(args, 1) if not a.startswith("-")]
    skipped = {i + 1 for i, a in enumerate(args, 1) if cmd.name == "scp" and a in _SCP_VALUED}
    operands = [(i, a) for i, a in operands if i not in skipped]
    for index, word in enumerate(args, 1):
        if index in skipped or not word.startswith("-"):
            continue
        long = word.split("=", 1)[0]
        if cmd.name == "scp" and (word in _SCP_VALUED or set(word[1:]) <= set("rpqCv346BT")):
            if word == "-o" and args[index].split("=", 1)[0].lower() not in _SSH_SETTINGS:
                return False
            continue
        if cmd.name == "rsync" and (
            long in _PULL_LONG or (not word.startswith("--") and set(word[1:]) <= _PULL_FLAGS)
        ):
            continue
        return False
    if len(operands) < 2:
        return False
    *sources, (target_index, target) = operands
    if cmd.is_dynamic(target_index) or ":" in target.split("/", 1)[0]:
        return False
    if not paths.in_workspace(ctx.resolve(target), ctx.workspace):
        return False
    for _, word in sources:
        host, colon, place = word.partition(":")
        if not colon or "/" in host or not _literal_host(host) or _private_place(place):
            return False
        if re.search(r"[$`]", re.sub(r"\$\{?(USER|LOGNAME)\}?", "", place)):
            return False  # a path filled in when the line runs: only the user's name may be
    return True


def _private_place(place: str) -> bool:
    """A remote path that is a whole home or root, a dot-named folder (settings, tokens), or a
    key or credential file: what a pull of it brings is the other host's secrets."""
    parts = [p for p in place.strip().rstrip("/").split("/") if p]
    whole = not parts or parts in (["~"], ["root"]) or (parts[0] in ("home", "Users")
                                                          and len(parts) <= 2)  # fmt: skip
    hidden = any(p.startswith(".") and p not in (".", "..") for p in parts)
    return whole or hidden or is_secret(place) or in_key_tree(place.rstrip("/"))


def _scp(cmd: Cmd, ctx: Context) -> Finding | None:
    """``scp -r hpc:/data/run_7/ data/``: a pull into the workspace (:func:`remote_pull`)."""
    return None if remote_pull(cmd, ctx) else unknown_program(cmd.argv[0])


VOUCHERS: dict[str, Voucher] = {"ssh-keyscan": _keyscan, "scp": _scp}
