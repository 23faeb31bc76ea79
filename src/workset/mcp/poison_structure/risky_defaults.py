"""Defaults that do the harm when the model keeps them (and models keep defaults):

- ``wide-default``: a tool that changes things, with a namespace, environment, region or scope
  parameter that defaults to all of them (``namespace: {"default": "--all-namespaces"}`` on
  ``restart_pods``; ``environments: {"default": ["production", "staging", "development"]}`` on
  ``toggle_flag``): a change the user meant for one place lands everywhere, production
  included;
- ``unsafe-switch``: a switch that is on unless the model turns it off and that removes a
  safeguard (``skip_backup: true``, ``no_verify``, ``bypass_checks``, ``force``), or that
  destroys on a tool that only reports (``reclaim: true``, "equivalent to `docker system prune
  -a --volumes -f`", on ``system_df``): its description's command is judged by the project's
  shell policy;
- ``host-exposed-default``: a container that gets the host unless the model says otherwise:
  ``privileged: true``, ``host_network: true``, ``volumes: {"default": ["/:/host"]}`` or the
  Docker socket;
- ``privileged-default`` (as for access parameters): a policy document whose default allows
  every action on every resource, offered as a "starter policy";
- ``collects-by-default``: a switch that sends personal data, cookies, local variables,
  credentials or the environment, on by default (``send_default_pii: true``).

The same parameters offered off, or as one choice among others (an ``enum``), are not
findings: the honest twin of each case asks or defaults to the narrow, safe value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from workset.mcp.definition_fields import named_schemas
from workset.mcp.poison_structure.commands import denied_rule
from workset.mcp.poison_structure.directs import READS

_I = re.IGNORECASE

# Where a change lands: the namespaces, environments, regions, clusters or scope it acts in.
_PLACE_PARAM = re.compile(
    r"(^|_)(namespaces?|ns|environments?|envs?|stages?|regions?|clusters?|scope|targets?|"
    r"accounts?|projects?|zones?|workspaces?)$",
    _I,
)
_ALL = re.compile(
    r"^\s*(--all(-namespaces|-environments|-regions)?|-A|all(\s+\w+)?|\*|every\w*|"
    r"cluster(-|\s)?wide|global)\s*$",
    _I,
)
_PRODUCTION = re.compile(r"^(prod|production|prd|live)$", _I)
# A switch that widens the same way: ``all_namespaces: true``.
_ALL_SWITCH = re.compile(
    r"^(all|all_(namespaces|environments|envs|regions|clusters|projects|accounts|workspaces)|"
    r"everywhere|cluster_wide|global)$",
    _I,
)
# A container given the host: privileged mode, the host's namespaces, or a mount of its root,
# its Docker socket, /etc or a home's keys.
_HOST_SWITCH = re.compile(
    r"^(privileged|host_(network|pid|ipc)|allow_privilege_escalation|run_as_root)$", _I
)
_MOUNT_PARAM = re.compile(r"(^|_)(volumes?|mounts?|binds?|host_paths?)$", _I)
_HOST_MOUNT = re.compile(r"^\s*(/|/var/run/docker\.sock|/etc|/root|~/\.ssh|/home)(/)?\s*(:|$)", _I)

# A switch that takes a safeguard away: skipping, bypassing or disabling a backup, a check, a
# verification, a review or a confirmation; or forcing, or answering yes to everything.
_WEAKENS = re.compile(
    r"(^|_)(skip|no|disable[sd]?|bypass|ignore|omit|without|suppress)_(\w+_)?(backups?|snapshots?|"
    r"verif\w*|checks?|tests?|hooks?|reviews?|scan\w*|audit\w*|confirm\w*|tls|ssl|certs?|"
    r"certificates?|signatures?|signing|protection|validation|approvals?|gates?|polic\w*|"
    r"safety|rollback|preflight|lint\w*)$"
    r"|^(force|unsafe|insecure|yes|assume_yes|auto_yes|auto_approve|auto_confirm|"
    r"admin_override|bypass\w*)$",
    _I,
)
_DESTROYS = re.compile(
    r"\b(prun\w*|purg\w*|delet\w*|wipe[sd]?|remov\w*|reclaim\w*|destroy\w*|eras\w*|drop\w*)\b", _I
)
_CODE = re.compile(r"`([^`]{3,200})`")
# A switch that sends what belongs to the user or the machine.
_COLLECTS = re.compile(
    r"(^|_)(pii|personal(_data)?|cookies?|local_variables|locals|credentials?|secrets?|"
    r"passwords?|env|environment|env_vars)(_|$)",
    _I,
)
_SENDS = re.compile(r"(^|_)(send|include|capture|collect|attach|record|upload|share)(_|$)", _I)


def risky_defaults(
    schema: Any, tool: str, description: str, *, read_only: bool | None, destructive: bool | None
) -> Iterator[tuple[str, str, str]]:
    """(field, rule, value) for each default of ``schema`` that widens a change to everything,
    takes a safeguard away, destroys from a reporting tool, or sends the user's data."""
    reports = read_only is True or (READS.match(tool) is not None and destructive is not True)
    changes = destructive is True or (read_only is not True and READS.match(tool) is None)
    for path, name, spec in named_schemas(schema, "inputSchema"):
        if not isinstance(spec, dict) or "default" not in spec:
            continue
        where, default, label = f"{path}.default", spec["default"], str(name)
        if changes and _PLACE_PARAM.search(label) and _everywhere(default):
            yield where, "wide-default", str(default)[:80]
        if _grants_everything(default):
            yield where, "privileged-default", "a policy that allows every action on every resource"
        if _MOUNT_PARAM.search(label) and any(_HOST_MOUNT.match(v) for v in _strings(default)):
            yield where, "host-exposed-default", str(default)[:80]
        if default is not True:
            continue
        about = str(spec.get("description", ""))
        unsafe = (
            _WEAKENS.search(label) is not None
            or (reports and _destroys(label, about))
            or _denied_code(about)
        )
        if changes and _ALL_SWITCH.match(label):
            yield where, "wide-default", f"{label}: true"
        elif _HOST_SWITCH.match(label):
            yield where, "host-exposed-default", f"{label}: true"
        elif unsafe:
            yield where, "unsafe-switch", f"{label}: true"
        elif _COLLECTS.search(label) and (_SENDS.search(label) or "pii" in label.lower()):
            yield where, "collects-by-default", f"{label}: true"


