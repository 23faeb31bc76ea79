"""Small changes to the code a failing test points to: one operator, name, number or literal.

A seeded or everyday bug is often one token wrong: ``<`` for ``<=``, ``+= 2`` for ``+= 1``,
``re.match`` for ``re.search``, ``False`` where the parameter was meant, ``len(x) + 1``. The
0.5B model, shown the function and the failing test, mostly writes it back unchanged. These
changes are cheap to list and cheap to check against the failing tests
(:mod:`workset.repair.search`); the task's own words rank them (a task that says "adds 2
instead of 1" puts ``2`` → ``1`` first).

:func:`mutants` lists them for the lines of some spans of a file (the functions the failures
point to); every change keeps the file parseable and carries the ``old``/``new`` text an
``edit_file`` call applies (the changed line, with neighbours until it is unique in the file).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

MAX_PARAMETERS = 6  # a constant is tried as each parameter of a function with at most this many

_COMPARE = {
    "<": ("<=", ">"),
    "<=": ("<", ">="),
    ">": (">=", "<"),
    ">=": (">", "<="),
    "==": ("!=",),
    "!=": ("==",),
}
_ARITHMETIC = {
    "+": ("-",),
    "-": ("+",),
    "*": ("/", "+"),
    "/": ("//", "*"),
    "//": ("/",),
    "+=": ("-=",),
    "-=": ("+=",),
    "*=": ("/=",),
    "/=": ("*=",),
}
_NAMES = {
    "True": ("False",),
    "False": ("True",),
    "and": ("or",),
    "or": ("and",),
    "any": ("all",),
    "all": ("any",),
    "min": ("max",),
    "max": ("min",),
    "match": ("search", "fullmatch"),
    "search": ("match", "fullmatch"),
    "fullmatch": ("match", "search"),
    "startswith": ("endswith",),
    "endswith": ("startswith",),
    "lower": ("upper",),
    "upper": ("lower",),
    "append": ("extend",),
    "extend": ("append",),
    "keys": ("values", "items"),
    "values": ("keys", "items"),
    "items": ("keys", "values"),
    "break": ("continue",),
    "continue": ("break",),
    "is": ("is not",),
    "in": ("not in",),
    "issubset": ("issuperset",),
    "issuperset": ("issubset",),
}
_BUILTINS = frozenset({"any", "all", "min", "max"})
_METHODS = frozenset(_NAMES) - _BUILTINS - {
    "True", "False", "and", "or", "break", "continue", "is", "in"
}  # fmt: skip
# Words of a task that name an operator: "less than or equal" → <=.
_OPERATOR_WORDS = {
    "<=": ("less than or equal", "less-than-or-equal", "at most", "or equal", "<="),
    ">=": ("greater than or equal", "greater-than-or-equal", "at least", "or equal", ">="),
    "<": ("less than", "below", "smaller"),
    ">": ("greater than", "above", "larger", "more than"),
    "-": ("subtract", "minus", "decrease", "decrement"),
    "+": ("add", "plus", "increase", "increment"),
    "-=": ("subtract", "minus", "decrease", "decrement"),
    "+=": ("add", "plus", "increase", "increment"),
    "==": ("equal",),
    "!=": ("not equal", "differ"),
}
# A quoted value: the quote opens after a space, bracket or "=" (not an apostrophe in "don't").
_QUOTED = re.compile(r"""(?:(?<=[\s(\[=:,])|^)(['"])([^'"\n]{1,40})\1(?=[\s).,;:!?\]]|$)""")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")


@dataclass(frozen=True, slots=True)
class Span:
    """Lines ``first``-``last`` of ``path`` whose code may change; ``literals_only``: only
    their literals, to values the task quotes (a module or class body the task names);
    ``named``: the task names this function or its file (its changes are tried first)."""

    path: str
    first: int
    last: int
    literals_only: bool = False
    named: bool = False


@dataclass(frozen=True, slots=True)
class Mutant:
    path: str
    line: int
    old: str  # edit_file's old: the changed line(s), unique in the file
    new: str
    what: str  # "`<` → `<=`"
    score: float
    source: str  # the whole file after the change


def task_terms(task: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """The words and numbers of ``task`` (lower case) and the texts it quotes."""
    quoted = tuple(dict.fromkeys(m.group(2) for m in _QUOTED.finditer(task)))
    return frozenset(w.lower() for w in _WORD.findall(task)), quoted


def mutants(
    source: str,
    path: str,
    spans: Sequence[Span],
    task: str = "",
    *,
    hot: Collection[int] = (),
) -> list[Mutant]:
    """The one-place changes of ``source`` (the file at ``path``) within ``spans``, best first
    for ``task`` and then on the ``hot`` lines (where a traceback passed): each parses, and
    each changes the code (not only its layout)."""
    words, quoted = task_terms(task)
    lowered = task.lower()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    lines = source.split("\n")
    offsets = _line_offsets(source)
    parameters = _parameters(tree)
    found: dict[str, Mutant] = {}
    for change in _changes(source, lines, offsets, tree, spans, parameters, quoted, hot):
        line, start, end, new_text, what, prior = change
        if end[0] > len(offsets):
            continue  # (a last line without a newline)
        begin = offsets[start[0] - 1] + start[1]
        stop = offsets[end[0] - 1] + end[1]
        changed = source[:begin] + new_text + source[stop:]
        if changed in found or not _parses_differently(changed, tree):
            continue
        old_span, new_span = _unique_lines(lines, changed.split("\n"), start[0], end[0])
        if old_span is None or new_span is None:
            continue
        score = prior + _affinity(what, source[begin:stop], new_text, words, lowered, quoted)
        score += 1.0 if line in hot else 0.0
        found[changed] = Mutant(path, line, old_span, new_span, what, score, changed)
    return sorted(found.values(), key=lambda m: (-m.score, m.line))


Change = tuple[int, tuple[int, int], tuple[int, int], str, str, float]


def _changes(
    source: str,
    lines: list[str],
    offsets: list[int],
    tree: ast.Module,
    spans: Sequence[Span],
    parameters: list[tuple[int, int, tuple[str, ...]]],
    quoted: tuple[str, ...],
    hot: Collection[int],
) -> Iterator[Change]:
    def inside(row: int) -> Span | None:
        return next((s for s in spans if s.first <= row <= s.last), None)

    tokens = _tokens(source)
    for n, tok in enumerate(tokens):
        span = inside(tok.start[0])
        if span is None:
            continue
        before = tokens[n - 1] if n else None
        after = tokens[n + 1] if n + 1 < len(tokens) else None
        if tok.type == tokenize.STRING:
            yield from _strings(tok, quoted)
        if span.literals_only:
            if tok.type == tokenize.NUMBER:
                yield from _numbers(tok, quoted_only=True, quoted=quoted)
            continue
        if tok.type == tokenize.OP and tok.string in _COMPARE:
            for alt in _COMPARE[tok.string]:
                yield tok.start[0], tok.start, tok.end, alt, f"`{tok.string}` → `{alt}`", 1.0
        elif tok.type == tokenize.OP and tok.string in _ARITHMETIC:
            unary = before is None or (before.type == tokenize.OP and before.string not in ")]}")
            if unary and tok.string in "+-":
                continue
            for alt in _ARITHMETIC[tok.string]:
                yield tok.start[0], tok.start, tok.end, alt, f"`{tok.string}` → `{alt}`", 0.8
        elif tok.type == tokenize.NUMBER:
            yield from _numbers(tok, quoted_only=False, quoted=quoted)
        elif tok.type == tokenize.NAME:
            yield from _names(tok, before, after, tokens, n, parameters)
    yield from _dropped_terms(source, tree, spans)
    yield from _everywhere(source, offsets, tokens, spans)
    yield from _structural(source, lines, tree, spans, hot, parameters)


def _strings(tok: tokenize.TokenInfo, quoted: tuple[str, ...]) -> Iterator[Change]:
    """A string literal as one the task quotes (the same quotes and prefix): when it is
    nearly that value (a typo), or is itself a value the task quotes (``is 'r', make it
    'r+'``)."""
    match = re.fullmatch(r"([rRbBuUfF]{0,2})('''|\"\"\"|'|\")(.*)\2", tok.string, re.S)
    if match is None:
        return
    prefix, quote, body = match.groups()
    for text in quoted:
        if text == body or quote not in ("'", '"') or quote in text or "\\" in text:
            continue
        # A typo of the value the task quotes, or a value the task quotes as the wrong one.
        distance = _edit_distance(body, text)
        near = distance <= max(1, len(text) // 4) and distance < len(body)
        if not near and body not in quoted:
            continue
        new = f"{prefix}{quote}{text}{quote}"
        yield tok.start[0], tok.start, tok.end, new, f"`{tok.string}` → `{new}`", 1.5 + near


def _numbers(
    tok: tokenize.TokenInfo, *, quoted_only: bool, quoted: tuple[str, ...]
) -> Iterator[Change]:
    if not tok.string.isdigit():
        return
    value = int(tok.string)
    options = [str(value + 1)] + ([str(value - 1)] if value > 0 else [])
    if quoted_only:
        options = [o for o in options if o in quoted]
    for alt in options:
        yield tok.start[0], tok.start, tok.end, alt, f"`{tok.string}` → `{alt}`", 0.8


def _names(
    tok: tokenize.TokenInfo,
    before: tokenize.TokenInfo | None,
    after: tokenize.TokenInfo | None,
    tokens: list[tokenize.TokenInfo],
    n: int,
    parameters: list[tuple[int, int, tuple[str, ...]]],
) -> Iterator[Change]:
    word = tok.string
    row = tok.start[0]
    if word == "not":
        if after is not None and after.string == "in":  # "not in" → "in"
            yield row, tok.start, after.start, "", "`not in` → `in`", 0.9
        elif before is None or before.string != "is":
            yield row, tok.start, after.start if after else tok.end, "", "`not` dropped", 0.9
        return
    if word == "is" and after is not None and after.string == "not":
        yield row, tok.start, after.end, "is", "`is not` → `is`", 0.9
        return
    if word == "in" and before is not None and before.string == "not":
        return  # handled at "not"
    if word == "in" and _in_for_header(tokens, n):
        return  # "for x in" is not a test
    attribute = before is not None and before.string == "."
    if word in _METHODS and not attribute:
        return  # `values` as a variable is not `.values()`
    if word in _BUILTINS and (attribute or after is None or after.string != "("):
        return
    for alt in _NAMES.get(word, ()):
        yield row, tok.start, tok.end, alt, f"`{word}` → `{alt}`", 0.7
    if word in ("None", "True", "False") and before is not None and before.string in "=(,":
        # A constant where a parameter of the function was meant: `touch(path, create_dirs=False)`.
        keyword = tokens[n - 2].string if before.string == "=" and n >= 2 else ""
        for first, last, names in parameters:  # (first: the body's first line)
            if first <= row <= last and len(names) <= MAX_PARAMETERS:
                for name in names:
                    prior = 2.0 if name == keyword else 0.6
                    yield row, tok.start, tok.end, name, f"`{word}` → `{name}`", prior


def _dropped_terms(source: str, tree: ast.Module, spans: Sequence[Span]) -> Iterator[Change]:
    """``x + 1`` → ``x``, ``x - 1`` → ``x`` (a small number added or taken away)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.BinOp) or not isinstance(node.op, ast.Add | ast.Sub):
            continue
        right = node.right
        if not (isinstance(right, ast.Constant) and isinstance(right.value, int)):
            continue
        if node.lineno != node.end_lineno or not any(
            s.first <= node.lineno <= s.last and not s.literals_only for s in spans
        ):
            continue
        left = ast.get_source_segment(source, node.left)
        if left is None or node.end_col_offset is None:
            continue
        op = "+" if isinstance(node.op, ast.Add) else "-"
        start, end = (node.lineno, node.col_offset), (node.lineno, node.end_col_offset)
        yield node.lineno, start, end, left, f"`{op} {right.value}` dropped", 1.2


def _everywhere(
    source: str, offsets: list[int], tokens: list[tokenize.TokenInfo], spans: Sequence[Span]
) -> Iterator[Change]:
    """A name swapped at every place of one function it appears (``all`` → ``any`` in both
    branches of an ``if``), when it appears more than once."""
    for span in spans:
        if span.literals_only:
            continue
        places: dict[str, list[tokenize.TokenInfo]] = {}
        for n, tok in enumerate(tokens):
            if tok.type != tokenize.NAME or not span.first <= tok.start[0] <= span.last:
                continue
            before = tokens[n - 1] if n else None
            if tok.string in _METHODS and (before is None or before.string != "."):
                continue
            if tok.string in _NAMES and tok.string not in ("is", "in"):
                places.setdefault(tok.string, []).append(tok)
        for word, found in places.items():
            if len(found) < 2:
                continue
            first, last = found[0], found[-1]
            begin = offsets[first.start[0] - 1] + first.start[1]
            for alt in _NAMES[word][:1]:
                text, at = [], begin
                for tok in found:
                    start = offsets[tok.start[0] - 1] + tok.start[1]
                    text += [source[at:start], alt]
                    at = start + len(word)
                what = f"`{word}` → `{alt}` ({len(found)} places)"
                yield first.start[0], first.start, last.end, "".join(text), what, 0.8


def _structural(
    source: str,
    lines: list[str],
    tree: ast.Module,
    spans: Sequence[Span],
    hot: Collection[int],
    parameters: list[tuple[int, int, tuple[str, ...]]],
) -> Iterator[Change]:
    """A condition negated, two arguments swapped, a simple statement dropped, and on the
    lines a traceback passed a name read as another of the function's parameters."""

    def changeable(node: ast.AST) -> bool:
        line = getattr(node, "lineno", 0)
        end = getattr(node, "end_lineno", None)
        return end == line and any(s.first <= line <= s.last and not s.literals_only for s in spans)

    def at(node: ast.AST) -> tuple[tuple[int, int], tuple[int, int]]:
        return (node.lineno, node.col_offset), (node.lineno, node.end_col_offset)  # type: ignore[attr-defined]

    for node in ast.walk(tree):
        if isinstance(node, ast.If | ast.While) and changeable(node.test):
            test = node.test
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                continue  # `not` dropped already
            text = ast.get_source_segment(source, test)
            if text:
                start, end = at(test)
                yield test.lineno, start, end, f"not ({text})", "condition negated", 0.6
        elif isinstance(node, ast.Call) and len(node.args) == 2 and not node.keywords:
            a, b = node.args
            if (
                changeable(a)
                and changeable(b)
                and not any(isinstance(x, ast.Starred) for x in node.args)
            ):
                ta, tb = ast.get_source_segment(source, a), ast.get_source_segment(source, b)
                if ta and tb and ta != tb:
                    (start, _), (_, end) = at(a), at(b)
                    middle = lines[a.lineno - 1][a.end_col_offset : b.col_offset]
                    new = f"{tb}{middle}{ta}"
                    yield a.lineno, start, end, new, "arguments swapped", 0.5
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.Expr) and changeable(node):
            if isinstance(node, ast.Expr) and not isinstance(node.value, ast.Call):
                continue  # a docstring
            line = node.lineno
            yield line, (line, 0), (line + 1, 0), "", "statement dropped", 0.3
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.lineno not in hot or not changeable(node):
                continue
            for first, last, names in parameters:
                if first <= node.lineno <= last and node.id in names:
                    for other in names:
                        if other != node.id:
                            start, end = at(node)
                            what = f"`{node.id}` → `{other}`"
                            yield node.lineno, start, end, other, what, 0.4


def _affinity(
    what: str, old: str, new: str, words: frozenset[str], task: str, quoted: tuple[str, ...]
) -> float:
    """How much ``task`` speaks for a change from ``old`` to ``new``."""
    score = 0.0
    new_words = {w.lower() for w in _WORD.findall(new)} - {w.lower() for w in _WORD.findall(old)}
    said = bool(new_words) and new_words <= words
    if said or new.strip("'\"") in quoted:
        score += 3.0
    if any(p in task for p in _OPERATOR_WORDS.get(new.strip(), ())):
        score += 2.0
    if "dropped" in what and re.search(
        r"\b(one (more|fewer|less)|off by one|too (many|few))\b", task
    ):
        score += 2.0
    return score


def _tokens(source: str) -> list[tokenize.TokenInfo]:
    skip = {tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT}
    try:
        return [
            t
            for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type not in skip and t.type != tokenize.ENDMARKER
        ]
    except (tokenize.TokenError, SyntaxError):
        return []


def _in_for_header(tokens: list[tokenize.TokenInfo], n: int) -> bool:
    """Whether the ``in`` at ``tokens[n]`` is a ``for`` loop's (or comprehension's)."""
    depth = 0
    for tok in reversed(tokens[:n]):
        if tok.string in ")]}":
            depth += 1
        elif tok.string in "([{":
            if depth == 0:
                return False
            depth -= 1
        elif depth == 0 and tok.string == "for":
            return True
        elif depth == 0 and tok.string in ("if", "and", "or", "=", "return", ":", ","):
            return False
    return False


def _parameters(tree: ast.Module) -> list[tuple[int, int, tuple[str, ...]]]:
    """(the body's first line, last line, parameter names but self/cls) of each function."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
            names = tuple(a.arg for a in every if a.arg not in ("self", "cls"))
            body = node.body[0].lineno if node.body else node.lineno  # not the defaults
            out.append((body, node.end_lineno or node.lineno, names))
    return out


def _line_offsets(source: str) -> list[int]:
    offsets, total = [], 0
    for line in source.split("\n"):
        offsets.append(total)
        total += len(line) + 1
    return offsets


def _parses_differently(changed: str, tree: ast.Module) -> bool:
    try:
        new_tree = ast.parse(changed)
    except (SyntaxError, ValueError):
        return False
    return ast.dump(new_tree) != ast.dump(tree)


def _unique_lines(
    old_lines: list[str], new_lines: list[str], first: int, last: int
) -> tuple[str | None, str | None]:
    """The changed lines ``first``-``last`` (1-based), widened by neighbours until the old
    text occurs once in the file; the same lines after the change."""
    shift = len(new_lines) - len(old_lines)
    whole = "\n".join(old_lines)
    for wider in range(6):  # neighbours above first: a function's own def line names it
        for up in range(wider, -1, -1):
            top, bottom = first - up, last + wider - up
            if top < 1 or bottom > len(old_lines):
                continue
            old = "\n".join(old_lines[top - 1 : bottom])
            if old.strip() and whole.count(old) == 1:
                return old, "\n".join(new_lines[top - 1 : bottom + shift])
    return None, None


def _edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]
