"""Values a definition fills in that do the harm by themselves, whatever the prose says (the
model keeps defaults, and copies examples):

- ``planted-key``: an SSH public key as a default, const or example (``"ssh-ed25519 AAAA…
  support@vendor"``): whoever holds its private half gets in wherever the tool puts it;
- ``destructive-default``: a tool that deletes or wipes, with a path or scope parameter that
  defaults to the whole home, the root or everything (``path: {"default": "~"}`` on
  ``clear_cache``);
- ``secrets-dumped``: a template or script value that serialises every secret of a CI system
  (``${{ toJSON(secrets) }}``), or a ``run:`` step in it that the project's shell policy
  denies;
- ``public-default``: an access, ACL or visibility parameter that defaults to public
  (``acl: {"default": "public-read"}`` on an upload): what the user stores is exposed unless
  the model thinks to change it;
- ``approve-default``: a review's or decision's outcome that defaults to approving
  (``event: {"default": "APPROVE"}``): a model that only meant to comment approves.

A key, a home or a root offered as one choice among others (an ``enum``) is not a finding;
filling it in is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from workset.mcp.definition_fields import named_schemas
from workset.mcp.poison_structure.commands import denied_rule

_I = re.IGNORECASE
_FILLED = ("default", "const", "examples", "example")
_PUBLIC_KEY = re.compile(
    r"\b(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\s+AAAA[0-9A-Za-z+/]{20,}"
)
# A tool whose name deletes, wipes or cleans.
_DESTROYS = re.compile(
    r"(^|[_\s.-])(delet|remov|wipe|purg|clean|clear|erase|destroy|rm|shred|prune|reset|format|"
    r"nuke)\w*",
    _I,
)
_SCOPE_PARAM = re.compile(r"(^|_)(path|paths|dir|dirs|directory|folder|root|target|scope|"
                          r"pattern|glob|location|prefix)(_|$)", _I)  # fmt: skip
_EVERYTHING = re.compile(
    r"^\s*(~|~/|/|\$HOME/?|\$\{HOME\}/?|%USERPROFILE%\\?|[A-Z]:\\?|/home/?|/Users/?|/\*|~/\*|"
    r"\*\*?(/\*\*?)?|\.\./\.\.(/\.\.)*/?)\s*$",
    _I,
)


_EXPOSURE_PARAM = re.compile(r"(^|_)(acl|canned_acl|visibility|access|access_level|privacy|"
                             r"sharing|share_mode|audience|public_access)$", _I)  # fmt: skip
_PUBLIC = re.compile(r"^(public(-read(-write)?)?|anyone(with(the)?link)?|everyone|world|"
                     r"all_?users|public_?access|container)$", _I)  # fmt: skip
_PUBLIC_SWITCH = re.compile(r"^(is_)?public(_read|_access)?$", _I)
_OUTCOME_PARAM = re.compile(r"(^|_)(event|action|decision|verdict|outcome|review_event|"
                            r"resolution)$", _I)  # fmt: skip
_APPROVES = re.compile(r"^(approve[sd]?|accept(ed)?|lgtm|merge)$", _I)


def _exposing(name: str, spec: dict[str, Any]) -> str | None:
    """The default of ``name`` that makes what the tool stores public, or None."""
    default = spec.get("default")
    if isinstance(default, str) and _EXPOSURE_PARAM.search(name) and _PUBLIC.match(default):
        return default
    if default is True and _PUBLIC_SWITCH.match(name):
        return "true"
    return None


def planted_values(schema: Any, tool: str) -> Iterator[tuple[str, str, str]]:
    """(field, rule, value) for every filled-in value of ``schema`` that does harm itself."""
    destroys = _DESTROYS.search(tool) is not None
    for path, name, spec in named_schemas(schema, "inputSchema"):
        if not isinstance(spec, dict):
            continue
        exposed = _exposing(str(name), spec)
        if exposed is not None:
            yield f"{path}.default", "public-default", exposed
        default = spec.get("default")
        if (
            isinstance(default, str)
            and _OUTCOME_PARAM.search(str(name))
            and _APPROVES.match(default)
        ):
            yield f"{path}.default", "approve-default", default
        for key in _FILLED:
            for text in _strings(spec.get(key)):
                where = f"{path}.{key}"
                if _PUBLIC_KEY.search(text):
                    yield where, "planted-key", text[:80]
                elif (
                    destroys
                    and key != "examples"
                    and _SCOPE_PARAM.search(str(name))
                    and (_EVERYTHING.match(text))
                ):
                    yield where, "destructive-default", text[:80]
                elif _dumps_secrets(text):
                    yield where, "secrets-dumped", text[:80]


def _dumps_secrets(text: str) -> bool:
    """``text``, a CI template, serialises every secret or holds a step the shell policy
    denies: read as the safety rules read a workflow file the agent writes."""
    from workset.safety.rules.agent_files import ALL_SECRETS  # the safety package loads late
    from workset.safety.rules.build_files import code_of

    if ALL_SECRETS.search(text):
        return True
    steps = code_of(".github/workflows/template.yml", text) if "\n" in text else None
    return steps is not None and any(denied_rule(step) for step in steps.code.splitlines())


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


REASONS = {
    "planted-key": "a value fills in an SSH public key: whoever holds its private half gets in "
    "wherever the tool puts it",
    "destructive-default": "a tool that deletes defaults its path or scope to the whole home, "
    "the root or everything",
    "secrets-dumped": "a template value serialises every CI secret or holds a step the shell "
    "policy denies",
    "public-default": "an access or visibility parameter defaults to public, exposing what the "
    "tool stores unless the model changes it",
    "approve-default": "a review's or decision's outcome defaults to approving",
}
