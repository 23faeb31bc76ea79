"""The entry point of the rules: :func:`check` judges one command by routing it to its family.

It unwraps ``sudo``/``env``/…, judges output redirections, remembers ``cd`` and downloads in
the context, and looks the command name up in the families' ``HANDLERS`` tables. ``find
-exec``/``-delete`` and ``xargs`` live here because they run other commands, which
:func:`check` judges in turn.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules import (
    build_files,
    credentials,
    delete,
    dumps,
    editors,
    git,
    hardening,
    infra,
    interpreters,
    known,
    known_lists,
    network,
    option_commands,
    persistence,
    registries,
    secrets,
    servers,
    system,
    writes,
)
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Nested, Result, parse_flags
from workset.safety.rules.delete import DELETERS
from workset.safety.rules.interpreters import OTHER_INTERPRETERS, PYTHON, interpreter
from workset.safety.rules.known_lists import HELP
from workset.safety.rules.network import (
    DOWNLOADERS,
    NETWORK,
    download_exec,
    download_targets,
    fetch_and_run,
    forge_read,
    local_only,
    reverse_shell,
    uploads,
)
from workset.safety.rules.static import static_output
from workset.safety.rules.wrappers import skip_options, unwrap
from workset.safety.rules.writes import (
    MKFS,
    WRITING_REDIRECTS,
    in_place,
    in_place_files,
    mkfs,
    symlink,
    write_target,
)


def check(cmd: Cmd, ctx: Context) -> list[Result]:
    """Every finding about ``cmd`` (after unwrapping ``sudo``, ``env``, ``nohup`` and kin).

    The families find what is dangerous; when none of them has anything to say, the command
    still has to earn its way: :func:`~workset.safety.rules.known.vouch` asks unless it is
    shown to be read-only or confined to the workspace.
    """
    out: list[Result] = []
    written = cmd
    cmd = unwrap(cmd, out)
    if not cmd.argv and written.redirects:
        cmd = written.with_argv(["exec"])  # "exec 3<>/dev/tcp/…": redirections of the shell
    if not cmd.argv:
        return out
    if cmd.args() and all(a in HELP for a in cmd.args()) and not cmd.redirects:
        return out  # "nc -h", "docker --version": only prints help
    globbed = _globbed_names(cmd)
    if globbed is not None:  # /bin/r? -rf ~: bash runs whatever the pattern matches
        out.append(globbed[0])
        for name in globbed[1]:
            out.extend(check(cmd.with_argv([name, *cmd.args()]), ctx))
        return out
    if cmd.is_dynamic(0):
        out.append(
            Finding(
                "dynamic-command",
                "ask",
                f"the command name {cmd.argv[0]!r} is computed when the line runs, so what "
                "it does cannot be checked; write the command name literally",
            )
        )
    for op, target in cmd.redirects:
        if op in WRITING_REDIRECTS and not target.isdigit() and target != "-":
            out.extend(write_target(target, f"redirection {op}", ctx))
            if not _socket(target) and not known.inside(target, ctx):
                out.append(known.outside(target))
    name = cmd.name
    if cmd.argv[0] in ctx.downloaded or ctx.resolve(cmd.argv[0]) in ctx.downloaded:
        out.append(download_exec(f"runs {cmd.argv[0]}, which this line downloaded"))
    elif "/" in cmd.argv[0] and ctx.resolve(cmd.argv[0]) in ctx.scripts:
        out.append(Nested(ctx.scripts[ctx.resolve(cmd.argv[0])]))  # ./x.sh the line wrote
    if name == "rm":
        ctx.removed.update(ctx.resolve(w) for i, w in enumerate(cmd.args(), 1)
                           if not w.startswith("-") and not cmd.is_dynamic(i))  # fmt: skip
    if name in ("cd", "pushd", "popd"):
        ctx.cwd = _new_cwd(cmd, ctx)
    for handler in _HANDLERS.get(name, ()):
        out.extend(handler(cmd, ctx))
    if name.startswith(credentials.HELPER_PREFIXES):
        out.extend(credentials.printer(cmd, ctx))
    out.extend(in_place(cmd, ctx))
    out.extend(servers.serving(cmd, ctx))
    out.extend(fetch_and_run(cmd))
    out.extend(persistence.persisted_code(cmd, ctx))
    out.extend(build_files.build_code(cmd, ctx))
    if MKFS.match(name):
        out.extend(mkfs(cmd, ctx))
    elif (PYTHON.match(name) or name in OTHER_INTERPRETERS) and name not in _HANDLERS:
        out.extend(interpreter(cmd, ctx))
    shell = reverse_shell(cmd)
    if shell is not None:
        out.append(shell)
    out.extend(secrets.environment_searched(cmd, ctx))
    read = secrets.secret_words(cmd, ctx)
    if read:
        out.append(secrets.judge_read(cmd, ctx, read))
    offline = name == "openssl" and not set(cmd.args()[:1]) & _OPENSSL_NETWORK
    if (name in NETWORK and not local_only(cmd) and not offline and not forge_read(cmd)) or any(
        _socket(t) for _, t in cmd.redirects
    ):
        out.append(
            Finding(
                "network",
                "ask",
                f"{name} contacts the network; confirm the host, or use a tool that fetches "
                "into the workspace",
            )
        )
        if uploads(cmd):
            out.append(
                Finding(
                    "upload",
                    "ask",
                    f"{name} sends local data to another host; confirm what is sent and where",
                )
            )
    if name in DOWNLOADERS:
        targets = download_targets(cmd, ctx)
        ctx.downloaded.update(targets)
        for target in sorted(t for t in targets if t not in (".", "-") and not t.startswith("./")):
            out.extend(write_target(target, f"{name} -o", ctx))  # curl -o ~/.ssh/authorized_keys
            place = ctx.resolve(target)
            if (
                persistence.is_persistence_place(place)
                or paths.is_startup_file(place)
                or writes.on_path(place)
            ):
                out.append(download_exec(f"{name} saves a download as {target}, which runs later"))
    if not any(isinstance(r, Finding) for r in out):
        vouched = known.vouch(cmd, ctx)
        if vouched is not None:
            out.append(vouched)
    if name == "ln":
        out.extend(symlink(cmd, ctx))  # last: the link is judged as written, then followed
    ctx.written.update(ctx.resolve(w) for w in _writes(cmd))
    return out


def _writes(cmd: Cmd) -> list[str]:
    """The files ``cmd`` writes whose text the rules do not see (for later commands)."""
    out = [t for op, t in cmd.redirects if op in WRITING_REDIRECTS and not t.isdigit()]
    out.extend(in_place_files(cmd))
    _, operands = parse_flags(cmd.args())
    if cmd.name in ("cp", "mv", "install", "ln", "rsync", "ditto", "dd") and operands:
        out.append(operands[-1][1])
    elif cmd.name == "tee":
        out.extend(w for _, w in operands)
    return out


_OPENSSL_NETWORK = frozenset({"s_client", "s_server", "s_time", "ocsp"})


def _confined_root(root: str, ctx: Context) -> bool:
    """A folder of the workspace (or the workspace itself), written literally."""
    path = ctx.resolve(root)
    return "$" not in root and "`" not in root and paths.in_workspace(path, ctx.workspace)


# find tests that narrow what -delete removes (a name, a path, an age, a size, emptiness).
_FIND_FILTERS = ("-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-mtime", "-mmin",
                 "-atime", "-amin", "-ctime", "-cmin", "-newer", "-size", "-empty")  # fmt: skip
_NAME_GLOB = re.compile(r"[*?\[]")


def _globbed_names(cmd: Cmd) -> tuple[Finding, list[str]] | None:
    """A command name written as a glob (``/bin/r?``, ``/usr/bin/[r]m``): the finding that it
    asks, and the known programs it may match, each judged as if written out."""
    name = cmd.name
    if cmd.is_dynamic(0) or not _NAME_GLOB.search(name):
        return None
    matches = sorted(n for n in _KNOWN_NAMES if fnmatch.fnmatchcase(n, name))
    return (
        Finding(
            "glob-command",
            "ask",
            f"the command name {cmd.argv[0]!r} is a pattern, so which program runs depends on "
            "the files present; write the program's name",
        ),
        matches[:8],
    )


def _new_cwd(cmd: Cmd, ctx: Context) -> str | None:
    """Where ``cd``/``pushd``/``popd`` leads: a directory only known at run time (``cd
    "$X"``, ``cd -``, ``popd``) is :data:`~workset.safety.paths.UNKNOWN_DIR`, so that the
    relative paths after it are not taken for the workspace's."""
    index, target = next(
        ((i, w) for i, w in enumerate(cmd.argv[1:], 1) if w not in ("-L", "-P", "-e", "--")),
        (0, "~"),
    )
    if cmd.name == "popd" or target == "-" or (index and cmd.is_dynamic(index)):
        return paths.UNKNOWN_DIR
    where = ctx.resolve(target)
    return None if ctx.workspace and where == paths.normalize(ctx.workspace) else where


