"""The workspace: the one directory tree that file tools may touch.

Every path a model gives goes through :meth:`Workspace.resolve`, which fails fast (a
:class:`ToolError` the model can act on) for ``..`` escapes, absolute paths elsewhere and
symlinks whose target lies outside the root. Nothing is "corrected" silently.
"""

from __future__ import annotations

import os
from pathlib import Path

from workset.errors import ToolError, UsageError


class Workspace:
    """A directory root that confines tool paths."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        path = Path(root).expanduser()
        if not path.is_dir():
            raise UsageError(f"workspace root {str(path)!r} is not an existing directory")
        self._root = path.resolve()
        given = Path(os.path.abspath(path))  # noqa: PTH100 - the root as given, symlinks kept
        self._roots = (self._root, given)

    @property
    def root(self) -> Path:
        return self._root

    def __repr__(self) -> str:
        return f"Workspace({str(self._root)!r})"

    def resolve(self, path: str) -> Path:
        """The real path for ``path`` (relative to the root, or absolute inside it).

        Raises :class:`ToolError` when the path, after following ``..`` and symlinks, is not
        inside the root. The path need not exist.
        """
        if not path:
            raise ToolError("the path is empty", hint="use '.' for the workspace root")
        if "\x00" in path:
            raise ToolError(f"the path {path!r} contains a NUL byte", hint=self._hint())
        given = Path(path)
        candidate = given if given.is_absolute() else self._root / given
        lexical = Path(os.path.normpath(candidate))
        resolved = candidate.resolve()
        if not any(lexical.is_relative_to(root) for root in self._roots):
            raise ToolError(
                f"the path {path!r} is outside the workspace (root: {self._root})",
                hint=self._hint(),
            )
        if not resolved.is_relative_to(self._root):
            raise ToolError(
                f"the path {path!r} goes through a symlink that points outside the workspace "
                f"(root: {self._root})",
                hint=self._hint(),
            )
        return resolved

    def relative(self, path: str | os.PathLike[str]) -> str:
        """``path`` for display: POSIX style, relative to the root ("." for the root itself)."""
        given = Path(path)
        absolute = Path(os.path.normpath(given if given.is_absolute() else self._root / given))
        for root in self._roots:
            if absolute.is_relative_to(root):
                return absolute.relative_to(root).as_posix()
        raise UsageError(f"{str(path)!r} is not inside the workspace {str(self._root)!r}")

    def _hint(self) -> str:
        return "use a path relative to the workspace root, such as 'src/app.py' or '.'"
