"""Records of structured tool output: what a piece of a JSON, YAML, JSON-lines or CSV result is.

Tools answer in structures more often than in prose. Cut by lines, a pretty-printed JSON
object is one record at the margin (its opening brace) and a fact four levels deep lands in
an 8-line run beside unrelated keys, with nothing saying where it sits. :func:`records_of`
reads the structure instead:

* **a tree** (a pretty-printed JSON document, a YAML document): one record per *leaf* mapping
  or list (one whose children are all values), and one per run of values that sit beside
  nested children, each with its key path (``site.receiving.import_permit``,
  ``shipments[0]``) so ranking sees where a value lives and a quote can say so;
* **JSON lines**: every line its own record (an event is one line);
* **a table** (CSV, TSV): every row its own record, the header line as its ``head`` (the
  column names a row is read by);
* anything else: a line at the margin with the indented lines under it (a note under its
  heading), a blank line closing it, the first line as ``head``.

Lines are never changed: a record is a (first, last) span of the result's own lines.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Record:
    """A span of a tool result's lines, as (first, last) indexes from 0, and where it sits."""

    first: int
    last: int
    path: str = ""  # the key path of a tree record ("site.receiving.import_permit")
    head: str = ""  # what the record is ranked with: a table's header, a text's first line
    columns: str = ""  # a table's header line, to read a quoted row by


def records_of(rows: Sequence[str]) -> list[Record]:
    """The records of a tool result's lines, by the shape of the whole result."""
    text = "\n".join(rows)
    if len(rows) > 2 and _parses(text):
        return _tree(rows)
    if len(rows) > 1 and all(_parses(r) for r in rows if r.strip()):
        return [Record(i, i) for i, r in enumerate(rows) if r.strip()]
    if _is_table(rows):
        header = rows[0][:200]
        return [Record(i, i, "", header, header) for i in range(1, len(rows)) if rows[i].strip()]
    if _is_yaml(rows):
        return _tree(rows)
    head = rows[0][:200] if rows else ""
    return [Record(first, last, head=head if first else "") for first, last in text_records(rows)]


def text_records(rows: Sequence[str]) -> list[tuple[int, int]]:
    """The records of a text result as (first, last) line indexes: a line that starts at the
    margin opens one, the indented lines after it continue it, a blank line closes it."""
    spans: list[tuple[int, int]] = []
    start: int | None = None
    for index, row in enumerate(rows):
        if not row.strip():
            if start is not None:
                spans.append((start, index - 1))
                start = None
            continue
        if start is not None and not row[0].isspace():
            spans.append((start, index - 1))
            start = None
        if start is None:
            start = index
    if start is not None:
        spans.append((start, len(rows) - 1))
    return spans or [(0, max(0, len(rows) - 1))]


def _parses(text: str) -> bool:
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[":
        return False
    try:
        json.loads(stripped)
    except ValueError:
        return False
    return True


_YAML_LINE = re.compile(r"^\s*(?:- +)?(?:[\w\"'.-]+ *:(?: |$)|- |-$)")
_KEY = re.compile(r"^\s*(?:- +)?\"?([^\"{}\[\]:]+?)\"?\s*:")
_CLOSING = re.compile(r"^\s*[}\]]")


def _is_yaml(rows: Sequence[str]) -> bool:
    """Mostly ``key: value`` lines and list items, with at least one nested mapping."""
    lines = [r for r in rows if r.strip() and not r.lstrip().startswith("#")]
    if len(lines) < 3:
        return False
    keyed = sum(bool(_YAML_LINE.match(r)) for r in lines)
    nested = any(_indent(b) > _indent(a) for a, b in itertools.pairwise(lines))
    return nested and keyed >= 0.8 * len(lines)


def _is_table(rows: Sequence[str]) -> bool:
    """Comma- or tab-separated rows: a header and rows with as many separators."""
    lines = [r for r in rows if r.strip()]
    if len(lines) < 2:
        return False
    for separator in (",", "\t"):
        columns = lines[0].count(separator)
        if columns >= 2 and sum(r.count(separator) == columns for r in lines) >= 0.8 * len(lines):
            return True
    return False


def _indent(row: str) -> int:
    return len(row) - len(row.lstrip())


def _tree(rows: Sequence[str]) -> list[Record]:
    """Records of an indented tree: leaf containers whole, runs of values beside nested
    children with their container's path."""
    lines = [i for i, r in enumerate(rows) if r.strip()]
    found: list[Record] = []
    _walk(rows, lines, "", False, None, found)
    return sorted(found, key=lambda r: r.first) or [Record(0, max(0, len(rows) - 1))]


def _walk(
    rows: Sequence[str],
    lines: Sequence[int],
    path: str,
    in_list: bool,
    opener: int | None,
    found: list[Record],
) -> None:
    """Add the records of the sibling lines ``lines`` (and what is nested under them); the
    children of a list are named by their index; values right under their container's
    ``opener`` line are quoted with it (its key names them)."""
    run: list[int] = [] if opener is None else [opener]  # values waiting to become a record
    position = 0
    index = 0
    while position < len(lines):
        start = lines[position]
        end_position = _subtree_end(rows, lines, position)
        if end_position == position:  # a value line
            run.append(start)
            position += 1
            continue
        if run and (len(run) > 1 or run[0] != opener):
            found.append(Record(run[0], run[-1], path))
        run = []
        key = _key(rows[start])
        child = _join(path, key) if key is not None else f"{path}[{index}]" if in_list else path
        inner = lines[position + 1 : end_position + 1]
        closing = bool(inner) and _closes(rows[inner[-1]], rows[start])
        body = inner[:-1] if closing else inner
        if all(_subtree_end(rows, body, p) == p for p in range(len(body))):
            found.append(Record(start, lines[end_position], child))  # a leaf: whole
        else:
            _walk(rows, body, child, rows[start].rstrip().endswith("["), start, found)
        index += 1
        position = end_position + 1
    if run and (len(run) > 1 or run[0] != opener):
        found.append(Record(run[0], run[-1], path))


def _subtree_end(rows: Sequence[str], lines: Sequence[int], position: int) -> int:
    """The position in ``lines`` of the last line nested under ``lines[position]`` (its own
    position for a value line), a JSON closing bracket at its indent included."""
    indent = _indent(rows[lines[position]])
    end = position
    while end + 1 < len(lines) and _indent(rows[lines[end + 1]]) > indent:
        end += 1
    opener = rows[lines[position]]
    if end > position and end + 1 < len(lines) and _closes(rows[lines[end + 1]], opener):
        end += 1
    return end


def _closes(row: str, opener: str) -> bool:
    return bool(_CLOSING.match(row)) and _indent(row) == _indent(opener)


def _key(row: str) -> str | None:
    match = _KEY.match(row)
    return match.group(1).strip() if match else None


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key
