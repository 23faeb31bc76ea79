"""Project tasks named for reaching outside the workspace: ``make deploy``, ``just release``,
``npm run publish:prod``, ``rake db:rollback``.

A project's Makefile, justfile or ``package.json`` scripts are the project's own code, and
building, testing or linting through them stays in the workspace. A task named by a verb of
shipping (deploy, release, publish, upload, push, rollout, promote, apply, destroy, …) does by
its name what a human confirms: it changes a server, a registry or a cloud account. The name
is all the line shows (the recipe is not read), so such a task asks; ``build:prod`` holds no
such verb, and ``test:release-notes`` or ``build-release`` say by another word that they stay
local.

A script of the project run by its path is read the same way (:func:`shipping_script`): its
file name and its arguments are all the line shows, so ``./scripts/deploy.sh``,
``bash scripts/release.sh --publish`` and ``./scripts/run.sh production`` ask, where
``./scripts/build.sh`` and ``./scripts/release-notes.sh`` run.
"""

from __future__ import annotations

import re

from workset.safety.rules.base import Cmd, Finding, is_script

# Verbs whose task changes something outside the workspace.
_OUTWARD = frozenset({"deploy", "deploys", "undeploy", "redeploy", "release", "publish", "upload",
                      "push", "ship", "rollout", "promote", "provision", "apply", "destroy",
                      "teardown", "rollback", "decommission", "submit"})  # fmt: skip
# Runners whose operands are task names, and the options among theirs that take a value.
# Words that keep such a task local: ``test:release-notes``, ``build-release``, ``plan-apply``.
_LOCAL = frozenset({"test", "tests", "check", "lint", "build", "compile", "bundle", "dry",
                    "dryrun", "plan", "preview", "notes", "docs", "doc", "changelog", "validate",
                    "verify", "local", "diff", "fmt", "format", "prepare", "draft", "bump",
                    "version"})  # fmt: skip
_RUNNERS = {
    "make": ("-C", "--directory", "-f", "--file", "--makefile", "-j", "--jobs", "-I", "-o", "-W"),
    "just": ("-f", "--justfile", "-d", "--working-directory", "--set"),
    "task": ("-t", "--taskfile", "-d", "--dir"),
    "mage": ("-d", "-w"),
    "rake": ("-f", "--rakefile", "-C", "--directory"),
    "invoke": ("-c", "--collection", "-r", "--search-root"),
    "inv": ("-c", "--collection", "-r", "--search-root"),
}
_RUNNERS["gmake"] = _RUNNERS["make"]
_SCRIPT_RUNNERS = frozenset({"npm", "pnpm", "yarn", "bun"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][\w.]*=")


def tasks(cmd: Cmd) -> list[str]:
    """The task names ``cmd`` runs through a project runner, or none."""
    args = list(cmd.args())
    if cmd.name in _SCRIPT_RUNNERS:
        words = [a for a in args if not a.startswith("-")]
        if words[:1] in (["run"], ["run-script"]):
            return words[1:2]
        # yarn deploy, pnpm deploy: a script by its name (pnpm's own deploy copies a package)
        return words[:1] if cmd.name in ("yarn", "pnpm") and words else []
    valued = _RUNNERS.get(cmd.name)
    if valued is None:
        return []
    out = []
    for index, word in enumerate(args):
        if word.startswith("-") or _ASSIGNMENT.match(word):
            continue
        if index and args[index - 1] in valued:
            continue
        out.append(word)
    return out


# Interpreters whose first operand is the script they run, and the words that name a live target.
_INTERPRETERS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "python", "python3", "node",
                           "ruby", "perl", "php", "deno", "bun", "tsx", "ts-node"})  # fmt: skip
_LIVE = frozenset({"prod", "production", "live"})


def _script(cmd: Cmd) -> tuple[str, list[str]] | None:
    """The project script ``cmd`` runs by its path, and the words given to it."""
    if not cmd.argv:
        return None
    if is_script(cmd):
        return cmd.argv[0], list(cmd.args())
    args = list(cmd.args())
    if cmd.name not in _INTERPRETERS or not args or {"-c", "-e", "-n"} & set(args):
        return None  # bash -n deploy.sh only parses it
    first = next((i for i, a in enumerate(args) if not a.startswith("-")), None)
    if first is None or "." not in args[first].rsplit("/", 1)[-1]:
        return None  # python -m pkg, node server: a module or a name, not a script file
    return args[first], args[first + 1 :]


def shipping_script(cmd: Cmd) -> Finding | None:
    """Why a project script named, or given arguments, for shipping asks, or None."""
    found = _script(cmd)
    if found is None:
        return None
    path, args = found
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
    words = set(re.split(r"[^a-z]+", stem))
    given = {w for a in args for w in re.split(r"[^a-z]+", a.lower().lstrip("-")) if w}
    verbs = sorted((words | given) & _OUTWARD) + sorted(given & _LIVE)
    if not verbs or _LOCAL & (words | given):
        return None
    return Finding(
        "outward-task",
        "ask",
        f"runs the project's script {path}, which by its name or arguments ({verbs[0]}) "
        "changes something outside the workspace (a server, a registry, a cloud account); a "
        "human must confirm, or run the step that only builds or checks",
    )


def outward(cmd: Cmd) -> Finding | None:
    """Why a task named for shipping asks, or None."""
    for task in tasks(cmd):
        words = re.split(r"[^a-z]+", task.lower())
        verbs = [w for w in words if w in _OUTWARD]
        if verbs and not _LOCAL & set(words):
            return Finding(
                "outward-task",
                "ask",
                f"{cmd.name} runs the project's task {task!r}, which by its name ({verbs[0]}) "
                "changes something outside the workspace (a server, a registry, a cloud "
                "account); a human must confirm, or run the step that only builds or checks",
            )
    return None
