"""The entry point of the rules: :func:`check` judges one command by routing it to its family.

It unwraps ``sudo``/``env``/…, judges output redirections, remembers ``cd`` and downloads in
the context, and looks the command name up in the families' ``HANDLERS`` tables. ``find
-exec``/``-delete`` and ``xargs`` live here because they run other commands, which
:func:`check` judges in turn.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules import delete, interpreters, network, system, writes
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result
from workset.safety.rules.delete import DELETERS
from workset.safety.rules.interpreters import OTHER_INTERPRETERS, PYTHON, interpreter
from workset.safety.rules.network import DOWNLOADERS, NETWORK, download_exec, download_targets
from workset.safety.rules.static import static_output
from workset.safety.rules.wrappers import skip_options, unwrap
from workset.safety.rules.writes import MKFS, WRITING_REDIRECTS, mkfs, write_target


def check(cmd: Cmd, ctx: Context) -> list[Result]:
    """Every finding about ``cmd`` (after unwrapping ``sudo``, ``env``, ``nohup`` and kin)."""
    out: list[Result] = []
    cmd = unwrap(cmd, out)
    if not cmd.argv:
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
    name = cmd.name
    if cmd.argv[0] in ctx.downloaded or ctx.resolve(cmd.argv[0]) in ctx.downloaded:
        out.append(download_exec(f"runs {cmd.argv[0]}, which this line downloaded"))
    if name in ("cd", "pushd"):
        target = cmd.argv[1] if len(cmd.argv) > 1 else "~"
        ctx.cwd = None if cmd.is_dynamic(1) or target == "-" else ctx.resolve(target)
    handler = _HANDLERS.get(name)
    if handler is not None:
        out.extend(handler(cmd, ctx))
    elif MKFS.match(name):
        out.extend(mkfs(cmd, ctx))
    elif PYTHON.match(name) or name in OTHER_INTERPRETERS:
        out.extend(interpreter(cmd, ctx))
    if name in NETWORK:
        out.append(
            Finding(
                "network",
                "ask",
                f"{name} contacts the network; confirm the host, or use a tool that fetches "
                "into the workspace",
            )
        )
    if name in DOWNLOADERS:
        ctx.downloaded.update(download_targets(cmd, ctx))
    return out


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
    elif "-delete" in expression and not any(
        w in expression for w in ("-name", "-iname", "-path", "-ipath", "-regex", "-iregex")
    ):
        yield Finding(
            "find-delete",
            "ask",
            "find -delete without a -name/-path filter deletes everything under "
            f"{roots[0]!r}; add a filter or confirm",
        )
    for words in execs:
        if words:
            inner = cmd.with_argv([roots[0] if w == "{}" else w for w in words])
            yield from check(dataclasses.replace(inner, redirects=(), upstream=()), ctx)


def _xargs(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    start = 1 + skip_options(cmd.args(), "IinLPdEsa")
    inner_argv = list(cmd.argv[start:]) or ["echo"]
    fed = static_output(cmd.upstream)
    if fed is not None:
        inner_argv.extend(fed.split())
    inner = dataclasses.replace(cmd.shifted(start).with_argv(inner_argv), redirects=())
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
    yield from check(inner, ctx)


def _find_roots(cmd: Cmd) -> list[str]:
    roots = []
    for word in cmd.args():
        if word.startswith(("-", "(", "!")):
            break
        roots.append(word)
    return roots or ["."]


_HANDLERS: dict[str, Handler] = {
    **delete.HANDLERS,
    "find": _find,
    "xargs": _xargs,
    **writes.HANDLERS,
    **system.HANDLERS,
    **interpreters.HANDLERS,
    **network.HANDLERS,
}
