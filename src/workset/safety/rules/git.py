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
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules import git_local, known, listings
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    parse_flags,
    requote,
)
from workset.safety.rules.environment import EDITORS
from workset.safety.rules.secrets import is_secret

_EXEC_KEYS = ("core.hookspath", "core.sshcommand", "core.pager", "core.editor",
              "core.fsmonitor", "core.askpass", "credential.helper", "sequence.editor",
              "diff.external", "gpg.program", "url.", "http.proxy", "include.path",
              "filter.", "uploadpack.", "protocol.")  # fmt: skip


# Branches a team builds on: forcing or deleting them on the remote loses others' work.
_SHARED_BRANCH = re.compile(r"^(main|master|trunk|develop|development|production|prod|stable|"
                            r"release([/-].*)?|releases/.*)$")  # fmt: skip


_WORLD_WRITABLE = re.compile(r"^(/tmp|/var/tmp|/dev/shm)(/|$)")
_HOST_KEYS_OFF = re.compile(
    r"StrictHostKeyChecking[= ]+(no|off)|UserKnownHostsFile[= ]+/dev/null", re.IGNORECASE
)
# Commands git runs for a filter, a diff or a merge driver (filter.lfs.smudge, diff.x.textconv).
_DRIVER_KEY = re.compile(r"filter\..+\.(clean|smudge|process)|diff\..+\.(textconv|command)|"
                         r"merge\..+\.driver|core\.gitproxy")  # fmt: skip
# Shell code that keeps or sends what it is given (a file written, a request, a socket).
_KEEPS = re.compile(r">|\btee\b|\bcurl\b|\bwget\b|\bnc\b|/dev/(tcp|udp)|\bscp\b|\bmail\b|"
                    r"\bsendmail\b|\bssh\b")  # fmt: skip
_COMMAND_KEYS = frozenset({"core.sshcommand", "core.pager", "core.editor", "core.fsmonitor",
                           "core.askpass", "sequence.editor", "diff.external", "gpg.program",
                           "credential.helper"})  # fmt: skip


def _ask(rule: str, why: str, instead: str) -> Finding:
    return Finding(rule, "ask", f"{why}; {instead}")


def _exec_key(key: str, value: str = "") -> bool:
    key = key.lower()
    return key.startswith(_EXEC_KEYS) or (key.startswith("alias.") and value.startswith("!"))