def _socket(target: str) -> bool:
    return target.startswith(("/dev/tcp/", "/dev/udp/"))


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
            yield from check(inner, ctx)


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
    yield from check(inner, ctx)


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
    inner_argv = list(cmd.argv[start:]) or ["echo"]
    fed = static_output(cmd.upstream)
    here = [t for op, t in cmd.redirects if op == "<<"]
    if fed is None and here and not cmd.stdin_dynamic:
        fed = here[0]
    listed = _listed_root(cmd.upstream, ctx)
    replace = _value(cmd.args(), "-I")
    dynamic = False
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
        inner_argv.append("$ARGUMENTS_FROM_THE_PIPE")  # or from the file -a names
        dynamic = True
    searched = cmd.upstream and unwrap(cmd.upstream[-1], []).name in ("find", "fd", "fdfind")
    if searched and inner_argv[0].rsplit("/", 1)[-1] in ("rm", "srm") and "-r" not in inner_argv:
        inner_argv.insert(1, "-r")  # deleting what a search of a tree finds: a recursive delete
    inner = dataclasses.replace(cmd.shifted(start).with_argv(inner_argv), redirects=())
    if dynamic:
        inner = dataclasses.replace(inner, dynamic=(*inner.dynamic[:-1], True))
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
    listed_secret = (
        secrets.listing_secret(unwrap(cmd.upstream[-1], []), ctx) if cmd.upstream else None
    )
    if listed_secret is not None and inner.name not in secrets.LISTING:
        roots = _find_roots(unwrap(cmd.upstream[-1], []))
        yield secrets.secret_read([listed_secret], _reveals_listed(inner.name, roots, ctx))
    yield from check(inner, ctx)


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


