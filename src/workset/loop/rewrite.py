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
from dataclasses import dataclass

from workset.messages import ToolCall

_FENCE = re.compile(r"```[\w+-]*[ \t]*\n(.*?)(?:\n[ \t]*```|\Z)", re.S)
_GUTTER = re.compile(r"^ *\d+\| ?", re.M)
_DEF = re.compile(r"^([ \t]*)(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)", re.M)


@dataclass(frozen=True, slots=True)
class Rewrite:
    """The function a guided edit chose to rewrite: its file, its numbered text as offered
    (``old``), its name."""

    path: str
    old: str
    name: str

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
        return (
            f"The function `{self.name}` in {self.path} now reads:\n"
            f"```python\n{textwrap.dedent(self.code)}\n```\n"
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
    heading = _DEF.search(_GUTTER.sub("", old))
    return Rewrite(path, old, heading.group(2)) if heading else None


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
