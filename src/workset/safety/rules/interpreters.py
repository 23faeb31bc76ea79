"""Rules for interpreters: shells, Python, perl/ruby/node/php/lua, ``eval`` and ``alias``.

Whatever code they are given (``-c``, a heredoc, a pipe, a script file) is returned as
:class:`~workset.safety.rules.base.Nested` for the walker to analyse, unless it comes from a
download (denied) or cannot be known before the line runs (asked).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal

from workset.safety import paths
from workset.safety.rules import inline_code, known, positional
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Nested, Result
from workset.safety.rules.network import download_exec, downloads
from workset.safety.rules.persistence import is_persistence_place, planted
from workset.safety.rules.static import static_output
from workset.safety.rules.wrappers import skip_options

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox"})
PYTHON = re.compile(r"^(python|pypy)[0-9.]*$")
OTHER_INTERPRETERS = {
    "perl": "-e",
    "ruby": "-e",
    "node": "-e",
    "nodejs": "-e",
    "php": "-r",
    "lua": "-e",
    "luajit": "-e",
    "Rscript": "-e",
    "julia": "-e",
    "deno": "eval",
    "bun": "-e",
    "tclsh": "-c",
}
# Modules that are programs with their own rules: ``python -m pip uninstall`` is ``pip uninstall``.
_MODULE_PROGRAMS = frozenset({"pip", "pip3", "twine", "pytest", "mypy", "ruff", "black",
                              "isort", "flake8", "pylint", "coverage", "tox", "nox", "mkdocs",
                              "uvicorn", "gunicorn", "flask"})  # fmt: skip
# Standard modules whose command line is a shell tool's: ``python -m base64 FILE`` prints as
# ``base64 FILE`` does, ``-m json.tool FILE`` as ``cat``, ``-m webbrowser URL`` opens as
# ``xdg-open``; ``-m zipfile``/``-m tarfile`` pack (``-c OUT SRC…``) and unpack (``-e ARCHIVE
# DIR``) as zip and tar do.
_MODULE_TWINS = {"base64": ("base64",), "json.tool": ("cat",), "webbrowser": ("xdg-open",),
                 "keyring": ("keyring",), "gzip": ("gzip",)}  # fmt: skip
_ARCHIVE_MODULES = {("zipfile", "-c"): ("zip", "-r"), ("tarfile", "-c"): ("tar", "-czf"),
                    ("zipfile", "-e"): ("unzip",), ("tarfile", "-e"): ("tar", "-xf")}  # fmt: skip
_STDIN_FILES = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_CODE_FLAGS = frozenset({"-e", "-E", "-r", "--eval", "-p", "--print", "-c", "eval"})


def _module_twin(module: str, rest: list[str]) -> list[str] | None:
    """The shell command ``python -m MODULE REST`` amounts to, for the modules above."""
    if module == "json.tool" and len([a for a in rest if not a.startswith("-")]) > 1:
        return ["cp", *rest]  # json.tool IN OUT: OUT is written
    if module in _MODULE_TWINS:
        return [*_MODULE_TWINS[module], *rest]
    tool = _ARCHIVE_MODULES.get((module, rest[0] if rest else ""))
    if tool is None:
        return None
    if rest[0] == "-e" and len(rest) > 2:  # -e ARCHIVE DIR
        into = ["-d", rest[2]] if tool == ("unzip",) else ["-C", rest[2]]
        return [*tool, rest[1], *into]
    return [*tool, *rest[1:]]


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
    codes = {code_flag} if language is not None else _CODE_FLAGS
    args = cmd.args()
    code_index: int | None = None
    script_index: int | None = None
    for index, word in enumerate(args, start=1):
        if word == "--":
            continue
        short = word.startswith("-") and not word.startswith("--")
        bundled = language == "shell" and short and "c" in word[1:]
        if word in codes or bundled or (language is None and re.fullmatch(r"-[a-zA-Z]*e", word)):
            code_index = index + 1
            break
        if language == "shell" and short and "s" in word[1:]:
            break  # sh -s -- -b DIR: the program comes from stdin, the rest are its arguments
        if language == "python" and word == "-m":
            module = args[index] if index < len(args) else ""
            if module in _MODULE_PROGRAMS:  # python -m pip …: judged as pip …
                home = cmd.argv[0].rsplit("/", 1)[0] + "/" if "/" in cmd.argv[0] else ""
                program = home + module  # .venv/bin/python -m pip is that venv's pip
                yield cmd.shifted(index + 1).with_argv([program, *args[index + 1 :]])
            twin = _module_twin(module, list(args[index + 1 :]))
            if twin is not None:
                yield cmd.shifted(index + 1).with_argv(twin)
            return
        if not word.startswith("-") or word == "-":
            script_index = index
            break
    if code_index is not None:
        yield from _code_argument(cmd, code_index, language)
        return
    if script_index is not None and cmd.argv[script_index] in _STDIN_FILES:
        script_index = None  # bash /dev/stdin <<< '…': the program is the input
    if script_index is not None and cmd.argv[script_index] != "-":
        word = cmd.argv[script_index]
        if cmd.process[script_index] if script_index < len(cmd.process) else False:
            printed = static_output(cmd.inner_of(script_index))
            if name in ("source", ".") and all(
                known.shell_setup(c) for c in cmd.inner_of(script_index)
            ):
                return  # source <(kubectl completion bash): a tool's own setup code
            if downloads(cmd.inner_of(script_index)):
                yield download_exec(f"{name} runs a script straight from a download")
            elif printed is not None and language is not None:
                yield Nested(printed, language=language)
            elif language is not None:
                yield Finding(
                    "process-substitution-exec",
                    "ask",
                    f"{name} runs code produced by another command; confirm",
                )
        elif word in ctx.downloaded or ctx.resolve(word) in ctx.downloaded:
            yield download_exec(f"{name} runs {word}, which this line downloaded")
        elif ctx.resolve(word) in ctx.scripts and language is not None:
            yield Nested(ctx.scripts[ctx.resolve(word)], language=language)  # it wrote it
        elif name in ("source", "."):
            yield from _sourced(word, cmd.is_dynamic(script_index), ctx)
        return
    yield from _stdin_program(cmd, ctx, language)


# Set-up scripts installed with the system's software (/opt/ros/…/setup.bash, conda's hook).
_INSTALLED_SETUP = ("/opt/", "/usr/share/", "/usr/local/share/", "/usr/lib/", "/etc/profile.d/")


def _sourced(word: str, dynamic: bool, ctx: Context) -> Iterator[Finding]:
    """``source FILE`` runs FILE in this shell: a file the line wrote unseen, one named only at
    run time, or one outside the workspace asks (but the home's own shell start-up files,
    which every new shell reads anyway, and installed software's set-up scripts)."""
    place = ctx.resolve(word)
    if dynamic:
        yield Finding(
            "dynamic-script",
            "ask",
            f"source runs {word}, a file whose path is only known at run time; a human must "
            "confirm, or name the file literally",
        )
    elif ctx.wrote(word):
        yield Finding(
            "unseen-script",
            "ask",
            f"source runs {word}, which this line wrote with text that cannot be read here; "
            "write the file in one step, read it, then source it",
        )
    elif not (
        paths.in_workspace(place, ctx.workspace)
        or paths.is_startup_file(place)
        or place.startswith(_INSTALLED_SETUP)
    ):
        yield Finding(
            "script-outside",
            "ask",
            f"source runs {word}, a script outside the workspace, in this shell; a human must "
            "confirm, or copy it into the workspace and read it first",
        )


def _code_argument(
    cmd: Cmd, index: int, language: Literal["shell", "python"] | None
) -> Iterator[Result]:
    if index >= len(cmd.argv):
        return
    code = cmd.argv[index]
    given = range(index + 1, len(cmd.argv))
    if language == "shell" and given and not any(cmd.is_dynamic(i) for i in given):
        code = positional.bound(code, cmd.argv[index + 1 :])  # sh -c '"$1" x' _ rm: rm x
    if downloads(cmd.inner_of(index)):
        yield download_exec(f"{cmd.name} runs code produced by a download")
    elif cmd.is_dynamic(index):
        yield _dynamic_code(cmd.name)
    else:
        yield from _code(code, language, cmd.name)


def _code(code: str, language: Literal["shell", "python"] | None, program: str) -> Iterator[Result]:
    if language is not None:
        yield Nested(code, language)
        return
    yield from inline_code.effects(code, program)


def _stdin_program(
    cmd: Cmd, ctx: Context, language: Literal["shell", "python"] | None
) -> Iterator[Result]:
    """The interpreter reads its program from stdin: a heredoc, a file, or a pipe."""
    if downloads(cmd.stdin_inner):
        yield download_exec(f"{cmd.name} runs a here-document built from a download")
        return
    for op, target in cmd.redirects:
        if op == "<<":
            if cmd.stdin_dynamic:
                yield _dynamic_code(cmd.name)
            yield from _code(target, language, cmd.name)
            return
        if op == "<":
            yield from _stdin_file(cmd, ctx, target, language)
            return
    if not cmd.piped:
        return
    if downloads(cmd.upstream):
        yield download_exec(f"a download is piped into {cmd.name}")
        return
    text = static_output(cmd.upstream)
    if text is not None:
        yield from _code(text, language, cmd.name)
    elif any(_decoder(c) for c in cmd.upstream):
        yield Finding(
            "decoded-code",
            "deny",
            f"{cmd.name} runs text decoded on the way (base64, gzip, hex, reversed), which "
            "only hides what it does; decode it to a file, read it, then run the file",
        )
    else:
        yield Finding(
            "pipe-to-interpreter",
            "ask",
            f"{cmd.name} runs whatever the pipe feeds it, which cannot be checked here; "
            "save the script to a file, read it, then run the file",
        )


_DECODERS = {"base64": ("-d", "--decode", "-D"), "base32": ("-d", "--decode"),
             "xxd": ("-r",), "gunzip": (), "zcat": (), "gzip": ("-d", "-dc", "-cd"),
             "bunzip2": (), "xz": ("-d",), "unxz": (), "rev": (), "uudecode": (),
             "basenc": ("-d", "--decode")}  # fmt: skip


def _decoder(cmd: Cmd) -> bool:
    """A stage that turns hidden text back into code (``base64 -d``, ``gunzip -c``, ``rev``)."""
    flags = _DECODERS.get(cmd.name)
    if flags is None:
        return cmd.name == "openssl" and "-d" in cmd.args() and cmd.args()[:1] in (
            ("enc",), ("base64",))  # fmt: skip
    return not flags or any(a in flags for a in cmd.args())


def _stdin_file(
    cmd: Cmd, ctx: Context, target: str, language: Literal["shell", "python"] | None
) -> Iterator[Result]:
    """``sh < FILE`` runs FILE like ``sh FILE``; ``sh < <(CMD)`` runs what CMD prints."""
    fed = [c for c in cmd.stdin_inner if target.startswith("/dev/fd/")]
    text = static_output(fed) if fed else None
    if target in ctx.downloaded or ctx.resolve(target) in ctx.downloaded:
        yield download_exec(f"{cmd.name} runs {target}, which this line downloaded")
    elif fed and text is not None:
        yield from _code(text, language, cmd.name)
    elif fed:
        yield Finding(
            "pipe-to-interpreter",
            "ask",
            f"{cmd.name} runs whatever another command prints, which cannot be checked here; "
            "save the script to a file, read it, then run the file",
        )
    elif ctx.resolve(target) in ctx.scripts and language is not None:
        yield Nested(ctx.scripts[ctx.resolve(target)], language=language)  # the line wrote it
    elif not paths.in_workspace(ctx.resolve(target), ctx.workspace):
        yield Finding(
            "script-outside",
            "ask",
            f"{cmd.name} runs {target}, a script outside the workspace; a human must confirm, "
            "or copy it into the workspace and read it first",
        )


def _dynamic_code(name: str) -> Finding:
    return Finding(
        "dynamic-code",
        "ask",
        f"{name} runs code computed when the line runs, so it cannot be checked; write the "
        "code literally",
    )


def _awk(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """awk's program is its first operand (after -F/-v options) unless -f names a file."""
    args = cmd.args()
    start = skip_options(args, "Fvf")
    if any(a == "-f" or a.startswith("--file") for a in args[:start]):
        return
    if start < len(args):
        index = start + 1
        if cmd.is_dynamic(index):
            yield _dynamic_code(cmd.name)
        else:
            yield from inline_code.effects(cmd.argv[index], "awk")


# sed's e and w commands, and an s command whose flags end in e or w, each at the start of a
# command (after an address); a delimiter inside the pattern counts only when not escaped.
_SED_EXEC = re.compile(
    r"(?:^|[;{}\n])\s*(?:\d+(?:,\d+)?|/(?:[^/\\]|\\.)*/|\$)?\s*"
    r"(?:[ew]\s|s(?P<d>[^\\\n])(?:(?!(?P=d))[^\\]|\\.)*(?P=d)(?:(?!(?P=d))[^\\]|\\.)*(?P=d)"
    r"[gipIM0-9]*[ew])"
)


_SED_E_COMMAND = re.compile(r"(?:^|[;{}\n])\s*(?:\d+|/[^/]*/|\$)?\s*e\s+([^;}\n]+)")


# sed's a(ppend), i(nsert) and c(hange) commands: the text they put in the file.
_SED_TEXT = re.compile(r"(?:^|;|\n)\s*(?:\$|\d+|/(?:[^/\\]|\\.)*/)?\s*[aic]\\?\s*([^;\n]+)")


def _sed(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """sed's ``e`` command runs its text as shell; ``w file`` writes a file."""
    args = cmd.args()
    scripts = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-e", "--expression")]
    if not scripts:
        operands = [a for a in args if not a.startswith("-")]
        scripts = operands[:1]
    files = [ctx.resolve(a) for a in args if not a.startswith("-") and a not in scripts]
    in_place = any(a.startswith(("-i", "--in-place")) for a in args)
    later = in_place and any(is_persistence_place(f) or paths.is_startup_file(f) for f in files)
    for script in scripts:
        for command in _SED_E_COMMAND.findall(script):
            yield Nested(command)  # sed '1e rm -rf ~': the text after e runs in a shell
        for text in _SED_TEXT.findall(script) if later else ():
            code = text.replace("\\n", "\n")  # '$a curl …|sh' into ~/.bashrc
            yield Nested(code, later=True)
            payload = planted(code)
            if payload is not None:
                yield payload
        if _SED_EXEC.search(script + " "):
            yield Finding(
                "sed-exec",
                "ask",
                "the sed script runs a command (e) or writes a file (w); a human must confirm, "
                "or use a plain substitution",
            )


def _eval(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if any(downloads(cmd.inner_of(i)) for i in range(1, len(cmd.argv))):
        yield download_exec("eval runs code produced by a download")
    elif all(
        len(inner) == 1 and known.shell_setup(inner[0])
        for i in range(1, len(cmd.argv))
        if cmd.is_dynamic(i) and (inner := cmd.inner_of(i)) is not None
    ) and re.fullmatch(r'"?\$\([^()]*\)"?', " ".join(cmd.args())):
        return  # eval "$(pyenv init -)": the setup code of a tool the user installed
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


def _trap(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = [a for a in cmd.args() if a not in ("-p", "-l", "--")]
    if args and not cmd.is_dynamic(1):
        yield Nested(args[0])


def _complete(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``complete -C CMD NAME``: the shell runs CMD each time NAME is completed, later."""
    args = cmd.args()
    for index, word in enumerate(args[:-1], start=1):
        if word == "-C":
            yield (
                _dynamic_code("complete -C")
                if cmd.is_dynamic(index + 1)
                else Nested(args[index], later=True)
            )


def _bind(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``bind -x '"KEYS": CMD'``: the shell runs CMD each time the keys are pressed, later."""
    args = cmd.args()
    for index, word in enumerate(args[:-1], start=1):
        if word == "-x":
            _, colon, command = args[index].partition(":")
            if cmd.is_dynamic(index + 1):
                yield _dynamic_code("bind -x")
            elif colon and command.strip():
                yield Nested(command.strip().strip("'\""), later=True)


def _watch(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """watch hands its words to ``sh -c`` again and again."""
    start = 1 + skip_options(cmd.args(), "nd")
    if start < len(cmd.argv):
        if any(cmd.is_dynamic(i) for i in range(start, len(cmd.argv))):
            yield _dynamic_code("watch")
        else:
            yield Nested(" ".join(cmd.argv[start:]))


# ``:!CMD``, ``:silent !CMD``, ``:r !CMD``, ``:w !CMD``, ``:call system('CMD')``.
_EX_SHELL = re.compile(
    r"^:?\s*(?:(?:sil|silent)!?\s*)?(?:(?:r|read|w|write|[%0-9.,$]*)\s*)?!(.+)$"
    r"|^:?\s*(?:(?:sil|silent)!?\s*)?(?:call\s+)?system(?:list)?\(\s*(['\"])(.+)\2\s*\)\s*$"
)


def _ex_commands(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``vim -c '!CMD'``, ``+'r !CMD'``: the shell commands an editor's ex commands run."""
    args = cmd.args()
    given = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-c", "--cmd")]
    given += [a[1:] for a in args if a.startswith("+") and len(a) > 1]
    for command in given:
        match = _EX_SHELL.match(command.strip())
        code = (match.group(1) or match.group(3) or "").strip() if match else ""
        if code:
            yield Nested(code)


_ELISP_SHELL = re.compile(
    r"\((?:shell-command(?:-to-string)?|async-shell-command|call-process-shell-command)\s+"
    r"\"((?:[^\"\\]|\\.)*)\""
)
_ELISP_DELETE = re.compile(r"\((?:delete-directory|delete-file)\s+\"((?:[^\"\\]|\\.)*)\"")


def _emacs(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``emacs --batch --eval '(shell-command "…")'``: the shell commands and deletes of the
    Lisp it is given (Lisp that builds them at run time is not followed)."""
    args = cmd.args()
    code = " ".join(args[i + 1] for i, a in enumerate(args[:-1]) if a in ("--eval", "-eval"))
    code += " ".join(a.split("=", 1)[1] for a in args if a.startswith("--eval="))
    for command in _ELISP_SHELL.findall(code):
        yield Nested(command.replace('\\"', '"'))
    for path in _ELISP_DELETE.findall(code):
        yield Cmd(argv=("rm", "-r", path), dynamic=(False, False, False))


HANDLERS: dict[str, Handler] = {
    **{n: _ex_commands for n in ("vim", "vi", "nvim", "ex", "view", "gvim")},
    "emacs": _emacs,
    "watch": _watch,
    "eval": _eval,
    "alias": _alias,
    "trap": _trap,
    "complete": _complete,
    "bind": _bind,
    "awk": _awk,
    "gawk": _awk,
    "mawk": _awk,
    "nawk": _awk,
    "sed": _sed,
    **{n: interpreter for n in (*SHELLS, "source", ".")},
}
