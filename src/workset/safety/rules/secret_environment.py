"""The environment's credentials: variables named like them, commands that print every
variable, and grep patterns that pick them out.

:func:`secret_variables` are the credential variables a word reads (``$GITHUB_TOKEN``);
:func:`dumps_environment` (``env``, ``export -p``), :func:`inspects_container` (``docker
inspect``) and :func:`jq_environment` (jq's ``$ENV``) print the environment whole or in part;
:func:`greps_secrets` is a grep whose pattern prints a credential's lines. The findings they
lead to are :mod:`~workset.safety.rules.secrets`.
"""

from __future__ import annotations

import re

from workset.safety.rules.base import Cmd

# Names of variables that hold credentials: printing one puts it in the agent's context.
_SECRET_VARIABLE = re.compile(
    r"(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?|"
    r"AUTH|SESSION_KEY|CLIENT_KEY)(_|$)|^(PGPASSWORD|NPM_TOKEN|GH_TOKEN|DATABASE_URL)$",
    re.IGNORECASE,
)


def printed_secret_variables(cmd: Cmd) -> list[str]:
    """``echo $GITHUB_TOKEN``, ``printenv AWS_SECRET_ACCESS_KEY``: a credential printed."""
    if cmd.name == "printenv":
        names = [a for a in cmd.args() if not a.startswith("-")]
        return [f"${n}" for n in names if _SECRET_VARIABLE.search(n)]
    return [v for a in cmd.args() for v in secret_variables(a)]


def secret_variables(word: str) -> list[str]:
    """The credential variables (``$API_TOKEN``, ``${AWS_SECRET_ACCESS_KEY}``) ``word`` reads."""
    names = re.findall(r"\$\{?([A-Za-z_]\w*)", word)
    return [f"${n}" for n in names if _SECRET_VARIABLE.search(n)]


_MATCHES_ALL = frozenset({"", ".", "^", "$", ".*", "^.*", "-v"})
_SECRET_PATTERN = re.compile(r"(?i)secret|token|pass|key|auth|cred|cookie|session|bearer")


def dumps_environment(cmd: Cmd) -> bool:
    """``env``, ``printenv``, ``set``, ``export -p``: every variable, credentials included."""
    if cmd.name in ("env", "printenv"):
        return not [a for a in cmd.args() if not a.startswith("-")]
    return cmd.name in ("export", "declare", "typeset", "set") and cmd.args() in (
        (), ("-p",), ("-x",), ("-px",), ("-xp",))  # fmt: skip


def inspects_container(cmd: Cmd) -> bool:
    """``docker inspect NAME``: a container's settings, its environment (and the keys passed
    with ``-e``) among them; searched for credentials, it prints them."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    return cmd.name in ("docker", "podman", "nerdctl") and (
        words[:1] == ["inspect"] or words[:2] == ["container", "inspect"]
    )


# jq's view of the environment: ``$ENV``/``env`` whole, or one variable (``env.HOME``).
_JQ_ENV = re.compile(r"(\$ENV|(?<![\w$.])env)\b(\s*\.\s*(\w+)|\s*\[\s*\"(\w+)\"\s*\])?")


def jq_environment(cmd: Cmd) -> str:
    """What a jq/gojq/yq program reads of the environment: "all" (``$ENV``, ``env |
    keys``), "secret" (``env.GITHUB_TOKEN``, or the whole filtered for credentials), else ""."""
    if cmd.name not in ("jq", "gojq", "jaq", "yq"):
        return ""
    program = " ".join(a for a in cmd.args() if not a.startswith("-"))
    whole = False
    for match in _JQ_ENV.finditer(program):
        variable = match.group(3) or match.group(4)
        if variable is None:
            whole = True
        elif _SECRET_VARIABLE.search(variable):
            return "secret"
    if whole and _SECRET_PATTERN.search(_JQ_ENV.sub("", program)):
        return "secret"
    return "all" if whole else ""


def greps_secrets(cmd: Cmd, *, matching_all: bool = True) -> bool:
    """grep prints the secret's lines: a pattern that matches every line, or one that looks
    for the credential itself; counts and names (``-c``, ``-l``, ``-q``) print none."""
    args = cmd.args()
    if any(re.fullmatch(r"-[a-zA-Z]*[clLq][a-zA-Z]*|--(count|files-with-matches|quiet)", a)
           for a in args):  # fmt: skip
        return False
    given = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-e", "--regexp")]
    operands = [a for a in args if not a.startswith("-")]
    patterns = given or operands[:1]
    every = matching_all and (any(p in _MATCHES_ALL for p in patterns) or "-v" in args)
    return every or any(_SECRET_PATTERN.search(p) for p in patterns)
