"""Shell text before walking: the tree-sitter parser, parse errors, and :class:`Word`.

Commands are parsed with tree-sitter's bash grammar (``tree-sitter`` and ``tree-sitter-bash``
wheels, the ``[safety]`` extra), which parses far more real bash than bashlex did (``case``,
``[[ … ]]``, arithmetic, here-strings, arrays, ``select``; see ``benchmarks/command_policy.py``
for the coverage measured on the corpus). tree-sitter never gives up: it marks what it could
not parse with ``ERROR`` and ``MISSING`` nodes, and :func:`parse` reports those as
:class:`ParseError` so the analysis asks instead of judging half a command silently.

Two gaps of the grammar are worked around. A bare ``/`` inside ``[ … ]``/``[[ … ]]`` is read as
a division, and the read-write redirection ``N<>file`` is not known at all. When a parse has
errors, the text is parsed again with each bare ``/`` word quoted (``'/'`` means the same to
bash) and each ``<>`` written ``>>`` (it opens the file without truncating it, so it is judged
as the append it can do: a socket, a startup file or a key file is caught as a target), and the
better parse wins.
"""

from __future__ import annotations

import codecs
import importlib
import itertools
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from workset.safety.rules import Cmd

VAR = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\+?=(.*)$", re.DOTALL)
DECLARERS = frozenset({"export", "declare", "local", "readonly", "typeset"})
_BARE_SLASH = re.compile(r"(?<=[\s\[])/(?=[\s\]])")
_BARE_TILDE = re.compile(r"(?<=[\s\[])~(?=[\s\]])")  # [ -d ~ ]: read as [ -d ~/ ], the same place
_READ_WRITE = re.compile(r"(?<=[\s\d])<>")


@dataclass
class Word:
    """One field of a command as bash would pass it, with what computing it runs."""

    text: str
    dynamic: bool = False  # part of it is only known when the line runs
    inner: list[Cmd] = field(default_factory=list)  # commands its substitutions run
    process: bool = False  # a process substitution <(…)
    literal_tilde: bool = False  # starts with a quoted "~": a file named ~, not the home
    descriptor: str = ""  # a redirection's target: the descriptor written before it (3<>…)


@dataclass(frozen=True, slots=True)
class ParseError:
    """Where tree-sitter could not parse the text, with the text around it."""

    offset: int
    excerpt: str


@cache
def _parser() -> Any:
    try:
        tree_sitter = importlib.import_module("tree_sitter")
        bash = importlib.import_module("tree_sitter_bash")
    except ImportError:
        return None
    return tree_sitter.Parser(tree_sitter.Language(bash.language()))


def parser_available() -> bool:
    return _parser() is not None


def encode(text: str) -> bytes:
    """UTF-8 bytes of ``text``; lone surrogates are kept (the caller has flagged them)."""
    return text.encode("utf-8", "surrogatepass")


def node_text(node: Any) -> str:
    return bytes(node.text).decode("utf-8", "replace")


def parse(text: str) -> tuple[Any, list[ParseError]] | None:
    """The syntax tree's root and its errors, or None when the parser is not installed."""
    parser = _parser()
    if parser is None:
        return None
    text = default_ifs(join_continuations(text))
    source = encode(text)
    tree = parser.parse(source)
    if "``" in text and _has_node(tree.root_node, "``"):
        modern = backticks_as_dollar(text)  # `echo r``echo m`: two substitutions, to bash
        retry = parser.parse(encode(modern))
        if not _errors(retry.root_node):
            return retry.root_node, []
    errors = _errors(tree.root_node)
    if errors and _OUTPUT_BEFORE_HERESTRING.search(text):
        swapped = _OUTPUT_BEFORE_HERESTRING.sub(r"\1\4 \2 \3", text)  # cat > f <<< 'x'
        retry = parser.parse(encode(swapped))
        if len(_errors(retry.root_node)) < len(errors):
            tree, errors = retry, _errors(retry.root_node)
    if errors and (
        _BARE_SLASH.search(text) or _READ_WRITE.search(text) or _BARE_TILDE.search(text)
    ):
        rewritten = _READ_WRITE.sub(">>", _BARE_SLASH.sub("'/'", _BARE_TILDE.sub("~/", text)))
        retry = parser.parse(encode(rewritten))
        retry_errors = _errors(retry.root_node)
        if len(retry_errors) < len(errors):
            return retry.root_node, retry_errors
    return tree.root_node, errors


# "> FILE <<< WORD", which the grammar cannot read, and bash reads as "<<< WORD > FILE".
_OUTPUT_BEFORE_HERESTRING = re.compile(
    r"(\s)(\d?>>?|&>>?)\s*([^\s<>|&;'\"]+)\s+(<<<\s*(?:'[^']*'|\"(?:[^\"\\]|\\.)*\"|[^\s;|&]+))"
)


