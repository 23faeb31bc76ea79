"""Reads of the forge the user is logged in to (``gh``, ``glab``): listings, views, statuses and
diffs, a GET of its API or a GraphQL query, release assets and run artifacts fetched into the
workspace. Everything else these clients do contacts the network and is judged there
(:mod:`workset.safety.rules.network`, :mod:`workset.safety.rules.forge_api`)."""

from __future__ import annotations

from workset.safety.rules import forge_api
from workset.safety.rules.base import Cmd, option_value
from workset.safety.rules.network import uploads

# gh/glab calls that only read the user's own forge account (as ``git fetch`` reads it):
# listings, views, statuses and diffs of its pull requests, issues, runs, releases, gists.
_FORGE_NOUNS = frozenset({"pr", "mr", "issue", "run", "workflow", "release", "repo", "gist",
                          "label", "cache", "ruleset", "secret", "variable", "ci", "snippet",
                          "milestone", "search", "project", "org", "extension",
                          "codespace", "attestation"})  # fmt: skip
_FORGE_READS = frozenset({"list", "ls", "view", "status", "diff", "checks", "get", "watch",
                          "verify"})  # fmt: skip
# Artifacts and release assets fetched into a folder of the workspace (the default: here).
_FORGE_DOWNLOADS = frozenset({("release", "download"), ("run", "download")})
_DOWNLOAD_PLACES = ("-D", "--dir", "-O", "--output")
_FORGE_TOP = frozenset({"status", "--version", "version", "help"})


def forge_read(cmd: Cmd) -> bool:
    """``gh pr list``, ``gh run view 123 --log``, ``glab mr view 4``: a read of the forge the
    user is logged in to, with every word literal and nothing sent (no fields, no body)."""
    if cmd.name not in ("gh", "glab") or any(cmd.dynamic):
        return False
    if _graphql_query(cmd.args()):
        return True
    if uploads(cmd):
        return False
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:1] and words[0] in _FORGE_TOP and len(words) == 1:
        return True
    if words[:1] == ["api"] and len(words) > 1:  # a GET of the forge's API, nothing sent
        return _api_get(cmd.args())
    host = option_value(cmd.args(), ("-h", "--hostname"))
    if words[:2] == ["auth", "status"] and words[2:] in ([], [host]):
        # who is logged in (on one host); the token only with --show-token
        return not {"-t", "--show-token"} & set(cmd.args())
    if words[:2] in (["repo", "clone"], ["pr", "checkout"]) and len(words) > 2:
        return True  # a clone (where it writes: rules.clones) or a branch fetched here
    if tuple(words[:2]) in _FORGE_DOWNLOADS:
        args = cmd.args()
        places = [args[i + 1] for i, a in enumerate(args[:-1]) if a in _DOWNLOAD_PLACES]
        places += [a.split("=", 1)[1] for a in args if a.startswith(("--dir=", "--output="))]
        return all(not p.startswith(("/", "~", "..")) and p != "-" for p in places)
    if len(words) < 2 or words[0] not in _FORGE_NOUNS:
        return False
    return words[0] == "search" or words[1] in _FORGE_READS


def _graphql_query(args: tuple[str, ...]) -> bool:
    """``gh api graphql -f query='{ viewer { login } }'``: a GraphQL query (not a mutation)
    with literal fields, none read from a file; it reads the forge as a GET does."""
    if args[:2] != ("api", "graphql"):
        return False
    fields = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-f", "-F", "--raw-field",
                                                                     "--field")]  # fmt: skip
    rest = [a for i, a in enumerate(args[2:], 2) if args[i - 1] not in ("-f", "-F", "--raw-field",
            "--field", "--jq", "-q", "--paginate") and a not in ("-f", "-F", "--raw-field",
            "--field", "--jq", "-q", "--paginate", "--slurp")]  # fmt: skip
    query = [f.split("=", 1)[1].lstrip() for f in fields if f.startswith("query=")]
    return (
        len(query) == 1
        and not query[0].startswith("mutation")
        and "mutation" not in query[0].split("{", 1)[0]
        and not any("=@" in f for f in fields)
        and not rest
    )


def _api_get(args: tuple[str, ...]) -> bool:
    """``gh api repos/o/r/pulls --jq …``: GET (the default without fields), no body."""
    sends = any(a == "--input" or a.startswith("--input=") for a in args)
    return forge_api.method(args) == "GET" and not sends
