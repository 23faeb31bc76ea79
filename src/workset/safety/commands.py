"""Shell command analysis: parse the command, then judge what it would really run.

Substring matching is easy to fool (``r''m -rf /``, ``X=/; rm -rf $X``, ``$(echo rm) -rf /``),
so :func:`analyze_command` parses the shell with ``bashlex`` (the ``[safety]`` extra), falling
back to a conservative ``shlex`` splitter when bashlex cannot parse, and walks pipelines,
lists, subshells, functions, loops and substitutions. Words are normalised before the rules
see them: quotes and backslashes removed, ``$'…'`` decoded, variables assigned earlier in the
same line substituted, ``$(echo …)`` / ``$(printf …)`` / ``… | base64 -d`` evaluated when
static, ``$HOME`` written as ``~``, and paths collapsed (``///``, ``/./``, ``/..``). Code given
to ``bash -c``, ``sh -c``, ``eval``, ``su -c``, ``xargs sh -c``, ``find -exec`` and a shell
fed by a static pipe is analysed recursively.

Findings are ``deny`` (never run; the explanation says what to do instead) or ``ask`` (a
human should confirm). The rules live in :mod:`workset.safety.rules`; paths are sorted in
:mod:`workset.safety.paths`. :func:`analyze_python` does the same for Python code (the
``run_python`` tool, ``python -c``): ``os.system``/``subprocess`` strings are analysed as shell,
``shutil.rmtree`` and ``open(…, 'w')`` are judged like ``rm -r`` and a redirection.

Decisions about paths, documented once: recursive deletes of ``/``, ``~``, top-level system
directories and their direct children (``/usr/lib``, ``/var/log``) are denied; ``/tmp`` and
everything under it is scratch space, so a recursive delete there asks, like any other
recursive delete, and is never denied.
"""

from __future__ import annotations

import ast
import codecs
import importlib
import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from workset.safety import paths, rules
from workset.safety.rules import Cmd, Finding, Severity

__all__ = [
    "CommandAnalysis",
    "Finding",
    "Redirect",
    "Severity",
    "SimpleCommand",
    "analyze_command",
    "analyze_python",
]

Parser: TypeAlias = Literal["bashlex", "shlex", "python", "none"]
MAX_DEPTH = 6
_MAX_LOOP_VALUES = 8
_VAR = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
_ANSI_C = re.compile(r"\$'((?:[^'\\]|\\.)*)'")
_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\+?=(.*)$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Redirect:
    op: str
    target: str


@dataclass(frozen=True, slots=True)
class SimpleCommand:
    """One command as it would run: normalised words and output redirections.

    ``dynamic`` is set when some word could not be resolved statically (an unknown variable
    or a command substitution); ``depth`` counts the ``bash -c``/``eval`` levels around it.
    """

    argv: tuple[str, ...]
    redirects: tuple[Redirect, ...] = ()
    dynamic: bool = False
    depth: int = 0


@dataclass(frozen=True, slots=True)
class CommandAnalysis:
    command: str
    findings: tuple[Finding, ...]
    commands: tuple[SimpleCommand, ...]
    parser: Parser

    @property
    def decision(self) -> Literal["allow", "ask", "deny"]:
        severities = {f.severity for f in self.findings}
        return "deny" if "deny" in severities else "ask" if "ask" in severities else "allow"

    def denied(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "deny")


def analyze_python(code: str, *, workspace: str | None = None) -> CommandAnalysis:
    """Findings about Python ``code``: the shell commands and file operations it would run."""
    walker = _Walker(rules.Context(workspace=workspace))
    walker.run_python(code, 0)
    findings = tuple(dict.fromkeys(walker.findings))
    return CommandAnalysis(code, findings, tuple(walker.commands), "python")


def analyze_command(
    command: str, *, workspace: str | None = None, parser: Literal["auto", "shlex"] = "auto"
) -> CommandAnalysis:
    """Parse ``command`` and return every finding about what it would run.

    ``workspace`` is the absolute directory the agent works in; relative paths count as inside
    it. Without it, only relative paths are inside. ``parser="shlex"`` skips bashlex and uses
    the conservative fallback splitter (to measure it, or where bashlex is unwanted).
    """
    walker = _Walker(rules.Context(workspace=workspace), use_bashlex=parser == "auto")
    used = walker.run(command, depth=0)
    findings = tuple(dict.fromkeys(walker.findings))  # keep order, drop repeats
    return CommandAnalysis(command, findings, tuple(walker.commands), used)


