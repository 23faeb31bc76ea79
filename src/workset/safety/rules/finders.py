"""Rules for the programs that run a command on what they find: ``find -exec``/``-delete``,
``fd -x``, ``xargs``.

What they run is judged as the command it is, with the found names standing under the
searched root (``ROOT/FOUND``, or every entry of it when nothing filters the listing), only
known at run time when the root is. Deleting what a search finds reaches the whole tree, so it
is judged as the recursive delete it amounts to; a search over a protected place that deletes
is denied, and ``-delete`` outside the workspace asks whatever the filter.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules import delete, secret_search, secrets
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    unknown_program,
)
from workset.safety.rules.delete import DELETERS
from workset.safety.rules.static import static_output
from workset.safety.rules.wrappers import skip_options, unwrap

_NAME_GLOB = re.compile(r"[*?\[]")


def _confined_root(root: str, ctx: Context) -> bool:
    """A folder of the workspace (or the workspace itself), written literally."""
    path = ctx.resolve(root)
    return "$" not in root and "`" not in root and paths.in_workspace(path, ctx.workspace)


# find tests that narrow what -delete removes (a name, a path, an age, a size, emptiness).
_FIND_FILTERS = ("-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-mtime", "-mmin",
                 "-atime", "-amin", "-ctime", "-cmin", "-newer", "-size", "-empty")  # fmt: skip


def _find(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    roots: list[str] = []
    index = 0
    while index < len(args) and not args[index].startswith(("-", "(", "!")):
        roots.append(args[index])
        index += 1
    roots = roots or ["."]
    expression = args[index:]
    deletes = "-delete" in expression
    execs: list[list[str]] = []
    current: list[str] | None = None
    for word in expression:
        if current is None and word in ("-exec", "-execdir", "-ok", "-okdir"):
            current = []
        elif current is not None and word in (";", "\\;", "+"):
            execs.append(current)
            current = None
        elif current is not None:
            current.append(word)
    if current:
        execs.append(current)
    deletes = deletes or any(
        DELETERS & {w.rsplit("/", 1)[-1] for w in " ".join(e).split()} for e in execs
    )
    protected = [r for r in roots if paths.is_protected(ctx.resolve(r))]
    if deletes and protected:
        yield Finding(
            "find-delete-protected",
            "deny",
            f"find over {protected[0]!r} that deletes what it finds can wipe the system; run "
            "find inside the workspace (find . …) instead",
        )
    elif deletes and any(
        expression[i + 1].rstrip("/").rsplit("/", 1)[-1] == ".git"
        for i, w in enumerate(expression[:-1])
        if w in ("-name", "-iname", "-path", "-ipath")
    ):
        yield Finding(
            "git-history-delete",
            "ask",
            "find that deletes every .git folder it finds throws away those repositories: "
            "every commit, branch and stash not pushed elsewhere; a human must confirm",
        )
    elif "-delete" in expression and not all(_confined_root(r, ctx) for r in roots):
        yield Finding(
            "find-delete",
            "ask",
            f"find -delete removes what it finds under {roots[0]!r}, outside the workspace or "
            "only known at run time; a human must confirm",
        )
    elif (
        "-delete" in expression
        and not any(w in expression for w in _FIND_FILTERS)
        and not all(delete.confined(ctx.resolve(r), ctx) for r in roots)
    ):  # find . -delete empties the whole workspace; find ./tmp -delete is rm -r ./tmp
        yield Finding(
            "find-delete",
            "ask",
            "find -delete without a -name/-path filter deletes everything under "
            f"{roots[0]!r}; add a filter or confirm",
        )
    listed = secrets.listing_secret(cmd, ctx)
    for words in execs:
        if words:
            program = words[0].rsplit("/", 1)[-1]
            if listed is not None and program not in secrets.LISTING:
                yield secrets.secret_read([listed], _reveals_listed(program, roots, ctx))
            inner = _on_found(cmd, words, roots[0], words.count("{}") == 0)
            yield inner  # judged in turn, as the command it is


_FD_VALUES = frozenset({"-t", "--type", "-e", "--extension", "-E", "--exclude", "-d",
                        "--max-depth", "--min-depth", "-S", "--size", "-j", "--threads",
                        "--changed-within", "--changed-before", "-o", "--owner", "-c",
                        "--color", "--base-directory", "--search-path"})  # fmt: skip


def _fd(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``fd PATTERN ROOT -x CMD`` runs CMD on what it finds, like ``find ROOT -exec CMD``."""
    args = cmd.args()
    at = next((i for i, a in enumerate(args) if a in ("-x", "--exec", "-X", "--exec-batch")), None)
    if at is None:
        return
    valued = {i + 1 for i, a in enumerate(args[:at]) if a in _FD_VALUES}
    operands = [a for i, a in enumerate(args[:at]) if not a.startswith("-") and i not in valued]
    root = operands[1] if len(operands) > 1 else "."
    words = [w for w in args[at + 1 :] if w != ";"] or ["echo"]
    inner = _on_found(cmd, words, root, "{}" not in words)
    if inner.name in DELETERS and paths.is_protected(ctx.resolve(root)):
        yield Finding(
            "find-delete-protected",
            "deny",
            f"fd over {root!r} that deletes what it finds can wipe the system or the home; run "
            "it inside the workspace (fd … . -x …) instead",
        )
    yield inner  # judged in turn, as the command it is


