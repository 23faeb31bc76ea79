"""A whole function rewritten as code, not inside a JSON string.

Offered a whole function as ``old`` (:mod:`.edit_blocks`), the 0.5B wrote ``new`` as one
copied line (``"    21|         del doc[field]"``) or broke off at the first docstring quote it
had to escape (``"47|     \\\\"``): code inside a JSON string is not what a small code model
writes well; a function in a fenced block is. So a guided edit of a block takes two calls:
the first chooses the function (``edit_file`` with ``path`` and ``old``, no ``new``), and the
harness answers it with the function's text and the request to write it again, changed, in
one fenced block, with the tools withheld; the second call's code becomes ``new`` of the
``edit_file`` call the harness records for it (indented as the function is), and edit_file
runs it with all its guards.
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, replace

from workset.messages import ToolCall

_FENCE = re.compile(r"```[\w+-]*[ \t]*\n(.*?)(?:\n[ \t]*```|\Z)", re.S)
_GUTTER = re.compile(r"^ *\d+\| ?", re.M)
_DEF = re.compile(r"^([ \t]*)(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)", re.M)
_CLASS = re.compile(r"^([ \t]*)class[ \t]+[A-Za-z_]", re.M)
SAMPLE_TEMPERATURE = 0.8  # a function asked for again after a copy that changed nothing
MAX_SAMPLES = 2  # such requests for one chosen function


@dataclass(frozen=True, slots=True)
class Rewrite:
    """The function a guided edit chose to rewrite: its file, its numbered text as offered
    (``old``), its name."""

    path: str
    old: str
    name: str
    failures: str = ""  # what the tests say with the function as it reads now
    attempt: int = 0  # rewrites of it before this one that changed nothing

    @property
    def sampling(self) -> tuple[float, int] | None:
        """(temperature, seed) of the request for this rewrite: greedy the first time; a
        function written back unchanged is asked for again sampled (greedy decoding would
        give the same copy), with a seed per attempt so a run can be repeated."""
        return None if self.attempt == 0 else (SAMPLE_TEMPERATURE, self.attempt)

    def sampled(self) -> Rewrite:
        """This rewrite asked for once more, sampled."""
        return replace(self, attempt=self.attempt + 1)

    def named(self, reply: str, offered: Mapping[tuple[str, str], str]) -> Rewrite:
        """The rewrite ``reply`` is of: this one, or another function of this file that was
        offered (``offered``: (path, name) -> its numbered text) when the reply defines that
        one and not this (the 0.5B, given valfilter, wrote keyfilter fixed)."""
        names = defined_names(reply)
        if not names or self.name in names:
            return self
        old = offered.get((self.path, names[0]))
        return replace(self, old=old, name=names[0]) if old else self

    @property
    def code(self) -> str:
        """The function's text as the file has it (without the line numbers)."""
        return _GUTTER.sub("", self.old)

    def chosen(self) -> str:
        """The result of the call that chose the function."""
        return (
            f"`{self.name}` in {self.path} was chosen; it is rewritten next, as code (no "
            "tool call)."
        )

    def instruction(self, task: str) -> str:
        """The notice that asks for the function as it must read."""
        failed = f"With it, the tests fail:\n{self.failures}\n" if self.failures else ""
        return (
            f"The function `{self.name}` in {self.path} now reads:\n"
            f"```python\n{textwrap.dedent(self.code)}\n```\n{failed}"
            f"Write the whole function `{self.name}` again as it must read after this change: "
            f"{task.strip()}\nReply with the complete function (its def line and its whole "
            "body) in one ```python block and nothing else."
        )

    def call(self, reply: str, call_id: str) -> ToolCall | None:
        """The edit_file call that puts the function of ``reply`` in place of this one, or
        None when ``reply`` holds no definition of it."""
        code = code_in(reply)
        if code is None:
            return None
        code = _GUTTER.sub("", code) if _all_numbered(code) else code
        heading = next((m for m in _DEF.finditer(code) if m.group(2) == self.name), None)
        if heading is None:
            return None
        indent = _DEF.match(self.code)
        code = only_definition(code[heading.start() :])
        new = reindented(code, indent.group(1) if indent else "")
        arguments = {"path": self.path, "old": self.old, "new": new.rstrip()}
        return ToolCall(call_id, "edit_file", json.dumps(arguments, ensure_ascii=False))

    def choice(self) -> str:
        """The arguments of the call that chose this function (``path`` and ``old``)."""
        return json.dumps({"path": self.path, "old": self.old}, ensure_ascii=False)

    def no_function_note(self) -> str:
        """The result of a reply that holds no definition of the function."""
        return (
            f"not applied: your reply holds no complete `{self.name}` (its def line and its "
            "whole body in a ```python block); nothing was changed."
        )

    def again(self, call: ToolCall, failures: str) -> Rewrite:
        """The rewrite of the function ``call`` (from :meth:`call`) wrote, after which the
        tests still fail with ``failures``."""
        new = json.loads(call.arguments).get("new", "")
        return Rewrite(self.path, new, self.name, failures)

    def unchanged(self, call: ToolCall) -> bool:
        """Whether ``call`` (from :meth:`call`) writes a function that does what this one
        does: the same code once docstrings, comments and spacing are set aside (the 0.5B,
        asked to fix ``__le__``, wrote it back as it was, and ``__ge__`` with one docstring
        example changed)."""
        new = json.loads(call.arguments).get("new", "")
        return same_code(self.code, new)

    def unchanged_note(self) -> str:
        """The result of a rewrite that changed nothing the code does."""
        return (
            f"not applied: the `{self.name}` you wrote does what the one in {self.path} already "
            "does (only docstrings, comments or spacing differ). If the change belongs in "
            "this function, write it with the line that causes the problem changed; else "
            "choose another function or line."
        )


