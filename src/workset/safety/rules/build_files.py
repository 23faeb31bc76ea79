"""Rules for code written into the files the project's own tools run.

``make``, ``pytest``, ``npm install`` and ``pip install .`` are allowed because they run the
project's code; that trust is only as good as the code. When a line writes known text into a
Makefile's recipes, a Python module (``conftest.py``, ``setup.py``, a package's
``__init__.py``, a test), a source file of node, ruby, perl or php (``jest.config.js``,
``Rakefile``; analysed as that language's inline code), the string literals of a source
that a build compiles or runs (``build.rs``, a Gradle script, ``CMakeLists.txt``), a
``.pth`` file, an ``.envrc``, a hook kept in the repository (``.githooks/``, ``.husky/``),
``package.json``'s ``scripts``, the command fields of VS Code's ``tasks.json`` or a dev
container, tox's ``commands`` or pre-commit's ``entry``, that text is analysed as the code it
will be, and what would be denied there (a download piped into a shell, a delete of the home)
is denied here. Only denials are
kept: the write itself stays a workspace write, so adding an ordinary target or test does not
start asking. The text written to any file is kept in the context, so that a script the line
writes and then runs (``echo … > x.sh && bash x.sh``) is analysed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.agent_files import WORKFLOW, workflow_text, written_orders
from workset.safety.rules.base import Cmd, Context, Finding, Nested, Result
from workset.safety.rules.containers import compose_text
from workset.safety.rules.debuggers import ESCAPE_LINE, PYTHON_LINE
from workset.safety.rules.edited_code import (
    COMPOSE_FILE,
    approvals_off,
    edited_code,
    git_config_text,
)
from workset.safety.rules.network import download_exec, downloads
from workset.safety.rules.persistence import written_text
from workset.safety.rules.static import static_output

_WRITES = frozenset({">", ">>", ">|", "&>", "&>>"})
_MAKEFILE = re.compile(r"(^|/)([Mm]akefile|GNUmakefile|[^/]+\.mk|[Jj]ustfile|debian/rules)$")
# Any Python module or shell script: the project's tests, packages and scripts run them.
_PYTHON = re.compile(r"\.pyw?$|\.pth$")
# Shell scripts a tool runs by itself: direnv's .envrc, hooks kept in the repository.
_SHELL = re.compile(
    r"(^|/)\.envrc$|(^|/)(\.githooks|\.husky|\.git-hooks)/[\w.-]+$|"
    # a Debian package's maintainer scripts, run as root where the package is installed
    r"(^|/)debian/([\w.+-]+\.)?(preinst|postinst|prerm|postrm)$|"
    # a git hook by its name, in whatever hooks folder (core.hooksPath, ~/.git-templates)
    r"(^|/)[\w.-]*hooks/(pre-commit|prepare-commit-msg|commit-msg|post-commit|pre-rebase|post-checkout|"
    r"post-merge|pre-push|post-rewrite|pre-merge-commit|pre-auto-gc|reference-transaction|"
    r"applypatch-msg|pre-applypatch|post-applypatch|fsmonitor-watchman)$"
)
# Settings whose command fields editors and tools run: VS Code tasks (some on folder open),
# dev containers (initializeCommand runs on this machine), tox, pre-commit's local hooks.
_COMMAND_FIELDS = re.compile(
    r"(^|/)(tasks|devcontainer|\.devcontainer)\.json$|\.code-workspace$"  # its "tasks" too
)
# Files an editor or debugger reads as commands when it opens the project: vim's and
# neovim's local settings (exrc), gdb's and lldb's init files, Emacs's directory locals. Their
# shell escapes (``:!cmd``, gdb's ``shell cmd``) and string literals are read as commands,
# gdb's ``python …`` lines as Python.
_EDITOR_AUTORUN = re.compile(
    r"(^|/)(\.exrc|\.nvimrc|\.nvim\.lua|\.vimrc|\.gdbinit|\.lldbinit|\.dir-locals(-2)?\.el|"
    r"\.gvimrc|\.emacs(\.el)?|\.emacs\.d/init\.el|\.config/nvim/init\.(vim|lua))$"
)
# A vim shell escape inside a line (``autocmd BufRead * silent !curl … | sh``).
_VIM_BANG = re.compile(r"(?:^|\s)(?:silent!?\s+)?!(?=\S)(?!=)([^\n]+)$", re.M)
# A CI workflow's steps: the text of each ``run:`` is a shell script the runner executes.
_RUN_LINE = re.compile(r"^\s*-?\s*(?:run|script)\s*:\s*(.+)$", re.M)
_JSON_COMMAND = re.compile(r'"(?:command|\w+Command)"\s*:\s*"((?:[^"\\]|\\.)*)"')
# Source files of other languages, which the project's test runners, bundlers and task
# runners load (jest.config.js, webpack.config.ts, Rakefile, Gemfile, a perl module…).
_SOURCES = (
    (re.compile(r"\.(js|cjs|mjs|jsx|ts|cts|mts|tsx)$"), "node"),
    (re.compile(r"\.(rb|rake|gemspec)$|(^|/)(Rakefile|Gemfile|Guardfile|Vagrantfile)$"), "ruby"),
    (re.compile(r"\.(pl|pm|t)$"), "perl"),
    (re.compile(r"\.php$"), "php"),
)
# Sources of compiled and JVM languages that builds run (cargo's build.rs, Gradle scripts and
# init scripts, CMake, a Go generator…): not parsed; their string literals are read as the
# shell commands they usually are when such code spawns a process.
_LITERAL_SOURCES = re.compile(
    r"\.(rs|go|java|kt|kts|gradle|groovy|scala|sbt|cs|fs|swift|c|cc|cpp|cxx|h|hpp|cmake|zig|"
    r"dart|ex|exs)$|(^|/)(CMakeLists\.txt|meson\.build|BUILD(\.bazel)?|WORKSPACE)$"
)
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'')
_TOX = re.compile(r"(^|/)tox\.ini$")
_TOX_COMMANDS = re.compile(r"^\s*commands(?:_pre|_post)?\s*=\s*(.*(?:\n[ \t]+\S.*)*)", re.M)
_PRE_COMMIT = re.compile(r"(^|/)\.pre-commit-config\.ya?ml$")
_ENTRY = re.compile(r"^\s*-?\s*entry\s*:\s*(.+)$", re.M)
_GIT_CONFIG = re.compile(r"(^|/)\.git/config$")
_PACKAGE = re.compile(r"(^|/)package\.json$")
_SCRIPTS = re.compile(r'"scripts"\s*:\s*\{([^{}]*)\}')
_VALUE = re.compile(r'"[^"]*"\s*:\s*"((?:[^"\\]|\\.)*)"')


def source_language(path: str) -> str | None:
    """The interpreter whose source ``path`` is (``Rakefile``: ruby), if one of :data:`_SOURCES`."""
    return next((p for pattern, p in _SOURCES if pattern.search(path)), None)


def code_of(path: str, text: str) -> Nested | None:
    """The code that ``text``, written to ``path``, will be when the project's tool runs."""
    if _MAKEFILE.search(path):
        recipes = [line.strip().lstrip("@-+") for line in text.splitlines() if line[:1] == "\t"]
        inline = [m.group(1) for m in re.finditer(r"^[^\t#][^:=]*:[^=;]*;(.*)$", text, re.M)]
        calls = [m.group(1) for m in _MAKE_SHELL_CALL.finditer(text)]  # $(shell …) anywhere
        code = as_shell("\n".join(recipes + inline + calls))
        return Nested(code, deny_only=True) if code.strip() else None
    if _GIT_CONFIG.search(path):  # the repository's own settings: hooks, aliases, pagers
        settings = git_config_text(text)
        return Nested(settings) if settings else None
    if COMPOSE_FILE.search(path):  # docker compose up runs it: its mounts and privileges
        demands = compose_text(text)
        return Nested(demands) if demands else None
    if _PYTHON.search(path):
        if path.endswith(".pth"):  # site runs the lines that start with "import"
            text = "\n".join(line for line in text.splitlines() if line.startswith("import"))
        return Nested(text, "python", deny_only=True) if text.strip() else None
    if _SHELL.search(path):
        return Nested(text, deny_only=True) if text.strip() else None
    interpreter = source_language(path)
    if interpreter is not None and text.strip():  # jest.config.js, Rakefile, lib/x.pm…
        return Nested(f"{interpreter} -e " + "'" + text.replace("'", "'\\''") + "'",
                      deny_only=True)  # fmt: skip
    commands: list[str] = []
    if _EDITOR_AUTORUN.search(path):
        python = [m.group(1) for m in PYTHON_LINE.finditer(text)]
        if python:
            return Nested("\n".join(python), "python", deny_only=True)
        literals = (m.group(1) if m.group(1) is not None else m.group(2) for m in
                    _STRING.finditer(text))  # fmt: skip
        commands = [m.group(1) for m in ESCAPE_LINE.finditer(text)]
        commands += [m.group(1) for m in _VIM_BANG.finditer(text)]
        commands += [t.replace('\\"', '"') for t in literals if " " in t.strip()]
    elif WORKFLOW.search(path):
        commands = [_unquoted(m.group(1).strip()) for m in _RUN_LINE.finditer(text)]
    elif _LITERAL_SOURCES.search(path):
        literals = (m.group(1) if m.group(1) is not None else m.group(2) for m in
                    _STRING.finditer(text))  # fmt: skip
        commands = [t.replace('\\"', '"') for t in literals if " " in t.strip()]
    elif _COMMAND_FIELDS.search(path):
        commands = [m.group(1).replace('\\"', '"') for m in _JSON_COMMAND.finditer(text)]
    elif _TOX.search(path):
        commands = [line.strip() for m in _TOX_COMMANDS.finditer(text)
                    for line in m.group(1).splitlines()]  # fmt: skip
    elif _PRE_COMMIT.search(path):
        commands = [_unquoted(m.group(1).strip()) for m in _ENTRY.finditer(text)]
    if commands:
        return Nested("\n".join(commands), deny_only=True)
    block = _SCRIPTS.search(text) if _PACKAGE.search(path) else None
    if block is not None:
        scripts = [m.group(1).replace('\\"', '"') for m in _VALUE.finditer(block.group(1))]
        return Nested("\n".join(scripts), deny_only=True) if scripts else None
    return None


