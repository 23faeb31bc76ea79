"""Walks a tree-sitter bash tree, resolving words and collecting commands and findings.

The walker keeps what the line itself sets: variables (and ``IFS``, which decides how an
unquoted expansion splits into words), positional parameters inside functions, functions and
aliases. Each simple command is resolved to the words bash would pass (quotes joined,
``$'…'`` decoded, static ``$(echo …)`` evaluated, unquoted expansions split, an unquoted
leading ``~`` the home but a quoted one a file named ``~``), folded to ASCII look-alikes
(:mod:`workset.safety.unicode_fold`), and judged by :func:`workset.safety.rules.check`.
Calls of a function defined in the line are judged by walking its body with the call's
arguments bound, so ``f() { rm -rf "$@"; }; f /`` is ``rm -rf /``.

Substitutions (``$(…)``, backticks, ``<(…)``), here-documents and here-strings fed to an
interpreter, ``bash -c`` bodies, ``eval``, ``trap`` and aliases are analysed as commands in
turn, to :data:`MAX_DEPTH` levels. The work is bounded: at most :data:`MAX_COMMANDS` simple
commands are judged per line, and past that the line asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from workset.safety import python_code, rules
from workset.safety.rules import Cmd, Finding
from workset.safety.shell_text import (
    ASSIGNMENT,
    VAR,
    Word,
    decode_ansi_c,
    node_text,
    parse,
    unescape,
    unescape_double,
)
from workset.safety.unicode_fold import fold

Parser: TypeAlias = Literal["tree-sitter", "python", "none"]
MAX_DEPTH = 6
MAX_COMMANDS = 2000
_LOOP_VALUES = 8
_DEFAULT_IFS = " \t\n"
_CONTAINERS = frozenset(
    {
        "program",
        "list",
        "subshell",
        "compound_statement",
        "do_group",
        "if_statement",
        "elif_clause",
        "else_clause",
        "while_statement",
        "until_statement",
        "case_statement",
        "case_item",
        "negated_command",
        "c_style_for_statement",
        "ERROR",
    }
)
_STATEMENTS = _CONTAINERS | {
    "command",
    "redirected_statement",
    "pipeline",
    "for_statement",
    "function_definition",
    "variable_assignment",
    "variable_assignments",
    "declaration_command",
    "unset_command",
    "test_command",
}
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_SPECIAL = frozenset({"$", "!", "?", "#", "-"})


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


@dataclass
class _Stdin:
    text: str = ""
    inner: tuple[Cmd, ...] = ()
    dynamic: bool = False


class Walker:
    """Walks parsed commands, keeping what the line defines, collecting commands and findings."""

    def __init__(self, context: rules.Context) -> None:
        self.context = context
        self.env: dict[str, str] = {"HOME": "~"}
        self.unknown: set[str] = set()  # variables set to values only known at run time
        self.positional: list[str] | None = None  # None: unknown ($1… of the outer shell)
        self.functions: dict[str, Any] = {}
        self.aliases: dict[str, str] = {}
        self.calling: list[str] = []
        self.findings: list[Finding] = []
        self.commands: list[SimpleCommand] = []
        self.cmds: list[Cmd] = []
        self.feed: list[Cmd] | None = None  # a pipe into a compound command
        self.budget = MAX_COMMANDS

    # entry points -------------------------------------------------------------------------

    def run(self, text: str, *, depth: int) -> Parser:
        if depth > MAX_DEPTH:
            self.findings.append(rules.too_deep())
            return "none"
        parsed = parse(text)
        if parsed is None:
            self.findings.append(rules.no_parser())
            return "none"
        root, errors = parsed
        for error in errors:
            self.findings.append(rules.unparsed(error.excerpt))
        self._block(root, depth)
        return "tree-sitter"

    def run_nested(self, text: str, depth: int) -> list[Cmd]:
        start = len(self.cmds)
        self.run(text, depth=depth + 1)
        return self.cmds[start:]

    def run_python(self, code: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            self.findings.append(rules.too_deep())
            return
        self._apply(python_code.effects(code), depth)

    def _apply(self, results: Iterable[rules.Result], depth: int) -> None:
        """Record findings; analyse nested code; judge file operations like their shell twin."""
        for result in results:
            if isinstance(result, rules.Cmd):
                if depth <= MAX_DEPTH:
                    self._apply(rules.check(result, self.context), depth + 1)
            elif isinstance(result, rules.Nested) and result.language == "python":
                self.run_python(result.code, depth + 1)
            elif isinstance(result, rules.Nested):
                self.run_nested(result.code, depth)
            else:
                self.findings.append(result)

    # statements ---------------------------------------------------------------------------

    def _block(self, node: Any, depth: int) -> list[Cmd]:
        """The statements among ``node``'s children; a ``&`` after one runs it in background."""
        start = len(self.cmds)
        children = node.children
        for index, child in enumerate(children):
            if child.type in _STATEMENTS:
                after = children[index + 1].type if index + 1 < len(children) else ""
                self._statement(child, depth, background=after == "&")
        return self.cmds[start:]

    def _statement(
        self,
        node: Any,
        depth: int,
        *,
        upstream: tuple[Cmd, ...] = (),
        piped: bool = False,
        background: bool = False,
        redirects: tuple[tuple[str, Word], ...] = (),
        stdin: _Stdin | None = None,
    ) -> list[Cmd]:
        start = len(self.cmds)
        if self.budget <= 0:
            return []
        kind = node.type
        if kind == "command":
            self._command(node, depth, upstream, piped, background, redirects, stdin)
        elif kind == "redirected_statement":
            self._redirected(node, depth, upstream, piped, background)
        elif kind == "pipeline":
            self._pipeline(node.children, depth, (), background)
        elif kind == "for_statement":
            self._for(node, depth)
        elif kind == "function_definition":
            self._function(node)
        elif kind in ("variable_assignment", "variable_assignments"):
            for assignment in [node] if kind == "variable_assignment" else node.named_children:
                self._assign(assignment, depth)
        elif kind == "declaration_command":
            self._declaration(node, depth)
        elif kind == "unset_command":
            words = [w for c in node.named_children for w in self._fields(c, depth)]
            self._record([Word("unset"), *words], [], depth, (), piped=False, background=False)
        elif kind == "test_command":
            self._substitutions_in(node, depth)
        elif kind in _CONTAINERS:
            if (upstream or piped) and kind != "list":
                self.feed = list(upstream)
            self._block(node, depth)
            self.feed = None
        return self.cmds[start:]

    def _redirected(
        self, node: Any, depth: int, upstream: tuple[Cmd, ...], piped: bool, background: bool
    ) -> None:
        redirects: list[tuple[str, Word]] = []
        stdin: _Stdin | None = None
        continuations: list[Any] = []
        for child in node.children_by_field_name("redirect"):
            found, heredoc, more = self._redirect(child, depth)
            redirects.extend(found)
            stdin = heredoc or stdin
            continuations.extend(more)
        body = node.child_by_field_name("body")
        if body is None:  # "> file" alone truncates the file
            cmds = [self._record([Word(":")], redirects, depth, (), piped=False, background=False)]
        else:
            cmds = self._statement(
                body,
                depth,
                upstream=upstream,
                piped=piped,
                background=background,
                redirects=tuple(redirects),
                stdin=stdin,
            )
            if body.type != "command" and redirects:  # { …; } > file: judge the target once
                self._record([Word(":")], redirects, depth, (), piped=False, background=False)
        for continuation in continuations:  # "cat <<EOF | sh": the pipe continues here
            self._pipeline(continuation.children, depth, tuple(cmds), background)

    def _pipeline(
        self, children: list[Any], depth: int, upstream: tuple[Cmd, ...], background: bool
    ) -> None:
        fed = list(upstream)
        stages = [c for c in children if c.type in _STATEMENTS]
        for index, stage in enumerate(stages):
            piped = index > 0 or bool(upstream)
            cmds = self._statement(
                stage, depth, upstream=tuple(fed), piped=piped, background=background
            )
            fed.extend(cmds)

    def _command(
        self,
        node: Any,
        depth: int,
        upstream: tuple[Cmd, ...],
        piped: bool,
        background: bool,
        extra: tuple[tuple[str, Word], ...],
        stdin: _Stdin | None,
    ) -> None:
        words: list[Word] = []
        redirects: list[tuple[str, Word]] = list(extra)
        for child in node.named_children:
            kind = child.type
            if kind == "variable_assignment":
                self._assign(child, depth)
            elif kind == "command_name":
                inner = child.named_children[0] if child.named_children else child
                words.extend(self._fields(inner, depth))
            elif kind in _REDIRECTS:
                found, heredoc, more = self._redirect(child, depth)
                redirects.extend(found)
                stdin = heredoc or stdin
                for continuation in more:
                    self._pipeline(continuation.children, depth, (), background)
            else:
                words.extend(self._fields(child, depth))
        if not words:
            return
        if self.feed is not None and not piped:
            upstream, piped, self.feed = tuple(self.feed), True, None
        name = fold(words[0].text)
        if not words[0].dynamic and name in self.functions and name not in self.calling:
            self._call_function(name, words[1:], redirects, depth)
            return
        if not words[0].dynamic and name in self.aliases and depth < MAX_DEPTH:
            expansion = self.aliases[name] + " " + " ".join(_quote(w.text) for w in words[1:])
            self.run_nested(expansion, depth)
            return
        self._record(
            words, redirects, depth, upstream, piped=piped, background=background, stdin=stdin
        )

    def _call_function(
        self, name: str, args: list[Word], redirects: list[tuple[str, Word]], depth: int
    ) -> None:
        if depth >= MAX_DEPTH:
            self.findings.append(rules.too_deep())
            return
        saved = self.positional
        self.positional = [w.text for w in args] if not any(w.dynamic for w in args) else None
        self.calling.append(name)
        try:
            self._statement(self.functions[name], depth + 1)
        finally:
            self.calling.pop()
            self.positional = saved
        if redirects:
            self._record([Word(":")], redirects, depth, (), piped=False, background=False)

    def _for(self, node: Any, depth: int) -> None:
        variable = node.child_by_field_name("variable")
        body = node.child_by_field_name("body")
        if variable is None or body is None:
            return
        name = node_text(variable)
        words = [w for v in node.children_by_field_name("value") for w in self._fields(v, depth)]
        if not node.children_by_field_name("value") and self.positional is not None:
            words = [Word(p) for p in self.positional]
        dynamic = any(w.dynamic for w in words) or not words
        for word in words[:_LOOP_VALUES] or [Word("")]:
            self._set(name, word.text, dynamic=dynamic)
            self._statement(body, depth)
        self._set(name, "", dynamic=True)

    def _function(self, node: Any) -> None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is None or body is None:
            return
        name = fold(unescape(node_text(name_node)))
        self.functions[name] = body
        calls = _command_names(body)
        self_calls = [c for c in calls if c[0] == name]
        if len(self_calls) >= 2 or any(piped or background for _, piped, background in self_calls):
            self.findings.append(rules.fork_bomb(name))

    def _assign(self, node: Any, depth: int) -> None:
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if name_node is None:
            return
        name = node_text(name_node)
        if value_node is None:
            value = Word("")
        elif value_node.type == "array":
            parts = [w for c in value_node.named_children for w in self._fields(c, depth)]
            value = Word(" ".join(p.text for p in parts), dynamic=any(p.dynamic for p in parts))
        else:
            value = _joined(self._fields(value_node, depth, quoted=True))
        text = node_text(node)
        appended = text.startswith(name + "+=")
        base = self.env.get(name, "") if appended else ""
        self._set(name, base + value.text, dynamic=value.dynamic)
        self.findings.extend(rules.assignment(name, value.text))

    def _declaration(self, node: Any, depth: int) -> None:
        keyword = node.children[0].type if node.children else "declare"
        shown: list[Word] = []
        for child in node.named_children:
            if child.type == "variable_assignment":
                self._assign(child, depth)
                shown.append(Word(node_text(child)))
                continue
            for word in self._fields(child, depth):
                match = ASSIGNMENT.match(word.text)
                if match:  # declare "X=1": an assignment inside a word
                    self._set(match.group(1), match.group(2), dynamic=word.dynamic)
                shown.append(word)
        self._record([Word(keyword), *shown], [], depth, (), piped=False, background=False)

    def _set(self, name: str, value: str, *, dynamic: bool) -> None:
        self.env[name] = value
        if dynamic:
            self.unknown.add(name)
        else:
            self.unknown.discard(name)

    # redirections -------------------------------------------------------------------------

    def _redirect(
        self, node: Any, depth: int
    ) -> tuple[list[tuple[str, Word]], _Stdin | None, list[Any]]:
        """(op, target) pairs, the text fed to stdin, and pipelines that continue after it."""
        kind = node.type
        if kind == "herestring_redirect":
            word = _joined([w for c in node.named_children for w in self._fields(c, depth, True)])
            return [], _Stdin(word.text, tuple(word.inner), word.dynamic), []
        if kind == "heredoc_redirect":
            return (
                [],
                self._heredoc(node, depth),
                [c for c in node.named_children if c.type in ("pipeline", "list", "command")],
            )
        op = next((c.type for c in node.children if not c.is_named), ">")
        targets: list[tuple[str, Word]] = []
        for child in node.children_by_field_name("destination"):
            if child.type == "number" and op in (">&", "<&"):
                continue  # 2>&1: a descriptor, not a file
            targets.extend((op, w) for w in self._fields(child, depth, quoted=True))
        return targets, None, []

    def _heredoc(self, node: Any, depth: int) -> _Stdin:
        start = next((c for c in node.children if c.type == "heredoc_start"), None)
        body = next((c for c in node.children if c.type == "heredoc_body"), None)
        if body is None:
            return _Stdin()
        text = node_text(body)
        quoted = start is not None and bool(re.search("['\"\\\\]", node_text(start)))
        if quoted:
            return _Stdin(text)
        inner: list[Cmd] = []
        dynamic = False
        for part in body.named_children:
            if part.type in ("simple_expansion", "expansion", "command_substitution"):
                word = _joined(self._fields(part, depth, quoted=True))
                inner.extend(word.inner)
                dynamic = dynamic or word.dynamic
                text = text.replace(node_text(part), word.text, 1)
        return _Stdin(text, tuple(inner), dynamic)

    # words --------------------------------------------------------------------------------

    def _fields(self, node: Any, depth: int, quoted: bool = False) -> list[Word]:
        """The words ``node`` becomes: unquoted expansions split on ``IFS``."""
        kind = node.type
        text = node_text(node)
        if kind == "word":
            return [Word(unescape(text), literal_tilde=text.startswith("\\~"))]
        if kind == "raw_string":
            body = text[1:-1]
            return [Word(body, literal_tilde=body.startswith("~"))]
        if kind == "ansi_c_string":
            body = decode_ansi_c(text[2:-1])
            return [Word(body, literal_tilde=body.startswith("~"))]
        if kind in ("string", "translated_string"):
            return self._string(node, depth)
        if kind in ("simple_expansion", "expansion"):
            values, dynamic = self._expand(node, depth)
            if quoted or dynamic:
                return [Word(" ".join(values), dynamic=dynamic)]
            return [Word(v) for v in self._split(" ".join(values))]
        if kind == "command_substitution":
            inner = self._block(node, depth)
            output = rules.static_output(inner) if inner else None
            if output is None:
                return [Word(text, dynamic=True, inner=list(inner))]
            pieces = [output.strip()] if quoted else self._split(output)
            return [Word(p, inner=list(inner)) for p in pieces] or [Word("", inner=list(inner))]
        if kind == "process_substitution":
            inner = self._block(node, depth)
            return [Word("/dev/fd/63", inner=list(inner), process=True)]
        if kind == "concatenation":
            out: list[Word] = []
            for child in node.children:
                parts = self._fields(child, depth, quoted) if child.is_named else [Word(child.type)]
                if out and parts:
                    out[-1] = _joined([out[-1], parts[0]])
                    out.extend(parts[1:])
                else:
                    out.extend(parts)
            return out
        if kind == "arithmetic_expansion":
            self._substitutions_in(node, depth)
            return [Word("0", dynamic=bool(VAR.search(text)))]
        return [Word(text)]

    def _string(self, node: Any, depth: int) -> list[Word]:
        pieces: list[Word] = [Word("")]
        for child in node.children:
            if not child.is_named:
                if child.type not in ('"', '$"'):
                    pieces[-1] = _joined([pieces[-1], Word(child.type)])
                continue
            if child.type == "string_content":
                pieces[-1] = _joined([pieces[-1], Word(unescape_double(node_text(child)))])
            elif _is_all_positional(child) and self.positional is not None:
                spread = [Word(p) for p in self.positional] or [Word("")]
                pieces[-1] = _joined([pieces[-1], spread[0]])
                pieces.extend(spread[1:])
            else:
                pieces[-1] = _joined([pieces[-1], *self._fields(child, depth, quoted=True)])
        named = [c for c in node.children if c.is_named]
        literal = bool(named) and named[0].type == "string_content"
        pieces[0].literal_tilde = literal and pieces[0].text.startswith("~")
        return pieces

    def _expand(self, node: Any, depth: int) -> tuple[list[str], bool]:
        """The value(s) of ``$x``/``${x…}`` and whether it is only known at run time."""
        text = node_text(node)
        kinds = ("variable_name", "special_variable_name")
        names = [c for c in node.named_children if c.type in kinds]
        name = node_text(names[0]) if names else text.strip("${}")
        if node.type == "expansion" and text.startswith("${!"):
            return [text], True  # indirection
        if name.isdigit() and name != "0":
            index = int(name) - 1
            if self.positional is not None:
                return [self.positional[index] if index < len(self.positional) else ""], False
            return [text], True
        if name in ("@", "*"):
            return (list(self.positional), False) if self.positional is not None else ([text], True)
        if name in _SPECIAL:
            return [text], False
        if name == "0":
            return ["bash"], False
        known = name in self.env and name not in self.unknown
        value = self.env.get(name, "")
        plain = node.type == "simple_expansion" or re.fullmatch(r"\$\{\w+\}", text) is not None
        if plain:
            return ([value], False) if known else ([text], True)
        operator = re.match(r"\$\{\w+(:?[-=?+])", text)
        if operator and operator.group(1).rstrip(":") in ("-", "="):
            words = [w for c in node.named_children[1:] for w in self._fields(c, depth, True)]
            default = _joined(words).text if words else ""
            return ([value], False) if known and value else ([default], True)
        return [value if known else text], True

    def _split(self, value: str) -> list[str]:
        ifs = self.env.get("IFS", _DEFAULT_IFS)
        if not ifs:
            return [value] if value else []
        return [p for p in re.split("[" + re.escape(ifs) + "]+", value) if p]

    def _substitutions_in(self, node: Any, depth: int) -> None:
        stack = list(node.named_children)
        while stack:
            child = stack.pop()
            if child.type in ("command_substitution", "process_substitution"):
                self._block(child, depth)
            else:
                stack.extend(child.named_children)

    # one resolved command -------------------------------------------------------------------

    def _record(
        self,
        words: list[Word],
        redirects: list[tuple[str, Word]],
        depth: int,
        upstream: tuple[Cmd, ...],
        *,
        piped: bool,
        background: bool,
        stdin: _Stdin | None = None,
    ) -> Cmd:
        self.budget -= 1
        if self.budget == 0:
            self.findings.append(rules.too_many(MAX_COMMANDS))
        argv = tuple(_path_word(w) for w in words)
        argv = (fold(argv[0]), *argv[1:]) if argv else argv
        cmd = Cmd(
            argv=argv,
            dynamic=tuple(w.dynamic for w in words),
            inner=tuple(tuple(w.inner) for w in words),
            process=tuple(w.process for w in words),
            redirects=tuple((op, _path_word(w)) for op, w in redirects)
            + ((("<<", stdin.text),) if stdin is not None else ()),
            upstream=upstream,
            piped=piped,
            background=background,
            stdin_inner=stdin.inner if stdin is not None else (),
            stdin_dynamic=stdin.dynamic if stdin is not None else False,
            lookalike=words[0].text != argv[0] if words else False,
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
        if cmd.name == "read":
            for word in cmd.args():
                if not word.startswith("-"):
                    self._set(word, "", dynamic=True)
        elif cmd.name == "set" and "--" in cmd.argv:
            self.positional = list(cmd.argv[cmd.argv.index("--") + 1 :])
        elif cmd.name == "alias":
            for word in cmd.args():
                name, eq, value = word.partition("=")
                if eq:
                    self.aliases[fold(name)] = value
        elif cmd.name == "unset":
            for word in cmd.args():
                self.env.pop(word, None)
        self._apply(rules.check(cmd, self.context), depth)
        return cmd


def _joined(words: list[Word]) -> Word:
    if not words:
        return Word("")
    first = words[0]
    out = Word(
        "".join(w.text for w in words),
        dynamic=any(w.dynamic for w in words),
        process=any(w.process for w in words),
        literal_tilde=first.literal_tilde,
    )
    for word in words:
        out.inner.extend(word.inner)
    return out


def _path_word(word: Word) -> str:
    """The word's text; a quoted leading ``~`` names a file called ``~`` in this directory."""
    if word.literal_tilde and word.text.startswith("~"):
        return "./" + word.text
    return word.text


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _is_all_positional(node: Any) -> bool:
    return node.type in ("simple_expansion", "expansion") and node_text(node) in (
        "$@",
        "${@}",
        "$*",
        "${*}",
    )


def _command_names(body: Any) -> list[tuple[str, bool, bool]]:
    """(name, piped, in background) of every command written in ``body``, syntactically."""
    out: list[tuple[str, bool, bool]] = []
    stack: list[tuple[Any, bool, bool]] = [(body, False, False)]
    while stack:
        node, piped, background = stack.pop()
        children = node.children
        for index, child in enumerate(children):
            after = children[index + 1].type if index + 1 < len(children) else ""
            bg = background or after == "&"
            if child.type == "command":
                name = child.child_by_field_name("name")
                if name is not None:
                    out.append((fold(unescape(node_text(name))), piped, bg))
            stack.append((child, piped or node.type == "pipeline", bg))
    return out
