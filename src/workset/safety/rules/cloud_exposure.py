"""Cloud changes that open an account to everyone, across ``aws``, ``gcloud``, ``gsutil``, ``az``.

Whatever the provider, these shapes are denied: an administrator's rights handed out
(``AdministratorAccess``, ``roles/owner``, ``--role Owner``, a policy allowing ``"Action":
"*"``); a login, database or every port opened to the whole internet (``0.0.0.0/0``, ``::/0``,
``*`` with port 22, 3389, 5432…); storage made public (``allUsers``, ``public-read``, the
public-access block switched off); the audit trail stopped or deleted (``cloudtrail
stop-logging``, a log sink deleted, GuardDuty removed). A fifth: a new long-lived key or
password made for an account (``aws iam create-access-key``, ``gcloud iam service-accounts
keys create``, ``az ad sp credential reset``), a way in that outlives the task. Other
changes are judged by :mod:`~workset.safety.rules.cloud` (they ask).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Handler, Nested, Result
from workset.safety.rules.base import deny_finding as _deny

_ADMIN = re.compile(
    r"AdministratorAccess|IAMFullAccess|PowerUserAccess|roles/(owner|editor|"
    r"iam\.\w*admin\w*|resourcemanager\.\w*admin\w*)|^owner$|^user access administrator$|"
    r"\"Action\"\s*:\s*\"\*\"",
    re.IGNORECASE,
)
_ROLE_OPTIONS = ("--policy-arn", "--role", "--policy-document", "--member")
_WORLD = re.compile(r"(^|[=,\s'\"])(0\.0\.0\.0/0|::/0|\*|internet|any)($|[,\s'\"}\]])", re.I)
_ADMIN_PORTS = re.compile(r"(^|[^\d])(22|23|3389|5432|3306|1433|6379|27017|9200|5900|2375|"
                          r"2376|445|11211)($|[^\d])|^-1$|IpProtocol=-1|^all$|^\*$|tcp:0-65535|^0-65535$",
                          re.I)  # fmt: skip
_OPENERS = re.compile(r"authorize-security-group-ingress|firewall-rules|nsg|security-group-rule|"
                      r"modify-security-group-rules|authorized-networks", re.I)  # fmt: skip
_PUBLIC = re.compile(r"allUsers|allAuthenticatedUsers|public-read(-write)?$|"
                     r"--public-access\s*(blob|container)|BlockPublic\w*=false|"
                     r"--allow-blob-public-access(=|\s+)true", re.I)  # fmt: skip
# A policy that names everyone as the one allowed: ``"Principal": "*"``, ``{"AWS": "*"}``,
# ``aws lambda add-permission --principal '*'``.
_ANYONE = re.compile(r"\"Principal\"\s*:\s*(\{\s*\"AWS\"\s*:\s*)?\[?\s*\"\*\"|"
                     r"--principal(=|\s+)\*(\s|$)")  # fmt: skip
# Remote commands: ``aws ssm send-command --parameters commands="…"``, ``gcloud compute ssh
# --command "…"``, ``az vm run-command invoke --scripts "…"``: run on the account's machines.
_REMOTE_OPTIONS = ("--command", "--scripts")
# A new long-lived login for an account, its secret printed: a way in that outlives the task.
_MINTED = re.compile(
    r"^iam (create-access-key|create-login-profile|update-login-profile|"
    r"create-service-specific-credential)|^iam service-accounts keys create|"
    r"^ad (sp|app) (credential reset|create-for-rbac)|^iam (hmac-keys|keys) create"
)
_AUDIT = re.compile(
    r"^(stop-logging|delete-trail|delete-detector|disable-organization-admin-account|"
    r"delete-flow-logs|delete-configuration-recorder|stop-configuration-recorder)$"
)


def exposure(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    words = [a for a in args if not a.startswith("-")]
    text = " ".join(args)
    grants = [v for i, a in enumerate(args) for v in _values(args, i, a, _ROLE_OPTIONS)]
    if any(_ADMIN.search(v) for v in grants) or (
        ("attach" in text or "add-iam-policy-binding" in text or "role assignment" in text)
        and _ADMIN.search(text)
    ):
        yield _deny("cloud-admin-grant", f"{cmd.name} {' '.join(words[:2])} hands out an "
                    "administrator's rights", "grant the narrow role the task needs, or ask "
                    "the account's owner")  # fmt: skip
    elif _OPENERS.search(text) and _WORLD.search(text) and _ports_open(args):
        yield _deny("cloud-world-open", f"{cmd.name} {' '.join(words[:2])} opens a login, "
                    "database or every port to the whole internet", "allow only the "
                    "addresses that need it")  # fmt: skip
    elif _ANYONE.search(text):
        yield _deny("cloud-public-principal", f"{cmd.name} {' '.join(words[:2])} lets anyone "
                    "(the principal \"*\") use the resource or take on the role", "name the "
                    "accounts that need it")  # fmt: skip
    elif _PUBLIC.search(text) and not re.search(r"\b(get|describe|list|show)\b", words[1:2][0]
                                                if words[1:2] else ""):  # fmt: skip
        yield _deny("cloud-public-storage", f"{cmd.name} {' '.join(words[:2])} makes storage "
                    "readable by anyone", "share with named accounts")  # fmt: skip
    elif _MINTED.search(" ".join(words[:4])) or (
        cmd.name == "gsutil" and words[:2] == ["hmac", "create"]
    ):
        yield _deny("cloud-key-minted", f"{cmd.name} {' '.join(words[:3])} makes a new "
                    "long-lived login for an account and prints its secret", "use the "
                    "credentials the session already has, or ask the account's owner")  # fmt: skip
    elif (
        any(_AUDIT.match(w) for w in words[:3])
        or ("sinks" in words and "delete" in words)
        or ("diagnostic-settings" in words and "delete" in words)
    ):
        yield _deny("cloud-audit-off", f"{cmd.name} {' '.join(words[:2])} stops or deletes the "
                    "account's audit trail", "an agent never turns off auditing")  # fmt: skip


def remote_commands(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """The shell commands a cloud CLI sends to the account's machines, judged as if here."""
    args = cmd.args()
    codes = [v for i, a in enumerate(args) for v in _values(args, i, a, _REMOTE_OPTIONS)]
    codes += [a.split("=", 1)[1] for a in args if a.startswith("commands=")]
    for code in codes:
        if code.strip("\"'[] "):
            yield Nested(code.strip("\"'[] "), deny_only=True)


