"""Archives a Python call unpacks, as the ``tar -x`` it amounts to.

``tarfile.open(f).extractall(dest)``, ``ZipFile(f).extract(member, dest)`` and
``shutil.unpack_archive(f, dest)`` write the archive's members under ``dest``: for the walker
they are ``tar -x -f f -C dest``, judged like the shell's extraction (over ``/``, the home or
the PATH it is denied, outside the workspace it asks). ``filter='fully_trusted'`` keeps
absolute member names and ``..``, which is ``tar -P``. A destination only known at run time is
asked.
"""

from __future__ import annotations

import ast

from workset.safety.python_loops import Resolver
from workset.safety.rules import Cmd, Finding

_OPENERS = (
    "tarfile.open",
    "zipfile.ZipFile",
    "tarfile.TarFile",
)  # what ``extract`` must be called on


def extraction(node: ast.Call, name: str, resolve: Resolver) -> Cmd | Finding | None:
    """The ``tar -x`` that the call ``node`` (dotted ``name``) amounts to, a finding when it
    unpacks to a place only known at run time, or None when it unpacks nothing."""
    last = name.rsplit(".", 1)[-1]
    receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
    keywords = {k.arg: k.value for k in node.keywords if k.arg}
    if last == "unpack_archive" and node.args:
        archive: ast.expr | None = node.args[0]
        dest = node.args[1] if len(node.args) > 1 else keywords.get("extract_dir")
    elif last == "extractall" and receiver is not None:
        archive = _opened(receiver)
        dest = node.args[0] if node.args else keywords.get("path")
    elif last == "extract" and isinstance(receiver, ast.Call) and _opener(receiver):
        archive = _opened(receiver)
        dest = node.args[1] if len(node.args) > 1 else keywords.get("path")
    else:
        return None
    target = "." if dest is None else resolve(dest)
    if target is None:
        return Finding(
            "dynamic-path",
            "ask",
            f"{name}() unpacks an archive into a folder only known at run time, which may be "
            "outside the workspace; a human must confirm, or write the folder literally",
        )
    source = resolve(archive) if archive is not None else None
    trusted = keywords.get("filter")
    keeps_names = isinstance(trusted, ast.Constant) and trusted.value == "fully_trusted"
    argv = (
        "tar",
        "-x",
        *(("-P",) if keeps_names else ()),
        "-f",
        source if source is not None else "archive",
        "-C",
        target,
    )
    return Cmd(argv=argv, redirects=(), dynamic=tuple(False for _ in argv))


def _opener(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    owner = func.value if isinstance(func, ast.Attribute) else None
    prefix = owner.id if isinstance(owner, ast.Name) else ""
    return f"{prefix}.{name}".lstrip(".") in _OPENERS or name in ("TarFile", "ZipFile")


def _opened(receiver: ast.expr) -> ast.expr | None:
    """The archive's path in ``tarfile.open('x')``/``ZipFile('x')``, when written there."""
    if isinstance(receiver, ast.Call) and _opener(receiver) and receiver.args:
        return receiver.args[0]
    return None
