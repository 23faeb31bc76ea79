"""What a Python syntax tree says with literals alone, for :mod:`workset.safety.python_code`.

:func:`dotted` names what is called (``os.path.join``, ``getattr(os, "sys" + "tem")`` is
``os.system``); :func:`constant_text`, :func:`literal_command` and :func:`literal_path` are the
string, command and path an expression writes with literals only (``'r' + 'm -rf ~'``,
``Path.home() / '.aws'``), None when a part is only known at run time;
:func:`computed_attribute` is a ``getattr`` whose name is computed, and
:func:`opens_for_writing` an ``open`` whose mode writes.
"""

from __future__ import annotations

import ast
import shlex


def dotted(node: ast.expr) -> str:
    """``os.path.join`` for an attribute chain, ``rmtree`` for a bare name, else ``""``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call) and dotted(node.func) == "getattr" and len(node.args) > 1:
        attribute = constant_text(node.args[1])  # getattr(os, "sys" + "tem"): os.system
        return f"{dotted(node.args[0])}.{attribute}" if attribute else ""
    if isinstance(node, ast.Call):  # __import__("os").system
        return dotted(node.func)
    return ""


def constant_text(node: ast.expr) -> str | None:
    """The value of a string built only of literals (``"sys" + "tem"``), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = constant_text(node.left), constant_text(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))
    return None


def computed_attribute(node: ast.Call) -> bool:
    """``getattr(os, name)`` with a name only known at run time: any function may be called."""
    return (
        dotted(node.func) == "getattr"
        and len(node.args) > 1
        and constant_text(node.args[1]) is None
    )


def literal_command(node: ast.expr) -> str | None:
    """A command written with literals only (``'r' + 'm -rf ~'``, ``['rm', '-rf', x]`` is not)."""
    words = [constant_text(e) for e in node.elts] if isinstance(node, ast.List | ast.Tuple) else []
    if words and all(w is not None for w in words):
        return shlex.join(w for w in words if w is not None)
    return constant_text(node)


def literal_path(node: ast.expr) -> str | None:
    """The path a literal expression names: ``'/x'``, ``Path('/x')``, ``expanduser('~')``…"""
    if isinstance(node, ast.Constant):
        return str(node.value) if isinstance(node.value, str | int) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = literal_path(node.operand)
        return f"-{inner}" if inner is not None else None
    if isinstance(node, ast.Call):
        name = dotted(node.func)
        if name.endswith(("home", "gethomedir")) and not node.args:
            return "~"
        if name.endswith(("getenv", "environ.get")) and node.args:
            return "~" if literal_path(node.args[0]) == "HOME" else None
        if name.endswith(("Path", "expanduser", "abspath", "realpath", "PurePath")) and node.args:
            return literal_path(node.args[0])
        if name in ("os.path.join", "path.join", "join", "posixpath.join") and node.args:
            parts = [literal_path(a) for a in node.args]  # os.path.join(home, '.npmrc')
            if all(p is not None for p in parts):
                return "/".join(str(p).rstrip("/") for p in parts)
        if isinstance(node.func, ast.Attribute):
            method, owner = node.func.attr, node.func.value
            if method in ("expanduser", "resolve", "absolute") and not node.args:
                return literal_path(owner)
            if method == "joinpath" and node.args:
                parts = [literal_path(owner), *map(literal_path, node.args)]
                known = [p for p in parts if p is not None]
                return "/".join(known) if len(known) == len(parts) else None
    if isinstance(node, ast.Subscript) and dotted(node.value).endswith("environ"):
        return "~" if literal_path(node.slice) == "HOME" else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        left, right = literal_path(node.left), literal_path(node.right)
        return f"{left}/{right}" if left is not None and right is not None else None
    return None


def opens_for_writing(node: ast.Call) -> bool:
    modes = [node.args[1]] if len(node.args) > 1 else []
    modes += [k.value for k in node.keywords if k.arg == "mode"]
    return any(
        isinstance(m, ast.Constant) and isinstance(m.value, str) and set(m.value) & set("wax+")
        for m in modes
    )
