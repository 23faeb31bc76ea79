"""Rules for container engines (``docker``, ``podman``, ``nerdctl``).

Reads pass (``ps``, ``logs``, ``inspect``, ``build``…). A container that mounts the host's
``/``, the home's key trees or the engine's own socket, or runs privileged with the host's
namespaces, is denied, and so are deletes of every data volume or of every container a
listing prints. A throw-away run of an official image that sees only workspace folders (and
publishes ports, if any, on this machine only) is judged by the command it runs, its mount
points mapped back to the workspace; any other run, and every other change, asks. The
project's own services (``docker compose up/down/build…`` with compose files in the
workspace) are the project's code, like its Makefile, and run; ``down -v`` deletes their data
volumes and asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from workset.safety import paths
from workset.safety.rules import known, qa_harms
from workset.safety.rules.base import Cmd, Context, Nested, Result, option_value, requote
from workset.safety.rules.base import ask_finding as _ask
from workset.safety.rules.base import deny_finding as _deny
from workset.safety.rules.environment import remote_engine, remote_engine_finding
from workset.safety.rules.known import subcommand
from workset.safety.rules.listings import fed_whole_listing
from workset.safety.rules.secrets import is_secret

_CONTAINER_READS = frozenset(
    {"ps", "images", "logs", "inspect", "version", "info", "history", "top", "stats", "port",
     "diff", "events", "search", "build", "tag", "ls", "df", "config", "show", "use", "login",
     "pull", "save", "list"}
)  # fmt: skip
_GROUPS = frozenset({"image", "container", "volume", "network", "system", "compose",
                     "buildx", "context", "manifest", "builder", "plugin", "machine"})  # fmt: skip


# The container engine's own socket: whoever holds it starts containers as root on the host.
_SOCKET = re.compile(r"^/+(var/)?run/(docker|containerd/containerd|podman/podman|crio/crio)\.sock")


def container(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if "build" in args[:2] and not any(cmd.dynamic):  # remember the tags the line builds
        ctx.images.update(args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-t", "--tag"))
    engine = option_value(cmd.args(), ("-H", "--host", "--url"))
    if engine and remote_engine(engine):  # docker -H tcp://203.0.113.9:2375 ps
        yield remote_engine_finding(engine)
    sub, rest = subcommand(cmd)
    group = ""
    if sub in _GROUPS and rest:
        group, sub, rest = sub, rest[0], rest[1:]
    while group == "compose" and sub.startswith("-") and rest:  # compose -f FILE up: its options
        taken = sub in _COMPOSE_VALUES and not sub.count("=")
        sub, rest = (rest[1], rest[2:]) if taken and len(rest) > 1 else (rest[0], rest[1:])
    if sub in ("run", "create") or (sub == "exec" and "--privileged" in rest):
        mounts = _mounts(rest)
        host = [m for m in mounts if paths.is_protected(paths.normalize(m)) or _SOCKET.match(m)]
        privileged = "--privileged" in rest or any(
            a in ("--pid=host", "--net=host", "--network=host", "--ipc=host", "--userns=host")
            for a in rest
        )
        if host or (privileged and mounts):
            where = host[0] if host else mounts[0]
            yield _deny(
                "container-host-mount",
                f"{cmd.name} {sub} mounts the host's {where} into a container"
                + (" with full privileges" if privileged else ""),
                "that gives the container the whole machine; mount only a workspace folder",
            )
            return
        full = "--privileged" in rest and (
            any(a in ("--pid=host",) for a in rest)
            or any(rest[i : i + 2] == ("--pid", "host") for i in range(len(rest)))
            or {"nsenter", "chroot"} & {w.rsplit("/", 1)[-1] for w in rest}
        )
        if full:
            yield _deny(
                "container-host-escape",
                f"{cmd.name} {sub} runs a privileged container that shares the host's processes "
                "or enters the host (nsenter, chroot)",
                "that is root on the whole machine; run the container unprivileged",
            )
            return
        if privileged:
            yield _ask("container-privileged", f"{cmd.name} {sub} runs a privileged container")
            return
        image = _confined_run(cmd, rest, ctx) if sub == "run" else None
        if image is not None:  # what it runs is judged as if run here, its mounts mapped back
            entry = next((v for i, a in enumerate(rest[:image]) for v in
                          ([a.split("=", 1)[1]] if a.startswith("--entrypoint=") else
                           [rest[i + 1]] if a == "--entrypoint" else [])), None)  # fmt: skip
            words = ((entry,) if entry else ()) + rest[image + 1 :]
            if words:
                yield Nested(requote(_mapped(rest[:image], words)))
            return
        yield _ask("container-run", f"{cmd.name} {sub} runs an image with its own code")
    elif sub == "exec" and (inner := _exec_command(rest, group == "compose")) is not None:
        if group == "compose" and _own_compose(cmd, ctx):
            yield Nested(requote(_served_here(inner)))  # the project's own db container
        elif group != "compose":
            yield Nested(requote(inner))  # psql in a container: judged as psql
        else:
            yield _ask("container-change", f"{cmd.name} compose exec runs in another project")
    elif group == "compose" and sub == "down" and {"-v", "--volumes"} & set(rest):
        if qa_harms.test_stack(cmd):
            return  # the test stack's own volumes (rules.qa_harms)
        yield _ask(
            "container-remove",
            f"{cmd.name} compose down -v deletes the data volumes the project's compose file "
            "declares (its databases and caches), beyond recovery",
        )
    elif (sub == "prune" and "--volumes" in rest) or (group == "volume" and sub == "prune"):
        yield _deny(
            "container-volumes-delete",
            f"{cmd.name} {group + ' ' if group else ''}{sub} deletes the data volumes of "
            "containers not running now (databases, caches, uploads), beyond recovery",
            "remove the one volume you created by name, or ask the user",
        )
    elif sub == "rm" and fed_whole_listing(
        cmd, lambda c: c.name == cmd.name and subcommand(c)[0] in ("ps", "container")
    ):
        yield _deny(
            "container-remove-all",
            f"{cmd.name} rm of everything {cmd.name} ps lists removes every container on the "
            "machine with the data in it, services others rely on included",
            "remove the containers you started, by name",
        )
    elif group == "compose" and sub in _COMPOSE_LIFECYCLE and _own_compose(cmd, ctx):
        return  # the project's own services, as its compose file defines them (like make)
    elif sub == "prune" and (
        group in ("builder", "buildx")
        or (
            group == "image"
            and not any(w == "--all" or re.fullmatch(r"-[a-zA-Z]*a[a-zA-Z]*", w) for w in rest)
        )
    ):
        return  # the build cache, or images no tag names: rebuilt or pulled again on demand
    elif (sub == "rmi" or (group == "image" and sub == "rm")) and _built_here(rest, ctx):
        return  # docker build -t proj:ci . && … && docker image rm proj:ci: the line's own image
    elif sub in ("rm", "rmi", "prune", "kill", "down") or "prune" in rest[:1]:
        yield _ask("container-remove", f"{cmd.name} {sub} removes containers, images or data")
    elif sub == "cp" and _copied_out(rest, ctx):
        return  # docker cp app-1:/app/logs/app.log ./logs/: a file of the container, read here
    elif sub not in _CONTAINER_READS:
        yield _ask("container-change", f"{cmd.name} {sub or ''} changes containers".strip())


def _built_here(rest: Sequence[str], ctx: Context) -> bool:
    """Every image named was built by this line (``docker build -t NAME``)."""
    names = [w for w in rest if not w.startswith("-")]
    return bool(names) and all(n in ctx.images for n in names)


def _copied_out(rest: Sequence[str], ctx: Context) -> bool:
    """``docker cp CONTAINER:PATH DEST``: the container is only read, DEST is in the workspace."""
    operands = [w for w in rest if not w.startswith("-")]
    if len(operands) != 2 or any(w in ("-L", "--follow-link") for w in rest):
        return False
    source, dest = operands
    container, _, path = source.partition(":")
    return (
        ":" in source
        and bool(container)
        and "/" not in container
        and ":" not in dest
        and not is_secret(path)  # docker cp app:/etc/shadow .: judged as docker exec cat is
        and known.inside(dest, ctx)
    )


_COMPOSE_VALUES = frozenset({"-f", "--file", "-p", "--project-name", "--project-directory",
                             "--env-file", "--profile", "--ansi", "--parallel"})  # fmt: skip
# What ``docker compose`` does with the project's own services, as its compose file (in the
# workspace, like a Makefile) defines them: start, stop, rebuild, pull and show them.
_COMPOSE_LIFECYCLE = frozenset({"down", "stop", "build", "pull", "ps", "logs", "config", "ls",
                                "top", "images", "up", "start", "restart", "create", "watch",
                                "wait", "port", "version", "events"})  # fmt: skip


_EXEC_VALUED = frozenset({"-u", "--user", "-w", "--workdir", "-e", "--env", "--env-file",
                          "--index", "--detach-keys"})  # fmt: skip
_EXEC_FLAGS = frozenset({"-i", "-t", "-it", "-ti", "--interactive", "--tty", "-T", "--no-TTY"})


def _exec_command(rest: tuple[str, ...], compose: bool) -> list[str] | None:
    """``docker exec -it db psql -c 'select 1'``: the command run inside the container, judged
    as if run here (its files are the container's; what it reaches is the same network). None
    for options that reach further (``--privileged``, ``-d`` leaving it running, root)."""
    index = 0
    while index < len(rest) and rest[index].startswith("-"):
        option = rest[index].split("=", 1)[0]
        if option in _EXEC_VALUED and "=" not in rest[index]:
            index += 1
        elif option not in _EXEC_VALUED and option not in _EXEC_FLAGS:
            return None
        index += 1
    words = list(rest[index + 1 :])
    return words or None


# Database clients that read their server from the environment when no host is given.
_DB_CLIENTS = {"psql": "-h", "mysql": "-h", "mariadb": "-h", "mongosh": "--host",
               "clickhouse-client": "--host"}  # fmt: skip


def _served_here(words: list[str]) -> list[str]:
    """A database client with no host, run in the project's own compose container, talks to
    the server of that container: the project's development copy, as on loopback here."""
    flag = _DB_CLIENTS.get(words[0]) if words else None
    if flag is None or any(w in ("-h", "--host", "-H") or w.startswith("--host=") for w in words):
        return words
    if any("://" in w for w in words):
        return words  # a URL names its own host
    return [words[0], flag, "127.0.0.1", *words[1:]]


def _own_compose(cmd: Cmd, ctx: Context) -> bool:
    """Compose files and project directory in the workspace, and ``down`` keeping the volumes
    and images (``-v``, ``--rmi all`` delete data and others' images)."""
    args = cmd.args()
    for index, word in enumerate(args):
        option, equals, value = word.partition("=")
        if option in ("-f", "--file", "--project-directory", "--env-file"):
            value = value if equals else (args[index + 1] if index + 1 < len(args) else "")
            at = index + 2 if not equals else index + 1
            streamed = (at < len(cmd.process) and cmd.process[at]) or value.startswith("/dev/")
            if cmd.is_dynamic(at) or streamed or not known.inside(value, ctx):
                return False
    return not {"-v", "--volumes", "--rmi"} & {a.split("=", 1)[0] for a in args}


# docker run options that keep a throw-away container to itself and the workspace it mounts,
# with whether each takes a value; any other option (ports, host namespaces, devices,
# capabilities, a restart policy, detaching) asks.
_CONFINED_RUN = {"--rm": False, "-i": False, "-t": False, "-it": False, "-ti": False,
                 "--interactive": False, "--tty": False, "--init": False, "--read-only": False,
                 "-v": True, "--volume": True, "--mount": True, "-w": True, "--workdir": True,
                 "-e": True, "--env": True, "--env-file": True, "-u": True, "--user": True,
                 "--name": True, "--entrypoint": True, "--platform": True, "--pull": True,
                 "-m": True, "--memory": True, "--cpus": True, "--network": True,
                 "--net": True, "-l": True, "--label": True, "--tmpfs": True,
                 "--userns": True, "--security-opt": True, "--hostname": True,
                 "--cap-drop": True, "--pids-limit": True, "-p": True,
                 "--publish": True}  # fmt: skip
# A port published on this machine only: 127.0.0.1:5432:5432, [::1]:8080:80, localhost:…
_LOOPBACK_PORT = re.compile(r"^(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+(-\d+)?:\d+")
# What a ``$PWD``-style mount source starts with: the current directory.
_HERE = re.compile(r"^(\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`|\.)(?=/|:|$)")
# An official image (``python:3.12``, ``docker.io/library/node:20``): no other publisher.
_OFFICIAL = re.compile(r"^(docker\.io/)?(library/)?[a-z0-9][a-z0-9._-]*(:[\w.-]+)?(@sha256:\w+)?$")
# The images ``cross`` itself runs (cross-rs's toolchains): the same build, written out.
_CROSS_RS = re.compile(r"^ghcr\.io/cross-rs/[a-z0-9][a-z0-9._-]*(:[\w.-]+)?(@sha256:\w+)?$")


def _confined_run(cmd: Cmd, rest: tuple[str, ...], ctx: Context) -> int | None:
    """``docker run --rm -v "$PWD":/src -w /src python:3.12 pytest -q``: an official image,
    thrown away after, that sees nothing of the host but workspace folders (no ports, host
    namespaces, devices, capabilities or detaching), runs the project's code confined to the
    workspace as ``pytest`` does. The index of the image in ``rest``; None when it asks."""
    here = ctx.cwd is None or paths.in_workspace(ctx.cwd, ctx.workspace)
    index = 0
    while index < len(rest) and rest[index].startswith("-"):
        option, equals, value = rest[index].partition("=")
        takes = _CONFINED_RUN.get(option)
        if takes is None or (takes and not equals and index + 1 >= len(rest)):
            return None
        if takes and not equals:
            index += 1
            value = rest[index]
        if option in ("--network", "--net") and value not in ("none", "bridge", "default"):
            return None
        if option == "--userns" and value not in ("keep-id", "auto", "nomap", "private"):
            return None  # podman rootless: the user mapped to the caller, not to root
        if option == "--security-opt" and value not in (
            "no-new-privileges",
            "no-new-privileges:true",
        ):
            return None
        if option in ("--env-file",) and not paths.in_workspace(ctx.resolve(value), ctx.workspace):
            return None
        if option in ("-p", "--publish") and not _LOOPBACK_PORT.match(value):
            return None  # a port published on every interface: reachable from the network
        if option in ("-v", "--volume", "--mount") and not _workspace_mount(value, here, ctx):
            return None
        index += 1
    if (
        "--rm" not in rest[:index]
        or index >= len(rest)
        or not (_OFFICIAL.match(rest[index]) or _CROSS_RS.match(rest[index]))
    ):
        return None
    return index


def _mapped(options: tuple[str, ...], words: tuple[str, ...]) -> list[str]:
    """The container's command with each mounted folder written as the workspace folder it
    is (``rm -rf /w`` under ``-v "$PWD":/w`` is ``rm -rf ./``)."""
    mounts: list[tuple[str, str]] = []
    for index, word in enumerate(options):
        option, _, value = word.partition("=")
        if option in ("-v", "--volume", "--mount") and not value and index + 1 < len(options):
            value = options[index + 1]
        if option not in ("-v", "--volume", "--mount") or not value:
            continue
        if "src=" in value or "source=" in value:
            found = re.search(r"(?:src|source)=([^,]+)", value)
            inside = re.search(r"(?:dst|target|destination)=([^,]+)", value)
            pair = (found.group(1) if found else "", inside.group(1) if inside else "")
        else:
            parts = value.split(":")
            pair = (parts[0], parts[1] if len(parts) > 1 else "")
        host = pair[0] if pair[0].startswith(("/", "~")) else "./" + _HERE.sub("", pair[0])
        if pair[1].startswith("/"):
            mounts.append((pair[1].rstrip("/") or "/", host.replace(".//", "./")))
    out = []
    for word in words:
        for target, host in sorted(mounts, key=lambda m: -len(m[0])):
            if word == target or word.startswith(target + "/"):
                word = (host.rstrip("/") + "/" + word[len(target) :].lstrip("/")).rstrip("/")
                word = word if word not in ("", ".") else "./"
                break
        out.append(word)
    return out


def _workspace_mount(value: str, here: bool, ctx: Context) -> bool:
    if "src=" in value or "source=" in value:
        match = re.search(r"(?:src|source)=([^,]+)", value)
        source = match.group(1) if match else ""
    else:
        source = value.split(":", 1)[0]
    if _HERE.match(source):
        return here and ".." not in source.split("/")
    if not source.startswith(("/", "~", ".")):
        return False  # a named volume: data kept outside the workspace
    return paths.in_workspace(paths.normalize(ctx.resolve(source)), ctx.workspace)


def _mounts(args: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for index, word in enumerate(args):
        value = ""
        if word in ("-v", "--volume", "--mount") and index + 1 < len(args):
            value = args[index + 1]
        elif word.startswith(("--volume=", "--mount=", "-v")) and word not in ("-v",):
            value = word.split("=", 1)[1] if "=" in word[:9] else word[2:]
        if not value:
            continue
        if "src=" in value or "source=" in value:
            match = re.search(r"(?:src|source)=([^,]+)", value)
            out.append(match.group(1) if match else value)
        else:
            out.append(value.split(":", 1)[0])
    return [m for m in out if m.startswith(("/", "~", "$"))]


# What a compose file asks of the host: a bind mount from outside the workspace, privileges,
# the host's namespaces, added capabilities.
_COMPOSE_MOUNT = re.compile(
    r"""^\s*(?:-\s*|source:\s*)["']?((?:/|~|\$\{?HOME\b|\.\./)[^:"'\s]*)(?::([^"'\s]*))?""",
    re.MULTILINE,
)
_COMPOSE_FLAGS = (
    (re.compile(r"^\s*privileged:\s*['\"]?true", re.M | re.I), "--privileged"),
    (re.compile(r"^\s*pid:\s*['\"]?host", re.M), "--pid=host"),
    (re.compile(r"^\s*network_mode:\s*['\"]?host", re.M), "--net=host"),
    (re.compile(r"^\s*userns_mode:\s*['\"]?host", re.M), "--userns=host"),
    (re.compile(r"^\s*cap_add:", re.M), "--cap-add=ALL"),
)


def compose_text(text: str) -> str:
    """A compose file's demands on the host as one ``docker run`` the container rules judge
    (``- /:/host`` is ``-v /:/host``, ``privileged: true`` is ``--privileged``); "" if none."""
    options = [flag for pattern, flag in _COMPOSE_FLAGS if pattern.search(text)]
    for match in _COMPOSE_MOUNT.finditer(text):
        options.append(f"-v {requote([match.group(1) + ':' + (match.group(2) or '/mnt')])}")
    return f"docker run {' '.join(options)} compose-service" if options else ""


def _compose(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``docker-compose …`` is ``docker compose …``."""
    yield from container(cmd.with_argv(["docker", "compose", *cmd.args()]), ctx)


HANDLERS = {
    **{n: container for n in ("docker", "podman", "nerdctl")},
    **{n: _compose for n in ("docker-compose", "podman-compose")},
}