def _outside_single_quotes(text: str, at: Any, *, comments: bool = False) -> str:
    """``text`` rewritten where ``at(text, index)`` returns ``(replacement, end)``, outside
    single quotes (``'…'``, ``$'…'``) and, with ``comments``, outside comments; an escaped
    character is kept as it is. The one quote-aware scan behind :func:`join_continuations`
    and :func:`default_ifs`."""
    out: list[str] = []
    index, double = 0, False
    while index < len(text):
        hit = at(text, index)
        if hit is not None:
            out.append(hit[0])
            index = hit[1]
            continue
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            out.append(text[index : index + 2])
            index += 2
            continue
        if not double and (char == "'" or text.startswith("$'", index)):
            end = _quote_end(text, index + (2 if char == "$" else 1), ansi=char == "$")
            out.append(text[index:end])
            index = end
            continue
        if (
            comments
            and char == "#"
            and not double
            and (index == 0 or text[index - 1] in " \t\n;&|()")
        ):
            end = text.find("\n", index)
            end = len(text) if end < 0 else end
            out.append(text[index:end])
            index = end
            continue
        double = not double if char == '"' else double
        out.append(char)
        index += 1
    return "".join(out)


def join_continuations(text: str) -> str:
    """``text`` with each backslash-newline removed where bash removes it: outside single
    quotes and comments, also inside a word (``r\\<newline>m`` is ``rm``, which the grammar
    reads as two words). Inside single quotes it stays; code given to ``bash -c`` is joined
    when it is analysed in turn."""
    if "\\\n" not in text:
        return text
    return _outside_single_quotes(
        text, lambda t, i: ("", i + 2) if t.startswith("\\\n", i) else None, comments=True
    )


# $IFS, ${IFS}, and the forms that cut one character of it (${IFS%??}, ${IFS:0:1}); a
# positional parameter right after ($IFS$9) is empty outside a function, where the line
# sets none.
_IFS = re.compile(r"(\$\{IFS(%%?\?\?|:0:1|::1)?\}|\$IFS(?![A-Za-z0-9_]))(\$[1-9](?![0-9]))?")
# IFS named other than as ``$IFS``/``${IFS}``: set (``IFS=``, ``read IFS``, ``export IFS``…).
_IFS_SET = re.compile(r"(?<![\w${])IFS\b")
_POSITIONALS_SET = re.compile(r"\bset\s+--|\bshift\b|\(\)\s*\{|\bfunction\s")


def default_ifs(text: str) -> str:
    """``cat${IFS}~/.aws/credentials`` is ``cat ~/.aws/credentials`` to bash, which starts with
        the default ``IFS`` (space, tab, newline) whatever the environment says: where the line
        never sets ``IFS``, each ``$IFS`` outside single quotes is written as the space it splits
        on. A line that names it otherwise (``IFS=…``, ``read IFS``) is left as it is (its words
    stay computed at run time)."""
    if "IFS" not in text or _IFS_SET.search(text):
        return text
    positionals = _POSITIONALS_SET.search(text) is not None

    def at(line: str, index: int) -> tuple[str, int] | None:
        found = _IFS.match(line, index)
        if found is None:
            return None
        return " ", found.end(1) if positionals else found.end()

    return _outside_single_quotes(text, at)


def _quote_end(text: str, start: int, *, ansi: bool) -> int:
    """Where the single-quoted text opened before ``start`` ends (after its quote)."""
    index = start
    while index < len(text) and text[index] != "'":
        index += 2 if ansi and text[index] == "\\" else 1
    return min(index + 1, len(text))


def _has_node(root: Any, kind: str) -> bool:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == kind:
            return True
        stack.extend(node.children)
    return False


def backticks_as_dollar(text: str) -> str:
    """``text`` with each backtick substitution written ``$(…)``: bash ends a backtick
    substitution at the next unescaped backtick, so ```echo r``echo m``` is two of them
    (which the grammar reads as one). Single-quoted text is left as it is."""
    out: list[str] = []
    index = 0
    double = False
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            out.append(text[index : index + 2])
            index += 2
            continue
        if char == "'" and not double:
            end = text.find("'", index + 1)
            end = len(text) if end < 0 else end + 1
            out.append(text[index:end])
            index = end
            continue
        if char == '"':
            double = not double
        if char == "`":
            end = index + 1
            while end < len(text) and text[end] != "`":
                end += 2 if text[end] == "\\" else 1
            out.append("$(" + text[index + 1 : end].replace("\\`", "`") + ")")
            index = end + 1
            continue
        out.append(char)
        index += 1
    return "".join(out)


