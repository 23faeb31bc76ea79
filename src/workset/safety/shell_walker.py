"""The walker: turns shell text into the simple commands it would run, and judges each one.

:class:`Walker` parses with ``bashlex`` (falling back to the ``shlex`` splitter in
:mod:`workset.safety.shell_text`), walks pipelines, lists, subshells, functions, loops and
substitutions, keeps the variables assigned so far, and hands every resolved command to
:func:`workset.safety.rules.check`, following the code that command would run (``bash -c``,
``eval``, ``python -c``) recursively. It also owns the shapes the analysis reports,
:class:`SimpleCommand` and :class:`Redirect`; :mod:`workset.safety.commands` is the public
entry point.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from workset.safety import paths, python_code, rules
from workset.safety.rules import Cmd, Finding
from workset.safety.shell_text import (
    ASSIGNMENT,
    DECLARERS,
    FUNCTION,
    PLACEHOLDER,
    RESERVED,
    SUBSTITUTION,
    UNCLOSED_BRACE,
    VAR,
    Word,
    decode_ansi_c,
    load_bashlex,
    shlex_split,
)

Parser: TypeAlias = Literal["bashlex", "shlex", "python", "none"]
MAX_DEPTH = 6
_MAX_LOOP_VALUES = 8


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


class Walker:
    """Walks a parsed command, keeping variables and collecting commands and findings."""

    def __init__(self, context: rules.Context, *, use_bashlex: bool = True) -> None:
        self.context = context
        self.use_bashlex = use_bashlex
        self.env: dict[str, str] = {"HOME": "~"}
        self.findings: list[Finding] = []
        self.commands: list[SimpleCommand] = []
        self.cmds: list[Cmd] = []
        self.source = ""
        self.placeholders: dict[str, Word] = {}  # shlex fallback: substitutions set aside
        self.feed: list[Cmd] | None = None  # a pipe into a compound command

    # entry points -------------------------------------------------------------------------

    def run(self, text: str, *, depth: int) -> Parser:
        if depth > MAX_DEPTH:
            self.findings.append(rules.too_deep())
            return "none"
        text = decode_ansi_c(text)
        # bashlex 0.18 loops forever on a "${" whose word has no "}" after it
        usable = self.use_bashlex and not UNCLOSED_BRACE.search(text)
        lexer = load_bashlex() if usable else None
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
        pipelines = shlex_split(self._substitutions(text, depth))
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
        for effect in python_code.effects(code):
            if isinstance(effect, rules.Cmd):  # a file operation, judged like its shell twin
                for result in rules.check(effect, self.context):
                    if isinstance(result, rules.Finding):
                        self.findings.append(result)
            elif isinstance(effect, rules.Nested) and effect.language == "python":
                self.run_python(effect.code, depth + 1)
            elif isinstance(effect, rules.Nested):
                self.run_nested(effect.code, depth)
            else:
                self.findings.append(effect)

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
        words: list[Word] = []
        redirects: list[tuple[str, Word]] = []
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
        if words and words[0].text in DECLARERS:
            for word in words[1:]:
                match = ASSIGNMENT.match(word.text)
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

    def _redirect(self, node: Any, depth: int) -> list[tuple[str, Word]]:
        op = str(node.type)
        target = node.output
        heredoc = getattr(node, "heredoc", None)
        if heredoc is not None:
            return [("<<", Word(str(heredoc.value).rsplit("\n", 1)[0]))]
        if isinstance(target, int) or target is None:
            return []
        if isinstance(target, str):  # ">& -": bashlex gives the bare text
            return [(op, Word(target))]
        word = self._word(target, depth)
        return [(op, word)]

    def _word(self, node: Any, depth: int) -> Word:
        text = str(node.word)
        result = Word(text)
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
            words: list[Word] = []
            redirects: list[tuple[str, Word]] = []
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
                match = ASSIGNMENT.match(token)
                if match and not words:
                    self.env[match.group(1)] = self._plain_word(match.group(2), depth).text
                    continue
                if not words and token in RESERVED:
                    continue
                words.append(self._plain_word(token, depth))
            if words and words[0].text in DECLARERS:
                for word in words[1:]:
                    match = ASSIGNMENT.match(word.text)
                    if match:
                        self.env[match.group(1)] = match.group(2)
            if words:
                cmd = self._record(
                    words, redirects, depth, upstream, piped=index > 0, background=False
                )
                upstream.append(cmd)

    def _plain_word(self, token: str, depth: int) -> Word:
        word = Word(token)
        for key in PLACEHOLDER.findall(token):
            found = self.placeholders.get(key)
            if found is not None:
                word.inner.extend(found.inner)
                word.process = word.process or found.process
                word.dynamic = word.dynamic or not found.process
        word.text = VAR.sub(lambda m: self.env.get(m.group(1), m.group(0)), token)
        if "$" in word.text:
            word.dynamic = True
        return word

    def _substitutions(self, text: str, depth: int) -> str:
        """Analyse ``$(…)``, backticks and ``<(…)`` before splitting; keep placeholders."""
        while match := SUBSTITUTION.search(text):
            inner = match.group(2) if match.group(2) is not None else match.group(3)
            cmds = self.run_nested(inner, depth - 1)
            output = rules.static_output(cmds) if match.group(1) != "<" and cmds else None
            if output is not None:
                replacement = output.strip()
            else:
                replacement = f"__ws{len(self.placeholders)}__"
                self.placeholders[replacement] = Word(
                    replacement, inner=list(cmds), process=match.group(1) in ("<", ">")
                )
            text = text[: match.start()] + replacement + text[match.end() :]
        for name, body in FUNCTION.findall(text):
            calls = [w for w in re.split(r"[\s|&;]+", body) if w == name]
            if len(calls) >= 2:
                self.findings.append(rules.fork_bomb(name))
        return text

    # one resolved command -------------------------------------------------------------------

    def _record(
        self,
        words: list[Word],
        redirects: list[tuple[str, Word]],
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
