"""Shell text before and after parsing: the bashlex loader, the ``shlex`` fallback splitter,
ANSI-C quote decoding, the patterns for variables, assignments and substitutions, and
:class:`Word`, one normalised word with what its substitutions run.

These are the pure pieces :mod:`workset.safety.shell_walker` uses to turn shell text into the
commands the rules judge.
"""

from __future__ import annotations

import codecs
import importlib
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from workset.safety.rules import Cmd

VAR = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
_ANSI_C = re.compile(r"\$'((?:[^'\\]|\\.)*)'")
ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\+?=(.*)$", re.DOTALL)
DECLARERS = frozenset({"export", "declare", "local", "readonly", "typeset"})
RESERVED = frozenset(
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
SUBSTITUTION = re.compile(r"([$<>])\(([^()]*)\)|`([^`]*)`")
UNCLOSED_BRACE = re.compile(r"\$\{[^}\s;|&]*(?=[\s;|&]|$)")
PLACEHOLDER = re.compile(r"__ws\d+__")
FUNCTION = re.compile(r"([\w:.-]+)\s*\(\s*\)\s*\{([^}]*)\}")


def load_bashlex() -> Any:
    try:
        return importlib.import_module("bashlex")
    except ImportError:  # the conservative shlex splitter takes over
        return None


def decode_ansi_c(text: str) -> str:
    """Rewrite ``$'r\\x6d'`` as ``'rm'`` (bashlex does not understand ANSI-C quoting)."""

    def decode(match: re.Match[str]) -> str:
        try:
            value = codecs.decode(match.group(1), "unicode_escape")
        except UnicodeDecodeError:
            value = match.group(1)
        return "'" + value.replace("'", "'\\''") + "'"

    return _ANSI_C.sub(decode, text)


@dataclass
class Word:
    text: str
    dynamic: bool = False
    # commands run by substitutions inside this word ($(…), `…`, <(…))
    inner: list[Cmd] = field(default_factory=list)
    process: bool = False


def shlex_split(text: str) -> list[list[list[str]]] | None:
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
