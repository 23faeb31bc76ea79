"""Edit calls constrained to the lines the run has seen (guided edits).

Asked to fix ``doc[field] += 2``, the 0.5B called ``increment`` as a tool, copied a
placeholder call from a notice (``"old": "<the line to change, as it is>"``), or wrote ``old``
from memory (``"10"``, ``"int"``); none of those edits can match the file. With a backend
that enforces a JSON schema, :func:`guided_schema` makes every decision of a run that may edit
files one of: a call to one of the offered tools under its own schema, except that
``edit_file`` takes ``path`` from the files whose lines the run has seen (workspace excerpts,
``read_file`` results, grep hits) and ``old`` from that file's lines exactly as the file has
them; or ``{"answer": ...}``. The model still chooses the tool, the line and the new text;
what it can no longer do is write an edit that cannot apply. Before any line was seen,
``edit_file`` is not among the options: the model reads or searches first. A line whose edit
failed (edit_file refuses an edit that breaks the file's syntax, changes nothing or defines
a name twice) is no longer offered, so a model that keeps picking the ``def`` line above the
bug moves on to the others. Only the lines nearly as likely to change as their file's likeliest
are offered (:data:`NEAR_BEST`): offered the ``def`` lines of two functions and their bodies,
the 0.5B picked the ``def`` of the function beside the one the task names.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from workset.loop.words import distinctive_words
from workset.messages import ToolCall, ToolMessage, ToolSpec
from workset.models.constrained import decision_schema

MAX_OFFERED = 8  # lines offered as ``old`` across all files: the likeliest to change
MIN_LIKELY = 2
NEAR_BEST = 1.0  # a line offered scores at least its file's best line's score less this
LITERAL_WEIGHT = 3.0  # per quoted string or number of the task a line holds
BODY_WEIGHT = 2.0  # a statement inside a function or class the task names
PROSE_PENALTY = 2.0  # a docstring or comment line
TEST_PENALTY = 2.0  # a line of a test file the task does not name
MAX_FILES = 6  # files offered as ``path``, the most recently seen first
MAX_LINE_CHARS = 300  # a longer line was likely cut where it was shown: not offered
_GUTTER_LINE = re.compile(r"^\s*(\d+)\| ?(.*)$", re.M)  # "   56| text", as read_file numbers
_ENTRY_GUTTER = re.compile(r"^\d+\| ")
_QUOTED = re.compile(r"'([^'\n]{1,60})'|\"([^\"\n]{1,60})\"|`([^`\n]{1,60})`")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEADING = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)")
_CUT = re.compile(r"…$|\.\.\.$|\[\d+ more characters\]$")
# A line of English, not code: a capital, four or more words, no code punctuation, a full
# stop (a docstring line seen without the quotes that open its docstring).
_SENTENCE = re.compile(r"[A-Z][^()\[\]{}=<>;#@`'\"]*\s[^()\[\]{}=<>;#@`'\"]*[.!?]")


def seen_lines(seen: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """File -> its distinct non-blank lines, in the order first seen, from ``seen`` ((file,
    text) pairs: numbered text as excerpts and ``read_file`` show it, or a grep hit's line).
    A numbered line keeps its number (``"59| text"``): a line that occurs more than once in
    the file (``return transform`` in six functions) is one place, which edit_file finds by
    it."""
    out: dict[str, list[str]] = {}
    for path, text in seen:
        numbered = [(m.group(1), m.group(2)) for m in _GUTTER_LINE.finditer(text)]
        lines = numbered if numbered else ([("", text)] if "\n" not in text else [])
        kept = out.setdefault(path, [])
        for number, line in lines:
            line = line.rstrip("\r")
            fits = line.strip() and len(line) <= MAX_LINE_CHARS and not _CUT.search(line)
            entry = f"{number}| {line}" if number else line
            if fits and entry not in kept:
                kept.append(entry)
        if not kept:
            del out[path]
    return out


def offered_lines(task: str, lines: dict[str, list[str]]) -> dict[str, list[str]]:
    """The :data:`MAX_OFFERED` lines of at most :data:`MAX_FILES` files (the latest seen
    first; only those the task names, if it names any) most likely to be the one ``task``
    asks to change (:func:`suspicion`; a test file counts less), in file order; only lines
    that share something with the task when at least :data:`MIN_LIKELY` do."""
    files = list(lines)[-MAX_FILES:][::-1]
    named = [f for f in files if names_file(f, task)]
    files = named or files
    asked = distinctive_words(task)
    literals = task_literals(task)
    names = task_names(task)
    scored = [
        (-(score - (TEST_PENALTY if is_test_file(f) and f not in named else 0.0)), n, f, line)
        for f in files
        for n, (line, score) in enumerate(suspicion(lines[f], asked, literals, names))
    ]
    ranked = sorted(scored)
    likely = [r for r in ranked if r[0] < 0]  # a positive score: shares something
    ranked = likely if len(likely) >= MIN_LIKELY else ranked
    best: dict[str, float] = {}  # per file: a file read later keeps its own likeliest lines
    for r in ranked:
        best.setdefault(r[2], r[0])
    ranked = [r for r in ranked if r[0] <= best[r[2]] + NEAR_BEST]
    keep = {(f, line) for _s, _n, f, line in ranked[:MAX_OFFERED]}
    picked = {f: [x for x in lines[f] if (f, x) in keep] for f in files}
    return {f: xs for f, xs in picked.items() if xs}


def names_file(path: str, task: str) -> bool:
    """Whether ``task`` names the file ``path`` (its path, or its file name as a word)."""
    name = path.rsplit("/", 1)[-1]
    return path in task or re.search(rf"(?<![\w/.-]){re.escape(name)}(?![\w-])", task) is not None


def is_test_file(path: str) -> bool:
    """A test file (a fix belongs in the code under test unless the task names the test)."""
    parts = path.lower().split("/")
    return any(p in ("test", "tests") for p in parts[:-1]) or parts[-1].startswith("test_")


def task_literals(task: str) -> set[str]:
    """Quoted strings and numbers of ``task`` (``'_defualt'``, ``2``): a line holding one is
    likely the line to change."""
    quoted = {q for pair in _QUOTED.findall(task) for q in pair if q}
    return quoted | set(_NUMBER.findall(task))


def task_names(task: str) -> set[str]:
    """Words of ``task`` that may name a function or class (``Table.count``: both parts)."""
    return set(_NAME.findall(task))


def _line_number(entry: str) -> int:
    """The number of a numbered seen line (``"59| text"``); unnumbered lines sort last."""
    gutter = _ENTRY_GUTTER.match(entry)
    return int(entry.split("|", 1)[0]) if gutter else 1 << 30


def suspicion(
    lines: Sequence[str], asked: set[str], literals: set[str], names: set[str]
) -> list[tuple[str, float]]:
    """Each line of one file (in the order seen) with how likely it is the line to change:
    words shared with the task, a literal of the task in it, being a statement in the body
    of a function or class the task names (more inside a named method of a named class); a
    ``def``/``class`` line and prose (docstrings, comments) count less than statements."""
    out: list[tuple[str, float]] = []
    named: list[int] = []  # indentation of each named definition the line is inside
    in_doc = False
    for entry in sorted(lines, key=_line_number):  # the order of the file, not of the reads
        line = _ENTRY_GUTTER.sub("", entry, count=1)
        text = line.strip()
        indent = len(line) - len(line.lstrip())
        while named and indent <= named[-1]:
            named.pop()
        heading = _HEADING.match(line)
        if heading:  # a docstring whose closing quotes were not seen ends before a def
            in_doc = False
        prose = (
            in_doc
            or text.startswith(("#", '"""', "'''"))
            or (len(text.split()) >= 4 and _SENTENCE.fullmatch(text) is not None)
        )
        if text.count('"""') % 2 == 1 or text.count("'''") % 2 == 1:
            in_doc = not in_doc
        score = float(len(distinctive_words(line) & asked))
        score += (1.0 if prose else LITERAL_WEIGHT) * sum(  # prose explains a value it quotes
            1 for lit in literals if re.search(rf"(?<![\w.]){re.escape(lit)}(?![\w.])", line)
        )
        if named and not heading and not prose:
            # fully for a statement that also shares something with the task: in subtract's
            # body, ``doc[field] += n`` rather than ``return transform``
            score += len(named) * (BODY_WEIGHT if score > 0 else BODY_WEIGHT / 2)
        if heading:
            score -= 1
            if heading.group(1) in names:
                named.append(indent)
        if prose:
            score -= PROSE_PENALTY
        out.append((entry, score))
    return out