def _listed_root(upstream: tuple[Cmd, ...], ctx: Context) -> str | None:
    """Where the names come from when the pipe is fed by find/ls/git ls-files/grep -l."""
    if not upstream:
        return None
    last = unwrap(upstream[-1], [])
    if last.name == "find":
        roots = _find_roots(last)
    elif last.name == "ls" or (last.name == "git" and "ls-files" in last.argv):
        roots = [a for a in last.args() if not a.startswith("-") and a != "ls-files"] or ["."]
    elif last.name in ("grep", "rg") and any(a in ("-l", "-rl", "-lr", "--files-with-matches")
                                              for a in last.args()):  # fmt: skip
        roots = ["."]
    else:
        return None
    if any(last.dynamic) or len(roots) != 1:
        return None
    root = roots[0].rstrip("/") or "/"
    if last.name == "ls" and _NAME_GLOB.search(root):
        return root  # ls *.log | xargs rm: the names the pattern matches
    everything = (last.name == "ls" and not set("Rd") & set("".join(last.args()))) or (
        last.name == "find" and not any(w in last.args() for w in _FIND_FILTERS)
    )
    if everything:  # every entry: judged as the directory itself
        return "./*" if root == "." else root + "/*"
    return "./LISTED" if root == "." else root + "/LISTED"


def _find_roots(cmd: Cmd) -> list[str]:
    roots = []
    for word in cmd.args():
        if word.startswith(("-", "(", "!")):
            break
        roots.append(word)
    return roots or ["."]


def _handlers(*tables: dict[str, Handler]) -> dict[str, tuple[Handler, ...]]:
    merged: dict[str, tuple[Handler, ...]] = {}
    for table in tables:
        for name, handler in table.items():
            merged[name] = (*merged.get(name, ()), handler)
    return merged


_HANDLERS = _handlers(
    delete.HANDLERS,
    option_commands.HANDLERS,
    {"find": _find, "xargs": _xargs, "fd": _fd, "fdfind": _fd, "sqlite3": known.sqlite_destroy},
    writes.HANDLERS,
    writes.INSTALLS,
    system.HANDLERS,
    git.HANDLERS,
    interpreters.HANDLERS,
    network.HANDLERS,
    infra.HANDLERS,
    persistence.HANDLERS,
    secrets.HANDLERS,
    hardening.HANDLERS,
    registries.HANDLERS,
    credentials.HANDLERS,
    dumps.HANDLERS,
    dumps.EXTRA,
    editors.HANDLERS,
)
# Every program some rule knows, to match a command name written as a glob against.
_KNOWN_NAMES = frozenset(_HANDLERS) | DELETERS | NETWORK | known_lists.KNOWN_PROGRAMS
