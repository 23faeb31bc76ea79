"""Code put into the project's tool files by an edit, and git settings written as text.

:mod:`~workset.safety.rules.build_files` reads what a line writes whole into a Makefile,
``package.json`` or a hook. An edit puts text in the same places without writing the file
whole: ``jq '.scripts.test="curl …|sh"' package.json``, ``yq -i '.tasks.x.cmds[0]="…"'
Taskfile.yml``, ``sed -i 's/"build": "tsc"/"build": "tsc \\&\\& curl …|sh"/' package.json``,
``perl -pi -e 's/…/…/' Makefile``. The text such an edit inserts (jq's and yq's string
literals and ``--arg`` values, the replacement of a sed or perl substitution, sed's
appended lines) is analysed as the code it becomes in that file, and what would be denied
there is denied here; the edit itself stays a workspace write.

Text written into a repository's own ``.git/config`` is git configuration: each key is
judged as ``git config --local KEY VALUE`` would be, so a ``core.fsmonitor`` or an ``alias``
that runs a download is found however the setting got there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.agent_files import WORKFLOW, workflow_text, written_orders
from workset.safety.rules.base import Cmd, Context, Finding, Nested, Result, requote
from workset.safety.rules.containers import compose_text
from workset.safety.rules.registries import (
    LOCK_FILE,
    REQUIREMENTS_FILE,
    lockfile_text,
    requirements_text,
)

# Files whose values are commands a project tool or an editor runs.
_COMMAND_FILES = re.compile(
    r"(^|/)(package|composer|deno|tasks|devcontainer|turbo|nx|project)\.jsonc?$|"
    r"(^|/)(\.pre-commit-config|[Tt]askfile(\.dist)?|\.lefthook|lefthook)\.ya?ml$"
)
COMPOSE_FILE = re.compile(r"(^|/)(docker-)?compose(\.[\w-]+)?\.ya?ml$")
# Files the edit turns into shell code directly.
_SHELL_FILES = re.compile(
    r"\.(sh|bash|zsh)$|(^|/)([Mm]akefile|GNUmakefile|[^/]+\.mk|[Jj]ustfile|\.envrc)$|"
    r"(^|/)(\.githooks|\.husky|\.git-hooks|\.git/hooks)/[\w.-]+$"
)
_JQ = frozenset({"jq", "gojq", "jaq", "yq"})
_JQ_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_JSON_VALUE = re.compile(r'"[^"]*"\s*:\s*"((?:[^"\\]|\\.)*)"')
# s/PATTERN/REPLACEMENT/ with any delimiter, and sed's a/i/c text.
_SUBSTITUTE = re.compile(r"(?:^|[;\n{\s])s([^\w\s\\])((?:\\.|(?!\1).)*)\1((?:\\.|(?!\1).)*)\1")
_SED_TEXT = re.compile(
    r"(?:^|[;\n])\s*(?:/(?:\\.|[^/])*/|[0-9$,]+)?\s*[aic]\\?\s*\n?(.+)", re.MULTILINE
)


# A setting that lets a coding agent (an editor's chat, an extension) run tools or commands
# without asking: ``"chat.tools.autoApprove": true``, ``alwaysAllow``, ``approval_policy =
# "never"``, ``defaultMode: bypassPermissions``.
_APPROVALS_OFF = re.compile(
    r"(auto[-_.]?approve\w*|always[-_]?allow\w*|allow[-_]?all\w*|skip[-_]?permissions\w*|"
    r"yolo\w*)[\"']?\s*[:=](?!\s*(false\b|0\b|\[\s*\]|\{\s*\}|\"\"|''|null\b))|"
    r"(default[-_]?mode|permission[-_]?mode)[\"']?\s*[:=]\s*[\"']?bypass|"
    r"approval[-_]?policy[\"']?\s*[:=]\s*[\"']?never|sandbox[-_]?mode[\"']?\s*[:=]\s*[\"']?danger",
    re.IGNORECASE,
)


def approvals_off(place: str, text: str) -> Finding | None:
    """Text written to ``place`` that switches an agent's approvals off, in any settings file."""
    found = _APPROVALS_OFF.search(text)
    if found is None:
        return None
    key = re.split(r"[:=]", found.group(0))[0].strip("\"' ")
    return Finding(
        "agent-unguarded",
        "deny",
        f"writes {key!r} into {place}, which lets a coding agent run tools "
        "or commands without asking; an agent never loosens approvals — ask the user",
    )


