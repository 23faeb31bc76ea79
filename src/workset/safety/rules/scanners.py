"""Secret scanners run over the workspace: ``gitleaks``, ``detect-secrets``, ``git secrets``.

They read files and report what looks like a credential. Each is vouched for when what it
prints does not hand the secrets themselves to the agent and what it writes (a report, a
baseline) stays in the workspace: ``gitleaks -v`` prints every secret it finds unless
``--redact`` is given, so it asks like ``cat .env``; ``detect-secrets scan`` prints hashes;
``git secrets --scan`` prints the matching lines of files git tracks, which the agent can
read anyway. ``git secrets --register-aws --global`` changes the user's git settings and asks.
"""

from __future__ import annotations

from collections.abc import Callable

from workset.safety.rules.base import Cmd, Context, Finding, option_value, unknown_program
from workset.safety.rules.confinement import inside, outside

_GITLEAKS_READS = frozenset({"detect", "protect", "git", "dir", "directory", "stdin",
                             "version", "help"})  # fmt: skip


def _gitleaks(cmd: Cmd, ctx: Context) -> Finding | None:
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:1] and words[0] not in _GITLEAKS_READS:
        return unknown_program(f"gitleaks {words[0]}")
    args = cmd.args()
    if (
        {"-v", "--verbose"} & set(args)
        and "--redact" not in args
        and not any(a.startswith("--redact=") for a in args)
    ):
        return Finding(
            "secret-read",
            "ask",
            "gitleaks -v prints every secret it finds in full, which puts them in the agent's "
            "context; a human must confirm, or add --redact",
        )
    report = option_value(args, ("-r", "--report-path"))
    if report is not None and not inside(report, ctx):
        return outside(report, "gitleaks")
    return None


def _detect_secrets(cmd: Cmd, ctx: Context) -> Finding | None:
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:1] != ["scan"]:
        return unknown_program(f"detect-secrets {' '.join(words[:1])}".strip())
    baseline = option_value(cmd.args(), ("--baseline",))
    if baseline is not None and not inside(baseline, ctx):
        return outside(baseline, "detect-secrets")
    return None  # prints findings as hashes, never the secret


_GIT_SECRETS_READS = frozenset({"--scan", "--scan-history", "--list", "--install",
                                "--register-aws", "--add", "--add-provider", "-r",
                                "--recursive", "--cached", "--no-index", "--untracked",
                                "-l", "--literal", "-a", "--allowed", "-f", "--force"})  # fmt: skip


def git_secrets(words: tuple[str, ...]) -> Finding | None:
    """``git secrets --scan`` (its options; ``--global`` changes the user's settings)."""
    options = [a for a in words if a.startswith("-")]
    if "--global" in options or any(o not in _GIT_SECRETS_READS for o in options):
        return unknown_program("git secrets", " (outside its scans of this repository)")
    return None


VOUCHERS: dict[str, Callable[[Cmd, Context], Finding | None]] = {
    "gitleaks": _gitleaks,
    "detect-secrets": _detect_secrets,
}
