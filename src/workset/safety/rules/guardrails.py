"""Guardrails switched off: coding agents started without approvals, tools told to stop checking.

- A coding agent (``claude``, ``codex``, ``gemini``, ``aider``, ``goose``…) started with its
  approvals or sandbox off (``--dangerously-skip-permissions``, ``--yolo``, ``-a never``,
  ``--sandbox danger-full-access``) runs whatever it decides, unseen: denied.
- A package manager or VCS told to stop verifying TLS (``yarn config set enableStrictSsl
  false``, ``conda config --set ssl_verify false``, ``poetry config certificates.x.cert
  false``, ``GOINSECURE``/``GOSUMDB=off`` kept in ``go env -w``): denied, whatever the tool.
- A certificate imported into Java's machine-wide trust store (``keytool -importcert
  -cacerts``): denied, like ``certutil -addstore Root``.
- A security check of the project's CI (CodeQL, a secret or dependency scan, a SAST step)
  commented out or deleted by an in-place edit (``sed -i '/codeql-action/d' ….yml``): asked,
  since nothing else in the line shows the check gone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.agent_files import WORKFLOW
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result
from workset.safety.rules.base import deny_finding as _deny

AGENTS = frozenset({"claude", "codex", "gemini", "aider", "goose", "opencode", "amp", "qwen",
                    "cursor-agent", "crush", "cline", "copilot", "kiro", "workset",
                    "openhands", "plandex"})  # fmt: skip
_UNGUARDED = re.compile(
    r"^--?(dangerously[-\w]*|yolo|yes-always|auto-approve[-\w]*|bypass[-\w]*|"
    r"no-sandbox|full-access|trust-all[-\w]*|allow-all[-\w]*)$|^-y$",
    re.I,
)
_UNGUARDED_VALUES = {
    ("-a", "--ask-for-approval", "--approval-mode", "--approval-policy"): ("never", "yolo"),
    ("-s", "--sandbox"): ("danger-full-access", "none", "off"),
    ("--permission-mode",): ("bypasspermissions",),
    ("-c", "--config"): ("approval_policy=never", "sandbox_mode=danger-full-access",
                         'approval_policy="never"', 'sandbox_mode="danger-full-access"'),
}  # fmt: skip
_TLS_KEY = re.compile(r"ssl[-_]?verify|strict[-_]?ssl|enablestrictssl|sslverify|verify[-_]?ssl|"
                      r"tls[-_]?verify|check[-_]?certificate|"
                      r"certificates\.[\w-]+\.cert|^gosumdb$|^goinsecure$|^gonosumcheck$|"
                      r"^gonosumdb$|^goflags$", re.I)  # fmt: skip
_DISABLE_KEY = re.compile(r"disable[-_]?tls|insecure|no[-_]?verify|skip[-_]?tls[-_]?verify|"
                          r"ssl[-_]?no[-_]?verify|allow[-_]?insecure", re.I)  # fmt: skip
_ON = re.compile(r"^(true|1|yes|on)$", re.I)
_CONFIG_READS = frozenset({"get", "list", "ls", "show", "--show", "--get", "--list", "-l",
                           "--show-sources", "--get-all"})  # fmt: skip
_OFF = re.compile(r"^(false|0|no|off|disable[d]?|-insecure|\*)$", re.I)
_TLS_TOOLS = frozenset({"npm", "pnpm", "yarn", "conda", "mamba", "micromamba", "pip", "pip3",
                        "poetry", "pdm", "uv", "composer", "bundle", "gem", "bower", "nuget",
                        "dotnet", "go", "git", "hg", "svn", "cargo", "helm"})  # fmt: skip


def _agent(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    flag = next((a for a in args if _UNGUARDED.match(a.split("=", 1)[0])), None)
    if flag == "-y" and cmd.name not in ("gemini", "qwen"):
        flag = None  # only gemini's -y is --yolo
    for options, values in _UNGUARDED_VALUES.items():
        for index, word in enumerate(args):
            option, equals, value = word.partition("=")
            if option in options:
                value = value if equals else (args[index + 1] if index + 1 < len(args) else "")
                if value.lower().replace(" ", "") in values:
                    flag = f"{option} {value}"
    if flag is not None:
        yield _deny("agent-unguarded", f"{cmd.name} {flag} starts a coding agent with its "
                    "approvals or sandbox off", "start it with its approvals on, and let the "
                    "user review what it does")  # fmt: skip


def _tls_off(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = [a for a in cmd.args() if a not in ("--global", "--user", "-g", "--system", "--env")]
    for index, word in enumerate(args):
        key, equals, value = word.partition("=")
        if not equals:
            value = args[index + 1] if index + 1 < len(args) else ""
        bare, plain = key.lstrip("-"), value.strip("'\"")
        off = (_TLS_KEY.search(bare) and _OFF.match(plain)) or (
            _DISABLE_KEY.search(bare) and _ON.match(plain)
        )
        if off and (index > 0 or equals):
            yield _deny("tls-off", f"{cmd.name} {key} {value} stops verifying TLS certificates, so "
                        "anyone on the network can serve code or packages", "keep verification "
                        "on; point the tool at the right CA bundle instead")  # fmt: skip
            return


def _keytool(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = [a.lower() for a in cmd.args()]
    imports = {"-importcert", "-import"} & set(args)
    if imports and ("-cacerts" in args or any("cacerts" in a for a in args)):
        yield _deny("trust-root", "keytool -importcert into cacerts trusts a new certificate for "
                    "every Java program here", "pass the certificate to the one build that "
                    "needs it (a project truststore)")  # fmt: skip


def config_read(cmd: Cmd) -> bool:
    """``yarn config get enableStrictSsl``, ``conda config --show``, ``keytool -list``: a tool's
    settings or a truststore printed, nothing changed."""
    args = cmd.args()
    if cmd.name == "keytool":
        changes = {"-importcert", "-import", "-delete"}
        return bool({"-list", "-printcert"} & set(args)) and not changes & set(args)
    return (
        cmd.name in _TLS_TOOLS | {"conda"}
        and args[:1] == ("config",)
        and (len(args) == 1 or args[1] in _CONFIG_READS)
    )


# The workflow files the write rules read, and the other CI systems' pipeline files.
_CI_FILE = re.compile(
    rf"{WORKFLOW.pattern}|(^|/)(\.pre-commit-config|azure-pipelines|bitbucket-pipelines|"
    r"\.circleci/config)\.ya?ml$|(^|/)Jenkinsfile$"
)
_SECURITY_CHECK = re.compile(
    r"codeql|trivy|snyk|semgrep|gitleaks|trufflehog|dependency[-_]review|scorecard|bandit|"
    r"\bsast\b|secret[-_ ]?scan|grype|checkov|tfsec|osv[-_]scanner|npm audit|pip[-_]audit|"
    r"cargo[-_ ]audit|govulncheck|zizmor|detect[-_]secrets",
    re.IGNORECASE,
)
# A sed script that deletes matching lines or comments them out.
_REMOVES = re.compile(r"/[^/]*/\s*(,\s*/[^/]*/\s*)?d\b|#\s*&|s/\^/#|s/\^\\?\(\\?s\*\\?\)/")


def _ci_check_removed(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if not any(a == "-i" or a.startswith(("-i", "--in-place")) for a in args):
        return
    if not any(_CI_FILE.search(a) for a in args):
        return
    scripts = [a for a in args if not a.startswith("-") and not _CI_FILE.search(a)]
    if any(_REMOVES.search(s) and _SECURITY_CHECK.search(s) for s in scripts):
        yield Finding(
            "ci-check-removed",
            "ask",
            "the edit comments out or deletes a security check of the project's CI (a code, "
            "secret or dependency scan); a human must confirm",
        )


HANDLERS: dict[str, Handler] = {
    "sed": _ci_check_removed,
    **{n: _agent for n in AGENTS},
    **{n: _tls_off for n in _TLS_TOOLS},
    "keytool": _keytool,
}
