"""Word resolution for the shell walker: what each word of a line becomes when bash runs it.

:class:`ShellWords` keeps what the line itself sets that words read (variables, ``IFS``,
positional parameters inside functions) and resolves a tree-sitter node to the words bash would
pass: quotes joined, ``$'…'`` decoded, expansions looked up (unquoted ones split on ``IFS``),
static ``$(echo …)`` evaluated, an unquoted leading ``~`` the home but a quoted one a file named
``~``. Redirections resolve to their targets and to the text fed to stdin (here-documents and
here-strings, with the commands their substitutions run). Commands inside substitutions are
walked by the subclass, :class:`~workset.safety.shell_walker.Walker`.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from workset.safety import rules
from workset.safety.rules import Cmd
from workset.safety.shell_text import (
    VAR,
    Word,
    decode_ansi_c,
    expand_braces,
    node_text,
    plain_braces,
    unescape,
    unescape_double,
)

_DEFAULT_IFS = " \t\n"
_SPECIAL = frozenset({"$", "!", "?", "#", "-"})
_ELEMENT = re.compile(r"\$\{(\w+)\[(@|\*|\d+)\]\}")


_SOCKET = re.compile(r"^/dev/(tcp|udp)/")


@dataclass
class Stdin:
    """What a here-document or here-string feeds to stdin, and the commands it ran to make it."""

    text: str = ""
    inner: tuple[Cmd, ...] = ()
    dynamic: bool = False


class ShellWords(ABC):
    """The variables, ``IFS`` and positional parameters a line sets, and its words resolved."""

    def __init__(self) -> None:
        # The home, and the user's shell: whichever it is, $SHELL -c CODE runs CODE as shell.
        self.env: dict[str, str] = {"HOME": "~", "SHELL": "/bin/sh", "BASH": "/bin/bash"}
        self.unknown: set[str] = set()  # variables set to values only known at run time
        self.positional: list[str] | None = None  # None: unknown ($1… of the outer shell)
        self.arrays: dict[str, list[str]] = {}  # arrays the line sets: a=(rm -rf /)
        self.capturing = 0  # inside how many $(…)/<(…): their output is a word, not shown
        self.walked: set[tuple[int, int]] = set()  # substitutions already walked
        self.sockets: dict[str, str] = {}  # descriptors above 2 opened on /dev/tcp|udp

    @abstractmethod
    def _block(self, node: Any, depth: int) -> list[Cmd]:
        """Walk the statements among ``node``'s children; the commands they recorded."""

    @abstractmethod
    def _report(self, finding: rules.Finding) -> None:
        """Keep a finding about the words themselves (a brace list too big to expand)."""

    def _captured(self, node: Any, depth: int) -> list[Cmd]:
        """:meth:`_block` for a substitution: what its commands print becomes a word."""
        self.walked.add(_key(node))
        self.capturing += 1
        try:
            return self._block(node, depth)
        finally:
            self.capturing -= 1

    def _unwalked_substitutions(self, root: Any, depth: int) -> None:
        """Walk every ``$(…)``/``<(…)`` of the tree no statement reached (a ``case`` subject,
        an array subscript, ``((x=$(…)))``): bash runs them all. Literal here-documents are
        text, not code, and are left alone."""
        stack = [root]
        while stack:
            node = stack.pop()
            if node.type in ("command_substitution", "process_substitution"):
                if _key(node) not in self.walked:
                    self._captured(node, depth)
                continue
            if node.type == "heredoc_redirect" and _quoted_heredoc(node):
                continue
            stack.extend(node.named_children)

    @abstractmethod
    def _fed_by_writer(self) -> None:
        """The next commands read a pipe whose writer is not known here."""

    def _pwd(self) -> str | None:
        """The directory the line is in (``$PWD``, ``$(pwd)``); None when only known at run
        time."""
        return None

    def _set(self, name: str, value: str, *, dynamic: bool) -> None:
        self.arrays.pop(name, None)
        self.env[name] = value
        if dynamic:
            self.unknown.add(name)
        else:
            self.unknown.discard(name)

    # redirections -------------------------------------------------------------------------

    def _redirect(
        self, node: Any, depth: int
    ) -> tuple[list[tuple[str, Word]], Stdin | None, list[Any]]:
        """(op, target) pairs, the text fed to stdin, and pipelines that continue after it."""
        kind = node.type
        if kind == "herestring_redirect":
            word = joined([w for c in node.named_children for w in self._fields(c, depth, True)])
            return [], Stdin(word.text, tuple(word.inner), word.dynamic), []
        if kind == "heredoc_redirect":
            # cat <<'X' > FILE: the grammar puts the redirections after the marker inside
            after = [c for c in node.named_children if c.type == "file_redirect"]
            return (
                [t for c in after for t in self._redirect(c, depth)[0]],
                self._heredoc(node, depth),
                [c for c in node.named_children if c.type in ("pipeline", "list", "command")],
            )
        op = next((c.type for c in node.children if not c.is_named), ">")
        written = node.child_by_field_name("descriptor")
        descriptor = node_text(written) if written is not None else ""
        targets: list[tuple[str, Word]] = []
        for child in node.children_by_field_name("destination"):
            if child.type == "number" and op in (">&", "<&"):
                socket = self.sockets.get(node_text(child))
                if socket is not None:  # bash <&3 after exec 3<>/dev/tcp/…: the socket itself
                    targets.append((op[0], Word(socket, descriptor=descriptor)))
                continue  # 2>&1: a descriptor, not a file
            for word in self._fields(child, depth, quoted=True):
                if descriptor.isdigit() and int(descriptor) > 2 and _SOCKET.match(word.text):
                    self.sockets[descriptor] = word.text
                targets.append((op, dataclasses.replace(word, descriptor=descriptor)))
        return targets, None, []

    def _heredoc(self, node: Any, depth: int) -> Stdin:
        start = next((c for c in node.children if c.type == "heredoc_start"), None)
        body = next((c for c in node.children if c.type == "heredoc_body"), None)
        if body is None:
            return Stdin()
        text = node_text(body)
        quoted = start is not None and bool(re.search("['\"\\\\]", node_text(start)))
        if quoted:
            return Stdin(text)
        inner: list[Cmd] = []
        dynamic = False
        for part in body.named_children:
            if part.type in ("simple_expansion", "expansion", "command_substitution"):
                word = joined(self._fields(part, depth, quoted=True))
                inner.extend(word.inner)
                dynamic = dynamic or word.dynamic
                text = text.replace(node_text(part), word.text, 1)
        return Stdin(text, tuple(inner), dynamic)

    # words --------------------------------------------------------------------------------

    def _fields(self, node: Any, depth: int, quoted: bool = False) -> list[Word]:
        """The words ``node`` becomes: unquoted expansions split on ``IFS``."""
        kind = node.type
        text = node_text(node)
        if kind in ("word", "concatenation") and plain_braces(text):
            words = expand_braces(text)  # ~/{.ssh,.aws}: two words
            if words is None:
                self._report(rules.too_many_words(text))
            return [Word(w) for w in words] if words else [Word(text, dynamic=True)]
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
            inner = self._captured(node, depth)
            output = rules.static_output(_top_level(inner)) if inner else None
            if output is None and _prints_cwd(inner) and self._pwd() is not None:
                output = self._pwd()
            if output is None and self._pwd() is not None:
                output = _resolved_path(_top_level(inner), str(self._pwd()))  # $(realpath ..)
            output = rules.inert_output(_top_level(inner)) if output is None else output
            if output is None:
                return [Word(text, dynamic=True, inner=list(inner))]
            pieces = [output.strip()] if quoted else self._split(output)
            return [Word(p, inner=list(inner)) for p in pieces] or [Word("", inner=list(inner))]
        if kind == "process_substitution":
            if text.startswith(">("):  # >(sh): what the command writes there is its input
                self._fed_by_writer()
            inner = self._captured(node, depth)
            return [Word("/dev/fd/63", inner=list(inner), process=True)]
        if kind == "concatenation":
            out: list[Word] = []
            for child in node.children:
                parts = self._fields(child, depth, quoted) if child.is_named else [Word(child.type)]
                if out and parts:
                    out[-1] = joined([out[-1], parts[0]])
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
        source, end = bytes(node.text), node.start_byte
        for child in node.children:
            if child.start_byte > end:  # the grammar leaves a quoted newline out of its pieces
                gap = source[end - node.start_byte : child.start_byte - node.start_byte]
                pieces[-1] = joined([pieces[-1], Word(gap.decode("utf-8", "replace"))])
            end = child.end_byte
            if not child.is_named:
                if child.type not in ('"', '$"'):
                    pieces[-1] = joined([pieces[-1], Word(child.type)])
                continue
            if child.type == "string_content":
                pieces[-1] = joined([pieces[-1], Word(unescape_double(node_text(child)))])
            elif self._spread(child) is not None:
                spread = [Word(p) for p in self._spread(child) or []] or [Word("")]
                pieces[-1] = joined([pieces[-1], spread[0]])
                pieces.extend(spread[1:])
            else:
                pieces[-1] = joined([pieces[-1], *self._fields(child, depth, quoted=True)])
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
            return self._indirect(text)
        element = _ELEMENT.fullmatch(text)
        if element and element.group(1) in self.arrays:
            values = self.arrays[element.group(1)]
            index = element.group(2)
            if index in ("@", "*"):
                return list(values), False
            return ([values[int(index)]] if int(index) < len(values) else [""]), False
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
        if name == "PWD" and name not in self.env and self._pwd() is not None:
            known, value = True, self._pwd() or ""
        plain = node.type == "simple_expansion" or re.fullmatch(r"\$\{\w+\}", text) is not None
        if plain:
            return ([value], False) if known else ([text], True)
        if known:
            edited = edit_value(text, value)
            if edited is not None:  # ${dir%/project/}, ${p//x/y}, ${s:0:3}, ${v^^}
                return [edited], False
        operator = re.match(r"\$\{\w+(:?[-=?+])", text)
        if operator and operator.group(1).lstrip(":") == "?" and known and value:
            return [value], False  # ${OUT:?} after OUT=dist: the line set it, so it is dist
        if operator and operator.group(1).lstrip(":") in ("-", "="):
            words = [w for c in node.named_children[1:] for w in self._fields(c, depth, True)]
            default = joined(words).text if words else ""
            return ([value], False) if known and value else ([default], True)
        return [value if known else text], True

    def _indirect(self, text: str) -> tuple[list[str], bool]:
        """``${!a}`` after ``a=HOME``: the value of the variable that ``a`` names, when the line
        set both; else (``${!prefix*}``, an unknown name) only known at run time."""
        match = re.fullmatch(r"\$\{!(\w+)\}", text)
        if match is None or match.group(1) not in self.env or match.group(1) in self.unknown:
            return [text], True
        target = self.env[match.group(1)]
        if (
            re.fullmatch(r"[A-Za-z_]\w*", target)
            and target in self.env
            and target not in self.unknown
        ):
            return [self.env[target]], False
        return [text], True

    def _spread(self, node: Any) -> list[str] | None:
        """The words ``"$@"`` or ``"${a[@]}"`` spreads into, when they are known."""
        if _is_all_positional(node):
            return self.positional
        element = _ELEMENT.fullmatch(node_text(node))
        if node.type == "expansion" and element and element.group(2) == "@":
            return self.arrays.get(element.group(1))
        return None

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


