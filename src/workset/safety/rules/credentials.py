"""Rules for tools that print credentials: cloud tokens, stored passwords, cluster secrets.

``gcloud auth print-access-token``, ``gh auth token``, ``az account get-access-token``,
``aws configure get aws_secret_access_key``, secret managers (``aws secretsmanager
get-secret-value``, ``aws ssm get-parameter --with-decryption``, ``gcloud secrets versions
access``, ``az keyvault secret show``), ``security find-generic-password -w``, ``nmcli -s``, ``pass
show``, ``kubectl get secret -o yaml`` and kin print a live credential. Printed where the
agent reads it (the terminal, a file) the credential enters its context, which is denied. The
same call inside ``$(…)`` or piped into the next command is how the credential is *used*
(``curl -H "Authorization: Bearer $(gcloud auth print-access-token)"``, ``aws ecr
get-login-password | docker login --password-stdin``): that asks, unless the next command
only decodes or prints it (``kubectl get secret … | base64 -d``), which is denied too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules import key_names
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result
from workset.safety.rules.interpreters import OTHER_INTERPRETERS
from workset.safety.rules.secrets import REVEALERS
from workset.safety.rules.wrappers import unwrap

_WORDS = {
    "gcloud": (("auth", "print-access-token"), ("auth", "print-identity-token"),
               ("auth", "application-default", "print-access-token"), ("config", "config-helper"),
               ("secrets", "versions", "access")),
    "az": (("account", "get-access-token"), ("keyvault", "secret", "show"),
           ("keyvault", "secret", "download")),
    "gh": (("auth", "token"), ("auth", "git-credential", "get")),
    "glab": (("auth", "token"),),
    "aws": (("configure", "export-credentials"), ("ecr", "get-login-password"),
            ("sts", "get-session-token"), ("codeartifact", "get-authorization-token"),
            ("secretsmanager", "get-secret-value")),
    "security": (("find-generic-password",), ("find-internet-password",), ("dump-keychain",)),
    "git": (("credential", "fill"), ("credential-store", "get"), ("credential-cache", "get")),
    "secret-tool": (("lookup",), ("search",)),  # search prints each match's secret too
    "pass": (("show",),),
    "op": (("read",), ("item", "get")),
    "vault": (("kv", "get"), ("read",), ("token", "create")),
    "heroku": (("auth:token",),),
    "doctl": (("auth", "token"),),
    "bw": (("get",), ("export",)),
    "lpass": (("show",), ("export",)),
    "keepassxc-cli": (("show",), ("export",)),
    "gopass": (("show",), ("cat",)),
    "npm": (("token", "create"),),
    "keyring": (("get",),),  # python's keyring CLI: the stored password
    "kubectl": (("create", "token"),),
    "oc": (("create", "token"),),
}  # fmt: skip
# Credential helpers of docker and git (``docker-credential-desktop get``,
# ``git-credential-osxkeychain get``): ``get`` prints the stored secret for a host.
HELPER_PREFIXES = ("docker-credential-", "git-credential-")
_AWS_SECRET_KEY = re.compile(r"(secret|session_token|access_key)", re.IGNORECASE)
# Settings whose value is a login: ``//registry.npmjs.org/:_authToken``, ``npmAuthToken``,
# ``http.extraheader`` (an ``Authorization:`` header), poetry's ``http-basic.NAME``.
_SECRET_SETTING = re.compile(
    r"auth.?token|_auth$|_auth\b|password|passwd|secret|token|extraheader|http-basic|authident",
    re.IGNORECASE,
)
_NMCLI_SECRETS = frozenset({"-s", "--show-secrets", "--show-secret"})
_CONFIG_GETTERS = {"npm": "get", "pnpm": "get", "yarn": "get", "git": "--get", "poetry": ""}
_KUBE_OUTPUT = re.compile(r"^(-o|--output)(=?(yaml|json|jsonpath.*|go-template.*|template.*))?$")


def printed(cmd: Cmd) -> str | None:
    """What credential ``cmd`` prints (``gcloud auth print-access-token``), or None."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    for shape in _WORDS.get(cmd.name, ()):
        if tuple(words[: len(shape)]) == shape:
            shows = set("d") if shape == ("dump-keychain",) else set("wg")
            letters = {c for a in cmd.args() if re.fullmatch(r"-[a-zA-Z]+", a) for c in a[1:]}
            if cmd.name == "security" and not shows & letters:  # -w, -ws, -gw…
                return None  # without -w/-g (-d) it prints the items' attributes, not secrets
            return f"{cmd.name} {' '.join(shape)}"
    if (
        cmd.name in ("gh", "glab")
        and words[:2] == ["auth", "status"]
        and ({"-t", "--show-token"} & set(cmd.args()))
    ):
        return f"{cmd.name} auth status --show-token"
    if cmd.name == "nmcli" and _NMCLI_SECRETS & {a.split("=", 1)[0] for a in cmd.args()}:
        return "nmcli --show-secrets"  # Wi-Fi passphrases, VPN passwords (masked without it)
    if cmd.name.startswith(HELPER_PREFIXES) and words[:1] == ["get"]:
        return f"{cmd.name} get"  # a credential helper: it prints the stored secret
    if cmd.name == "aws" and words[:1] == ["ssm"] and "--with-decryption" in cmd.args():
        return "aws ssm get-parameter --with-decryption"  # a SecureString, decrypted
    if cmd.name == "aws" and words[:2] == ["configure", "get"] and words[2:3]:
        return f"aws configure get {words[2]}" if _AWS_SECRET_KEY.search(words[2]) else None
    setting = _secret_setting(cmd, words)
    if setting is not None:
        return setting
    if cmd.name in ("kubectl", "oc") and words[:1] == ["get"] and _names_secret(words[1:]):
        output = any(_KUBE_OUTPUT.match(a) for a in cmd.args())
        return f"{cmd.name} get secret -o …" if output and shows_values(cmd.args()) else None
    if cmd.name in ("kubectl", "oc") and words[:2] == ["config", "view"] and "--raw" in cmd.args():
        return f"{cmd.name} config view --raw"
    return None