def _everywhere(default: Any) -> bool:
    """A default that names every place: "all", ``*``, ``--all-namespaces``, or a list of
    several environments with production among them."""
    if isinstance(default, str):
        return _ALL.match(default) is not None
    if isinstance(default, list):
        values = [v for v in default if isinstance(v, str)]
        if any(_ALL.match(v) for v in values):
            return True
        return len(values) >= 2 and any(_PRODUCTION.match(v.strip()) for v in values)
    return False


def _grants_everything(value: Any) -> bool:
    """A policy in a default that allows every action on every resource: an IAM statement
    ``{"Effect": "Allow", "Action": "*", "Resource": "*"}`` or an RBAC rule whose verbs and
    resources are ``*``."""
    if isinstance(value, list):
        return any(_grants_everything(item) for item in value)
    if not isinstance(value, dict):
        return False
    keys = {str(k).lower(): v for k, v in value.items()}
    allows = str(keys.get("effect", "allow")).lower() == "allow"
    actions = _strings(keys.get("action", keys.get("verbs")))
    resources = _strings(keys.get("resource", keys.get("resources")))
    wild = any(a.strip() == "*" or a.strip().endswith(":*") for a in actions)
    if allows and wild and "*" in (r.strip() for r in resources):
        return True
    return any(_grants_everything(v) for v in value.values())


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def _destroys(name: str, description: str) -> bool:
    return _DESTROYS.search(name.replace("_", " ")) is not None or bool(
        _DESTROYS.search(description)
    )


def _denied_code(description: str) -> bool:
    """The switch's description spells the command it runs, and the shell policy denies it."""
    return any(denied_rule(code) for code in _CODE.findall(description))


REASONS = {
    "wide-default": "a tool that changes things defaults its namespace, environment or scope to "
    "all of them, production included",
    "unsafe-switch": "a switch that removes a safeguard, or destroys on a tool that only "
    "reports, is on by default",
    "host-exposed-default": "a container is given the host by default: privileged mode, the "
    "host's namespaces, or a mount of its root, Docker socket, /etc or SSH keys",
    "collects-by-default": "a switch that sends personal data, credentials or the environment is "
    "on by default",
}
