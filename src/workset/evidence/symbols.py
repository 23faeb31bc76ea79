"""Code names a question asks about, and the chunks that define them.

Word ranking alone misses the definition a code question points at: for "Which file defines
the Query class?" BM25 and MiniLM preferred docstrings that say "defines the class" over the
chunk headed ``class Query``. A question's *names* (``TinyDB.drop_tables``, ``LRUCache``,
``default_table_name``, a capitalised word after the first, a word after "function" or
"class", a dunder such as ``__all__``) are looked up in the chunk headings the code chunker
writes (``class Table > def insert``): a chunk whose innermost heading is ``class NAME`` or
``def NAME`` defines it; failing that, a chunk with a line that assigns NAME (``__all__ =
(…)``, ``default_table_name = '_default'``): "How many names does the package export in its
__all__?" got three chunks about ``__getattr__`` and none of ``tinydb/__init__.py``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workset.evidence.ingest import Chunk

_IDENTIFIER = re.compile(r"`?([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)`?")
_AFTER_KIND = re.compile(r"\b(?:class|function)\s+`?([A-Za-z_]\w*)`?", re.I)
# "its run method", "the `insert` method", "method purge": a method, named in lower case
_METHOD = re.compile(
    r"\b(?:its|the|a)\s+`?([A-Za-z_]\w*)`?\s+method\b|\bmethods?\s+`([A-Za-z_]\w*)`", re.I
)
_FILE_SUFFIXES = frozenset({"py", "pyi", "toml", "cfg", "ini", "json", "md", "rst", "txt", "yaml"})
_CAMEL = re.compile(r"[a-z0-9][A-Z]|^[A-Z]{2,}[a-z]")
_NOT_NAMES = frozenset(
    {"a", "an", "the", "this", "that", "which", "what", "does", "is", "each", "every", "built"}
    | {"in", "of", "on", "from", "to", "for", "with", "inherit", "inherits", "defined", "defines"}
    | {"private", "public", "single", "same", "other", "first", "last", "main", "helper"}
)
_DEFINES = re.compile(r"^(?:async\s+)?(?:class|def)\s+([A-Za-z_]\w*)$")
_DUNDER = re.compile(r"__[A-Za-z0-9]\w*__")


def asked_names(question: str) -> list[str]:
    """The code names in ``question``, most specific first (``drop_tables`` before
    ``TinyDB`` for ``TinyDB.drop_tables``)."""
    names: list[str] = []
    words = list(_IDENTIFIER.finditer(question))
    for index, match in enumerate(words):
        token = match.group(1)
        parts = token.split(".")
        if parts[-1].lower() in _FILE_SUFFIXES:  # a file name (operations.py), not code
            continue
        if len(parts) > 1:
            names.extend(reversed(parts))
            continue
        ticked = match.group(0).startswith("`")
        if (
            ticked
            or "_" in token.strip("_")
            or _DUNDER.fullmatch(token)
            or _CAMEL.search(token)
            or (token[:1].isupper() and index > 0 and token.lower() not in _NOT_NAMES)
        ):
            names.append(token)
    names.extend(
        m.group(1) for m in _AFTER_KIND.finditer(question) if m.group(1).lower() not in _NOT_NAMES
    )
    names.extend(
        name
        for m in _METHOD.finditer(question)
        if (name := m.group(1) or m.group(2)).lower() not in _NOT_NAMES
    )
    return list(dict.fromkeys(n for n in names if len(n) > 1))


def defining_chunks(chunks: Sequence[Chunk], names: Sequence[str], limit: int = 2) -> list[int]:
    """Indexes of the chunks whose innermost heading defines one of ``names`` (in the order
    of ``names``), at most ``limit``; code chunks only (a heading the code chunker wrote). A
    name no heading defines is defined by the Python chunks with a line that assigns it."""
    if limit <= 0:
        return []
    wanted = {name: rank for rank, name in enumerate(names)}
    # (rank of the name, 0 inside a class also asked about, chunk order, index, what it
    # defines: one chunk per definition). "its run method" of "the class Agent" is
    # ``class Agent > def run``, not the first of a repository's run methods.
    found: list[tuple[int, int, int, int, str]] = []
    for index, chunk in enumerate(chunks):
        if not chunk.heading:
            continue
        match = _DEFINES.match(chunk.heading[-1])
        if match and match.group(1) in wanted:
            outer = {m.group(1) for h in chunk.heading[:-1] if (m := _DEFINES.match(h))}
            inside = 0 if outer & wanted.keys() else 1
            found.append(
                (wanted[match.group(1)], inside, chunk.start_line, index, chunk.heading[-1])
            )
    heads = {f[0] for f in found}
    for name, rank in wanted.items():  # no class or def of it: a line that assigns it
        if rank in heads:
            continue
        assigns = re.compile(rf"(?m)^[ \t]*{re.escape(name)}[ \t]*(?::[^=\n]*)?=(?!=)")
        found += [
            (rank, 1, chunk.start_line, index, f"{name} in {chunk.doc_id}")
            for index, chunk in enumerate(chunks)
            if chunk.doc_id.endswith((".py", ".pyi")) and assigns.search(chunk.text)
        ]
    found.sort()
    seen: set[str] = set()
    out: list[int] = []
    for *_, index, key in found:
        if key in seen:  # the first chunk of a long definition, not each of its parts
            continue
        seen.add(key)
        out.append(index)
        if len(out) == limit:
            break
    return out