def _git(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """The findings of one git command; work thrown away in a repository outside the
    workspace (``git -C ~/other reset --hard``) is another project's work, and is denied, and
    any other change there (``git --work-tree=.. add -A`` stages the home) asks."""
    elsewhere = None if ctx.cwd is None or known.inside(ctx.cwd, ctx) else ctx.cwd
    other = _repository(cmd, ctx)
    sub = known.subcommand(cmd)[0]
    if other is not None and sub not in _READS:
        yield _ask("git-elsewhere", f"git {sub} works on {other}, outside the workspace",
                   "a human must confirm, or work in the workspace's own repository")  # fmt: skip
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
            if _exec_key(key, value):
                yield _ask("git-config-exec", f"git -c {key}=… makes git run a program",
                           "a human must confirm")  # fmt: skip
                yield from _configured_command(key, value)
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
    if sub == "remote" and words[:1] in (["add"], ["set-url"]) and len(words) > 2:
        ctx.remotes.add(words[1])  # a push to it later in the line goes to that URL
    staged = [w for w in words if is_secret(w)] if sub == "add" else []
    if staged and not flags & {"n", "--dry-run"}:
        ctx.staged_secret = staged[0]  # a push later in the line publishes it
        yield _ask(
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
        yield from _push(flags, words, fresh=(words[0] if words else "origin") in ctx.remotes)
    elif sub == "stash" and (not words or words[0] in ("push", "save")):
        ctx.stashed = True  # uncommitted work put aside, so a reset --hard after it loses none
    elif sub == "reset" and "--hard" in flags and ctx.stashed:
        return
    elif sub == "reset" and "--hard" in flags:
        yield _ask("git-reset-hard", "git reset --hard throws away uncommitted work",
                   "commit or stash first, or confirm")  # fmt: skip
    elif (
        sub == "clean"
        and flags & {"f", "--force"}
        and not flags & {"n", "--dry-run"}
        and not ("X" in flags and "x" not in flags and _own_repository(cmd, ctx))
        and not git_local.confined(sub, rest, cmd, ctx, own=_own_repository(cmd, ctx))
    ):  # -X: only what .gitignore declares generated, in the workspace's own repository
        yield _ask("git-clean", "git clean -f deletes untracked files for good",
                   "list them with git clean -n first")  # fmt: skip
    elif (
        (sub == "checkout" and ("--" in rest or words[:1] == ["."] or "f" in flags))
        or (
            sub == "restore" and not ({"S", "--staged"} & flags and not {"W", "--worktree"} & flags)
        )
    ) and not git_local.confined(sub, rest, cmd, ctx, own=_own_repository(cmd, ctx)):
        yield _ask("git-discard", f"git {sub} overwrites uncommitted changes in the files",
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
        yield _ask("git-drop-history", f"git {sub} drops the reflog that recovers lost commits",
                   "leave the reflog alone")  # fmt: skip
    elif (
        sub == "rm"
        and not flags & {"--cached", "n", "--dry-run"}
        and any(w in (".", "*", "./", ":/") for w in words)
    ):
        yield _ask("git-discard", f"git rm {' '.join(rest)} deletes every tracked file of the "
                   "working tree", "a human must confirm")  # fmt: skip
    elif sub == "worktree" and words[:1] == ["remove"]:
        yield _ask("git-discard", "git worktree remove deletes a working tree and the changes "
                   "not committed in it", "a human must confirm")  # fmt: skip
    elif sub == "worktree" and words[:1] == ["add"] and len(words) > 1:
        if not known.inside(words[1], ctx):
            yield known.outside(words[1], "git worktree add")
    elif sub == "stash" and words[:1] in (["drop"], ["clear"]):
        yield _ask("git-discard", f"git stash {words[0]} throws stashed work away",
                   "pop or apply it first, or confirm")  # fmt: skip
    elif sub in ("branch", "tag") and (flags & {"D"} or (sub == "tag" and "d" in flags)):
        yield _ask("git-delete-ref", f"git {sub} {' '.join(rest)} deletes a ref and its commits",
                   "a human must confirm")  # fmt: skip
    elif sub == "config":
        yield from _config(flags, words, ctx)
    elif sub == "bundle" and _bundle_outside(words, ctx):
        yield known.outside(words[1], "git bundle create")


_NOW = ("now", "all")


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


def _push(flags: set[str], words: list[str], *, fresh: bool = False) -> Iterator[Finding]:
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
        yield _ask("git-force-push", "a force push rewrites history other people may have pulled",
                   "push normally, or ask a human to confirm")  # fmt: skip
    elif deleting or "--prune" in flags:
        yield _ask("git-delete-remote", "the push deletes branches or tags on the remote",
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
        yield _ask(
            "git-push-url",
            f"git push sends the repository to {words[0]}, which is not a configured remote",
            "push to a configured remote, or confirm the host",
        )
    else:
        yield _ask(
            "git-push",
            "git push publishes commits to a remote, outside the workspace, where others and "
            "its CI see them",
            "a human must confirm the push",
        )


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
    return _ask("git-rewrite", f"{what} rewrites commits that may already be shared",
                "make a new commit instead, or confirm")  # fmt: skip


def _config(flags: set[str], words: list[str], ctx: Context) -> Iterator[Result]:
    reading = flags & {"--get", "--list", "l", "--get-all", "--unset"}
    value = words[1] if len(words) > 1 else ""
    changes = flags & {"--unset", "--unset-all", "--add", "--replace-all", "--rename-section",
                       "--remove-section", "-e", "--edit"}  # fmt: skip
    if len(words) == 1 and not changes:
        return  # git config --global user.name: one key and no value only prints it
    if "--global" in flags and not changes and git_local.global_preference(words):
        return  # git config --global init.defaultBranch main: a preference, nothing runs
    if flags & {"--global", "--system"} and not flags & {"--get", "--list", "l", "--get-all"}:
        yield _ask(
            "git-config-global",
            "git config --global changes settings outside the workspace",
            "set it in the repository with git config --local",
        )
        if words and not reading:
            yield from _configured_command(words[0], value, everywhere=True)
        return
    if not changes and git_local.local_program_setting(words):
        return  # git config core.pager 'less -FRX': a plain viewer, nothing foreign runs
    if words[:1] and words[0].lower() == "core.hookspath" and _project_hooks(value, ctx):
        return  # hooks kept in the repository are the project's code, like its Makefile
    rewrite = re.fullmatch(r"url\.(.+)\.(push)?insteadof", words[0].lower()) if words else None
    if rewrite and value and _host(rewrite.group(1)) == _host(value):
        return  # this repository reaches the same host by another protocol (https for ssh)
    if words and not reading and _exec_key(words[0], value):
        yield _ask("git-config-exec", f"git config {words[0]} makes git run a program",
                   "a human must confirm")  # fmt: skip
        yield from _configured_command(words[0], words[1] if len(words) > 1 else "")


def _project_hooks(value: str, ctx: Context) -> bool:
    """``core.hooksPath .githooks``: a directory inside the workspace, written literally."""
    return bool(value) and "$" not in value and paths.in_workspace(ctx.resolve(value),
                                                                   ctx.workspace)  # fmt: skip


def _configured_command(key: str, value: str, *, everywhere: bool = False) -> Iterator[Result]:
    """The command a key such as ``alias.x=!…`` or ``core.fsmonitor`` runs, to be analysed.

    ``everywhere``: the key is set ``--global``/``--system``, so every repository on the
    machine runs it; hooks or a monitor set there are persistence, whatever the directory."""
    key = key.lower()
    builtin = value.lower() in ("true", "false", "yes", "no", "on", "off", "1", "0", "")
    rewrite = re.fullmatch(r"url\.(.+)\.(push)?insteadof", key)
    if everywhere and rewrite and value and _host(rewrite.group(1)) != _host(value):
        yield Finding(
            "git-global-url-rewrite",
            "deny",
            f"git config --global {key} {value} sends every clone, fetch or push of {value} "
            "on this machine to another address, whose code or credentials prompts are then "
            "trusted as the real ones; rewrite the URL of this repository's remote instead",
        )
    if everywhere and key == "core.sshcommand" and _HOST_KEYS_OFF.search(value):
        yield Finding(
            "ssh-host-keys-off",
            "deny",
            f"git config --global core.sshCommand {value} makes every repository's ssh stop "
            "checking who the other host is, from now on, so a machine in the middle goes "
            "unnoticed; add the host's key to known_hosts instead",
        )
    if everywhere and key in ("core.hookspath", "core.fsmonitor") and not builtin:
        yield Finding(
            "git-global-hooks",
            "deny",
            f"git config --global {key} {value} makes every repository on this machine run "
            "that code on commit, checkout or status, long after this task (persistence); set "
            "hooks per repository with git config --local core.hooksPath .githooks",
        )
    included = key == "include.path" or re.fullmatch(r"includeif\..+\.path", key)
    if included and _WORLD_WRITABLE.match(value):
        yield Finding(
            "git-config-world-writable",
            "deny",
            f"{key}={value} makes git read more settings (hooks, pagers, helpers that run "
            "programs) from a place anyone on the machine can write; keep settings in the "
            "repository's own config",
        )
    if key == "core.hookspath" and _WORLD_WRITABLE.match(value):
        yield Finding(
            "git-hooks-world-writable",
            "deny",
            f"core.hooksPath={value} makes git run, on every commit, checkout and push, "
            "whatever anyone on the machine puts in a directory they can all write; keep hooks "
            "in the repository (.githooks) instead",
        )
    if key == "credential.helper" and value.startswith("!") and _KEEPS.search(value):
        yield Finding(
            "credential-capture",
            "deny",
            "a credential helper written as shell code receives every user name and password "
            "git asks for, and this one keeps or sends them elsewhere; use the platform's "
            "helper (osxkeychain, libsecret, manager) or gh auth setup-git",
        )
    if key.startswith("alias.") and value.startswith("!"):
        yield Nested(value[1:])
    elif (key in _COMMAND_KEYS or _DRIVER_KEY.fullmatch(key)) and value:
        yield Nested(value.lstrip("!"))


def _host(url: str) -> str:
    """The host a git URL names (``https://h/…``, ``git@h:…``, ``ssh://u@h:22/…``)."""
    rest = url.split("://", 1)[-1].rsplit("@", 1)[-1] if "://" in url else url.split("@")[-1]
    return re.split(r"[:/]", rest, maxsplit=1)[0].lower()


HANDLERS: dict[str, Handler] = {"git": _git}