def _key(node: Any) -> tuple[int, int]:
    return (node.start_byte, node.end_byte)


def _quoted_heredoc(node: Any) -> bool:
    start = next((c for c in node.children if c.type == "heredoc_start"), None)
    return start is not None and bool(re.search("['\"\\\\]", node_text(start)))


def _top_level(cmds: list[Cmd]) -> list[Cmd]:
    """The commands of a substitution without those its words' own substitutions ran
    (``$(dirname "$(pwd)")`` prints what ``dirname`` prints, not what ``pwd`` does)."""
    nested = [c for cmd in cmds for i in range(len(cmd.argv)) for c in cmd.inner_of(i)]
    return [c for c in cmds if not any(c is n for n in nested)]


def _resolved_path(cmds: list[Cmd], cwd: str) -> str | None:
    """What ``realpath PATH`` or ``readlink -f PATH`` prints for a literal path (seen from
    ``cwd``); None for anything else."""
    if len(cmds) != 1 or cmds[0].redirects or any(cmds[0].dynamic):
        return None
    cmd = cmds[0]
    words = [a for a in cmd.args() if a not in ("-f", "-e", "-m", "-s", "--canonicalize")]
    if cmd.name not in ("realpath", "readlink") or len(words) != 1 or words[0].startswith("-"):
        return None
    if cmd.name == "readlink" and not {"-f", "-e", "-m"} & set(cmd.args()):
        return None
    word = words[0]
    if word.startswith(("/", "~")):
        return posixpath.normpath(word) if word.startswith("/") else word
    return posixpath.normpath(cwd.rstrip("/") + "/" + word) if cwd.startswith("/") else None


