"""Searches for the shape of a credential outside the workspace: harvesting.

``grep -rhoE 'ghp_[A-Za-z0-9]{36}|xox[bp]-…' ~``, ``rg -o 'sk-[A-Za-z0-9]{32,}' ~/projects``
and ``grep -r 'BEGIN RSA PRIVATE KEY' /home`` look for tokens and keys by their prefix across
folders that are not the project's, and print what they find: every credential of the user's
other projects lands in the agent's context. Printing the matches outside the workspace is
denied; only naming or counting the files that hold them (``-l``, ``-c``, ``-q``) asks. Inside
the workspace the search is a read of the project's own files, as ``cat`` of them is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result

# Prefixes and markers that only credentials carry: GitHub, GitLab, Slack, AWS, OpenAI,
# Anthropic, Stripe, Google, SendGrid, npm and Hugging Face tokens, private key blocks.
_CREDENTIAL_SHAPE = re.compile(
    r"gh[pousr]_|github_pat_|glpat-|xox[abprs]|\bA[KS]IA|(^|[^\w])sk[-_]|rk_live|AIza|"
    r"\bSG\\?\.|\bnpm_\[|\bhf_|PRIVATE KEY|aws_secret_access_key"
)
_VALUED = frozenset({"-e", "--regexp", "-f", "--file", "-m", "--max-count", "-A", "-B", "-C",
                     "-g", "--glob", "-t", "--type", "-T", "--type-not", "--include",
                     "--exclude", "--exclude-dir", "--max-depth", "-d", "-D"})  # fmt: skip
_NAMES_ONLY = frozenset({"--files-with-matches", "--files-without-match", "--count", "--quiet",
                         "--count-matches"})  # fmt: skip


def credential_search_outside(cmd: Cmd, ctx: Context) -> list[str]:
    """The folders outside the workspace that ``cmd`` searches for a credential's shape."""
    if cmd.name not in SEARCHES:
        return []
    patterns, roots = search_operands(cmd)
    if not any(_CREDENTIAL_SHAPE.search(p) for p in patterns):
        return []
    if not roots and (cmd.upstream or cmd.piped or any(op == "<" for op, _ in cmd.redirects)):
        return []  # searches text it is fed (judged with what feeds it)
    return [r for r in roots or ["."] if not paths.in_workspace(ctx.resolve(r), ctx.workspace)]


def harvest(program: str, where: str) -> Finding:
    return Finding(
        "secret-harvest",
        "deny",
        f"{program} prints every credential of that shape it finds in {where}, outside the "
        "workspace: the user's tokens and keys would land in the agent's context; never "
        "collect credentials — search the workspace, or ask the user",
    )


def _search(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    outside = credential_search_outside(cmd, ctx)
    if not outside:
        return
    letters = {c for a in cmd.args() if re.fullmatch(r"-[a-zA-Z]+", a) for c in a[1:]}
    if letters & set("lLcq") or _NAMES_ONLY & set(cmd.args()):
        yield Finding(
            "secret-search",
            "ask",
            f"{cmd.name} looks for credentials by their shape in {outside[0]}, outside the "
            "workspace; a human must confirm",
        )
        return
    yield harvest(cmd.name, outside[0])


def search_operands(cmd: Cmd) -> tuple[list[str], list[str]]:
    """The search patterns and the files or folders searched."""
    args = cmd.args()
    patterns: list[str] = []
    words: list[str] = []
    skip = False
    for index, word in enumerate(args):
        if skip:
            skip = False
            if args[index - 1] in ("-e", "--regexp"):
                patterns.append(word)
        elif word in _VALUED:
            skip = True
        elif word.startswith("--regexp="):
            patterns.append(word.split("=", 1)[1])
        elif not word.startswith("-") or word == "-":
            words.append(word)
    if not patterns and words:
        patterns, words = words[:1], words[1:]
    return patterns, words


SEARCHES = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack"})
HANDLERS: dict[str, Handler] = {n: _search for n in SEARCHES}
