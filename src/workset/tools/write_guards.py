"""Guards a write or an edit passes before it touches a file (``keep_syntax`` in
:func:`~workset.tools.execution.execution_tools`): a valid Python, JSON or TOML file is not
turned into one whose syntax is broken, and a Python module is not replaced by content that
drops most of its functions and classes, or given a second definition of a name it defines
once, or an edit with text in ``new`` that leaves it fewer definitions; an edit must change
something. A refused change raises :class:`ToolError` and leaves
the file as it was."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Sequence
from pathlib import Path

from workset.errors import ToolError
from workset.tools.lint import LintIssue, syntax_error

_HEADING = re.compile(r"(?m)^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)")


def keep_valid(
    target: Path,
    rel: str,
    result: bytes,
    *,
    what: str = "write",
    hint: str = "write the complete file, valid as a whole; to change part of it, use edit_file",
) -> None:
    """Refuse to turn ``target``, a Python, JSON or TOML file whose syntax is valid now, into
    ``result`` with a syntax error (a write of one line over a whole module, an edit that
    leaves half a statement); the file is left unchanged."""
    broken = syntax_error(target, result)
    if broken is None or syntax_error(target, target.read_bytes()) is not None:
        return
    where = f"line {broken.line}" + (f", column {broken.column}" if broken.column else "")
    raise ToolError(
        f"the {what} was not applied: it would break the syntax of {rel} ({where}: "
        f"{broken.message}); the file is unchanged",
        hint=hint,
    )


def keep_definitions(target: Path, rel: str, result: bytes) -> None:
    """Refuse a ``write_file`` that would replace a Python module with content that drops
    most of its top-level definitions (asked to add ``double`` to ``operations.py``, a small
    model wrote the new function alone as the whole file); the file is left unchanged."""
    if target.suffix.lower() not in (".py", ".pyi"):
        return
    had, has = _top_level_names(target.read_bytes()), _top_level_names(result)
    if had is None or has is None:
        return
    dropped = [name for name in had if name not in has]
    if len(dropped) < 2 or 2 * len(dropped) <= len(had):
        return
    shown = ", ".join(dropped[:6]) + (", …" if len(dropped) > 6 else "")
    raise ToolError(
        f"the write was not applied: it would replace all of {rel} and drop {len(dropped)} of "
        f"its {len(had)} top-level definitions ({shown}); the file is unchanged",
        hint="write_file replaces the whole file. To add or change part of it, use edit_file "
        "(to add at the end: old = the file's last line, new = that line followed by the new "
        "code); to rewrite the file, write every definition that stays",
    )


def keep_change(rel: str, data: bytes, result: bytes) -> None:
    """Refuse an edit whose result is the file as it was: ``new`` differed from ``old`` only
    in what edit_file normalises (a copied line-number prefix, indentation), so the model
    wrote the line back as it is instead of as it must read; in a Python file, also one that
    changes nothing but spaces inside a line (``if  base_dir and ...``: the same tokens)."""
    same = result == data
    spacing = not same and rel.lower().endswith((".py", ".pyi")) and _same_tokens(data, result)
    if same or spacing:
        what = "only the spacing of" if spacing else "nothing in"
        raise ToolError(
            f"the edit was not applied: new, once indented as old, changes {what} the code, "
            f"so {rel} would not change what it does",
            hint="write new as the text must read AFTER the change the task asks for; if this "
            "line needs no change, choose the line that does",
        )


def _same_tokens(before: bytes, after: bytes) -> bool:
    """Whether two Python sources are the same tokens (spacing inside lines aside; a change
    of indentation that moves a statement to another block is a change)."""
    try:
        one, two = _tokens(before), _tokens(after)
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError):
        return False
    return one == two


def _tokens(source: bytes) -> list[tuple[int, str]]:
    readline = io.BytesIO(source).readline
    skip = (tokenize.NL, tokenize.ENCODING)
    return [(t.type, t.string) for t in tokenize.tokenize(readline) if t.type not in skip]


def keep_single_definitions(target: Path, rel: str, data: bytes, result: bytes) -> None:
    """Refuse an edit that gives a Python module a second ``def``/``class`` of a name in the
    same scope (a small model rewrote ``def add(`` as ``def subtract(`` to fix subtract, so
    the module defined subtract twice and add no more)."""
    if target.suffix.lower() not in (".py", ".pyi"):
        return
    had, has = _defined_twice(data), _defined_twice(result)
    if had is None or has is None:
        return
    new = {name: lines for name, lines in has.items() if name not in had}
    nested_had, nested_has = _nested_module_names(data), _nested_module_names(result)
    new.update({name: lines for name, lines in nested_has.items() if name not in nested_had})
    if not new:
        return
    name, lines = next(iter(new.items()))
    where = " and ".join(str(n) for n in lines[:2])
    raise ToolError(
        f"the edit was not applied: {rel} would define `{name}` twice (lines {where}); the "
        "file is unchanged",
        hint="old must be the line that is wrong, inside the definition the task names; keep "
        "other definitions' def lines as they are",
    )


def keep_replaced_definitions(target: Path, rel: str, data: bytes, result: bytes) -> None:
    """Refuse an edit that leaves a Python module with fewer ``def``/``class`` definitions
    although ``new`` is not empty: given a whole function as ``old``, a small model writes
    only the changed line as ``new``, and the function is gone. (Deleting a definition takes
    an empty ``new``; a rename keeps the count.)"""
    if target.suffix.lower() not in (".py", ".pyi"):
        return
    had, has = _definitions(data), _definitions(result)
    if len(has) >= len(had):
        return
    gone = [name for name in dict.fromkeys(had) if had.count(name) > has.count(name)]
    shown = ", ".join(f"`{name}`" for name in gone[:3])
    raise ToolError(
        f"the edit was not applied: {rel} would lose the definition of {shown}; the file is "
        "unchanged",
        hint="when old is a whole definition, write new as that whole definition as it must "
        "read (its def line and every line of its body, changed where the task asks)",
    )


def undefined_names(rel: str, issues: Sequence[LintIssue]) -> ToolError:
    """The error for an edit that made names undefined (ruff's F821): the 0.5B, asked to fix
    ``next_id = self._next_id + 1``, wrote the line below it in its place, and ``next_id``
    was no longer assigned. The edit is undone before this is raised."""
    names = list(dict.fromkeys(i.message.split("`")[1] for i in issues if "`" in i.message))
    shown = ", ".join(f"`{n}`" for n in names[:3]) or "a name"
    return ToolError(
        f"the edit was not applied: it would leave {shown} undefined in {rel} (line "
        f"{issues[0].line}); the file is unchanged",
        hint="new replaces old: keep the assignments and definitions that other lines use; "
        "if the change needs a new name, define it in the same edit",
    )


def _definitions(source: bytes) -> list[str]:
    """The names of a module's ``def``/``class`` lines (nested ones too), read line by line
    so that a result whose syntax is broken is counted as well."""
    return _HEADING.findall(source.decode("utf-8", "replace"))


def _defined_twice(source: bytes) -> dict[str, list[int]] | None:
    """Names defined more than once by ``def``/``class`` in the same scope (the module's,
    a class's or a function's own statements; ``@overload``-decorated and property setter
    definitions excepted), with their lines; None if the source does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    out: dict[str, list[int]] = {}
    scopes: list[ast.AST] = [tree, *(n for n in ast.walk(tree) if isinstance(n, kinds))]
    for scope in scopes:
        seen: dict[str, list[int]] = {}
        for node in getattr(scope, "body", []):
            if isinstance(node, kinds) and not _redefinable(node):
                seen.setdefault(node.name, []).append(node.lineno)
        out.update({name: lines for name, lines in seen.items() if len(lines) > 1})
    return out


def _nested_module_names(source: bytes) -> dict[str, list[int]]:
    """Names of the module's top-level functions and classes defined again inside a function
    (the 0.5B put a copy of ``def delete`` inside delete's own ``transform``), with the lines
    of both; empty if the source does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    top = {node.name: node.lineno for node in tree.body if isinstance(node, kinds)}
    out: dict[str, list[int]] = {}
    for scope in ast.walk(tree):
        if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(scope):
            if node is not scope and isinstance(node, kinds) and node.name in top:
                out.setdefault(node.name, [top[node.name]]).append(node.lineno)
    return out


def _redefinable(node: ast.AST) -> bool:
    """A definition meant to share its name: ``@overload``, ``@x.setter``/``.deleter``,
    ``@singledispatch`` registrations (``@f.register``)."""
    for dec in getattr(node, "decorator_list", []):
        name = dec.attr if isinstance(dec, ast.Attribute) else getattr(dec, "id", "")
        if name in ("overload", "setter", "deleter", "getter", "register"):
            return True
    return False


def _top_level_names(source: bytes) -> list[str] | None:
    """The names of a module's top-level functions and classes, or None if it does not
    parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return [node.name for node in tree.body if isinstance(node, kinds)]