def _prints_cwd(cmds: list[Cmd]) -> bool:
    """``$(pwd)``: the one command prints the current directory."""
    return (
        len(cmds) == 1
        and cmds[0].name == "pwd"
        and set(cmds[0].args()) <= {"-L", "-P"}
        and not cmds[0].redirects
    )


_EDIT = re.compile(r"\$\{(\w+)(##?|%%?|//?|/#|/%|\^\^?|,,?|:)([^}$`'\"\\]*)\}")


def edit_value(text: str, value: str) -> str | None:
    """The value of ``${x%pat}``, ``${x##pat}``, ``${x/pat/rep}``, ``${x:off:len}``, ``${x^^}``
    for a known ``value`` and a literal pattern; None for any other form (then unknown)."""
    match = _EDIT.fullmatch(text)
    if match is None:
        return None
    operator, rest = match.group(2), match.group(3)
    if re.search(r"[\[(&]", rest):
        return None  # bracket classes, extended globs, & in a replacement: not evaluated
    if operator in ("^", "^^", ",", ",,"):
        if rest:
            return None
        change = str.upper if operator[0] == "^" else str.lower
        return change(value) if len(operator) == 2 else change(value[:1]) + value[1:]
    if operator == ":":
        numbers = re.fullmatch(r"\s*(-?\d+)\s*(?::\s*(-?\d+)\s*)?", rest)
        if numbers is None or rest.startswith("-"):
            return None  # ${x:-d} is a default, handled elsewhere
        start = int(numbers.group(1))
        start = max(len(value) + start, 0) if start < 0 else start
        if numbers.group(2) is None:
            return value[start:]
        length = int(numbers.group(2))
        return value[start : len(value) + length] if length < 0 else value[start : start + length]
    if operator.startswith("/"):
        pattern, _, replacement = rest.partition("/")
        regex = _glob(pattern, greedy=True)
        if not pattern:
            return value
        if operator == "/#":
            return re.sub("^" + regex, lambda _: replacement, value, count=1)
        if operator == "/%":
            return re.sub(regex + "$", lambda _: replacement, value, count=1)
        return re.sub(regex, lambda _: replacement, value, count=0 if operator == "//" else 1)
    greedy = len(operator) == 2
    regex = _glob(rest, greedy=greedy)
    if operator[0] == "#":
        cut = re.match(regex, value)
        return value[cut.end() :] if cut else value
    ends = [i for i in range(len(value) + 1) if re.fullmatch(regex, value[i:])]
    if not ends:
        return value
    return value[: ends[0] if greedy else ends[-1]]


def _glob(pattern: str, *, greedy: bool) -> str:
    """A shell pattern as a regular expression (``*`` shortest unless ``greedy``)."""
    out = []
    for char in pattern:
        if char == "*":
            out.append(".*" if greedy else ".*?")
        elif char == "?":
            out.append(".")
        else:
            out.append(re.escape(char))
    return "".join(out)


def joined(words: list[Word]) -> Word:
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


def _is_all_positional(node: Any) -> bool:
    return node.type in ("simple_expansion", "expansion") and node_text(node) in (
        "$@",
        "${@}",
        "$*",
        "${*}",
    )
