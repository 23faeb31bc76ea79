"""Where a run saw a symbol defined: the check behind "which file defines X?" answers.

An answer that names a file is "supported" lexically whenever that file appeared in a result,
and a file that *uses* a class shows its name too: asked which file defines ``LRUCache``, the
0.5B answered ``tinydb/table.py`` (which imports it) with ``class LRUCache`` in front of it in
``tinydb/utils.py``. :func:`defined_elsewhere` reads the definitions (``class X``,
``def X``) in what the run saw, with the file each came from, and says when the answer names
only other files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence

from workset.context.items import ContextItem
from workset.messages import ToolCall, ToolMessage, argument_object

# A task that asks where something is defined, and the name it asks about. (Not
# workset.evidence.symbols.asked_names: importing workset.evidence loads numpy, and this
# module is imported with workset itself.)
_ASKS_WHERE = re.compile(r"\b(?:which|what)\s+(?:file|module)\b[^?]*\bdefine", re.I)
_ASKS_WHERE_TOO = re.compile(r"\bin\s+which\s+(?:file|module)\b[^?]*\bdefined\b", re.I)
_SYMBOL_AFTER = re.compile(r"\b(?:class|function|method)\s+`?([A-Za-z_]\w*)`?")
_SYMBOL_BEFORE = re.compile(r"`?([A-Za-z_]\w*)`?\s+(?:class|function|method)\b")
_NOT_NAMES = frozenset({"a", "an", "the", "this", "that", "which", "what", "is", "defines"})
_EVIDENCE_BLOCK = re.compile(r"(?m)^--- ([^,\n]+), lines \d+-\d+")
_HIT = re.compile(r'\{"path": "[^"]+", "line": \d+, "text": "(?:[^"\\]|\\.)*"\}')


def asked_symbol(task: str) -> str | None:
    """The class or function a "which file defines X?" task asks about, else None."""
    if not (_ASKS_WHERE.search(task) or _ASKS_WHERE_TOO.search(task)):
        return None
    for pattern in (_SYMBOL_AFTER, _SYMBOL_BEFORE):
        for match in pattern.finditer(task):
            if match.group(1).lower() not in _NOT_NAMES:
                return match.group(1)
    return None


def seen_texts(
    results: Sequence[ToolMessage], calls: Mapping[str, ToolCall], evidence: Iterable[str]
) -> list[tuple[str, str]]:
    """(file, text) of what the run saw: files read, grep hits, the functions a test run's
    failures point to, workspace evidence blocks."""
    out: list[tuple[str, str]] = []
    for result in results:
        if result.is_error:
            continue
        out.extend(grep_hits(result.content))
        call = calls.get(result.tool_call_id)
        if call is not None and call.name == "read_file":
            path = path_argument(call.arguments)
            if path:
                out.append((path, result.content))
        elif call is not None and call.name == "run_tests":  # the functions failures point to
            out.extend(excerpt_blocks(result.content))
    for text in evidence:
        out.extend(excerpt_blocks(text))
    return out


def excerpt_blocks(text: str) -> list[tuple[str, str]]:
    """(file, text after ``--- file, lines A-B``) of each excerpt ``text`` quotes."""
    blocks = list(_EVIDENCE_BLOCK.finditer(text))
    out = []
    for index, block in enumerate(blocks):
        end = blocks[index + 1].start() if index + 1 < len(blocks) else len(text)
        out.append((block.group(1).strip(), text[block.end() : end]))
    return out


def definition_sites(symbol: str, seen: Iterable[tuple[str, str]]) -> set[str]:
    """The files in which ``seen`` shows ``class symbol`` or ``def symbol``."""
    line = re.compile(rf"(?m)^(?:\s*\d+\|)?\s*(?:async\s+)?(?:class|def)\s+{re.escape(symbol)}\b")
    return {path for path, text in seen if line.search(text)}


def defined_elsewhere(
    task: str, answer_paths: Sequence[str], seen: Iterable[tuple[str, str]]
) -> str:
    """Why the answer is contradicted when it names only files other than the ones the run saw
    the asked symbol defined in; "" when it is not (or the task asks no such thing)."""
    symbol = asked_symbol(task)
    if symbol is None or not answer_paths:
        return ""
    sites = definition_sites(symbol, seen)
    if not sites or any(same_file(a, s) for a in answer_paths for s in sites):
        return ""
    where = sorted(sites)[0]
    return (
        f"the answer names {answer_paths[0]!r}, but what the run read defines "
        f"{symbol!r} in {where!r}"
    )


# "Which class does X inherit from?", "What is the base class of X?", "X's parent class".
_ASKS_BASE = (
    re.compile(
        r"\b(?:which|what)\s+(?:[\w-]+\s+){0,2}?class(?:es)?\s+does\s+(?:the\s+)?`?"
        r"([A-Za-z_]\w*)`?(?:\s+class)?\s+(?:\w+\s+){0,2}?(?:inherit|derive|extend|subclass)",
        re.I,
    ),
    re.compile(r"\b(?:base|parent|super)\s*class(?:es)?\s+of\s+(?:the\s+)?`?([A-Za-z_]\w*)", re.I),
    re.compile(
        r"\b(?:does|is)\s+(?:the\s+)?`?([A-Za-z_]\w*)`?(?:\s+class)?\s+(?:\w+\s+)?"
        r"(?:inherit|derive|extend|subclass)\w*\s+(?:from\s+)?(?:which|what)",
        re.I,
    ),
)
_NOT_CLASSES = _NOT_NAMES | {"class", "it", "one"}


def asked_base(task: str) -> str | None:
    """The class whose base a task asks for ("Which class does FrozenDict inherit from?")."""
    for pattern in _ASKS_BASE:
        match = pattern.search(task)
        if match and match.group(1).lower() not in _NOT_CLASSES:
            return match.group(1)
    return None


def base_elsewhere(task: str, answer: str, seen: Iterable[tuple[str, str]]) -> str:
    """Why an answer to "which class does X inherit from?" is not checked: the run read
    ``class X(A, B)`` and the answer names neither base, or it never read X's class line
    (an answer from memory or from an example that uses X); "" when the answer names a base
    it read, or the task asks no such thing."""
    symbol = asked_base(task)
    if symbol is None:
        return ""
    line = re.compile(rf"(?m)^(?:\s*\d+\|)?\s*class\s+{re.escape(symbol)}\b\s*(?:\(([^)]*)\))?")
    bases: set[str] = set()
    found = False
    for _, text in seen:
        for match in line.finditer(text):
            found = True
            for base in (match.group(1) or "object").split(","):
                base = base.strip()
                if base and "=" not in base:  # metaclass=ABCMeta is no base
                    bases.add(base.rsplit(".", 1)[-1].strip("[]"))
    if not found:
        return f"the run never read the line that defines class {symbol!r}"
    if any(re.search(rf"\b{re.escape(base)}\b", answer) for base in bases):
        return ""
    return (
        f"the run read class {symbol}({', '.join(sorted(bases))}), and the answer names none of "
        "its bases"
    )


def same_file(named: str, site: str) -> bool:
    a, b = named.strip("./").lower(), site.strip("./").lower()
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def path_argument(arguments: str) -> str:
    path = argument_object(arguments).get("path")
    return path if isinstance(path, str) else ""


def grep_hits(content: str) -> list[tuple[str, str]]:
    """(path, line text) of the hits in a grep result."""
    hits = []
    for match in _HIT.finditer(content):
        hit = json.loads(match.group())
        hits.append((str(hit["path"]), str(hit["text"])))
    return hits


def evidence_files(items: Iterable[ContextItem]) -> list[str]:
    """The workspace files that evidence items quote, best first, once each (an item's
    source is ``evidence:`` and its files joined by commas)."""
    prefix = "evidence:"
    files = [
        name
        for i in items
        if i.kind == "evidence" and i.source.startswith(prefix)
        for name in i.source.removeprefix(prefix).split(",")
    ]
    return list(dict.fromkeys(f for f in files if f))