def _bashlex() -> Any:
    try:
        return importlib.import_module("bashlex")
    except ImportError:  # the conservative shlex splitter takes over
        return None


def _decode_ansi_c(text: str) -> str:
    """Rewrite ``$'r\\x6d'`` as ``'rm'`` (bashlex does not understand ANSI-C quoting)."""

    def decode(match: re.Match[str]) -> str:
        try:
            value = codecs.decode(match.group(1), "unicode_escape")
        except UnicodeDecodeError:
            value = match.group(1)
        return "'" + value.replace("'", "'\\''") + "'"

    return _ANSI_C.sub(decode, text)


@dataclass
class _Word:
    text: str
    dynamic: bool = False
    # commands run by substitutions inside this word ($(…), `…`, <(…))
    inner: list[Cmd] = field(default_factory=list)
    process: bool = False


class _Walker:
    """Walks a parsed command, keeping variables and collecting commands and findings."""

    def __init__(self, context: rules.Context, *, use_bashlex: bool = True) -> None:
        self.context = context
        self.use_bashlex = use_bashlex
        self.env: dict[str, str] = {"HOME": "~"}
        self.findings: list[Finding] = []
        self.commands: list[SimpleCommand] = []
        self.cmds: list[Cmd] = []
        self.source = ""
        self.placeholders: dict[str, _Word] = {}  # shlex fallback: substitutions set aside
        self.feed: list[Cmd] | None = None  # a pipe into a compound command

    # entry points -------------------------------------------------------------------------

    def run(self, text: str, *, depth: int) -> Parser:
        if depth > MAX_DEPTH:
            self.findings.append(rules.too_deep())
            return "none"
        text = _decode_ansi_c(text)
        # bashlex 0.18 loops forever on a "${" whose word has no "}" after it
        usable = self.use_bashlex and not _UNCLOSED_BRACE.search(text)
        lexer = _bashlex() if usable else None
        if lexer is not None:
            try:
                trees = lexer.parse(text)
            except Exception:  # bashlex fails on what it does not support in assorted ways
                trees = None  # (ParsingError, TypeError, …): every one means "fall back"
            if trees is not None:
                saved, self.source = self.source, text
                try:
                    for tree in trees:
                        self._node(tree, depth)
                finally:
                    self.source = saved
                return "bashlex"
        pipelines = _shlex_split(self._substitutions(text, depth))
        if pipelines is None:
            self.findings.append(rules.unparseable(text))
            return "none"
        for pipeline in pipelines:
            self._pipeline_of_words(pipeline, depth)
        return "shlex"

    def run_nested(self, text: str, depth: int) -> list[Cmd]:
        start = len(self.cmds)
        self.run(text, depth=depth + 1)
        return self.cmds[start:]

    def run_python(self, code: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            self.findings.append(rules.too_deep())
            return
        try:
            tree = ast.parse(code)
        except SyntaxError:
            self.findings.append(
                rules.Finding(
                    "unparseable",
                    "ask",
                    "unparseable code: it is not valid Python, so it cannot be checked; "
                    "fix the syntax",
                )
            )
            return
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                self._python_call(node, depth)
            elif isinstance(node, ast.While | ast.For):
                loop_calls = (n for n in ast.walk(node) if isinstance(n, ast.Call))
                if any(_dotted(c.func).endswith("fork") for c in loop_calls):
                    self.findings.append(rules.fork_bomb("os.fork in a loop"))

    def _python_call(self, node: ast.Call, depth: int) -> None:
        name = _dotted(node.func)
        last = name.rsplit(".", 1)[-1]
        first = node.args[0] if node.args else None
        shell = any(
            k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in node.keywords
        )
        as_shell = last in ("system", "popen", "getoutput", "getstatusoutput") or (
            shell and last in _SUBPROCESS
        )
        if name in ("exec", "eval") and first is not None:
            code = _literal_command(first) if isinstance(first, ast.Constant) else None
            if code is not None:
                self.run_python(code, depth + 1)
            return
        os_exec = name.startswith("os.") and last.startswith(("exec", "spawn"))
        if os_exec and len(node.args) > 1:
            first = node.args[1] if last.endswith(("v", "ve", "vp", "vpe")) else first
        if first is not None and (as_shell or last in _SUBPROCESS or os_exec):
            text = _literal_command(first)
            if text is None and as_shell:
                self.findings.append(
                    rules.Finding(
                        "dynamic-code",
                        "ask",
                        f"{name}() runs a shell command built at run time, so it cannot be "
                        "checked; pass a literal command",
                    )
                )
            elif text is not None:
                self.run_nested(text, depth)
            return
        path = _literal_path(first) if first is not None else None
        argv: tuple[str, ...] | None = None
        redirects: tuple[tuple[str, str], ...] = ()
        if last == "rmtree":
            argv = ("rm", "-r", path if path is not None else "$PATH_COMPUTED_AT_RUN_TIME")
        elif last in ("remove", "unlink", "rmdir") and path is not None:
            argv = ("rm", path)
        elif last in ("open", "write_text", "write_bytes") and path is not None:
            if last != "open" or _opens_for_writing(node):
                argv, redirects = ("python",), ((">", path),)
        elif last == "kill" and name.startswith("os") and path is not None:
            argv = ("kill", path)
        if argv is not None:
            cmd = rules.Cmd(argv=argv, redirects=redirects, dynamic=(False,) * len(argv))
            for result in rules.check(cmd, self.context):
                if isinstance(result, rules.Finding):
                    self.findings.append(result)

    # bashlex nodes ------------------------------------------------------------------------

    def _node(self, node: Any, depth: int) -> list[Cmd]:
        start = len(self.cmds)
        kind = node.kind
        if kind == "list":
            for part in node.parts:
                self._node(part, depth)
        elif kind == "pipeline":
            self._pipeline([p for p in node.parts if p.kind != "pipe"], depth)
        elif kind == "command":
            self._pipeline([node], depth)
        elif kind == "compound":
            for part in node.list:
                self._node(part, depth)
            for redirect in getattr(node, "redirects", []):
                self._node(redirect, depth)
        elif kind == "for":
            self._for(node, depth)
        elif kind in ("if", "while", "until"):
            for part in node.parts:
                self._node(part, depth)
        elif kind == "function":
            self._function(node, depth)
        elif kind in ("commandsubstitution", "processsubstitution"):
            self._node(node.command, depth)
        return self.cmds[start:]

    def _for(self, node: Any, depth: int) -> None:
        words = [p for p in node.parts if p.kind == "word"]
        body = [p for p in node.parts if p.kind not in ("word", "reservedword")]
        if not words:
            return
        name, values = words[0].word, [self._word(w, depth).text for w in words[1:]]
        for value in values[:_MAX_LOOP_VALUES] or [""]:
            self.env[name] = value
            for part in body:
                self._node(part, depth)
        self.env.pop(name, None)

    def _function(self, node: Any, depth: int) -> None:
        name = node.name.word if hasattr(node, "name") else node.parts[0].word
        body = node.body if hasattr(node, "body") else node.parts[-1]
        calls = self._node(body, depth)
        self_calls = [c for c in calls if c.name == name]
        if len(self_calls) >= 2 or any(c.piped or c.background for c in self_calls):
            self.findings.append(rules.fork_bomb(name))

    def _pipeline(self, stages: list[Any], depth: int) -> None:
        upstream: list[Cmd] = []
        for index, stage in enumerate(stages):
            if stage.kind == "command":
                cmd = self._simple(stage, depth, upstream, piped=index > 0)
                stage_cmds = [cmd] if cmd is not None else []
            else:  # "curl … | (sh)", "… | { bash; }": the first command inside reads the pipe
                self.feed = list(upstream) if index > 0 else None
                stage_cmds = self._node(stage, depth)
                self.feed = None
            upstream.extend(stage_cmds)

    def _simple(self, node: Any, depth: int, upstream: list[Cmd], *, piped: bool) -> Cmd | None:
        words: list[_Word] = []
        redirects: list[tuple[str, _Word]] = []
        assignments: list[tuple[str, str]] = []
        for part in node.parts:
            if part.kind == "assignment":
                name, _, _value = part.word.partition("=")
                assignments.append(
                    (name.rstrip("+"), self._word(part, depth).text.partition("=")[2])
                )
            elif part.kind == "word":
                words.append(self._word(part, depth))
            elif part.kind == "redirect":
                redirects.extend(self._redirect(part, depth))
        if words and words[0].text in _DECLARERS:
            for word in words[1:]:
                match = _ASSIGNMENT.match(word.text)
                if match:
                    assignments.append((match.group(1), match.group(2)))
        for name, value in assignments:
            self.env[name] = value
        if not words:
            return None
        if self.feed is not None and not piped:
            upstream, piped, self.feed = self.feed, True, None
        background = self._is_background(node)
        return self._record(words, redirects, depth, upstream, piped=piped, background=background)

    def _is_background(self, node: Any) -> bool:
        end = node.pos[1]
        rest = self.source[end:].lstrip(" \t")
        return rest.startswith("&") and not rest.startswith("&&")

    def _redirect(self, node: Any, depth: int) -> list[tuple[str, _Word]]:
        op = str(node.type)
        target = node.output
        heredoc = getattr(node, "heredoc", None)
        if heredoc is not None:
            return [("<<", _Word(str(heredoc.value).rsplit("\n", 1)[0]))]
        if isinstance(target, int) or target is None:
            return []
        if isinstance(target, str):  # ">& -": bashlex gives the bare text
            return [(op, _Word(target))]
        word = self._word(target, depth)
        return [(op, word)]

    def _word(self, node: Any, depth: int) -> _Word:
        text = str(node.word)
        result = _Word(text)
        for part in getattr(node, "parts", []):
            if part.kind == "parameter":
                value = getattr(part, "value", None)
                if value is None or value not in self.env:
                    result.dynamic = True
                    continue
                pattern = r"\$\{?" + re.escape(value) + r"\}?(?![A-Za-z0-9_])"
                text = re.sub(pattern, self.env[value].replace("\\", "\\\\"), text)
            elif part.kind in ("commandsubstitution", "processsubstitution"):
                inner = self._node(part.command, depth)
                result.inner.extend(inner)
                if part.kind == "processsubstitution":
                    result.process = True
                    continue
                original = self.source[part.pos[0] : part.pos[1]]
                output = rules.static_output(inner) if inner else None
                if output is None or original not in text:
                    result.dynamic = True
                else:
                    text = text.replace(original, output.strip(), 1)
        result.text = text
        return result

    # words from the shlex fallback ---------------------------------------------------------

    def _pipeline_of_words(self, pipeline: list[list[str]], depth: int) -> None:
        upstream: list[Cmd] = []
        for index, tokens in enumerate(pipeline):
            words: list[_Word] = []
            redirects: list[tuple[str, _Word]] = []
            if len(tokens) > 3 and tokens[0] == "for" and tokens[2] == "in":
                # the loop body follows as later commands: bind the most dangerous value
                values = [self._plain_word(v, depth).text for v in tokens[3:]]
                risky = [v for v in values if paths.is_protected(paths.normalize(v))]
                self.env[tokens[1]] = (risky or values)[0]
                continue
            it = iter(tokens)
            for token in it:
                if token and set(token) <= set("<>&") and token != "&":
                    redirects.append((token, self._plain_word(next(it, ""), depth)))
                    continue
                match = _ASSIGNMENT.match(token)
                if match and not words:
                    self.env[match.group(1)] = self._plain_word(match.group(2), depth).text
                    continue
                if not words and token in _RESERVED:
                    continue
                words.append(self._plain_word(token, depth))
            if words and words[0].text in _DECLARERS:
                for word in words[1:]:
                    match = _ASSIGNMENT.match(word.text)
                    if match:
                        self.env[match.group(1)] = match.group(2)
            if words:
                cmd = self._record(
                    words, redirects, depth, upstream, piped=index > 0, background=False
                )
                upstream.append(cmd)

    def _plain_word(self, token: str, depth: int) -> _Word:
        word = _Word(token)
        for key in _PLACEHOLDER.findall(token):
            found = self.placeholders.get(key)
            if found is not None:
                word.inner.extend(found.inner)
                word.process = word.process or found.process
                word.dynamic = word.dynamic or not found.process
        word.text = _VAR.sub(lambda m: self.env.get(m.group(1), m.group(0)), token)
        if "$" in word.text:
            word.dynamic = True
        return word

    def _substitutions(self, text: str, depth: int) -> str:
        """Analyse ``$(…)``, backticks and ``<(…)`` before splitting; keep placeholders."""
        while match := _SUBSTITUTION.search(text):
            inner = match.group(2) if match.group(2) is not None else match.group(3)
            cmds = self.run_nested(inner, depth - 1)
            output = rules.static_output(cmds) if match.group(1) != "<" and cmds else None
            if output is not None:
                replacement = output.strip()
            else:
                replacement = f"__ws{len(self.placeholders)}__"
                self.placeholders[replacement] = _Word(
                    replacement, inner=list(cmds), process=match.group(1) in ("<", ">")
                )
            text = text[: match.start()] + replacement + text[match.end() :]
        for name, body in _FUNCTION.findall(text):
            calls = [w for w in re.split(r"[\s|&;]+", body) if w == name]
            if len(calls) >= 2:
                self.findings.append(rules.fork_bomb(name))
        return text

    # one resolved command -------------------------------------------------------------------

    def _record(
        self,
        words: list[_Word],
        redirects: list[tuple[str, _Word]],
        depth: int,
        upstream: list[Cmd],
        *,
        piped: bool,
        background: bool,
    ) -> Cmd:
        cmd = Cmd(
            argv=tuple(w.text for w in words),
            dynamic=tuple(w.dynamic for w in words),
            inner=tuple(tuple(w.inner) for w in words),
            process=tuple(w.process for w in words),
            redirects=tuple((op, w.text) for op, w in redirects),
            upstream=tuple(upstream),
            piped=piped,
            background=background,
        )
        self.cmds.append(cmd)
        self.commands.append(
            SimpleCommand(
                argv=cmd.argv,
                redirects=tuple(Redirect(op, t) for op, t in cmd.redirects if op != "<<"),
                dynamic=any(cmd.dynamic),
                depth=depth,
            )
        )
        for check in rules.check(cmd, self.context):
            if isinstance(check, rules.Nested) and check.language == "python":
                self.run_python(check.code, depth + 1)
            elif isinstance(check, rules.Nested):
                self.run_nested(check.code, depth)
            else:
                self.findings.append(check)
        return cmd


_DECLARERS = frozenset({"export", "declare", "local", "readonly", "typeset"})
_RESERVED = frozenset(
    {
        "if",
        "then",
        "else",
        "elif",
        "fi",
        "do",
        "done",
        "while",
        "until",
        "for",
        "in",
        "case",
        "esac",
        "{",
        "}",
        "!",
        "time",
        "function",
        "select",
        "coproc",
    }
)
_SUBSTITUTION = re.compile(r"([$<>])\(([^()]*)\)|`([^`]*)`")
_UNCLOSED_BRACE = re.compile(r"\$\{[^}\s;|&]*(?=[\s;|&]|$)")
_PLACEHOLDER = re.compile(r"__ws\d+__")
_FUNCTION = re.compile(r"([\w:.-]+)\s*\(\s*\)\s*\{([^}]*)\}")


def _shlex_split(text: str) -> list[list[list[str]]] | None:
    """Pipelines of simple commands (lists of tokens), or None if the text cannot be split."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars="();<>|&\n")
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:
        return None
    pipelines: list[list[list[str]]] = [[[]]]
    for token in tokens:
        if token in ("|", "|&"):
            pipelines[-1].append([])
        elif token == "(" and pipelines[-1][-1] == [] and len(pipelines[-1]) > 1:
            continue  # "… | (sh)": the subshell still reads the pipe
        elif token and set(token) <= set(";&|()\n"):  # ;  &&  ||  &  ;;  (  )  );  newline
            pipelines.append([[]])
        else:
            pipelines[-1][-1].append(token)
    return [[c for c in p if c] for p in pipelines if any(p)]


_SUBPROCESS = frozenset({"run", "call", "check_call", "check_output", "Popen", "spawn"})


def _dotted(node: ast.expr) -> str:
    """``os.path.join`` for an attribute chain, ``rmtree`` for a bare name, else ``""``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):  # __import__("os").system
        return _dotted(node.func)
    return ""


