"""Rules for infrastructure CLIs: containers, clusters, infrastructure as code, cloud storage
and databases.

Each family lets its reads through (``docker ps``, ``kubectl get``, ``terraform plan``,
``aws s3 ls``, a ``SELECT``) and asks for everything else. What destroys shared state at once
is denied: a container that mounts the host's ``/`` (or runs privileged with the host's
namespaces), deleting whole namespaces or everything in a cluster, ``terraform destroy``,
recursive removal from cloud storage, deleting projects, resource groups, stacks or
databases, and ``DROP``/``TRUNCATE``/``FLUSHALL`` sent to a database server.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Nested, Result, requote
from workset.safety.rules.known import subcommand
from workset.safety.rules.sql import SQL_DESTROY as _SQL_DESTROY

_CONTAINER_READS = frozenset(
    {"ps", "images", "logs", "inspect", "version", "info", "history", "top", "stats", "port",
     "diff", "events", "search", "build", "tag", "ls", "df", "config", "show", "use", "login"}
)  # fmt: skip
_GROUPS = frozenset({"image", "container", "volume", "network", "system", "compose",
                     "buildx", "context", "manifest", "builder", "plugin"})  # fmt: skip


# The container engine's own socket: whoever holds it starts containers as root on the host.
_SOCKET = re.compile(r"^/+(var/)?run/(docker|containerd/containerd|podman/podman|crio/crio)\.sock")


def _ask(rule: str, what: str, instead: str = "a human must confirm") -> Finding:
    return Finding(rule, "ask", f"{what}; {instead}")


def _deny(rule: str, what: str, instead: str) -> Finding:
    return Finding(rule, "deny", f"{what}; {instead}")


def _container(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    sub, rest = subcommand(cmd)
    group = ""
    if sub in _GROUPS and rest:
        group, sub, rest = sub, rest[0], rest[1:]
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
            if rest[image + 1 :]:
                yield Nested(requote(_mapped(rest[:image], rest[image + 1 :])))
            return
        yield _ask("container-run", f"{cmd.name} {sub} runs an image with its own code")
    elif (sub == "prune" and "--volumes" in rest) or (group == "volume" and sub == "prune"):
        yield _deny(
            "container-volumes-delete",
            f"{cmd.name} {group + ' ' if group else ''}prune deletes the data volumes of every "
            "container not running now (databases, caches, uploads), beyond recovery",
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
    elif sub in ("rm", "rmi", "prune", "kill", "down") or "prune" in rest[:1]:
        yield _ask("container-remove", f"{cmd.name} {sub} removes containers, images or data")
    elif sub not in _CONTAINER_READS:
        yield _ask("container-change", f"{cmd.name} {sub or ''} changes containers".strip())


# docker run options that keep a throw-away container to itself and the workspace it mounts,
# with whether each takes a value; any other option (ports, host namespaces, devices,
# capabilities, a restart policy, detaching) asks.
_CONFINED_RUN = {"--rm": False, "-i": False, "-t": False, "-it": False, "-ti": False,
                 "--interactive": False, "--tty": False, "--init": False, "--read-only": False,
                 "-v": True, "--volume": True, "--mount": True, "-w": True, "--workdir": True,
                 "-e": True, "--env": True, "--env-file": True, "-u": True, "--user": True,
                 "--name": True, "--entrypoint": True, "--platform": True, "--pull": True,
                 "-m": True, "--memory": True, "--cpus": True, "--network": True,
                 "--net": True, "-l": True, "--label": True, "--tmpfs": True}  # fmt: skip
# What a ``$PWD``-style mount source starts with: the current directory.
_HERE = re.compile(r"^(\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`|\.)(?=/|:|$)")
# An official image (``python:3.12``, ``docker.io/library/node:20``): no other publisher.
_OFFICIAL = re.compile(r"^(docker\.io/)?(library/)?[a-z0-9][a-z0-9._-]*(:[\w.-]+)?(@sha256:\w+)?$")


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
        if option in ("--env-file",) and not paths.in_workspace(ctx.resolve(value), ctx.workspace):
            return None
        if option in ("-v", "--volume", "--mount") and not _workspace_mount(value, here, ctx):
            return None
        index += 1
    if "--rm" not in rest[:index] or index >= len(rest) or not _OFFICIAL.match(rest[index]):
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


_KUBE_READS = frozenset({"get", "describe", "logs", "top", "explain", "version", "api-resources",
                         "api-versions", "cluster-info", "config", "diff", "auth", "events",
                         "wait", "completion", "kustomize"})  # fmt: skip
_KUBE_WIDE = frozenset({"namespace", "namespaces", "ns", "node", "nodes", "no", "pv",
                        "persistentvolume", "persistentvolumes", "crd", "crds", "clusterrole",
                        "customresourcedefinition", "clusterrolebinding"})  # fmt: skip


def dry_run(args: tuple[str, ...]) -> bool:
    """``--dry-run``, ``--dry-run=client|server``: the change is shown or validated, never
    made (``--dry-run=none`` makes it)."""
    values = [a.split("=", 1)[1] if "=" in a else "client" for a in args
              if a == "--dry-run" or a.startswith("--dry-run=")]  # fmt: skip
    return bool(values) and values[-1] in ("client", "server", "true")


def _kubectl(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    sub, rest = subcommand(cmd)
    if sub in _KUBE_CHANGES and dry_run(rest):
        return  # kubectl delete -f job.yaml --dry-run=client: prints what would go
    if sub == "delete":
        wide = bool(set(a.split("/", 1)[0] for a in rest) & _KUBE_WIDE)
        everything = any(a in ("--all", "-A", "--all-namespaces") for a in rest)
        everything = everything or _fed_a_whole_listing(cmd)
        if wide or everything:
            yield _deny(
                "cluster-delete",
                f"{cmd.name} delete {' '.join(rest)} deletes whole namespaces, nodes or "
                "everything of a kind in the cluster",
                "delete the one named resource you created, or ask the cluster's owner",
            )
        elif _production(cmd.args()) is not None:
            yield _production_delete(f"{cmd.name} delete", str(_production(cmd.args())))
        else:
            yield _ask("cluster-change", f"{cmd.name} delete removes cluster resources")
    elif (
        sub in ("get", "describe", "edit")
        and _names_secrets(rest)
        and (sub == "edit" or any(a.startswith(("-o", "--output", "--template")) for a in rest))
    ):
        yield Finding(
            "secret-read",
            "ask",
            f"{cmd.name} {sub} prints the values of cluster secrets; a human must confirm, and "
            "secrets never belong in the agent's context",
        )
    elif sub == "config" and rest[:1] and rest[0] in ("view", "get-contexts", "current-context"):
        return
    elif sub not in _KUBE_READS or (sub == "config" and rest[:1] != ("view",)):
        yield _ask("cluster-change", f"{cmd.name} {sub} changes the cluster".strip())


# Subcommands that change the cluster and honour --dry-run.
_KUBE_CHANGES = frozenset({"delete", "apply", "create", "replace", "patch", "scale", "label",
                           "annotate", "set", "expose", "run", "autoscale", "taint", "drain",
                           "cordon", "uncordon"})  # fmt: skip


def _fed_a_whole_listing(cmd: Cmd) -> bool:
    """``kubectl get pods -o name | xargs kubectl delete``, ``kubectl delete $(kubectl get
    deploy -o name)``: what is deleted is everything a listing of a kind prints."""
    return fed_whole_listing(cmd, lambda c: c.name == "kubectl" and subcommand(c)[0] == "get")


_SELECTORS = ("-l", "--selector", "--field-selector", "-f", "--filter")
_VALUED = {"-n", "--namespace", "-o", "--output", "--context", "--kube-context", "--format"}
_LIST_WORDS = frozenset({"ps", "images", "ls", "list", "state", "branch", "for-each-ref",
                         "container", "image"})  # fmt: skip


def fed_whole_listing(cmd: Cmd, lister: Callable[[Cmd], bool]) -> bool:
    """The words of ``cmd`` come from a listing of everything of a kind, through a pipe into
    xargs or a substitution (``docker rm $(docker ps -aq)``, ``git branch -r | xargs git push
    --delete``): no name, selector or filter (grep, head) narrows it."""
    feeds = [cmd.upstream] if cmd.upstream else []
    feeds += [c for i in range(len(cmd.argv)) if (c := cmd.inner_of(i))]
    for stages in feeds:
        last = stages[-1]
        if not lister(last):
            continue
        _, rest = subcommand(last)
        operands = [a for a in rest if not a.startswith("-")]
        selected = any(a.startswith(_SELECTORS) for a in rest)
        flagged = [a for i, a in enumerate(rest) if i and rest[i - 1] in _VALUED]
        narrowed = [a for a in operands if a not in flagged and a not in _LIST_WORDS]
        if last.name == "kubectl":
            narrowed = narrowed[1:] + [a for a in operands if "/" in a]
        if not selected and not narrowed:
            return True
    return False


def _names_secrets(words: tuple[str, ...]) -> bool:
    kinds = {w.split("/", 1)[0].split(",")[0] for w in words if not w.startswith("-")}
    return bool(kinds & {"secret", "secrets", "sealedsecret", "sealedsecrets"}) or any(
        w.startswith(("secret/", "secrets/")) for w in words
    )


_PRODUCTION = re.compile(r"^(prod|production|prd|live)([-_.].*)?$|[-_.](prod|production|prd)$")
_TARGET_OPTIONS = ("-n", "--namespace", "--kube-context", "--context")


def _production(args: tuple[str, ...]) -> str | None:
    """The production namespace or context named by ``-n``/``--context``, if any."""
    for index, word in enumerate(args):
        name, equals, value = word.partition("=")
        if equals and name in _TARGET_OPTIONS:
            target = value
        elif word in _TARGET_OPTIONS and index + 1 < len(args):
            target = args[index + 1]
        else:
            continue
        if _PRODUCTION.search(target):
            return target
    return None


def _production_delete(what: str, target: str) -> Finding:
    return _deny(
        "production-delete",
        f"{what} removes releases or resources from {target!r}, a production namespace or "
        "context, where the service others depend on runs",
        "work in a staging or local cluster, or ask the cluster's owner",
    )


def _helm(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    sub, _ = subcommand(cmd)
    target = _production(cmd.args())
    if sub in ("uninstall", "delete", "del", "un") and target is not None:
        yield _production_delete(f"helm {sub}", target)
        return
    if sub in ("uninstall", "delete", "del", "un") and fed_whole_listing(
        cmd, lambda c: c.name == "helm" and subcommand(c)[0] in ("list", "ls")
    ):
        yield _deny(
            "cluster-delete",
            f"helm {sub} of everything helm list prints removes every release of the cluster",
            "uninstall the one release you installed, by name",
        )
        return
    reads = {"list", "ls", "status", "get", "history", "show", "template", "lint", "version",
             "search", "dependency", "env", "verify", "repo"}  # fmt: skip
    if sub in ("install", "upgrade", "uninstall", "rollback") and dry_run(cmd.args()):
        return  # helm upgrade --install --dry-run: renders and validates, changes nothing
    if sub not in reads:
        yield _ask("cluster-change", f"helm {sub} changes releases in the cluster".strip())


_IAC_READS = frozenset({"plan", "validate", "fmt", "show", "output", "graph", "providers",
                        "version", "-version", "--version", "console", "workspace",
                        "preview", "stack", "config", "whoami", "about", "logs", "init",
                        "get"})  # fmt: skip


def _iac(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    sub, rest = subcommand(cmd)
    destroys = sub == "destroy" or (sub == "apply" and any(a in ("-destroy", "--destroy")
                                                           for a in rest))  # fmt: skip
    if destroys:
        yield _deny(
            "infra-destroy",
            f"{cmd.name} {sub} destroys the infrastructure it manages",
            "run plan and show the result to a human; an agent never destroys infrastructure",
        )
    elif (
        sub == "state"
        and rest[:1] == ("rm",)
        and fed_whole_listing(cmd, lambda c: c.name == cmd.name and subcommand(c)[0] == "state")
    ):
        yield _deny(
            "infra-destroy",
            f"{cmd.name} state rm of everything state list prints forgets every resource it "
            "manages, which then runs on unmanaged or is made twice",
            "remove the one address you mean, or ask the owner",
        )
    elif sub == "state" and rest[:1] and rest[0] not in ("list", "show", "pull"):
        yield _ask("infra-change", f"{cmd.name} state {rest[0]} edits the state by hand")
    elif sub == "workspace" and rest[:1] and rest[0] not in ("list", "show", "select"):
        yield _ask("infra-change", f"{cmd.name} workspace {rest[0]} changes the state's workspaces")
    elif sub in ("init",):
        yield _ask("infra-init", f"{cmd.name} init downloads providers and modules")
    elif sub not in _IAC_READS:
        yield _ask("infra-change", f"{cmd.name} {sub} changes real infrastructure".strip())


_CLOUD_READ = re.compile(r"^(describe|list|get|show|ls|head|cat|du|stat|version|help|whoami)"
                         r"([-_].*)?$|^(--version|sts|configure)$")  # fmt: skip
_CLOUD_DESTROY = re.compile(
    r"^(delete-(db-instance|db-cluster|bucket|stack|table|cluster|file-system|repository|"
    r"vault|key|user-pool)|terminate-instances|rb|schedule-key-deletion|purge-queue)$"
)


def _aws(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a for a in cmd.args() if not a.startswith("-")]
    service = words[0] if words else ""
    action = words[1] if len(words) > 1 else ""
    flags = set(cmd.args())
    if (service == "s3" and "--dryrun" in flags and action in ("cp", "mv", "rm", "sync")) or (
        service == "ec2" and "--dry-run" in flags
    ):
        return  # aws s3 rm --recursive --dryrun lists what it would delete; ec2 checks rights
    if service == "s3" and action == "rm" and ({"--recursive"} & flags):
        yield _deny(
            "cloud-storage-wipe",
            "aws s3 rm --recursive deletes every object under the prefix",
            "delete the objects you created, by name, or ask the owner",
        )
    elif service == "s3" and action == "rb" and "--force" in flags:
        yield _deny(
            "cloud-storage-wipe",
            "aws s3 rb --force deletes a bucket and all it holds",
            "an agent never deletes buckets; ask the owner",
        )
    elif _CLOUD_DESTROY.match(action):
        yield _deny(
            "cloud-destroy",
            f"aws {service} {action} destroys a resource and its data",
            "ask the account's owner to do it",
        )
    elif service == "s3" and action in ("sync", "cp", "mv") and "--delete" in flags:
        yield _ask("cloud-storage-change", f"aws s3 {action} --delete removes objects")
    elif service == "s3" and action in ("cp", "sync", "mv") and _uploads(words[2:]):
        yield _ask("upload", f"aws s3 {action} uploads local files to cloud storage")
    elif re.search(r"secret|ssm$", service) and re.match(r"get-(secret-value|parameters?)", action):
        yield _ask("secret-read", f"aws {service} {action} reads stored secrets")
    elif service in ("sts", "configure") and action in ("", "list", "get", "get-caller-identity"):
        return
    elif not _CLOUD_READ.match(action or "x"):
        yield _ask("cloud-change", f"aws {service} {action} changes cloud resources".strip())


def _uploads(operands: list[str]) -> bool:
    return len(operands) >= 2 and "://" not in operands[0] and "://" in operands[-1]


def _gsutil(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a for a in cmd.args() if not a.startswith("-")]
    action = words[0] if words else ""
    flags = {a for a in cmd.args() if a.startswith("-")}
    if action == "rm" and (
        flags & {"-r", "-R", "-a", "-rf", "-fr"} or any("*" in w for w in words)
    ):
        yield _deny(
            "cloud-storage-wipe",
            "gsutil rm -r deletes everything under the path",
            "delete the objects you created, by name, or ask the owner",
        )
    elif action == "rb" or (action == "rsync" and "-d" in flags):
        yield _deny(
            "cloud-storage-wipe",
            f"gsutil {action} deletes buckets or objects",
            "ask the bucket's owner to do it",
        )
    elif action in ("cp", "mv", "rsync") and _uploads(words[1:]):
        yield _ask("upload", f"gsutil {action} uploads local files to cloud storage")
    elif action not in ("ls", "cat", "du", "stat", "version", "help", "hash", "ls-l"):
        yield _ask("cloud-change", f"gsutil {action} changes cloud storage".strip())


def _gcloud(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a for a in cmd.args() if not a.startswith("-")]
    verb = next((w for w in words if _CLOUD_READ.match(w) or w in ("delete", "create",
                 "update", "deploy", "set", "add-iam-policy-binding")), "")  # fmt: skip
    if "delete" in words and (words[:1] in (["projects"], ["sql"]) or "--quiet" in cmd.args()):
        yield _deny(
            "cloud-destroy",
            f"gcloud {' '.join(words)} deletes a project or database",
            "ask the project's owner to do it",
        )
    elif words[:2] == ["storage", "rm"] and "--recursive" in cmd.args():
        yield _deny(
            "cloud-storage-wipe",
            "gcloud storage rm --recursive deletes a whole tree",
            "delete the objects you created, by name",
        )
    elif not verb or not _CLOUD_READ.match(verb):
        yield _ask("cloud-change", f"gcloud {' '.join(words[:3])} changes cloud resources")


def _az(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a for a in cmd.args() if not a.startswith("-")]
    batch = words[:1] == ["storage"] and any(w in ("delete-batch", "purge") for w in words)
    if batch:
        yield _deny(
            "cloud-storage-wipe",
            f"az {' '.join(words[:3])} deletes every blob or file that matches, a whole tree",
            "delete the blobs you created, by name",
        )
    elif words[:2] == ["group", "delete"] or (words[-1:] == ["delete"] and words[:1] in
                                               (["sql"], ["cosmosdb"], ["storage"])):  # fmt: skip
        yield _deny(
            "cloud-destroy",
            f"az {' '.join(words)} deletes a resource group or its data",
            "ask the subscription's owner to do it",
        )
    elif not any(_CLOUD_READ.match(w) for w in words[1:]) and words[:1] != ["account"]:
        yield _ask("cloud-change", f"az {' '.join(words[:3])} changes cloud resources")


_SQL_WRITE = re.compile(
    r"\b(INSERT|UPDATE|DELETE|ALTER|CREATE|GRANT|REVOKE|COPY|SET|DEL|HSET|EXPIRE|"
    r"insert(One|Many)?|update(One|Many)?|remove)\b",
    re.IGNORECASE,
)
_SQL_CODE_FLAGS = ("-c", "--command", "-e", "--execute", "--eval", "-q", "--query")


def sql_code(cmd: Cmd) -> str | None:
    """The SQL (or Mongo/Redis commands) given on the command line or stdin, if static."""
    args = cmd.args()
    for index, word in enumerate(args):
        if word in _SQL_CODE_FLAGS and index + 1 < len(args):
            return args[index + 1]
        for flag in ("--command=", "--execute=", "--eval=", "--query="):
            if word.startswith(flag):
                return word[len(flag) :]
    for op, target in cmd.redirects:
        if op == "<<":
            return target
    if cmd.name == "redis-cli":
        words = [a for a in args if not a.startswith("-")]
        return " ".join(words) if words else None
    return None


def _database(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    code = sql_code(cmd)
    if code is not None and _SQL_DESTROY.search(code):
        yield _deny(
            "sql-destroy",
            f"{cmd.name} runs {_SQL_DESTROY.search(code).group(0)!r}, which throws away a "  # type: ignore[union-attr]
            "database's data",
            "never drop or empty a database; show the statement to a human instead",
        )
    elif code is not None and _SQL_WRITE.search(code):
        yield _ask("sql-write", f"{cmd.name} changes data in a database server")
    elif code is None:
        yield _ask(
            "sql-session",
            f"{cmd.name} opens a database session whose statements cannot be checked",
            "pass one statement with -c/-e so it can be checked",
        )


def _drop_tools(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if cmd.name in ("dropdb", "dropuser") or "drop" in cmd.args():
        yield _deny(
            "sql-destroy",
            f"{cmd.name} drops a database",
            "never drop databases; ask the database's owner",
        )


HANDLERS: dict[str, Handler] = {
    **{n: _container for n in ("docker", "podman", "nerdctl")},
    **{n: _kubectl for n in ("kubectl", "oc")},
    "helm": _helm,
    **{n: _iac for n in ("terraform", "tofu", "terragrunt", "pulumi")},
    "aws": _aws,
    "gsutil": _gsutil,
    "gcloud": _gcloud,
    "az": _az,
    **{
        n: _database
        for n in (
            "psql",
            "mysql",
            "mariadb",
            "mongo",
            "mongosh",
            "redis-cli",
            "cqlsh",
            "sqlcmd",
            "clickhouse-client",
        )
    },
    **{n: _drop_tools for n in ("dropdb", "dropuser", "mysqladmin")},
}