def edited_code(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """The code that ``cmd``'s edit inserts into a file a project tool runs, to be analysed."""
    if any(cmd.dynamic):
        return
    texts, files = _inserted(cmd)
    program = _program(cmd)
    unguarded = approvals_off(files[0], program) if files and program else None
    if unguarded is not None:
        yield unguarded
    for word in files:
        path = ctx.resolve(word)
        inserted = "\n".join(texts)
        if WORKFLOW.search(path):  # several edits of one workflow in the line, read together
            ctx.scripts[path] = ctx.scripts.get(path, "") + "\n" + program + "\n" + inserted
        steered = written_orders(path, inserted) or workflow_text(
            path, ctx.scripts.get(path, inserted)
        )
        if steered is not None:
            yield steered
        indexed = requirements_text(texts) if REQUIREMENTS_FILE.search(path) else None
        if indexed is not None:  # sed -i 's#https://pypi.org#http://…#' requirements.txt
            yield indexed
        relocked = lockfile_text(word, texts) if LOCK_FILE.search(path) else None
        if relocked is not None:
            yield relocked
        code = _as_code(path, texts) if texts else ""
        if code:
            yield Nested(code, deny_only=True)
        if COMPOSE_FILE.search(path):  # .services.x.privileged = true, volumes += ["/:/h"]
            settings = re.sub(r"\.?(\w+)\s*\|?=\s*", r"\n\1: ", program)
            demands = compose_text(settings + "\n" + "\n".join("- " + t for t in texts))
            yield from [Nested(demands)] if demands else []


def _program(cmd: Cmd) -> str:
    """The whole edit program (jq's filter, sed's script), keys and values together."""
    if cmd.name in _JQ:
        return " ".join(a for a in cmd.args() if not a.startswith("-"))
    return _script_and_files(cmd)[0] or ""


def _inserted(cmd: Cmd) -> tuple[list[str], list[str]]:
    """The texts an edit inserts and the files it edits."""
    args = list(cmd.args())
    if cmd.name in _JQ:
        values = [args[i + 2] for i, a in enumerate(args[:-2]) if a in ("--arg", "--argjson")]
        operands = [a for i, a in enumerate(args) if not a.startswith("-")
                    and not (i and args[i - 1] in ("--arg", "--argjson", "--indent"))
                    and not (i > 1 and args[i - 2] in ("--arg", "--argjson"))]  # fmt: skip
        if cmd.name == "yq" and operands[:1] in (["e"], ["eval"]):
            operands = operands[1:]
        if not operands:
            return [], []
        literals = [_unescape_json(m.group(1)) for m in _JQ_STRING.finditer(operands[0])]
        return literals + values, operands[1:]
    script, files = _script_and_files(cmd)
    if script is None:
        return [], []
    texts = [_unescape_sed(m.group(3)) for m in _SUBSTITUTE.finditer(script)]
    if cmd.name == "sed":
        texts += [_unescape_sed(m.group(1)) for m in _SED_TEXT.finditer(script)]
    return [t for t in texts if t.strip()], files


def _script_and_files(cmd: Cmd) -> tuple[str | None, list[str]]:
    """sed's or ``perl -pi -e``'s script and the files it edits in place (None: no edit)."""
    args = list(cmd.args())
    in_place = any(re.fullmatch(r"-[a-zA-Z]*i\S*|--in-place(=.*)?", a) for a in args)
    if cmd.name not in ("sed", "gsed", "perl") or not in_place:
        return None, []
    scripts: list[str] = []
    files: list[str] = []
    skip = False
    for index, word in enumerate(args):
        if skip:
            skip = False
        elif word in ("-e", "--expression") or re.fullmatch(r"-[a-zA-Z]*e", word):
            scripts.append(args[index + 1] if index + 1 < len(args) else "")
            skip = True
        elif word.startswith("--expression="):
            scripts.append(word.split("=", 1)[1])
        elif not word.startswith("-"):
            files.append(word)
    if not scripts and files:
        scripts, files = files[:1], files[1:]
    return "\n".join(scripts), files


def _as_code(path: str, texts: list[str]) -> str:
    """The inserted texts as shell code, in a file whose values or lines are commands."""
    if _SHELL_FILES.search(path):
        return "\n".join(texts)
    if _COMMAND_FILES.search(path):
        commands: list[str] = []
        for text in texts:
            values = [_unescape_json(m.group(1)) for m in _JSON_VALUE.finditer(text)]
            commands.extend(values or [text])
        return "\n".join(c for c in commands if " " in c.strip())
    from workset.safety.rules.build_files import source_language  # (it imports this module)

    language = source_language(path)  # Formula/x.rb, jest.config.js: the inserted code runs
    if language and any(t.strip() for t in texts):
        return f"{language} -e " + "'" + "\n".join(texts).replace("'", "'\\''") + "'"
    return ""


_ESCAPES = {"n": "\n", "t": "\t"}


def _unescape_json(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)


def _unescape_sed(text: str) -> str:
    """A sed replacement as the text it inserts (``\\&`` is ``&``, ``\\/`` is ``/``)."""
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)


_SECTION = re.compile(r'^\s*\[\s*([\w.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$')
_ENTRY = re.compile(r"^\s*([A-Za-z][\w-]*)\s*(?:=\s*(.*?))?\s*$")


def git_config_text(text: str) -> str:
    """``[core]\\n\\tfsmonitor = …`` as the ``git config --local`` commands that set it."""
    commands: list[str] = []
    section = ""
    for line in text.splitlines():
        header = _SECTION.match(line)
        if header is not None:
            name, sub, rest = header.groups()
            section = f"{name}.{sub}" if sub is not None else name
            line = rest
        entry = _ENTRY.match(line) if section and line.strip()[:1] not in ("#", ";", "") else None
        if entry is not None:
            value = (entry.group(2) or "true").strip()
            if len(value) > 1 and value[0] == value[-1] == '"':
                value = value[1:-1].replace('\\"', '"')
            commands.append(requote(["git", "config", "--local", f"{section}.{entry.group(1)}",
                                     value]))  # fmt: skip
    return "\n".join(commands)
