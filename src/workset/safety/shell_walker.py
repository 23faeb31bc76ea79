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

Word resolution is :mod:`workset.safety.shell_words` and what the line defines (functions,
aliases, assignments) :mod:`workset.safety.shell_definitions`, the bases of :class:`Walker`;
the node shapes it acts on are :mod:`workset.safety.shell_nodes`, and what is recorded for
each command :mod:`workset.safety.shell_record`.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import Any, Literal, TypeAlias

from workset.safety import paths, python_code, rules
from workset.safety.rules import Cmd, Finding, resources
from workset.safety.shell_definitions import ShellDefinitions
from workset.safety.shell_nodes import (
    CONTAINERS,
    OPENED_SOCKET,
    REDIRECTS,
    STATEMENTS,
    endless,
    last_stage_command,
    requoted,
)
from workset.safety.shell_record import Redirect, SimpleCommand, resolved_cmd
from workset.safety.shell_text import Word, expand_command_braces, node_text, parse
from workset.safety.shell_words import Stdin
from workset.safety.unicode_fold import fold

__all__ = ["MAX_COMMANDS", "MAX_DEPTH", "Parser", "Redirect", "SimpleCommand", "Walker"]

Parser: TypeAlias = Literal["tree-sitter", "python", "none"]
MAX_DEPTH = 6
MAX_COMMANDS = 2000
_LOOP_VALUES = 8


