"""Cloud, cluster and container tools whose read verbs are shown to change nothing.

Platform CLIs without a rule family of their own (``eksctl``, ``doctl``, ``flyctl``,
``vercel``, ``minikube``…) run when a word before the first option is a read verb (``get``,
``list``, ``status``, ``describe``, ``logs``, ``render``, ``template``…) and none is a
change; anything else asks as an unknown program. Scanners and linters of images, manifests
and infrastructure code (``trivy``, ``grype``, ``hadolint``, ``kubeconform``, ``checkov``…)
only read what they are given (``trivy`` keeps its vulnerability database in its cache).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from workset.safety.rules.base import Cmd, Context, Finding, deny_finding, unknown_program
from workset.safety.rules.confinement import inside

_PLATFORMS = frozenset({"eksctl", "doctl", "flyctl", "fly", "vercel", "netlify", "heroku",
                        "firebase", "minikube", "kind", "k3d", "skaffold", "kustomize",
                        "stern", "kubectx", "kubens", "argocd", "flux", "linkerd", "istioctl",
                        "railway", "render", "wrangler", "supabase", "localstack", "tilt",
                        "podman-machine", "colima", "lima", "limactl", "k9s",
                        # on-call tools: alerts and silences, metrics and logs queried,
                        # cluster backups, database clusters, load-test scripts
                        "amtool", "logcli", "velero", "patronictl",
                        "k6", "tea"})  # fmt: skip
_READ_VERBS = frozenset({"get", "list", "ls", "status", "describe", "show", "info", "logs",
                         "log", "version", "inspect", "render", "build", "template", "validate",
                         "lint", "diff", "whoami", "check", "config-view", "history", "top",
                         "events", "tail", "preview", "current", "query", "topology",
                         "dsn"})  # fmt: skip
_CHANGE_VERBS = frozenset({"delete", "destroy", "rm", "remove", "deploy", "apply", "create",
                           "set", "scale", "restart", "stop", "start", "up", "down", "promote",
                           "rollback", "sync", "exec", "ssh", "secrets", "env", "login",
                           "purge", "reset", "import", "publish", "run", "dev"})  # fmt: skip
_SCANNERS = frozenset({"trivy", "grype", "syft", "hadolint", "dive", "kubeconform", "kubeval",
                       "checkov", "tfsec", "terrascan", "conftest", "kube-linter", "popeye",
                       "kube-score", "dockle", "actionlint", "yamllint", "shellcheck",
                       "tflint", "semgrep"})  # fmt: skip


def platform_read(cmd: Cmd, ctx: Context) -> Finding | None:
    words = [a.lower() for a in cmd.args()]
    # get clusters, apps list, --context prod get kustomizations: the first words that are
    # neither options nor the word after one (its value, most likely: --cluster dev)
    leading = [
        w
        for i, w in enumerate(words)
        if not w.startswith("-")
        and not (i and words[i - 1].startswith("-") and "=" not in words[i - 1])
    ][:3]
    if cmd.name == "stern" or (cmd.name == "k9s" and "--readonly" in words):
        return None  # stern only tails logs; k9s --readonly only shows
    if set(leading) & _READ_VERBS and not set(leading) & _CHANGE_VERBS:
        return None
    verbs = {part for w in leading for part in re.split(r"[:._-]", w)}
    production = next((w for w in words if _PRODUCTION.search(w)), None)
    if verbs & _DESTROY_VERBS and production is not None:
        return deny_finding(
            "production-destroy",
            f"{cmd.name} {' '.join(leading)} destroys or resets {production}, which is production",
            "do it on a development or staging copy, or ask the user to run it",
        )
    return unknown_program(cmd.argv[0], " (only its read verbs are known)")


_DESTROY_VERBS = frozenset({"destroy", "delete", "reset", "purge", "rm", "remove", "drop",
                            "wipe", "truncate", "terminate", "nuke", "erase"})  # fmt: skip
# A name that says production: "acme-api-prod", "--app=production", "live-db".
_PRODUCTION = re.compile(r"(^|[\W_])(prod|production|prd|live)([\W_]|$)", re.IGNORECASE)


def scanner(cmd: Cmd, ctx: Context) -> Finding | None:
    words = cmd.args()
    if cmd.name == "trivy" and any(w in ("server", "--server", "plugin") for w in words):
        return unknown_program("trivy " + next(w for w in words if not w.startswith("-")))
    if cmd.name == "semgrep" and set(words[:1]) & {"ci", "login", "logout", "publish", "lsp",
                                                    "install-semgrep-pro", "mcp"}:  # fmt: skip
        return unknown_program(f"semgrep {words[0]}")
    if any(not inside(path, ctx) for path in _reports(cmd.name, words)):
        return unknown_program(cmd.name, " (it writes a report where -o says)")
    return None


def _reports(name: str, words: tuple[str, ...]) -> list[str]:
    """The files a scanner writes its report to. syft and grype take a format after ``-o``
    (``-o spdx-json``, or ``-o spdx-json=sbom.json`` with a file); the others a file."""
    found = []
    for index, word in enumerate(words):
        option, eq, value = word.partition("=")
        if option in ("-o", "--output", "--report", "--file", "--json-output", "--sarif-output"):
            value = value if eq else (words[index + 1] if index + 1 < len(words) else "")
            if name in ("syft", "grype") and option in ("-o", "--output"):
                value = value.partition("=")[2]
            found += [value] if value else []
    return found


# Backup tools: what they list and check only reads; what forgets, prunes or deletes
# snapshots destroys the copies a mistake would be recovered from.
_BACKUP_READS = frozenset({"snapshots", "ls", "list", "check", "stats", "diff", "find", "cat",
                           "info", "version", "key-list", "mount", "show", "verify",
                           "extract-dry-run", "compare"})  # fmt: skip
_BACKUP_DESTROYS = frozenset({"forget", "prune", "delete", "remove", "rm", "compact", "purge",
                              "recover-unlink"})  # fmt: skip


def backup_tool(cmd: Cmd, ctx: Context) -> Finding | None:
    """``restic``/``borg``/``kopia``/``duplicity``: reads run, deleting snapshots is denied,
    anything else (backup, restore, init) asks."""
    words = [a.lower() for a in cmd.args() if not a.startswith("-")]
    words = [w for w in words if not re.match(r"^(s3|b2|gs|azure|sftp|rest|rclone):|/", w)]
    verbs = set(words[:2])
    if verbs & _BACKUP_DESTROYS and {"--dry-run", "-n"} & set(cmd.args()):
        return None  # restic forget --dry-run: lists what would go
    if verbs & _BACKUP_DESTROYS:
        return deny_finding(
            "backup-destroy",
            f"{cmd.name} {' '.join(words[:2])} deletes backup snapshots, the copies a mistake "
            "would be recovered from",
            "list what would go with --dry-run and ask the user to delete it",
        )
    if verbs & _BACKUP_READS:
        return None  # restic snapshots, kopia snapshot list
    return unknown_program(cmd.argv[0], " (only its read verbs are known)")


_ACT_DRY = frozenset({"-n", "--dryrun", "--dry-run", "-l", "--list", "-g", "--graph",
                      "--validate"})  # fmt: skip


def local_actions(cmd: Cmd, ctx: Context) -> Finding | None:
    """``act -n``, ``act -l``, ``act -g``: the workflows listed, drawn or dry-run; a real run
    starts containers with the workspace and any secrets given, and asks."""
    if _ACT_DRY & set(cmd.args()):
        return None
    return unknown_program("act", " (it runs the workflows' jobs in containers)")


def release_build(cmd: Cmd, ctx: Context) -> Finding | None:
    """``goreleaser release --snapshot --clean``, ``goreleaser build --snapshot``,
    ``goreleaser check``: built into ``dist/`` and nothing published; any other release asks."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:1] in (["check"], ["healthcheck"]) or (
        words[:1] in (["release"], ["build"]) and "--snapshot" in cmd.args()
    ):
        return None
    return unknown_program(f"goreleaser {' '.join(words[:1])}".strip(), " (it publishes)")


VOUCHERS: dict[str, Callable[[Cmd, Context], Finding | None]] = {
    "act": local_actions,
    "goreleaser": release_build,
    **{n: backup_tool for n in ("restic", "borg", "kopia", "duplicity", "rustic")},
    **{n: platform_read for n in _PLATFORMS},
    **{n: scanner for n in _SCANNERS - {"tflint", "shellcheck", "yamllint", "actionlint"}},
}
