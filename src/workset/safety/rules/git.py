"""Rules for git commands that throw work away, rewrite history or run code.

Pushes that force or delete on the remote, pushes to a URL that is not a configured remote,
history rewrites beyond the reach of the reflog (``filter-branch``/``filter-repo``,
``update-ref -d``, expiring the reflog), commands that discard uncommitted or stashed work,
and configuration that makes git run a program (``core.hooksPath``, ``core.sshCommand``,
``core.pager``, ``alias.* = !…``, global settings) all ask. Everything else git does stays in
the repository and runs without asking (the subcommands listed in
:mod:`workset.safety.rules.known`): a local ``rebase`` or ``commit --amend`` keeps the old
commits in the reflog, and what would publish the rewrite (a force push) is judged as the push
it is; ``git clean -X`` deletes only what ``.gitignore`` declares generated.

Pushes are judged in :mod:`~workset.safety.rules.git_push`, settings that make git run a
program in :mod:`~workset.safety.rules.git_config`, and changes that stay with the user's own
files in :mod:`~workset.safety.rules.git_local`; this module reads the command and judges the
rest.
"""

from __future__ import annotations

from collections.abc import Iterator

from workset.safety.rules import git_local, known, listings
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    ask_finding,
    option_values,
    parse_flags,
    requote,
)
from workset.safety.rules.environment import EDITORS
from workset.safety.rules.git_config import config_findings, configured_command, exec_key
from workset.safety.rules.git_push import push
from workset.safety.rules.network import downloads
from workset.safety.rules.secrets import is_secret

# git filter-repo options that only report on the history (with --analyze).
_FILTER_REPO_REPORTS = frozenset({"--analyze", "--quiet"})


