"""Guards a write or an edit passes before it touches a file (``keep_syntax`` in
:func:`~workset.tools.execution.execution_tools`): a valid Python, JSON or TOML file is not
turned into one whose syntax is broken, and a Python module is not replaced by content that
drops most of its functions and classes. A refused change raises :class:`ToolError` and
leaves the file as it was."""

from __future__ import annotations

import ast
from pathlib import Path

from workset.errors import ToolError
from workset.tools.lint import syntax_error


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


def _top_level_names(source: bytes) -> list[str] | None:
    """The names of a module's top-level functions and classes, or None if it does not
    parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return [node.name for node in tree.body if isinstance(node, kinds)]