def _secret_setting(cmd: Cmd, words: list[str]) -> str | None:
    """``npm config get //registry.npmjs.org/:_authToken``, ``git config --get
    http.extraheader``, ``poetry config http-basic.pypi``: a tool's setting that holds a login,
    read back. Other settings (``npm config get registry``) print nothing secret."""
    verb = _CONFIG_GETTERS.get(cmd.name)
    if verb is None or words[:1] != ["config"]:
        return None
    if verb.startswith("--"):  # git config [--global] --get[-all] KEY, or git config KEY
        keys = [w for w in words[1:2] if "=" not in w] if len(words) == 2 else []
        if any(a.startswith(("--get", "--get-all", "--get-regexp")) for a in cmd.args()):
            keys = words[1:2]
    else:
        keys = words[2:3] if verb and words[1:2] == [verb] else words[1:2] if not verb else []
    if keys and _SECRET_SETTING.search(keys[0]):
        return f"{cmd.name} config {' '.join(words[1:3]) if verb == 'get' else keys[0]}"
    return None


def shows_values(args: tuple[str, ...]) -> bool:
    """The output format of ``kubectl get secret`` prints the secrets' data: not ``-o name``,
    ``wide`` or columns and templates that select only metadata (``.metadata.name``)."""
    formats = [args[i + 1] if a in ("-o", "--output", "--template") and i + 1 < len(args)
               else a.split("=", 1)[1] if a.startswith(("--output=", "--template=")) else
               a[2:].lstrip("=") for i, a in enumerate(args)
               if a.startswith(("-o", "--output", "--template"))]  # fmt: skip
    return any(
        not (f in ("name", "wide") or (re.match(r"(custom-columns|jsonpath|go-template|template)"
                                                r"[^=]*=", f) and not re.search(r"\bdata\b|"
                                                r"stringData|\.\.|\{\.\}|\{\{\s*\.\s*\}\}|\$", f)))
        for f in formats or ["yaml"]
    )  # fmt: skip


def _names_secret(words: list[str]) -> bool:
    kinds = {w.split("/", 1)[0].split(",")[0] for w in words}
    return bool(kinds & {"secret", "secrets"})


def _denied(what: str) -> Finding:
    return Finding(
        "credential-print",
        "deny",
        f"{what} prints a live credential where the agent reads it; secrets never belong in "
        "the agent's context — pass it straight to the command that needs it, or ask the user",
    )


def printer(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    what = printed(cmd)
    if what is not None and ctx.shown:
        yield _denied(what)
    elif what is not None:
        yield Finding(
            "credential-use",
            "ask",
            f"{what} hands a live credential to the next command; a human must confirm where "
            "it goes",
        )


def _decoder(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``… get secret -o jsonpath=… | base64 -d``: the credential decoded and printed."""
    if not ctx.shown or key_names.names_only(cmd):
        return  # … | jq 'keys': only the names of the keys are printed
    for earlier in cmd.upstream:
        what = printed(unwrap(earlier, []))
        if what is not None:
            yield _denied(f"{what} | {cmd.name}")
            return


# Tools made to take other people's credentials: hashes from a domain controller or a
# machine's memory, Kerberos tickets to crack, logins captured on the network.
_DUMPERS = frozenset({"secretsdump", "getuserspns", "getnpusers", "mimikatz", "pypykatz",
                      "lsassy", "rubeus", "kerbrute", "responder", "lazagne", "dumpntds",
                      "ntdsutil", "gosecretsdump", "donpapi", "dploot"})  # fmt: skip


def dumper(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    yield Finding(
        "credential-theft",
        "deny",
        f"{cmd.name} is made to take other people's credentials (password hashes, Kerberos "
        "tickets, logins in memory or on the network); an agent never runs it",
    )


def dumper_name(name: str) -> bool:
    """``impacket-secretsdump``, ``secretsdump.py``, ``mimikatz.exe``: a credential dumper."""
    base = re.sub(r"\.(py|exe|ps1)$", "", name.lower()).removeprefix("impacket-")
    return base in _DUMPERS


HANDLERS: dict[str, Handler] = {
    # git, npm…: their other rules run too
    **{n: printer for n in (*_WORDS, *_CONFIG_GETTERS, "nmcli")},
    **{n: _decoder for n in REVEALERS - OTHER_INTERPRETERS.keys()},  # those: judged as code
}