def guided_schema(
    tools: Sequence[ToolSpec],
    lines: dict[str, list[str]],
    *,
    blocks: Mapping[str, Sequence[str]] | None = None,
    edit_tool: str = "edit_file",
    blocks_only: bool = False,
) -> dict[str, Any]:
    """The decision schema of :func:`~workset.models.constrained.decision_schema` with the
    ``edit_tool`` option replaced by one option per file of ``lines`` (its ``path`` a
    constant, ``old`` one of its lines, ``new`` free text) and one per file of ``blocks``
    (``old`` one of its whole functions, no ``new``: the function is written next, as code,
    :mod:`workset.loop.rewrite`); without them when both are empty. ``blocks_only``: the
    choice of one of ``blocks`` and nothing else (the first decision of a change whose
    functions the evidence shows whole, :mod:`workset.loop.edit_blocks`)."""
    others = [t for t in tools if t.name != edit_tool]
    schema = decision_schema(others)
    edit = next((t for t in tools if t.name == edit_tool), None)
    blocks = {path: list(found) for path, found in (blocks or {}).items() if found}
    if edit is None or not (lines or blocks):
        return schema
    new = dict(edit.parameters.get("properties", {}).get("new", {"type": "string"}))
    options = [_edit_option(edit_tool, path, found, new) for path, found in lines.items()]
    rewrites = [_edit_option(edit_tool, path, found, None) for path, found in blocks.items()]
    if blocks_only and rewrites:
        return {"anyOf": rewrites}
    return {"anyOf": options + rewrites + list(schema["anyOf"])}


def _edit_option(
    edit_tool: str, path: str, olds: Sequence[str], new: dict[str, Any] | None
) -> dict[str, Any]:
    """One ``edit_tool`` option: ``path`` fixed, ``old`` one of ``olds``, ``new`` under its
    own schema (none: the text comes next, as code)."""
    properties: dict[str, Any] = {"path": {"const": path}, "old": {"enum": list(olds)}}
    if new is not None:
        properties["new"] = new
    arguments = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"name": {"const": edit_tool}, "arguments": arguments},
        "required": ["name", "arguments"],
        "additionalProperties": False,
    }


def failed_edits(
    results: Sequence[ToolMessage], calls: Mapping[str, ToolCall], *, edit_tool: str = "edit_file"
) -> set[tuple[str, str]]:
    """(path, old) of the ``edit_tool`` calls among ``results`` that failed."""
    out: set[tuple[str, str]] = set()
    for result in results:
        call = calls.get(result.tool_call_id)
        if not result.is_error or call is None or call.name != edit_tool:
            continue
        try:
            arguments = json.loads(call.arguments)
        except json.JSONDecodeError:
            continue
        if isinstance(arguments, dict):
            path, old = arguments.get("path"), arguments.get("old")
            if isinstance(path, str) and isinstance(old, str):
                out.add((path, old))
    return out