def _git(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """The findings of one git command; work thrown away in a repository outside the
    workspace (``git -C ~/other reset --hard``) is another project's work, and is denied, and
    any other change there (``git --work-tree=.. add -A`` stages the home) asks."""
    elsewhere = None if ctx.cwd is None or known.inside(ctx.cwd, ctx) else ctx.cwd
    other = _repository(cmd, ctx)
    sub = known.subcommand(cmd)[0]
    if other is not None and sub not in _READS:
        yield ask_finding("git-elsewhere", f"git {sub} works on {other}, outside the workspace",
                          "a human must confirm, or work in the workspace's own "
                          "repository")  # fmt: skip
    for finding in _git_findings(cmd, ctx):
        yield finding
        if isinstance(finding, Finding) and finding.rule in _DISCARDS:
            where = elsewhere or _repository(cmd, ctx)
            if where is not None:
                yield Finding(
                    "git-discard-elsewhere",
                    "deny",
                    f"{finding.explanation.split(';')[0]} in {where}, a repository outside the "
                    "workspace that holds someone else's work; leave other repositories alone",
                )


_DISCARDS = frozenset({"git-reset-hard", "git-clean", "git-discard", "git-delete-ref"})
# Subcommands that only read the repository they are pointed at.
_READS = frozenset({"status", "log", "diff", "show", "blame", "grep", "ls-files", "ls-tree",
                    "rev-parse", "describe", "shortlog", "branch", "tag", "remote", "reflog",
                    "cat-file", "show-ref", "for-each-ref", "count-objects", "rev-list",
                    "merge-base", "name-rev", "whatchanged", "check-ignore", "version",
                    "help", "fetch", ""})  # fmt: skip


def _own_repository(cmd: Cmd, ctx: Context) -> bool:
    return _repository(cmd, ctx) is None and (ctx.cwd is None or known.inside(ctx.cwd, ctx))


def _repository(cmd: Cmd, ctx: Context) -> str | None:
    """The repository ``-C``/``--git-dir``/``--work-tree`` names, when outside the workspace."""
    args = cmd.args()
    for index, word in enumerate(args):
        if not word.startswith("-"):
            break
        option, _, attached = word.partition("=")
        value = attached or (args[index + 1] if index + 1 < len(args) else "")
        named = option in ("-C", "--git-dir", "--work-tree") and value
        if named and not cmd.is_dynamic(index + 2) and not known.inside(value, ctx):
            return value
    return None


def _git_findings(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = list(cmd.args())
    while args and args[0].startswith("-"):
        flag = args.pop(0)
        if flag == "-c" and args:
            key, _, value = args.pop(0).partition("=")
            if key.lower().startswith("gc.reflogexpire") and value in _NOW:
                ctx.reflog_expired = True  # gc expires the reflog now, then prunes
            plain = key.lower() in ("core.pager", "core.editor", "sequence.editor") or (
                key.lower().startswith("pager.")
            )
            if plain and value.strip() in EDITORS:  # git -c core.pager=cat log: a plain viewer
                continue
            if exec_key(key, value):
                yield ask_finding("git-config-exec", f"git -c {key}=… makes git run a program",
                                  "a human must confirm")  # fmt: skip
                yield from configured_command(key, value)
        elif flag in ("-C", "--git-dir", "--work-tree") and args:
            args.pop(0)
    if not args:
        return
    sub, rest = args[0], args[1:]
    flags, operands = parse_flags(rest)
    words = [w for _, w in operands]
    yield from _commands_run(sub, rest)
    wiped = git_local.wipes_local_work(sub, flags, ctx)
    if wiped is not None:
        yield wiped
    yield from _output_files(sub, rest)
    if sub in ("apply", "am"):
        yield from _patch_outside(sub, rest, cmd, ctx)
    if sub == "remote" and words[:1] in (["add"], ["set-url"]) and len(words) > 2:
        ctx.remotes.add(words[1])  # a push to it later in the line goes to that URL
    staged = [w for w in words if is_secret(w)] if sub == "add" else []
    if staged and not flags & {"n", "--dry-run"}:
        ctx.staged_secret = staged[0]  # a push later in the line publishes it
        yield ask_finding(
            "git-add-secret",
            f"git add stages {staged[0]}, which holds keys or "
            "credentials, into a commit others may see",
            "add it to .gitignore instead",
        )
    if sub == "push" and ctx.staged_secret and not flags & {"n", "--dry-run"}:
        yield Finding(
            "exfiltration",
            "deny",
            f"the line stages {ctx.staged_secret}, a file of keys or credentials, then pushes "
            "it to a remote, where everyone who can read the repository gets it; never commit "
            "secrets — add the file to .gitignore",
        )
    if (
        sub == "push"
        and ({"d", "--delete"} & flags)
        and listings.fed_whole_listing(
            cmd, lambda c: c.name == "git" and c.args()[:1] in (("branch",), ("for-each-ref",))
        )
    ):
        yield Finding(
            "git-destroy-shared-branch",
            "deny",
            "git push --delete of every branch a listing prints deletes them all on the "
            "remote, main included, which loses others' work; delete the one branch you made",
        )
    elif sub == "push":
        yield from push(flags, words, fresh=(words[0] if words else "origin") in ctx.remotes)
    elif sub == "stash" and (not words or words[0] in ("push", "save")):
        ctx.stashed = True  # uncommitted work put aside, so a reset --hard after it loses none
    elif sub == "reset" and "--hard" in flags and ctx.stashed:
        return
    elif sub == "reset" and "--hard" in flags:
        yield ask_finding("git-reset-hard", "git reset --hard throws away uncommitted work",
                          "commit or stash first, or confirm")  # fmt: skip
    elif (
        sub == "clean"
        and flags & {"f", "--force"}
        and not flags & {"n", "--dry-run"}
        and not ("X" in flags and "x" not in flags and _own_repository(cmd, ctx))
        and not git_local.confined(sub, rest, cmd, ctx, own=_own_repository(cmd, ctx))
    ):  # -X: only what .gitignore declares generated, in the workspace's own repository
        yield ask_finding("git-clean", "git clean -f deletes untracked files for good",
                          "list them with git clean -n first")  # fmt: skip
    elif (
        (sub == "checkout" and ("--" in rest or words[:1] == ["."] or "f" in flags))
        or (
            sub == "restore" and not ({"S", "--staged"} & flags and not {"W", "--worktree"} & flags)
        )
    ) and not git_local.confined(sub, rest, cmd, ctx, own=_own_repository(cmd, ctx)):
        yield ask_finding("git-discard", f"git {sub} overwrites uncommitted changes in the files",
                          "commit or stash them first, or confirm")  # fmt: skip
    elif (sub == "filter-branch" and {"--all", "--branches"} & set(rest)) or (
        sub == "filter-repo" and "--force" in flags
    ):
        yield Finding(
            "git-rewrite-everything",
            "deny",
            f"git {sub} {'--force ' if sub == 'filter-repo' else ''}rewrites every branch and "
            "tag, shared ones too, so every clone and open pull request stops matching"
            + (" and the refs/original backup is overwritten" if "--force" in flags else "")
            + "; rewrite one branch of your own, or ask the repository's owner",
        )
    elif sub == "filter-repo" and "--analyze" in rest and set(rest) <= _FILTER_REPO_REPORTS:
        pass  # --analyze writes a report under .git/filter-repo/analysis, rewrites nothing
    elif sub in ("filter-branch", "filter-repo", "replace") or (
        sub == "update-ref" and "d" in flags
    ):
        yield _history(f"git {sub}")
    elif _purges(sub, rest, ctx):
        yield Finding(
            "git-purge-history",
            "deny",
            f"git {sub} {' '.join(rest)} after the reflog was expired now deletes every commit "
            "no branch points at, beyond recovery (nothing is left to find with git reflog or "
            "git fsck); leave the reflog and the unreachable objects to expire on their own",
        )
    elif (sub == "reflog" and words[:1] in (["expire"], ["delete"])) or (
        sub == "gc" and any(f.startswith("--prune") for f in flags)
    ):
        yield ask_finding("git-drop-history",
                          f"git {sub} drops the reflog that recovers lost commits",
                          "leave the reflog alone")  # fmt: skip
    elif (
        sub == "rm"
        and not flags & {"--cached", "n", "--dry-run"}
        and any(w in (".", "*", "./", ":/") for w in words)
    ):
        yield ask_finding("git-discard", f"git rm {' '.join(rest)} deletes every tracked file "
                          "of the working tree", "a human must confirm")  # fmt: skip
    elif sub == "worktree" and words[:1] == ["remove"]:
        yield ask_finding("git-discard", "git worktree remove deletes a working tree and the "
                          "changes not committed in it", "a human must confirm")  # fmt: skip
    elif sub == "worktree" and words[:1] == ["add"] and len(words) > 1:
        if not known.inside(words[1], ctx):
            yield known.outside(words[1], "git worktree add")
    elif sub == "stash" and words[:1] in (["drop"], ["clear"]):
        yield ask_finding("git-discard", f"git stash {words[0]} throws stashed work away",
                          "pop or apply it first, or confirm")  # fmt: skip
    elif sub in ("branch", "tag") and (flags & {"D"} or (sub == "tag" and "d" in flags)):
        yield ask_finding("git-delete-ref",
                          f"git {sub} {' '.join(rest)} deletes a ref and its commits",
                          "a human must confirm")  # fmt: skip
    elif sub == "config":
        yield from config_findings(flags, words, ctx)
    elif sub == "bundle" and _bundle_outside(words, ctx):
        yield known.outside(words[1], "git bundle create")


_NOW = ("now", "all")


def _patch_outside(sub: str, rest: list[str], cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``git apply --unsafe-paths``, ``--directory=/home/dev``: the patch writes where its
    paths say, outside the repository (a shell rc, a key file). Asked; denied when the patch
    comes from the network in the same line (``curl URL | git apply --unsafe-paths``)."""
    places = option_values(rest, ("--directory",))
    outside = [p for p in places if not known.inside(p, ctx)]
    if "--unsafe-paths" not in rest and not outside:
        return
    where = outside[0] if outside else "paths outside the repository"
    if downloads(cmd.upstream):
        yield Finding(
            "patch-outside",
            "deny",
            f"git {sub} writes a patch fetched from the network into {where}: it can change any "
            "file there (a shell startup file, a key); save the patch in the workspace, read "
            "it, and apply it inside the repository",
        )
    else:
        yield ask_finding(
            "patch-outside", f"git {sub} lets the patch write into {where}", "a human must confirm"
        )


def _purges(sub: str, rest: list[str], ctx: Context) -> bool:
    """``git reflog expire --expire=now --all`` then ``git gc --prune=now`` (or ``git prune``):
    the first drops what remembers lost commits, the second deletes them for good."""
    if sub == "reflog" and rest[:1] == ["expire"]:
        ctx.reflog_expired = ctx.reflog_expired or any(
            w.split("=", 1)[0] in ("--expire", "--expire-unreachable")
            and w.split("=", 1)[-1] in _NOW
            for w in rest
        )
        return False
    pruned = (sub == "gc" and any(w in ("--prune=now", "--prune=all") for w in rest)) or (
        sub == "prune" and not {"-n", "--dry-run"} & set(rest)
    )
    return ctx.reflog_expired and pruned


def _bundle_outside(words: list[str], ctx: Context) -> bool:
    """``git bundle create FILE`` writes FILE; outside the workspace that asks."""
    return len(words) > 1 and words[0] == "create" and not known.inside(words[1], ctx)


_FILTERS = ("--tree-filter", "--index-filter", "--msg-filter", "--env-filter",
            "--commit-filter", "--parent-filter", "--tag-name-filter")  # fmt: skip


def _commands_run(sub: str, rest: list[str]) -> Iterator[Result]:
    """The shell commands git runs for this subcommand, to be analysed like the line itself:
    ``submodule foreach CMD``, ``bisect run CMD…``, ``rebase -x CMD``, ``filter-branch
    --tree-filter CMD``."""
    if sub == "submodule" and "foreach" in rest:
        body = [w for w in rest[rest.index("foreach") + 1 :] if w not in ("--recursive", "-q")]
        if body:
            yield Nested(" ".join(body))
    elif sub == "bisect" and rest[:1] == ["run"] and len(rest) > 1:
        yield Nested(requote(rest[1:]))
    for index, word in enumerate(rest[:-1]):
        if (sub == "rebase" and word in ("-x", "--exec")) or (
            sub == "filter-branch" and word in _FILTERS
        ):
            yield Nested(rest[index + 1])
    for word in rest:
        if sub == "rebase" and word.startswith("--exec="):
            yield Nested(word.split("=", 1)[1])


_OUTPUT_OPTIONS = {"log": ("--output",), "diff": ("--output",), "show": ("--output",),
                   "format-patch": ("-o", "--output-directory", "--output"),
                   "archive": ("-o", "--output"), "shortlog": ("--output",)}  # fmt: skip


def _output_files(sub: str, rest: list[str]) -> Iterator[Result]:
    """``git log --output=FILE --format=TEXT``: git writes that file, with text the line
    chose, so the write is judged as a redirection of that text would be."""
    options = _OUTPUT_OPTIONS.get(sub, ())
    text = next((w.split("=", 1)[1].removeprefix("format:").removeprefix("tformat:")
                 for w in rest if w.startswith(("--format=", "--pretty="))), "")  # fmt: skip
    for index, word in enumerate(rest):
        option, equals, value = word.partition("=")
        if option not in options:
            continue
        target = value if equals else (rest[index + 1] if index + 1 < len(rest) else "")
        if target and target != "-":
            yield Cmd(argv=("printf", "%s\\n", text), redirects=((">", target),),
                      dynamic=(False, False, False))  # fmt: skip


def _history(what: str) -> Finding:
    return ask_finding("git-rewrite", f"{what} rewrites commits that may already be shared",
                       "make a new commit instead, or confirm")  # fmt: skip


HANDLERS: dict[str, Handler] = {"git": _git}