def _values(args: tuple[str, ...], index: int, word: str, options: tuple[str, ...]) -> list[str]:
    option, equals, value = word.partition("=")
    if option not in options:
        return []
    if equals:
        return [value]
    return [args[index + 1]] if index + 1 < len(args) else []


def _ports_open(args: tuple[str, ...]) -> bool:
    ports = [v for i, a in enumerate(args) for v in _values(args, i, a, (
        "--port", "--ports", "--allow", "--rules", "--destination-port-ranges",
        "--destination-port-range", "--ip-permissions", "--protocol"))]  # fmt: skip
    ports += [a for a in args if "FromPort" in a or "IpProtocol" in a]
    return not ports or any(
        _ADMIN_PORTS.search(p) or p in ("all", "-1", "*") for v in ports for p in v.split(",")
    )


def _forge_public(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``gh repo edit --visibility public``: a private repository (its history, issues and
    whatever secrets were ever committed) opened to the whole internet at once; ``gh repo
    delete``: all of it destroyed."""
    args = cmd.args()
    words = [a for a in args if not a.startswith("-")]
    public = any(a in ("--visibility=public", "--public") for a in args) or any(
        args[i : i + 2] == ("--visibility", "public") for i in range(len(args))
    )
    if public and words[:2] in (["repo", "edit"], ["project", "update"]):
        yield _deny("repo-made-public", f"{cmd.name} {words[0]} {words[1]} makes the repository "
                    "public, its whole history and every secret ever committed in it",
                    "ask the repository's owner")  # fmt: skip
    elif words[:2] in (["repo", "delete"], ["project", "delete"]) and not _HELP & set(args):
        yield _deny("repo-deleted", f"{cmd.name} {words[0]} delete destroys the repository on "
                    "the forge, with its issues, pull requests and releases, and no one can "
                    "restore it", "ask the repository's owner")  # fmt: skip


_HELP = frozenset({"-h", "--help"})


HANDLERS: dict[str, Handler] = {
    **{n: exposure for n in ("aws", "gcloud", "gsutil", "az")},
    **{n: _forge_public for n in ("gh", "glab")},
}
REMOTE: dict[str, Handler] = {n: remote_commands for n in ("aws", "gcloud", "az")}
