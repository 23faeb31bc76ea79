"""What the shell walker records for each simple command it resolves, and the one finding read
from a function body alone.

A command is reported as :class:`SimpleCommand` (its words and output redirections, as
:func:`workset.safety.commands.analyze_command` returns them) and judged as a
:class:`~workset.safety.rules.Cmd` built by :func:`resolved_cmd`; :func:`fork_bomb` flags a
function that calls itself twice, or in a pipe or in the background.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from workset.safety import rules
from workset.safety.rules import Cmd, Finding
from workset.safety.shell_text import Word, node_text, unescape
from workset.safety.shell_words import Stdin
from workset.safety.unicode_fold import fold


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


def resolved_cmd(
    words: list[Word],
    redirects: list[tuple[str, Word]],
    upstream: tuple[Cmd, ...],
    *,
    piped: bool,
    background: bool,
    stdin: Stdin | None,
) -> Cmd:
    """The command the rules judge: resolved words with the name folded to ASCII."""
    argv = tuple(_path_word(w) for w in words)
    argv = (fold(argv[0]), *argv[1:]) if argv else argv
    return Cmd(
        argv=argv,
        dynamic=tuple(w.dynamic for w in words),
        inner=tuple(tuple(w.inner) for w in words),
        process=tuple(w.process for w in words),
        redirects=tuple((op, _path_word(w)) for op, w in redirects)
        + ((("<<", stdin.text),) if stdin is not None else ()),
        extra_fd=tuple(w.descriptor.isdigit() and int(w.descriptor) > 2 for _, w in redirects),
        redirect_dynamic=tuple(w.dynamic for _, w in redirects),
        upstream=upstream,
        piped=piped,
        background=background,
        stdin_inner=(stdin.inner if stdin is not None else ())
        + tuple(c for op, w in redirects if op == "<" and w.process for c in w.inner),
        stdin_dynamic=stdin.dynamic if stdin is not None else False,
        lookalike=words[0].text != argv[0] if words else False,
    )


def fork_bomb(name: str, body: Any) -> Finding | None:
    """The finding for function ``name`` whose ``body`` calls it twice, piped or in background."""
    self_calls = [c for c in _command_names(body) if c[0] == name]
    if len(self_calls) >= 2 or any(piped or background for _, piped, background in self_calls):
        return rules.fork_bomb(name)
    return None


def _path_word(word: Word) -> str:
    """The word's text; a quoted leading ``~`` names a file called ``~`` in this directory."""
    if word.literal_tilde and word.text.startswith("~"):
        return "./" + word.text
    return word.text


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
