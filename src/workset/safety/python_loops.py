"""Names that only ever hold literal paths, for :mod:`workset.safety.python_code`.

``for d in ("build", "dist"): shutil.rmtree(d)`` and ``[shutil.rmtree(d) for d in ["build",
"dist"]]`` delete two literal folders: the call is judged once per value, as if written with
each. The same holds for a name assigned once from a literal path (``home = Path.home()``) and
for a loop over the entries of a literal folder (``for p in home.iterdir()``: each entry is
``~/*``). A name counts only when every binding of it in the code is one of these; a name also
assigned otherwise, imported, a parameter, or looped over anything else stays a value only
known at run time.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable

Resolver = Callable[[ast.expr], str | None]  # the literal path an expression names, or None


def literal_names(tree: ast.AST, resolve: Resolver) -> dict[str, tuple[ast.expr, ...]]:
    """Each name bound only to literal paths, with every value it takes."""
    values: dict[str, list[ast.expr]] = {}
    bound: set[int] = set()  # the Name nodes of those bindings
    assigned: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            path = resolve(node.value)
            if isinstance(target, ast.Name) and path is not None:
                values.setdefault(target.id, []).append(ast.Constant(path))
                assigned[target.id] = assigned.get(target.id, 0) + 1
                bound.add(id(target))
    for node in ast.walk(tree):
        if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            items = _items(node.iter, resolve, values, assigned)
            if isinstance(node.target, ast.Name) and items is not None:
                values.setdefault(node.target.id, []).extend(items)
                bound.add(id(node.target))
    other = _other_bindings(tree, bound)
    return {
        name: tuple(found)
        for name, found in values.items()
        if name not in other and assigned.get(name, 0) <= 1
    }


def expanded(call: ast.Call, names: dict[str, tuple[ast.expr, ...]]) -> list[ast.Call]:
    """``call`` once per value of the name its first argument is or is built from
    (``rmtree(d)``, ``rmtree(os.path.expanduser(p))``, ``rmtree(Path(p))``), when that name is
    one such name and the only one in the argument."""
    first = call.args[0] if call.args else None
    used = {n.id for n in ast.walk(first) if isinstance(n, ast.Name)} if first else set()
    known = used & names.keys()
    if first is None or len(known) != 1:
        return [call]
    name = known.pop()
    return [
        ast.Call(func=call.func, args=[_replaced(first, name, value), *call.args[1:]],
                 keywords=call.keywords)
        for value in names[name]
    ]  # fmt: skip


def _replaced(node: ast.expr, name: str, value: ast.expr) -> ast.expr:
    """``node`` with each use of ``name`` written as ``value``."""
    if isinstance(node, ast.Name) and node.id == name:
        return value

    class _Swap(ast.NodeTransformer):
        def visit_Name(self, found: ast.Name) -> ast.expr:
            return value if found.id == name else found

    swapped = _Swap().visit(copy.deepcopy(node))
    assert isinstance(swapped, ast.expr)
    return swapped


def _items(
    node: ast.expr, resolve: Resolver, values: dict[str, list[ast.expr]], assigned: dict[str, int]
) -> list[ast.expr] | None:
    """What a loop over ``node`` binds: the literals of a list, tuple or set, or the entries
    (``FOLDER/*``) of a literal folder listed by one call."""
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        items = list(node.elts)
        return items if items and all(isinstance(e, ast.Constant) for e in items) else None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    method, owner = node.func.attr, node.func.value
    pattern = resolve(node.args[0]) if node.args else None
    module = owner.id if isinstance(owner, ast.Name) else ""
    if module == "glob" and method in ("glob", "iglob"):
        return [ast.Constant(pattern)] if pattern is not None else None
    if module == "os" and method in ("listdir", "scandir"):
        folder = _path(node.args[0], resolve, values, assigned) if node.args else "."
        return [ast.Constant(f"{folder.rstrip('/')}/*")] if folder is not None else None
    if method not in ("iterdir", "glob", "rglob"):
        return None
    folder = _path(owner, resolve, values, assigned)
    if folder is None or (method != "iterdir" and pattern is None):
        return None
    entries = {"iterdir": "*", "glob": pattern, "rglob": f"**/{pattern}"}[method]
    return [ast.Constant(f"{folder.rstrip('/')}/{entries}")]


def _path(
    node: ast.expr, resolve: Resolver, values: dict[str, list[ast.expr]], assigned: dict[str, int]
) -> str | None:
    """The literal path of ``node``, or of the name it is when assigned once from one."""
    if isinstance(node, ast.Name) and assigned.get(node.id) == 1:
        known = values[node.id][0]
        return (
            known.value
            if isinstance(known, ast.Constant) and isinstance(known.value, str)
            else None
        )
    return resolve(node)


def _other_bindings(tree: ast.AST, bound: set[int]) -> set[str]:
    other: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            if id(node) not in bound:
                other.add(node.id)
        elif isinstance(node, ast.arg):
            other.add(node.arg)
        elif isinstance(node, ast.alias):
            other.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.Global | ast.Nonlocal):
            other.update(node.names)
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            other.add(node.name)
    return other