class Walker(ShellDefinitions):
    """Walks parsed commands, keeping what the line defines, collecting commands and findings."""

    def __init__(self, context: rules.Context) -> None:
        super().__init__(context)
        self.calling: list[str] = []
        self.findings: list[Finding] = []
        self.commands: list[SimpleCommand] = []
        self.cmds: list[Cmd] = []
        self.feed: list[Cmd] | None = None  # a pipe into a compound command
        self.budget = MAX_COMMANDS
        self.feeding = False  # in a pipeline stage whose output the next stage reads

    def _report(self, finding: Finding) -> None:
        self.findings.append(finding)

    def _fed_by_writer(self) -> None:
        self.feed = []  # the first command inside reads a pipe (piped, nothing known upstream)

    def _pwd(self) -> str | None:
        cwd = self.context.cwd
        if cwd == paths.UNKNOWN_DIR:
            return None
        if cwd is None:
            return self.context.workspace or "."
        return cwd

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
        for opened in OPENED_SOCKET.finditer(text):  # sh <&7 may be read before exec 7<>…
            self.sockets.setdefault(opened.group(1), opened.group(2))
        if errors and expand_command_braces(text) != text:
            again = parse(expand_command_braces(text))  # {rm,-rf,~}: a command, to bash
            if again is not None and not again[1]:
                root, errors = again
        for error in errors:
            self.findings.append(rules.unparsed(error.excerpt))
        self._block(root, depth)
        self._unwalked_substitutions(root, depth)
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
            elif isinstance(result, rules.Nested):
                start = len(self.findings)
                if result.language == "python":
                    self.run_python(result.code, depth + 1)
                else:
                    self.run_nested(result.code, depth)
                later = rules.deferred(self.findings[start:]) if result.later else None
                if later is not None:
                    self.findings.append(later)
                if result.deny_only:  # what it denies, and a secret it sends away
                    sent = rules.sent_away(self.findings[start:])
                    kept = [f for f in self.findings[start:] if f.severity == "deny"]
                    self.findings[start:] = kept + ([sent] if sent else [])
            else:
                self.findings.append(result)

    # statements ---------------------------------------------------------------------------

    def _block(self, node: Any, depth: int) -> list[Cmd]:
        """The statements among ``node``'s children; a ``&`` after one runs it in background."""
        start = len(self.cmds)
        children = node.children
        for index, child in enumerate(children):
            if child.type in STATEMENTS:
                after = children[index + 1].type if index + 1 < len(children) else ""
                self._statement(child, depth, background=after == "&")
            elif child.type == "file_redirect" and node.type == "command_substitution":
                found, _, _ = self._redirect(child, depth)  # $(< FILE) is $(cat FILE)
                self._record([Word("cat")], found, depth, (), piped=False, background=False)
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
        stdin: Stdin | None = None,
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
        elif kind in CONTAINERS:
            if (upstream or piped) and kind != "list":
                self.feed = list(upstream)
            found, requests = len(self.findings), self.context.requests
            cwd = self.context.cwd
            self._block(node, depth)
            if kind == "subshell":
                self.context.cwd = cwd  # (cd /tmp && …): the directory changes only inside
            self.feed = None
            if endless(node):  # a loop without end: a beacon, a flood of processes
                contacted = self.context.requests > requests or any(
                    f.rule == "network" for f in self.findings[found:]
                )
                self.findings.extend(resources.endless(self.cmds[start:], contacted=contacted))
        if background:  # (sleep 900; rm -rf build) &: it fires after this task's review
            self.findings.extend(resources.delayed(self.cmds[start:]))
        return self.cmds[start:]

    def _redirected(
        self, node: Any, depth: int, upstream: tuple[Cmd, ...], piped: bool, background: bool
    ) -> None:
        redirects: list[tuple[str, Word]] = []
        stdin: Stdin | None = None
        continuations: list[Any] = []
        for child in node.children_by_field_name("redirect"):
            found, heredoc, more = self._redirect(child, depth)
            redirects.extend(found)
            stdin = heredoc or stdin
            continuations.extend(more)
        body = node.child_by_field_name("body")
        while body is not None and body.type == "list" and redirects:
            # tree-sitter reads "a && b > f" as "(a && b) > f"; bash redirects only b
            parts = [c for c in body.children if c.type in STATEMENTS]
            for part in parts[:-1]:
                self._statement(part, depth)
            body = parts[-1] if parts else None
        if body is None:  # "> file" alone truncates the file
            cmds = [self._record([Word(":")], redirects, depth, (), piped=False, background=False)]
        elif last_stage_command(body) and stdin is None and redirects:
            # tree-sitter reads "a | b > f" as "(a | b) > f"; bash redirects only b, which
            # then writes what the pipeline made (echo … | base64 -d > x.sh)
            cmds = self._pipeline(body.children, depth, upstream, background, tuple(redirects))
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
        self,
        children: list[Any],
        depth: int,
        upstream: tuple[Cmd, ...],
        background: bool,
        last: tuple[tuple[str, Word], ...] = (),
    ) -> list[Cmd]:
        """The stages of a pipeline, each fed by the ones before; ``last``: redirections of
        the last stage that the parser put on the whole pipeline."""
        fed = list(upstream)
        stages = [c for c in children if c.type in STATEMENTS]
        feeding = self.feeding
        spans: list[tuple[int, int, list[Cmd]]] = []
        for index, stage in enumerate(stages):
            piped = index > 0 or bool(upstream)
            self.feeding = feeding or index < len(stages) - 1
            start = len(self.findings)
            tail = last if index == len(stages) - 1 else ()
            cmds = self._statement(
                stage, depth, upstream=tuple(fed), piped=piped, background=background,
                redirects=tail,
            )  # fmt: skip
            spans.append((start, len(self.findings), cmds))
            fed.extend(cmds)
        self.feeding = feeding
        for (start, end, cmds), (_, _, after) in pairwise(spans):  # cat F | grep one-setting
            self.findings[start:end] = rules.through_filter(self.findings[start:end], cmds, after)
        return fed[len(upstream) :]

    def _command(
        self,
        node: Any,
        depth: int,
        upstream: tuple[Cmd, ...],
        piped: bool,
        background: bool,
        extra: tuple[tuple[str, Word], ...],
        stdin: Stdin | None,
    ) -> None:
        words: list[Word] = []
        redirects: list[tuple[str, Word]] = list(extra)
        named = [c for c in node.named_children if c.type == "command_name"]
        program = node_text(named[0]) if named else None  # NAME=value program: its environment
        prefixed: list[str] = []
        for child in node.named_children:
            kind = child.type
            if kind == "variable_assignment":
                self._assign(child, depth, program)
                prefixed.append(node_text(child).split("=", 1)[0].rstrip("+"))
            elif kind == "command_name":
                inner = child.named_children[0] if child.named_children else child
                words.extend(self._fields(inner, depth))
            elif kind in REDIRECTS:
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
            expansion = self.aliases[name] + " " + " ".join(requoted(w) for w in words[1:])
            self.run_nested(expansion, depth)
            return
        known = [n for n in prefixed if n not in self.unknown]  # values fixed in the text
        self.context.prefixed = {n: self.env.get(n, "") for n in known}
        self._record(
            words, redirects, depth, upstream, piped=piped, background=background, stdin=stdin
        )
        self.context.prefixed = {}

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
        listed = self._listed(words[0].inner) if len(words) == 1 and words[0].inner else None
        if listed is not None:  # for f in $(git ls-files '*.sh'): the paths it lists
            words, dynamic = [Word(v) for v in listed], False
        for word in words[:_LOOP_VALUES] or [Word("")]:
            self._set(name, word.text, dynamic=dynamic)
            self._statement(body, depth)
        self._set(name, "", dynamic=True)

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
        stdin: Stdin | None = None,
    ) -> Cmd:
        self.budget -= 1
        if self.budget == 0:
            self.findings.append(rules.too_many(MAX_COMMANDS))
        cmd = resolved_cmd(
            words, redirects, upstream, piped=piped, background=background, stdin=stdin
        )
        cmd = rules.program_behind(cmd, self.context)  # ./del after cp /bin/rm ./del is rm
        self.cmds.append(cmd)
        self.commands.append(
            SimpleCommand(
                argv=cmd.argv,
                redirects=tuple(Redirect(op, t) for op, t in cmd.redirects if op != "<<"),
                dynamic=any(cmd.dynamic),
                depth=depth,
            )
        )
        self._remember(cmd)
        self.context.shown = not self.feeding and not self.capturing
        self._apply(rules.check(cmd, self.context), depth)
        return cmd
