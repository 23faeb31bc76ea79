"""Writes to a forge's API that hand out access or switch off its protections.

``gh api -X PUT repos/O/R/collaborators/NAME``, ``glab api -X PUT projects/1/members/7``, a
deploy key, webhook or token added, branch protection or rulesets deleted, a repository's
Actions permissions widened (``default_workflow_permissions=write``), ``-f
visibility=public``, the repository or a shared branch deleted: each opens the project to
someone the user did not choose, or removes the checks that would catch it, in one call that
no later review undoes. They are denied; other writes to the API (an issue, a label,
a description) ask as network requests do, and reads (a GET, nothing sent) run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Handler, Result
from workset.safety.rules.base import deny_finding as _deny

# Endpoints whose writes hand out access or add a way in (a deploy key, a webhook that
# receives every push, a token); removing one (DELETE) asks.
_GRANTS = re.compile(
    r"^/(repos/[^/]+/[^/]+|projects/[^/]+)/keys(/|$)|"  # a deploy key (a user's own keys ask)
    r"/(collaborators|members|memberships|invitations|deploy_keys|hooks|access_tokens|"
    r"deploy_tokens)(/|$)"
)
# Protections, lifted by a DELETE (a new or changed rule asks).
_PROTECTIONS = re.compile(r"/(protection|protected_branches|rulesets)(/|$)")
# Settings of what workflows may do: denied when a field widens them.
_PERMISSIONS = re.compile(r"/permissions(/|$)")
_WIDE = re.compile(r"=(write|admin|maintain|owner|all|true|\d{2,})$", re.IGNORECASE)
# The branches everyone builds on, deleted or moved by force through the API.
_SHARED_REF = re.compile(r"/git/refs/heads/(main|master|trunk|develop|release[\w./-]*|"
                         r"prod[\w./-]*|production)$")  # fmt: skip
_OPENED = re.compile(r"^(visibility=(public|internal)|private=false)$", re.IGNORECASE)
_FIELDS = ("-f", "-F", "--field", "--raw-field")
_VALUED = frozenset({*_FIELDS, "-X", "--method", "-H", "--header", "--jq", "-q", "--input",
                     "--hostname", "-t", "--template"})  # fmt: skip


def method(args: tuple[str, ...]) -> str:
    """The HTTP method of ``gh api``: ``-X``/``--method``, else POST when fields are sent."""
    for i, a in enumerate(args):
        if a in ("-X", "--method") and i + 1 < len(args):
            return args[i + 1].upper()
        if a.startswith(("--method=", "-X")) and len(a) > 2:
            return a.split("=", 1)[-1].removeprefix("-X").upper()
    return "POST" if any(a in _FIELDS or re.fullmatch(r"-[fF].+", a) for a in args) else "GET"


def _fields(args: tuple[str, ...]) -> list[str]:
    out = [args[i + 1] for i, a in enumerate(args[:-1]) if a in _FIELDS]
    return out + [a[2:] for a in args if re.fullmatch(r"-[fF].+", a)]


def _endpoint(args: tuple[str, ...]) -> str:
    skip = {i + 1 for i, a in enumerate(args) if a in _VALUED}
    words = [a for i, a in enumerate(args) if i not in skip and not a.startswith("-")]
    return "/" + words[1].strip("/") if words[:1] == ["api"] and len(words) > 1 else ""


# A webhook's delivery tested, or a collaborator given no right to change code: no way in.
_HOOK_TEST = re.compile(r"/hooks/\d+/(pings|tests)$")
_READ_ROLES = re.compile(r"^permission=(pull|read|triage)$", re.IGNORECASE)


def _harmless_grant(endpoint: str, args: tuple[str, ...]) -> bool:
    if _HOOK_TEST.search(endpoint):
        return True
    fields = _fields(args)
    return "/collaborators/" in endpoint and any(_READ_ROLES.match(f) for f in fields)


def api_write(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    endpoint = _endpoint(args)
    verb = method(args)
    if not endpoint or verb == "GET":
        return
    opened = any(_OPENED.match(f) for f in _fields(args))
    whole_repo = re.fullmatch(r"/(repos/[^/]+/[^/]+|projects/[^/]+)", endpoint) is not None
    forced = verb == "DELETE" or "force=true" in _fields(args)
    if _SHARED_REF.search(endpoint) and forced:
        yield _deny(
            "git-destroy-shared-branch",
            f"{cmd.name} api {verb} {endpoint} deletes or rewrites a branch everyone builds on",
            "push a new branch and open a pull request instead",
        )
    elif (
        (_GRANTS.search(endpoint) and verb != "DELETE" and not _harmless_grant(endpoint, args))
        or (_PROTECTIONS.search(endpoint) and verb == "DELETE")
        or (_PERMISSIONS.search(endpoint) and any(_WIDE.search(f) for f in _fields(args)))
        or opened
        or (verb == "DELETE" and whole_repo)
    ):
        yield _deny(
            "forge-access-change",
            f"{cmd.name} api {verb} {endpoint} hands out access to the project, adds a way in, "
            "or lifts a protection on the forge",
            "ask the repository's owner to change its settings",
        )


def ci_values(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``glab variable export``, ``glab variable get X``, ``glab variable list -o json``: the
    values of the project's CI variables, masked credentials among them, printed."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    as_json = any(re.fullmatch(r"(-o|--output)(=json)?|json|-F|--format(=json)?", a)
                  for a in cmd.args())  # fmt: skip
    if (
        cmd.name == "glab"
        and words[:1] == ["variable"]
        and (words[1:2] in (["export"], ["get"]) or (words[1:2] == ["list"] and as_json))
    ):
        yield _deny(
            "secret-read",
            f"glab variable {words[1]} prints the values of the project's CI variables, its "
            "deploy credentials among them",
            "list the names only (glab variable list), and ask the user for a value",
        )
    yield from api_write(cmd, ctx)


HANDLERS: dict[str, Handler] = {n: ci_values for n in ("gh", "glab")}