def _on_found(cmd: Cmd, words: list[str], root: str, appended: bool) -> Cmd:
    """The command find/fd runs on what it finds under ``root``: ``{}`` is a path under it
    (``ROOT/FOUND``), only known at run time when the root is. A delete of what a search
    finds reaches the whole tree, so it is judged as the recursive delete it amounts to."""
    found = root.rstrip("/") + "/FOUND"
    argv = [found if w == "{}" else w for w in words] + ([found] if appended else [])
    if argv[0].rsplit("/", 1)[-1] in ("rm", "srm") and "-r" not in argv:
        argv.insert(1, "-r")
    unknown = "$" in root or "`" in root
    inner = cmd.with_argv(argv)
    dynamic = tuple(unknown and "FOUND" in w for w in argv)
    return dataclasses.replace(inner, redirects=(), upstream=(), dynamic=dynamic)


def _xargs(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    start = 1 + skip_options(cmd.args(), "IinLPdEsa")
    listed: list[str] | None = _listed_roots(cmd.upstream)
    inners = [_fed(cmd, start, root) for root in listed] if listed else [_fed(cmd, start, None)]
    inner = inners[0]
    if inner.name in DELETERS and any(
        c.name == "find" and any(paths.is_protected(ctx.resolve(a)) for a in _find_roots(c))
        for c in cmd.upstream
    ):
        yield Finding(
            "find-delete-protected",
            "deny",
            "deleting what find lists over a system or home directory can wipe the machine; "
            "run find inside the workspace (find . …) instead",
        )
    searched_outside = (
        secret_search.credential_search_outside(unwrap(cmd.upstream[-1], []), ctx)
        if cmd.upstream
        else []
    )
    if searched_outside and inner.name in secrets.REVEALERS:  # grep -rl 'PRIVATE KEY' ~ | xargs cat
        yield secret_search.harvest(f"{inner.name} of what the search lists", searched_outside[0])
    listed_secret = (
        secrets.listing_secret(unwrap(cmd.upstream[-1], []), ctx) if cmd.upstream else None
    )
    if listed_secret is not None and inner.name not in secrets.LISTING:
        roots = _find_roots(unwrap(cmd.upstream[-1], []))
        yield secrets.secret_read([listed_secret], _reveals_listed(inner.name, roots, ctx))
    yield from inners  # judged in turn, as the commands they are (one per listed root)


def _fed(cmd: Cmd, start: int, listed: str | None) -> Cmd:
    """The command xargs runs, with what it is fed in place: literal words, the names a
    listing under ``listed`` prints, or a word only known at run time."""
    inner_argv = list(cmd.argv[start:]) or ["echo"]
    fed = static_output(cmd.upstream)
    here = [t for op, t in cmd.redirects if op == "<<"]
    if fed is None and here and not cmd.stdin_dynamic:
        fed = here[0]
    replace = _value(cmd.args(), "-I")
    unknown = [False] * len(inner_argv)
    if fed is not None and replace is not None:
        inner_argv = [w.replace(replace, fed.strip()) for w in inner_argv]
    elif fed is not None:
        inner_argv.extend(fed.split())
    elif listed is not None and replace is not None:  # ls DIR | xargs -I{} rm DIR/{}: a name
        name = listed.rsplit("/", 1)[-1]
        inner_argv = [w.replace("/" + replace, "/" + name).replace(replace, listed)
                      for w in inner_argv]  # fmt: skip
    elif listed is not None:
        inner_argv.append(listed)  # names that find/ls/git ls-files print under their root
    elif (
        cmd.upstream
        or cmd.piped
        or any(op == "<" for op, _ in cmd.redirects)  # xargs rm < list.txt
        or _value(cmd.args(), "-a")
        or "--arg-file" in " ".join(cmd.args())
    ):
        if replace is not None and any(replace in w for w in inner_argv[1:]):
            unknown = [replace in w for w in inner_argv]  # -I{}: the names go where {} is
            inner_argv = [w.replace(replace, "$ARGUMENTS_FROM_THE_PIPE") for w in inner_argv]
        else:
            inner_argv.append("$ARGUMENTS_FROM_THE_PIPE")  # or from the file -a names
            unknown.append(True)
    unknown += [False] * (len(inner_argv) - len(unknown))
    searched = cmd.upstream and unwrap(cmd.upstream[-1], []).name in ("find", "fd", "fdfind")
    if searched and inner_argv[0].rsplit("/", 1)[-1] in ("rm", "srm") and "-r" not in inner_argv:
        inner_argv.insert(1, "-r")  # deleting what a search of a tree finds: a recursive delete
        unknown.insert(1, False)  # (the marks of the words stay with their words)
    inner = dataclasses.replace(cmd.shifted(start).with_argv(inner_argv), redirects=())
    marks = tuple(a or b for a, b in zip(inner.dynamic, unknown, strict=True))
    return dataclasses.replace(inner, dynamic=marks)


def _reveals_listed(program: str, roots: list[str], ctx: Context) -> bool:
    """Printing the secrets a listing finds outside the workspace (``find ~ -name 'id_*' |
    xargs cat``) shows them; inside it they may be the project's fixtures."""
    outside = any(not paths.in_workspace(ctx.resolve(r), ctx.workspace) for r in roots)
    return program in secrets.REVEALERS and outside


def _value(args: tuple[str, ...], option: str) -> str | None:
    for index, word in enumerate(args):
        if word == option and index + 1 < len(args):
            return args[index + 1]
        if word.startswith(option) and len(word) > len(option):
            return word[len(option) :]
    return None


def _listed_roots(upstream: tuple[Cmd, ...]) -> list[str] | None:
    """Where the names come from when the pipe is fed by find/ls/git ls-files/grep -l: for
    each root of the listing, the path its names are judged as."""
    if not upstream:
        return None
    stages = [unwrap(c, []) for c in upstream]
    while len(stages) > 1 and _keeps_names(stages[-1]):
        stages.pop()  # git diff --name-only | grep '\.py$' | sort: still names of the listing
    last = stages[-1]
    if last.name == "git" and "--name-only" in last.argv and not _elsewhere(last):
        roots = ["."]  # git diff/show/log --name-only: paths of the repository
    elif last.name == "find":
        roots = _find_roots(last)
    elif last.name == "ls" or (last.name == "git" and "ls-files" in last.argv):
        roots = [a for a in last.args() if not a.startswith("-") and a != "ls-files"] or ["."]
    elif last.name in ("grep", "rg") and any(a in ("-l", "-rl", "-lr", "--files-with-matches")
                                              for a in last.args()):  # fmt: skip
        roots = secret_search.search_operands(last)[1] or ["."]
    else:
        return None
    if any(last.dynamic) or not roots:
        return None
    return [_listed(last, root.rstrip("/") or "/") for root in roots]


def loop_values(stages: tuple[Cmd, ...], ctx: Context) -> list[str] | None:
    """The paths a loop variable stands for when a listing feeds it (``for f in $(git ls-files
    '*.sh')``, ``find ./build -name '*.o' | while read -r f``), as ``xargs`` judges what it
    is fed: one per root; under a root or pattern that picks out secrets, a path there that
    names one (``find ~ -name '*.pem'`` is ``~/LISTED.pem``, ``find ~/.aws -type f`` is
    ``~/.aws/*``). None when it is not a listing."""
    roots = _listed_roots(stages)
    if roots is None:
        return None
    lister = [unwrap(c, []) for c in stages]
    while len(lister) > 1 and _keeps_names(lister[-1]):
        lister.pop()
    if lister[-1].name == "ls" and not all(r.startswith("./") or r in ("*", ".") for r in roots):
        return None  # ls DIR prints bare names, not paths under DIR
    if secrets.listing_secret(lister[-1], ctx) is None:
        return roots
    args = lister[-1].args()
    named = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-name", "-iname")]
    base = named[0].rsplit("/", 1)[-1].replace("*", "LISTED") if named else "*"
    return [r.rsplit("/", 1)[0] + "/" + base for r in roots]


def _listed(last: Cmd, root: str) -> str:
    """The path the names a listing prints under ``root`` are judged as."""
    if last.name == "ls" and _NAME_GLOB.search(root):
        return root  # ls *.log | xargs rm: the names the pattern matches
    everything = (last.name == "ls" and not set("Rd") & set("".join(last.args()))) or (
        last.name == "find" and not any(w in last.args() for w in _FIND_FILTERS)
    )
    if everything:  # every entry: judged as the directory itself
        return "./*" if root == "." else root + "/*"
    return "./LISTED" if root == "." else root + "/LISTED"


def _keeps_names(cmd: Cmd) -> bool:
    """A filter that passes some of the lines it is fed unchanged (a name stays a name)."""
    if cmd.name in ("sort", "uniq", "head", "tail", "tac"):
        return True
    changes = {"-o", "-c", "-l", "-L", "--count", "--only-matching", "-r", "-R"}
    return cmd.name in ("grep", "egrep", "fgrep") and not changes & set(cmd.args())


def _elsewhere(cmd: Cmd) -> bool:
    return any(a.split("=", 1)[0] in ("-C", "--git-dir", "--work-tree") for a in cmd.args())


def _find_roots(cmd: Cmd) -> list[str]:
    roots = []
    for word in cmd.args():
        if word.startswith(("-", "(", "!")):
            break
        roots.append(word)
    return roots or ["."]


_PARALLEL_VALUED = frozenset({"-j", "--jobs", "-N", "-n", "--max-args", "--colsep", "-d",
                              "--delimiter", "--halt", "--timeout", "--retries", "-I"})  # fmt: skip


def _parallel(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """GNU ``parallel CMD ::: A B`` runs ``CMD A`` and ``CMD B`` (``{}`` stands for each);
    fed by a pipe, as ``xargs`` is. Another machine (``-S``), a log or an argument file asks."""
    args = list(cmd.args())
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] not in (":::", "::::"):
        if re.fullmatch(r"-[jN]\d+", args[index]):
            index += 1
            continue
        if args[index].split("=", 1)[0] not in _PARALLEL_VALUED | {
            "-k",
            "--keep-order",
            "--bar",
            "--progress",
            "--eta",
            "-q",
            "--tag",
            "--will-cite",
        }:
            yield unknown_program("parallel " + args[index])  # fmt: skip
            return
        index += 2 if args[index] in _PARALLEL_VALUED else 1  # (-j4: the value attached)
    rest = args[index:]
    split = rest.index(":::") if ":::" in rest else len(rest)
    words, values = rest[:split], rest[split + 1 :]
    if "::::" in rest or any(cmd.is_dynamic(index + 1 + i) for i in range(len(rest))):
        yield unknown_program("parallel", " (its commands are only known at run time)")
        return
    if not words:  # parallel ::: 'make a' 'make b': each value is a command
        yield from (Nested(v) for v in values[:8])
        return
    if split == len(rest):  # fed by a pipe: judged as xargs is, listings and all
        yield from _xargs(cmd.with_argv(["xargs", *words]), ctx)
        return
    fed = values[:8]
    for value in fed:
        argv = [w.replace("{}", value) for w in words]
        argv += [] if any("{}" in w for w in words) else [value]
        yield dataclasses.replace(cmd.with_argv(argv), dynamic=(False,) * len(argv), redirects=())


HANDLERS: dict[str, Handler] = {"find": _find, "xargs": _xargs, "fd": _fd, "fdfind": _fd,
                                "parallel": _parallel}  # fmt: skip