def _unquoted(value: str) -> str:
    """A YAML scalar without the quotes around it (``'pytest -q'`` is ``pytest -q``)."""
    if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


# make's own expansions before the shell sees a recipe: ``$$`` is a ``$``, ``$(NAME)`` and
# ``${NAME}`` a variable (the environment's too: ``$(HOME)``), ``$(shell CMD)`` runs CMD.
_MAKE_SHELL_CALL = re.compile(r"\$[({]shell\s+([^()]*(?:\([^()]*\)[^()]*)*)[)}]")
_MAKE_VARIABLE = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]")


def as_shell(recipe: str) -> str:
    """A recipe as the shell receives it, once make has expanded it."""
    recipe = _MAKE_SHELL_CALL.sub(lambda m: "$(" + m.group(1) + ")", recipe)
    recipe = _MAKE_VARIABLE.sub(lambda m: "${" + m.group(1) + "}", recipe)
    return recipe.replace("$$", "$")


# Variables make runs recipes with: the value is a program and its options.
_MAKE_SHELLS = frozenset({"SHELL", ".SHELLFLAGS", "MAKESHELL"})
_MAKE_FILE_OPTIONS = ("-f", "--file", "--makefile")


def make_arguments(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``make SHELL='sh -c "…" #'``, ``make CC='gcc; rm -rf ~'``: a variable set on make's
    command line replaces the Makefile's own and lands in the recipes, so its value is shell
    code (the shell itself, for ``SHELL``); ``make -f <(curl …)`` runs a fetched Makefile."""
    if cmd.name not in ("make", "gmake"):
        return
    args = cmd.args()
    for index, word in enumerate(args, start=1):
        name, equals, value = word.partition("=")
        name = name.rstrip(":+?!")
        if equals and re.fullmatch(r"[A-Za-z_.][A-Za-z0-9_.]*", name) and value.strip():
            yield Nested(value, deny_only=name not in _MAKE_SHELLS)
        elif args[index - 2 : index - 1] and args[index - 2] in _MAKE_FILE_OPTIONS:
            yield from _makefile_argument(cmd, index, ctx)


def _makefile_argument(cmd: Cmd, index: int, ctx: Context) -> Iterator[Result]:
    """The Makefile named by ``-f``: a process substitution's output, or a download."""
    word = cmd.argv[index]
    inner = cmd.inner_of(index)
    if index < len(cmd.process) and cmd.process[index]:
        printed = static_output(inner)
        found = code_of("Makefile", printed) if printed is not None else None
        if downloads(inner):
            yield download_exec("make runs a Makefile streamed from a download")
        elif found is not None:
            yield Nested(found.code)
        elif printed is None:
            yield Finding(
                "dynamic-code",
                "ask",
                "make runs a Makefile another command prints, which cannot be checked here; "
                "save it to a file in the workspace, read it, then run make -f FILE",
            )
    elif word in ctx.downloaded or ctx.resolve(word) in ctx.downloaded:
        yield download_exec(f"make runs {word}, which this line downloaded")


def makefile_on_stdin(cmd: Cmd) -> Iterator[Result]:
    """``make -f - <<< $'all:\n\trm -rf ~'``: the recipes of a Makefile read from stdin run now."""
    args = cmd.args()
    reads_stdin = any(args[i : i + 2] == ("-f", "-") for i in range(len(args))) or any(
        a in ("--file=-", "--makefile=-") for a in args
    )
    if cmd.name not in ("make", "gmake") or not reads_stdin:
        return
    here = [t for op, t in cmd.redirects if op == "<<"]
    text = here[0] if here and not cmd.stdin_dynamic else static_output(cmd.upstream)
    found = code_of("Makefile", text) if text else None
    if text is None and downloads(cmd.upstream):
        yield download_exec("make runs a Makefile piped in from a download")
    elif found is not None:
        yield Nested(found.code)  # run now, so every finding counts
    elif text is None:
        yield Finding(
            "dynamic-code",
            "ask",
            "make reads its Makefile from stdin, which cannot be checked here; save it to a "
            "file in the workspace, read it, then run make -f FILE",
        )


def build_code(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """What ``echo …``/``printf …``/``cat <<EOF``/``… | tee`` writes into a build file."""
    yield from makefile_on_stdin(cmd)
    yield from make_arguments(cmd, ctx)
    yield from edited_code(cmd, ctx)
    places = [t for op, t in cmd.redirects if op in _WRITES]
    if cmd.name == "tee":
        places += [a for a in cmd.args() if not a.startswith("-")]
    if not places:
        return
    text = written_text(cmd, fed=cmd.name == "tee")
    for place in places:
        path = ctx.resolve(place)
        if text:  # kept, for when the line runs the file it wrote (bash ./x.sh)
            appends = (">>", place) in cmd.redirects or "-a" in cmd.args()
            ctx.scripts[path] = (ctx.scripts.get(path, "") if appends else "") + text
        found = code_of(path, text) if text else None
        if found is not None:
            yield found
        unguarded = approvals_off(place, text) if text else None
        if unguarded is not None:
            yield unguarded
        steered = (written_orders(path, text) or workflow_text(path, text)) if text else None
        if steered is not None:
            yield steered