def _literal_command(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.List | ast.Tuple) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return shlex.join(str(e.value) for e in node.elts if isinstance(e, ast.Constant))
    return None


def _literal_path(node: ast.expr) -> str | None:
    """The path a literal expression names: ``'/x'``, ``Path('/x')``, ``expanduser('~')``…"""
    if isinstance(node, ast.Constant):
        return str(node.value) if isinstance(node.value, str | int) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _literal_path(node.operand)
        return f"-{inner}" if inner is not None else None
    if isinstance(node, ast.Call):
        name = _dotted(node.func)
        if name.endswith(("home", "gethomedir")) and not node.args:
            return "~"
        if name.endswith(("getenv", "environ.get")) and node.args:
            return "~" if _literal_path(node.args[0]) == "HOME" else None
        if name.endswith(("Path", "expanduser", "abspath", "realpath", "PurePath")) and node.args:
            return _literal_path(node.args[0])
    if isinstance(node, ast.Subscript) and _dotted(node.value).endswith("environ"):
        return "~" if _literal_path(node.slice) == "HOME" else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        left, right = _literal_path(node.left), _literal_path(node.right)
        return f"{left}/{right}" if left is not None and right is not None else None
    return None


def _opens_for_writing(node: ast.Call) -> bool:
    modes = [node.args[1]] if len(node.args) > 1 else []
    modes += [k.value for k in node.keywords if k.arg == "mode"]
    return any(
        isinstance(m, ast.Constant) and isinstance(m.value, str) and set(m.value) & set("wax+")
        for m in modes
    )
