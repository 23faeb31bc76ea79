"""Reads of a secret file that print no secret: counts, a yes or no, or only the keys' names.

``grep -c API_KEY .env``, ``grep -q '^DATABASE_URL=' .env``, ``cut -d= -f1 .env``, ``awk -F=
'{print $1}' .env``, ``sed 's/=.*//' .env``, ``grep -o '^[A-Z_]*' .env.local`` and ``wc -l``
tell which settings exist, never their values, so on the workspace's own files (``.env``,
``.env.local``) they run where reading the file would ask; elsewhere (``~/.bash_history``)
reading at all still asks. A jq filter ending in ``keys`` or ``length`` prints names or a
count: decoding a credential into it (``kubectl get secret -o json | jq '.data | keys'``) is
not printing the credential.
"""

from __future__ import annotations

import re

from workset.safety.rules.base import Cmd, Finding, option_value

# A -o pattern that stops before the value: anchored, made of character classes and word
# characters that cannot match "=" (``^[A-Z_]*``, ``^[^=]+``), ending at most with "=".
_NAME_PATTERN = re.compile(r"^\^((\[\^?[^\]=]*\]|\[\^=\]|\\w|[A-Za-z0-9_])[*+?]?)+=?$")
_GREPS = frozenset({"grep", "egrep", "fgrep", "rg"})
# A jq filter that ends in the names or the number of the keys: ``keys``, ``.data | keys[]``,
# ``.data | keys | length``, ``has("password")``.
_JQ_NAMES = re.compile(
    r"^\s*(\.[\w.\[\]\"]*\s*\|\s*)?(keys(_unsorted)?(\[\])?|length|has\(\"[\w.-]*\"\))"
    r"(\s*\|\s*(length|sort|join\(\"[^\"]*\"\)))?\s*$"
)


def names_only(cmd: Cmd) -> bool:
    """``cmd`` prints at most counts, match/no-match or the names of keys of what it reads."""
    args = cmd.args()
    letters = {c for a in args if re.fullmatch(r"-[a-zA-Z]+", a) for c in a[1:]}
    if cmd.name in _GREPS:
        if letters & {"c", "q"} or {"--count", "--quiet"} & set(args):
            return True  # not -l: the names it lists can feed xargs cat
        patterns = [a for a in args if not a.startswith("-")][:1]
        return "o" in letters and bool(patterns) and bool(_NAME_PATTERN.match(patterns[0]))
    if cmd.name == "cut":
        delimiter = option_value(args, ("-d", "--delimiter")) or next(
            (a[2:] for a in args if a.startswith("-d") and len(a) > 2), None
        )
        field = option_value(args, ("-f", "--fields")) or next(
            (a[2:] for a in args if a.startswith("-f") and len(a) > 2), None
        )
        return delimiter == "=" and field == "1"
    if cmd.name in ("awk", "gawk", "mawk"):
        programs = [a for a in args if not a.startswith("-")][:1]
        separator = "-F=" in args or option_value(args, ("-F",)) == "="
        return separator and programs == ["{print $1}"]
    if cmd.name in ("jq", "gojq", "jaq", "yq"):
        programs = [a for a in args if not a.startswith("-")][:1]
        return bool(programs) and bool(_JQ_NAMES.match(programs[0]))
    if cmd.name == "sed":
        scripts = [a for a in args if not a.startswith("-")][:1]
        return scripts in (["s/=.*//"], ["s/=.*$//"])
    if cmd.name == "openssl":  # openssl rsa -noout -modulus -in x.key: the public half only
        return (
            args[:1] in (("rsa",), ("pkey",))
            and {"-noout", "-modulus"} <= set(args)
            and not ({"-text", "-out", "-passin", "-passout", "-pubout"} & set(args))
        )
    return cmd.name == "wc"


# grep options that change nothing about which lines print, and a pattern that is one word.
_PLAIN_GREP = frozenset({"-i", "-n", "-w", "-o", "-F", "-E", "-h", "-H", "--color=never",
                         "--color=auto", "--color", "-in", "-ni", "-wn", "-nw"})  # fmt: skip
_WORD = re.compile(r"[A-Za-z_][\w.-]*:?=?")
_CREDENTIAL_WORD = re.compile(r"(?i)secret|token|pass|key|auth|cred|cookie|session|bearer|cert")


def _selects_a_setting(cmd: Cmd) -> bool:
    """``grep current-context``: the lines that name one setting, which is not a credential."""
    args = cmd.args()
    operands = [a for a in args if not a.startswith("-")]
    return (
        cmd.name in _GREPS
        and all(a in _PLAIN_GREP for a in args if a.startswith("-"))
        and len(operands) == 1
        and _WORD.fullmatch(operands[0]) is not None
        and not _CREDENTIAL_WORD.search(operands[0])
    )


def _environment(cmd: Cmd) -> bool:
    """``env``, ``printenv`` alone, or ``tr '\\0' '\\n' < /proc/self/environ``: the environment
    printed whole, one ``NAME=value`` a line, for the next stage to cut."""
    if cmd.name in ("env", "printenv") and not cmd.args() and not cmd.redirects:
        return True
    return cmd.name == "tr" and cmd.redirects == (("<", "/proc/self/environ"),)


def through_filter(findings: list[Finding], cmds: list[Cmd], after: list[Cmd]) -> list[Finding]:
    """``env | cut -d= -f1`` prints the names of the environment's variables, never a value:
    nothing secret is read. ``cat ~/.kube/config | grep current-context``, ``cat
    ~/.docker/config.json | jq '.auths | keys'``: a plain ``cat`` only feeds the next stage,
    so what prints is what that filter lets through. When it is names, counts, or the lines
    of one setting that names no credential, printing the file is not what happens: the read
    asks (as the filter reading the file itself would) instead of being denied."""
    names = bool(after) and after[0].name in ("cut", "awk", "gawk", "mawk", "sed")
    if (
        len(cmds) == 1
        and len(after) == 1
        and _environment(cmds[0])
        and names
        and names_only(after[0])
    ):
        return [f for f in findings if f.rule != "secret-read"]  # env | cut -d= -f1: names
    if len(cmds) != 1 or len(after) != 1 or cmds[0].name != "cat" or cmds[0].redirects:
        return findings
    if any(a.startswith("-") for a in cmds[0].args()) or not (
        names_only(after[0]) or _selects_a_setting(after[0])
    ):
        return findings
    return [
        Finding(
            "secret-read",
            "ask",
            f"{f.explanation.split(', which', 1)[0]}, which holds keys, credentials or history, "
            f"into {after[0].name}, which prints only part of it; a human must confirm",
        )
        if f.rule == "secret-read" and f.severity == "deny"
        else f
        for f in findings
    ]