def _errors(root: Any) -> list[ParseError]:
    if not root.has_error:
        return []
    found: list[ParseError] = []
    stack = [root]
    while stack and len(found) < 5:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            text = node_text(node)[:40] or f"missing {node.type!r}"
            found.append(ParseError(node.start_byte, text))
            continue
        if node.has_error:
            stack.extend(reversed(node.children))
    return found


def decode_ansi_c(body: str) -> str:
    """The value of ``$'…'`` (its body without the quotes): ``r\\x6d`` is ``rm``."""
    try:
        return codecs.decode(body, "unicode_escape")
    except UnicodeDecodeError:
        return body


def unescape(text: str) -> str:
    """An unquoted word as bash reads it: each backslash quotes the next character."""
    return re.sub(r"\\(.)", r"\1", text, flags=re.DOTALL).replace("\\\n", "")


def unescape_double(text: str) -> str:
    """Text inside double quotes: a backslash quotes only ``$ ` " \\`` and a newline."""
    return re.sub(r"\\([$`\"\\\n])", lambda m: "" if m.group(1) == "\n" else m.group(1), text)


MAX_BRACE_WORDS = 64
_PLAIN_BRACES = re.compile(r"[^\s'\"$`\\;&|<>()]*\{[^\s'\"$`\\;&|<>()]*\}[^\s'\"$`\\;&|<>()]*")
_BRACE_PART = r"[^\s'\"$`\\;&|<>(){}]*"
_COMMAND_BRACES = re.compile(rf"(^|[;&|(]\s*|\n\s*)(\{{{_BRACE_PART},{_BRACE_PART}\}})")


def expand_braces(text: str) -> list[str] | None:
    """The words bash's brace expansion makes of an unquoted ``text``: ``~/{.ssh,.aws}`` is
    ``~/.ssh ~/.aws``, ``f{1..3}`` is ``f1 f2 f3``; text without a list or range (``{}``,
    ``{x}``) stays one word. None when it would make more than :data:`MAX_BRACE_WORDS`
    words (or nests too deep to follow): what it names is then not known."""
    try:
        words = _expand(text)
    except (_TooMany, RecursionError):
        return None
    return words or None


class _TooMany(Exception):
    """The expansion makes more than :data:`MAX_BRACE_WORDS` words."""


def _expand(text: str) -> list[str]:
    for start, char in enumerate(text):
        if char != "{":
            continue
        depth, commas, end = 0, [], -1
        for index in range(start, len(text)):
            if text[index] == "{":
                depth += 1
            elif text[index] == "}":
                depth -= 1
                if depth == 0:
                    end = index
                    break
            elif text[index] == "," and depth == 1:
                commas.append(index)
        if end < 0:
            return [text]
        body, prefix, suffix = text[start + 1 : end], text[:start], text[end + 1 :]
        cuts = [start, *commas, end]
        alternatives = [text[a + 1 : b] for a, b in itertools.pairwise(cuts)] if commas else None
        alternatives = alternatives if alternatives is not None else _sequence(body)
        if alternatives is None:
            continue  # "{}" or "{x}": left as it is
        out: list[str] = []
        for rest in _expand(suffix):
            for alternative in alternatives:
                out.extend(prefix + word + rest for word in _expand(alternative))
                if len(out) > MAX_BRACE_WORDS:
                    raise _TooMany
        return out
    return [text]


def _sequence(body: str) -> list[str] | None:
    match = re.fullmatch(r"(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])", body)
    if match is None:
        return None
    first, last = match.groups()
    if first.lstrip("-").isdigit() and last.lstrip("-").isdigit():
        a, b = int(first), int(last)
        if abs(b - a) >= MAX_BRACE_WORDS:
            raise _TooMany
        step = 1 if b >= a else -1
        return [str(n) for n in range(a, b + step, step)]
    if first.isalpha() and last.isalpha():
        a, b = ord(first), ord(last)
        step = 1 if b >= a else -1
        return [chr(n) for n in range(a, b + step, step)]
    return None


def expand_command_braces(text: str) -> str:
    """``{rm,-rf,~}`` written where a command starts is the command ``rm -rf ~`` to bash, but
    the parser reads a broken group; the line with such words expanded."""
    return _COMMAND_BRACES.sub(
        lambda m: m.group(1) + " ".join(expand_braces(m.group(2)) or [m.group(2)]), text
    )


def plain_braces(text: str) -> bool:
    """``text`` is an unquoted word whose braces bash expands (no quotes or expansions)."""
    return "," in text or ".." in text if _PLAIN_BRACES.fullmatch(text) else False
