"""Git pushes: what a push publishes, overwrites or deletes on the remote.

A push asks (it publishes commits where others and their CI see them); a force push or one
that deletes branches or tags asks with its own reason; a forced, deleting or mirroring push
over a branch a team builds on (:data:`_SHARED_BRANCH`: main, develop, release…) or over
every branch is denied, as is copying every branch or tag to a URL that is not a configured
remote.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Finding, ask_finding

# Branches a team builds on: forcing or deleting them on the remote loses others' work.
_SHARED_BRANCH = re.compile(r"^(main|master|trunk|develop|development|production|prod|stable|"
                            r"release([/-].*)?|releases/.*)$")  # fmt: skip


def push(flags: set[str], words: list[str], *, fresh: bool = False) -> Iterator[Finding]:
    """``fresh``: the remote was added or pointed elsewhere in this line, so it is a URL no
    one configured before."""
    if flags & {"n", "--dry-run"}:
        return  # only shows what would be pushed
    forced = flags & {"f", "--force", "--force-with-lease", "--mirror", "--force-if-includes"}
    refspecs = words[1:]
    targets = [r.lstrip("+").rsplit(":", 1)[-1] for r in refspecs]
    deleting = bool({"d", "--delete"} & flags) or any(r.startswith(":") for r in refspecs)
    shared = [t for t in targets if _SHARED_BRANCH.match(t.removeprefix("refs/heads/"))]
    every = (
        "--mirror" in flags
        or (forced and flags & {"--all", "--tags"})
        or any("*" in r and (forced or r.startswith("+") or "--prune" in flags) for r in refspecs)
    )
    if every:
        yield Finding(
            "git-destroy-shared-branch",
            "deny",
            "git push --mirror (or a forced or pruning push of every branch) overwrites every "
            "branch and tag on the remote with the local ones or deletes those it lacks, main "
            "included, which loses others' commits; push the one branch you changed instead",
        )
    elif (forced or deleting or any(r.startswith("+") for r in refspecs)) and shared:
        what = "deletes" if deleting else "force-pushes over"
        yield Finding(
            "git-destroy-shared-branch",
            "deny",
            f"git push {what} {shared[0]!r} on the remote, the branch everyone builds on, "
            "which loses their commits; push a new branch and open a pull request instead",
        )
    elif forced or any(r.startswith("+") for r in refspecs):
        yield ask_finding("git-force-push",
                          "a force push rewrites history other people may have pulled",
                          "push normally, or ask a human to confirm")  # fmt: skip
    elif deleting or "--prune" in flags:
        yield ask_finding("git-delete-remote", "the push deletes branches or tags on the remote",
                          "a human must confirm")  # fmt: skip
    to_url = fresh or (
        bool(words) and ("://" in words[0] or "@" in words[0] or words[0].endswith(".git"))
    )
    words = words or ["origin"]
    if to_url and flags & {"--mirror", "--all", "--tags"}:
        yield Finding(
            "git-push-everything-url",
            "deny",
            f"git push {sorted(flags & {'--mirror', '--all', '--tags'})[0]} copies every branch "
            f"or tag of the repository to {words[0]}, a host that is not a configured remote; "
            "push one branch to a configured remote instead",
        )
    elif to_url:
        yield ask_finding(
            "git-push-url",
            f"git push sends the repository to {words[0]}, which is not a configured remote",
            "push to a configured remote, or confirm the host",
        )
    else:
        yield ask_finding(
            "git-push",
            "git push publishes commits to a remote, outside the workspace, where others and "
            "its CI see them",
            "a human must confirm the push",
        )
