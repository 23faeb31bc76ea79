"""Rules for cluster CLIs (``kubectl``/``oc``, ``helm``).

Reads pass (``get``, ``describe``, ``logs``, ``helm list``…), and so do changes made with
``--dry-run=client|server``. Deleting whole namespaces, nodes or everything of a kind (``--all``,
or everything a listing prints), and deleting in a production namespace or context, are
denied; printing cluster secrets asks as a secret read; every other change asks.

A change aimed by ``--context`` at a cluster that runs on this machine for development
(``kind-dev``, ``minikube``, ``k3d-…``, ``docker-desktop``) is the developer's own sandbox:
applying, deleting a named namespace or resource, exec and helm installs there pass; deleting
everything of a kind asks, and printing secrets asks as anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules import credentials
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    option_value,
    requote,
)
from workset.safety.rules.base import ask_finding as _ask
from workset.safety.rules.base import deny_finding as _deny
from workset.safety.rules.confinement import inside
from workset.safety.rules.known import subcommand
from workset.safety.rules.listings import fed_whole_listing

_KUBE_READS = frozenset({"get", "describe", "logs", "top", "explain", "version", "api-resources",
                         "api-versions", "cluster-info", "config", "diff", "auth", "events",
                         "wait", "completion", "kustomize"})  # fmt: skip
_SCRATCH_NAMESPACE = re.compile(r"(^|[-_])(dev|test|ci|e2e|sandbox|preview|pr-?\d+|local)($|[-_])")


def _namespace_scratch(args: tuple[str, ...]) -> bool:
    """The namespace is named for development or tests (``-n myapp-dev``, ``--namespace=ci``)."""
    return bool(_SCRATCH_NAMESPACE.search(option_value(args, ("-n", "--namespace")) or ""))


_KUBE_WIDE = frozenset({"namespace", "namespaces", "ns", "node", "nodes", "no", "pv",
                        "persistentvolume", "persistentvolumes", "crd", "crds", "clusterrole",
                        "customresourcedefinition", "clusterrolebinding"})  # fmt: skip


def dry_run(args: tuple[str, ...]) -> bool:
    """``--dry-run``, ``--dry-run=client|server``: the change is shown or validated, never
    made (``--dry-run=none`` makes it)."""
    values = [a.split("=", 1)[1] if "=" in a else "client" for a in args
              if a == "--dry-run" or a.startswith("--dry-run=")]  # fmt: skip
    return bool(values) and values[-1] in ("client", "server", "true")


# Contexts of clusters that run on this machine for development (kind, minikube, k3d…).
_LOCAL_CONTEXT = re.compile(r"^(kind(-[\w.-]+)?|minikube|k3d-[\w.-]+|docker-desktop|"
                            r"rancher-desktop|orbstack|colima|microk8s)$")  # fmt: skip


def local_cluster(args: tuple[str, ...]) -> bool:
    """``--context``/``--kube-context`` names a development cluster on this machine."""
    return bool(_LOCAL_CONTEXT.match(option_value(args, ("--context", "--kube-context")) or ""))


def _kubectl(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    sub, rest = subcommand(cmd)
    if sub in _KUBE_CHANGES and dry_run(rest):
        return  # kubectl delete -f job.yaml --dry-run=client: prints what would go
    local = local_cluster(cmd.args())
    if sub == "delete":
        wide = bool(set(a.split("/", 1)[0] for a in rest) & _KUBE_WIDE)
        everything = any(a in ("--all", "-A", "--all-namespaces") for a in rest)
        everything = everything or _fed_a_whole_listing(cmd)
        if local and everything:
            yield _ask("cluster-change", f"{cmd.name} delete removes everything of a kind from "
                       "the local cluster")  # fmt: skip
        elif local:
            return  # kubectl --context kind-dev delete namespace e2e-41: the own sandbox
        elif wide or everything:
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
        sub == "scale"
        and any(a in ("--replicas=0", "0") and (a != "0" or rest[i - 1] == "--replicas")
                for i, a in enumerate(rest))
        and _production(cmd.args()) is not None
    ):  # fmt: skip
        yield _production_delete(f"{cmd.name} scale --replicas=0", str(_production(cmd.args())))
    elif (
        sub == "create"
        and rest[:1] in (("clusterrolebinding",), ("rolebinding",))
        and any(
            re.fullmatch(r"--(cluster)?role=(cluster-admin|admin)", a)
            or (
                a in ("cluster-admin", "admin") and i and rest[i - 1] in ("--clusterrole", "--role")
            )
            for i, a in enumerate(rest)
        )
    ):
        yield _deny(
            "cluster-admin-grant",
            f"{cmd.name} create {rest[0]} hands out the cluster's administrator rights",
            "bind the narrow role the task needs, or ask the cluster's owner",
        )
    elif (
        sub in ("get", "describe", "edit")
        and _names_secrets(rest)
        and (sub == "edit" or any(a.startswith(("-o", "--output", "--template")) for a in rest))
        and (sub != "get" or credentials.shows_values(rest))
    ):
        yield Finding(
            "secret-read",
            "ask",
            f"{cmd.name} {sub} prints the values of cluster secrets; a human must confirm, and "
            "secrets never belong in the agent's context",
        )
    elif sub == "config" and rest[:1] and rest[0] in ("view", "get-contexts", "current-context"):
        return
    elif sub == "rollout" and rest[:1] and rest[0] in ("status", "history"):
        return  # kubectl rollout status deploy/web: waits and reads
    elif sub == "exec" and "--" in rest and rest.index("--") + 1 < len(rest):
        inner = rest[rest.index("--") + 1 :]  # kubectl exec -it deploy/api -- psql -c …
        yield Nested(requote(inner))  # judged as if run here, like docker exec
        if not (_namespace_scratch(cmd.args()) or local):
            yield _ask("cluster-change", f"{cmd.name} exec runs a command in a live workload")
    elif (
        sub == "cp"
        and len(rest) >= 2
        and ":" in rest[-2]
        and ":" not in rest[-1]
        and inside(rest[-1], ctx)
    ):
        return  # kubectl cp POD:/path ./local: a copy out of the pod (the write is judged)
    elif sub == "port-forward" and not _listens_beyond_loopback(rest):
        return  # a local port that leads to a pod, on 127.0.0.1 only
    elif local and sub != "config":
        return  # applied, patched, scaled in the developer's own cluster
    elif sub not in _KUBE_READS or (sub == "config" and rest[:1] != ("view",)):
        yield _ask("cluster-change", f"{cmd.name} {sub} changes the cluster".strip())


def _listens_beyond_loopback(args: tuple[str, ...]) -> bool:
    addresses = [a.split("=", 1)[1] for a in args if a.startswith("--address=")]
    addresses += [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--address"]
    return any(a not in ("localhost", "127.0.0.1", "::1") for part in addresses
               for a in part.split(","))  # fmt: skip


# Subcommands that change the cluster and honour --dry-run.
_KUBE_CHANGES = frozenset({"delete", "apply", "create", "replace", "patch", "scale", "label",
                           "annotate", "set", "expose", "run", "autoscale", "taint", "drain",
                           "cordon", "uncordon"})  # fmt: skip


def _fed_a_whole_listing(cmd: Cmd) -> bool:
    """``kubectl get pods -o name | xargs kubectl delete``, ``kubectl delete $(kubectl get
    deploy -o name)``: what is deleted is everything a listing of a kind prints."""
    return fed_whole_listing(cmd, lambda c: c.name == "kubectl" and subcommand(c)[0] == "get")


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
             "search", "dependency", "env", "verify", "repo", "diff", "completion"}  # fmt: skip
    if sub in ("install", "upgrade", "uninstall", "rollback") and dry_run(cmd.args()):
        return  # helm upgrade --install --dry-run: renders and validates, changes nothing
    if sub not in reads and not local_cluster(cmd.args()):
        yield _ask("cluster-change", f"helm {sub} changes releases in the cluster".strip())


HANDLERS: dict[str, Handler] = {**{n: _kubectl for n in ("kubectl", "oc")}, "helm": _helm}
