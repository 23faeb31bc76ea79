"""Rules for interpreters: shells, Python, perl/ruby/node/php/lua, ``eval`` and ``alias``.

Whatever code they are given (``-c``, a heredoc, a pipe, a script file) is returned as
:class:`~workset.safety.rules.base.Nested` for the walker to analyse, unless it comes from a
download (denied) or cannot be known before the line runs (asked).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal

from workset.safety.rules.base import Cmd, Context, Finding, Handler, Nested, Result, fork_bomb
from workset.safety.rules.network import download_exec, downloads
from workset.safety.rules.static import static_output

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox"})
PYTHON = re.compile(r"^(python|pypy)[0-9.]*$")
OTHER_INTERPRETERS = {"perl": "-e", "ruby": "-e", "node": "-e", "php": "-r", "lua": "-e"}
_FORK_CODE = re.compile(r"fork\s*(\(\s*\))?\s*(while|;|\))|while.{0,40}fork", re.DOTALL)
_EXEC_STRINGS = re.compile(
    r"(?:system|exec|execSync|spawnSync|popen|shell_exec|passthru|`)\s*\(?\s*(['\"])(.+?)\1"
)


def interpreter(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """sh/bash/python/perl…: analyse the code they are given, wherever it comes from."""
    name = cmd.name
    language: Literal["shell", "python"] | None = (
        "shell"
        if name in SHELLS or name in ("source", ".")
        else "python"
        if PYTHON.match(name)
        else None
    )
    code_flag = "-c" if language is not None else OTHER_INTERPRETERS.get(name, "-e")
    args = cmd.args()
    code_index: int | None = None
    script_index: int | None = None
    for index, word in enumerate(args, start=1):
        if word == "--":
            continue
        short = word.startswith("-") and not word.startswith("--")
        if short and (word == code_flag or (language == "shell" and "c" in word[1:])):
            code_index = index + 1
            break
        if language == "python" and word == "-m":
            module = args[index] if index < len(args) else ""
            if module == "pip" and "install" in args:
                yield Finding(
                    "package-install",
                    "ask",
                    "installs Python packages; a human must confirm, or declare the "
                    "dependency in the project's configuration",
                )
            return
        if not word.startswith("-") or word == "-":
            script_index = index
            break
    if code_index is not None:
        yield from _code_argument(cmd, code_index, language)
        return
    if script_index is not None and cmd.argv[script_index] != "-":
        word = cmd.argv[script_index]
        if cmd.process[script_index] if script_index < len(cmd.process) else False:
            if downloads(cmd.inner_of(script_index)):
                yield download_exec(f"{name} runs a script straight from a download")
            elif language is not None:
                yield Finding(
                    "process-substitution-exec",
                    "ask",
                    f"{name} runs code produced by another command; confirm",
                )
        elif word in ctx.downloaded or ctx.resolve(word) in ctx.downloaded:
            yield download_exec(f"{name} runs {word}, which this line downloaded")
        return
    yield from _stdin_program(cmd, ctx, language)


def _code_argument(
    cmd: Cmd, index: int, language: Literal["shell", "python"] | None
) -> Iterator[Result]:
    if index >= len(cmd.argv):
        return
    code = cmd.argv[index]
    if downloads(cmd.inner_of(index)):
        yield download_exec(f"{cmd.name} runs code produced by a download")
    elif cmd.is_dynamic(index):
        yield Finding(
            "dynamic-code",
            "ask",
            f"{cmd.name} runs code computed when the line runs, so it cannot be checked; "
            "write the code literally",
        )
    else:
        yield from _code(code, language)


def _code(code: str, language: Literal["shell", "python"] | None) -> Iterator[Result]:
    if language is not None:
        yield Nested(code, language)
        return
    if _FORK_CODE.search(code):
        yield fork_bomb("fork")
    for match in _EXEC_STRINGS.finditer(code):
        yield Nested(match.group(2))


def _stdin_program(
    cmd: Cmd, ctx: Context, language: Literal["shell", "python"] | None
) -> Iterator[Result]:
    """The interpreter reads its program from stdin: a heredoc, a file, or a pipe."""
    for op, target in cmd.redirects:
        if op == "<<":
            yield from _code(target, language)
            return
        if op == "<":
            if target in ctx.downloaded or ctx.resolve(target) in ctx.downloaded:
                yield download_exec(f"{cmd.name} runs {target}, which this line downloaded")
            return
    if not cmd.piped:
        return
    if downloads(cmd.upstream):
        yield download_exec(f"a download is piped into {cmd.name}")
        return
    text = static_output(cmd.upstream)
    if text is not None:
        yield from _code(text, language)
    else:
        yield Finding(
            "pipe-to-interpreter",
            "ask",
            f"{cmd.name} runs whatever the pipe feeds it, which cannot be checked here; "
            "save the script to a file, read it, then run the file",
        )


def _eval(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if any(downloads(cmd.inner_of(i)) for i in range(1, len(cmd.argv))):
        yield download_exec("eval runs code produced by a download")
    elif any(cmd.is_dynamic(i) for i in range(1, len(cmd.argv))):
        yield Finding(
            "eval-dynamic",
            "ask",
            "eval runs a string built when the line runs, so it cannot be checked; write the "
            "command directly",
        )
    else:
        yield Nested(" ".join(cmd.args()))


def _alias(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    for word in cmd.args():
        if "=" in word:
            yield Nested(word.split("=", 1)[1])


HANDLERS: dict[str, Handler] = {
    "eval": _eval,
    "alias": _alias,
    **{n: interpreter for n in (*SHELLS, "source", ".")},
}
