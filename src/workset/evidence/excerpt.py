"""One chunk quoted as an evidence excerpt: its file, lines and heading, then its numbered lines
within a token budget.

A chunk that fits is shown whole; one that does not is cut at its end, with the exact
``read_file`` call that shows the rest. With ``code_first`` a code definition that does not
fit gives up its docstring before its code: first the doctest examples (``>>>`` lines and the
output under them), then the rest of the docstring after its summary line, and only then the
lines at its end; every gap is marked with the lines it leaves out. Cut from the end alone, a
function under a long docstring showed its signature and its examples and hid the body that
answers "which function does ``assoc_in`` call?" or "which standard-library function does
``partitionby`` rely on?" (tune questions of session 41). It is off by default
(``EvidenceConfig.code_first``): the answer was in the first request more often on the tune
questions (49 → 53 of 63), but the 0.5B answered 3 fewer of the 40 blind questions with it
(6 worse and 3 better among the 25 whose excerpts changed, none changed among the others).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from workset.evidence.ingest import Chunk, approx_tokens

MAX_LINE_CHARS = 300  # a line longer than this is cut in the excerpt
_HEADER = re.compile(r"^\s*(?:async\s+def|def|class)\s+[A-Za-z_]\w*")
_DOCSTRING_OPEN = re.compile(r"""^\s*[rRuUbB]{0,2}("{3}|'{3})""")
_DOCTEST = re.compile(r"^\s*(?:>>>|\.\.\.)(?:\s|$)")


def excerpt_block(chunk: Chunk, budget: int, *, code_first: bool = False) -> str:
    """The chunk's file, lines and heading, then its numbered lines within ``budget``
    (token-ish units: :func:`~workset.evidence.ingest.approx_tokens` of a line, plus 2);
    without ``code_first`` a definition is cut at its end like any text."""
    lines = chunk.text.split("\n")
    kept = _kept_lines(lines, budget, code_first=code_first)
    width = max(4, len(str(chunk.end_line)))
    where = " > ".join(chunk.heading)
    out = [f"--- {chunk.doc_id}, lines {chunk.start_line}-{chunk.end_line}"]
    if where:
        out[0] += f" ({where})"
    previous = -1
    for offset in kept:
        if offset > previous + 1:  # a docstring part left out
            first, last = chunk.start_line + previous + 1, chunk.start_line + offset - 1
            out.append(f"[lines {first}-{last} not shown: docstring]")
        out.append(f"{chunk.start_line + offset:>{width}}| {lines[offset][:MAX_LINE_CHARS]}")
        previous = offset
    last_shown = chunk.start_line + previous
    if last_shown < chunk.end_line:
        call = json.dumps({"path": chunk.doc_id, "offset": last_shown + 1})
        out.append(f"[lines {last_shown + 1}-{chunk.end_line} not shown: read_file {call}]")
    return "\n".join(out)


def _kept_lines(lines: Sequence[str], budget: int, *, code_first: bool) -> list[int]:
    """The offsets of ``lines`` shown within ``budget``: all of them when they fit; else, in
    a definition, the lines left once its doctests and then its docstring's body are dropped,
    cut at the end when still too long. The first line is always shown."""
    costs = [approx_tokens(line) + 2 for line in lines]
    kept = list(range(len(lines)))
    if code_first and sum(costs) > budget:
        for dropped in _docstring_parts(lines):
            kept = [n for n in kept if n not in dropped]
            if sum(costs[n] for n in kept) <= budget:
                break
        kept = [  # a blank line left alone between two gaps says nothing
            n
            for i, n in enumerate(kept)
            if lines[n].strip()
            or (i > 0 and kept[i - 1] == n - 1)
            or (i + 1 < len(kept) and kept[i + 1] == n + 1)
        ]
    shown: list[int] = []
    size = 0
    for n in kept:
        if shown and size + costs[n] > budget:
            break
        shown.append(n)
        size += costs[n]
    return shown


def _docstring_parts(lines: Sequence[str]) -> list[set[int]]:
    """What a definition's docstring can give up, in order: its doctest lines with the output
    under each, then every line between its summary and its closing quotes. Empty when the
    chunk does not open with a ``def`` or ``class`` (after decorators) and a docstring of more
    than one line."""
    start = _docstring_start(lines)
    if start is None:
        return []
    quote = _DOCSTRING_OPEN.match(lines[start])
    assert quote is not None
    opener = quote.group(1)
    rest = lines[start][quote.end() :]
    if opener in rest:
        return []  # one line: nothing to give up
    end = next((n for n in range(start + 1, len(lines)) if opener in lines[n]), None)
    if end is None:
        return []
    summary = start if rest.strip() else start + 1
    body = set(range(summary + 1, end))
    doctests: set[int] = set()
    inside = False
    for n in sorted(body):
        if _DOCTEST.match(lines[n]):
            inside = True
        elif not lines[n].strip():
            inside = False
        if inside:
            doctests.add(n)
    return [part for part in (doctests, body) if part]


def _docstring_start(lines: Sequence[str]) -> int | None:
    """The offset of the line that opens the docstring of the definition ``lines`` starts
    with (decorators and a signature over several lines allowed), or None."""
    n = 0
    while n < len(lines) and (not lines[n].strip() or lines[n].lstrip().startswith("@")):
        n += 1
    if n >= len(lines) or not _HEADER.match(lines[n]):
        return None
    while n < len(lines) and not _code(lines[n]).endswith(":"):  # the signature's last line
        n += 1
    n += 1
    while n < len(lines) and not lines[n].strip():
        n += 1
    if n < len(lines) and _DOCSTRING_OPEN.match(lines[n]):
        return n
    return None


def _code(line: str) -> str:
    """``line`` without a trailing comment, stripped (a rough cut: ``#`` inside a string
    counts too, which only makes a signature look longer)."""
    return line.split("#", 1)[0].strip()