def same_code(one: str, two: str) -> bool:
    """Whether two Python snippets are the same code, docstrings, comments and spacing
    aside (False when either does not parse)."""
    try:
        trees = [ast.parse(textwrap.dedent(code)) for code in (one, two)]
    except SyntaxError:
        return False
    for tree in trees:
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if (
                isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                and body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                node.body = body[1:] or [ast.Pass()]
    return ast.dump(trees[0]) == ast.dump(trees[1])


def rewrite_of(call: ToolCall, blocks: dict[str, list[str]]) -> Rewrite | None:
    """The rewrite ``call`` asks for: an ``edit_file`` call without ``new`` whose ``path``
    and ``old`` are one of the offered ``blocks``; else None."""
    if call.name != "edit_file":
        return None
    try:
        arguments = json.loads(call.arguments)
    except json.JSONDecodeError:
        return None
    if not isinstance(arguments, dict) or "new" in arguments:
        return None
    path, old = arguments.get("path"), arguments.get("old")
    if not isinstance(path, str) or old not in blocks.get(path, []):
        return None
    name = function_name(old)
    return Rewrite(path, old, name) if name else None


def function_name(block: str) -> str | None:
    """The name of the function a numbered block (``"56| def increment(...):"``) defines."""
    heading = _DEF.search(_GUTTER.sub("", block))
    return heading.group(2) if heading else None


def code_in(reply: str) -> str | None:
    """The code of ``reply``: its first fenced block, or the whole reply when it begins with
    a definition (a decorator or ``def``); None otherwise."""
    fenced = _FENCE.search(reply)
    if fenced:
        return fenced.group(1)
    text = reply.strip("\n")
    first = text.lstrip()
    return text if first.startswith(("def ", "async def ", "@")) else None


def only_definition(code: str) -> str:
    """The definition ``code`` begins with, without what follows it: the 0.5B, asked for
    ``__init__``, wrote the whole class from it on (``get`` and ``put`` after it), and the
    methods after ``__init__`` would have been written into the file twice. A decorator or a
    signature's closing line at the ``def``'s indentation belongs to it."""
    lines = code.split("\n")
    first = lines[0]
    indent = len(first) - len(first.lstrip(" \t"))
    end = len(lines)
    for number, line in enumerate(lines[1:], start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith((")", "]", "}")):
            continue
        if len(line) - len(line.lstrip(" \t")) <= indent:
            end = number
            break
    return "\n".join(lines[:end]).rstrip()


def reindented(code: str, indent: str) -> str:
    """``code`` shifted so that its first line is indented ``indent``, its other lines kept
    relative to it (a method written back at the margin goes back inside its class)."""
    lines = code.split("\n")
    first = lines[0]
    given = first[: len(first) - len(first.lstrip(" \t"))]
    if given == indent:
        return code
    out = []
    for line in lines:
        if not line.strip():
            out.append("")
        elif line.startswith(given):
            out.append(indent + line[len(given) :])
        else:  # indented less than the def line: keep it as written
            out.append(line)
    return "\n".join(out)


def _all_numbered(code: str) -> bool:
    lines = [line for line in code.split("\n") if line.strip()]
    return bool(lines) and all(_GUTTER.match(line) for line in lines)


def defined_names(reply: str) -> list[str]:
    """The names of the functions ``reply``'s code defines at its outermost level, in order;
    none when it writes out a class."""
    code = code_in(reply)
    if code is None:
        return []
    code = _GUTTER.sub("", code) if _all_numbered(code) else code
    found = list(_DEF.finditer(code))
    if not found:
        return []
    least = min(len(m.group(1)) for m in found)
    if any(len(m.group(1)) <= least for m in _CLASS.finditer(code)):
        return []  # a class written out (the 0.5B, given lru, wrote all of LRUCache)
    return [m.group(2) for m in found if len(m.group(1)) == least]
