"""Cloud, cluster and container tools whose read verbs are shown to change nothing.

Platform CLIs without a rule family of their own (``eksctl``, ``doctl``, ``flyctl``,
``vercel``, ``minikube``…) run when a word before the first option is a read verb (``get``,
``list``, ``status``, ``describe``, ``logs``, ``render``, ``template``…) and none is a
change; anything else asks as an unknown program. Scanners and linters of images, manifests
and infrastructure code (``trivy``, ``grype``, ``hadolint``, ``kubeconform``, ``checkov``…)
only read what they are given (``trivy`` keeps its vulnerability database in its cache).
"""

from __future__ import annotations

from collections.abc import Callable

from workset.safety.rules.base import Cmd, Context, Finding, unknown_program

_PLATFORMS = frozenset({"eksctl", "doctl", "flyctl", "fly", "vercel", "netlify", "heroku",
                        "firebase", "minikube", "kind", "k3d", "skaffold", "kustomize",
                        "stern", "kubectx", "kubens", "argocd", "flux", "linkerd", "istioctl",
                        "railway", "render", "wrangler", "supabase", "localstack", "tilt",
                        "podman-machine", "colima", "lima", "limactl", "k9s"})  # fmt: skip
_READ_VERBS = frozenset({"get", "list", "ls", "status", "describe", "show", "info", "logs",
                         "log", "version", "inspect", "render", "build", "template", "validate",
                         "lint", "diff", "whoami", "check", "config-view", "history", "top",
                         "events", "tail", "preview", "current"})  # fmt: skip
_CHANGE_VERBS = frozenset({"delete", "destroy", "rm", "remove", "deploy", "apply", "create",
                           "set", "scale", "restart", "stop", "start", "up", "down", "promote",
                           "rollback", "sync", "exec", "ssh", "secrets", "env", "login",
                           "purge", "reset", "import", "publish", "run", "dev"})  # fmt: skip
_SCANNERS = frozenset({"trivy", "grype", "syft", "hadolint", "dive", "kubeconform", "kubeval",
                       "checkov", "tfsec", "terrascan", "conftest", "kube-linter", "popeye",
                       "kube-score", "dockle", "actionlint", "yamllint", "shellcheck",
                       "tflint"})  # fmt: skip


def platform_read(cmd: Cmd, ctx: Context) -> Finding | None:
    words = [a.lower() for a in cmd.args()]
    first_option = next((i for i, w in enumerate(words) if w.startswith("-")), len(words))
    leading = words[:first_option][:3]  # get clusters, apps list: before any option
    if cmd.name == "stern" or (cmd.name == "k9s" and "--readonly" in words):
        return None  # stern only tails logs; k9s --readonly only shows
    if set(leading) & _READ_VERBS and not set(leading) & _CHANGE_VERBS:
        return None
    return unknown_program(cmd.argv[0], " (only its read verbs are known)")


def scanner(cmd: Cmd, ctx: Context) -> Finding | None:
    words = cmd.args()
    if cmd.name == "trivy" and any(w in ("server", "--server", "plugin") for w in words):
        return unknown_program("trivy " + next(w for w in words if not w.startswith("-")))
    if any(w in ("-o", "--output", "--report") for w in words):
        return unknown_program(cmd.name, " (it writes a report where -o says)")
    return None


VOUCHERS: dict[str, Callable[[Cmd, Context], Finding | None]] = {
    **{n: platform_read for n in _PLATFORMS},
    **{n: scanner for n in _SCANNERS - {"tflint", "shellcheck", "yamllint", "actionlint"}},
}
