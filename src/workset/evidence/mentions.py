""" "Which files mention X?": the search done before the first call, its result as evidence.

A question that asks which files (under a folder) mention, contain, import or reference a
word is a text search, and its answer is the list of files the search finds, or none. The
0.5B, asked "Which files under src/workset/safety mention bubblewrap?", searched with a glob
that matched nothing, then read a file outside the folder, and answered with the question's
own words. :func:`~workset.intent.mention_query` reads the folder and the word from the question;
:func:`mentions_item` searches the workspace's indexed files (the same scan as the evidence:
``.gitignore`` honoured) and states what it found: each file with its first matching lines,
or that no file there mentions it, so the answer is in the first request either way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from workset.context.items import ContextItem, Features, Reference
from workset.context.trust import wrap_untrusted
from workset.evidence.scan import scan_workspace
from workset.intent import NO_FILE_FOUND, Mention, mention_query

__all__ = ["NO_FILE_FOUND", "Mention", "mention_query", "mentions_item"]

MAX_FILES = 20  # files listed; the rest are counted
LINES_PER_FILE = 2  # matching lines quoted per file
MAX_LINE_CHARS = 160


def mentions_item(
    root: Path,
    mention: Mention,
    now: float | None = None,
    scanned: Sequence[str] | None = None,
) -> ContextItem:
    """One untrusted ``evidence`` item: the files under ``mention.folder`` whose text holds
    ``mention.term`` (case-insensitive, as a whole word), with their first matching lines;
    or that none does, with how many files were searched; or that the folder is not there.
    ``scanned``: the workspace's files as a scan just listed them (else it is scanned)."""
    prefix = mention.folder + "/" if mention.folder else ""
    paths = scanned if scanned is not None else [f.path for f in scan_workspace(root)]
    files = [path for path in paths if path.startswith(prefix)]
    where = f"under {mention.folder}" if mention.folder else "in the workspace"
    word = re.compile(rf"(?<![\w]){re.escape(mention.term)}(?![\w])", re.I)
    hits: list[tuple[str, list[tuple[int, str]]]] = []
    for path in files:
        try:
            text = (root / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        lines = [
            (n, line.strip()[:MAX_LINE_CHARS])
            for n, line in enumerate(text.splitlines(), 1)
            if word.search(line)
        ]
        if lines:
            hits.append((path, lines))
    head = f"Search of the files {where} for {mention.term!r} (case-insensitive, whole word)"
    if not files:
        body = f"{head}: there is no file {where} (no such folder, or only ignored files)."
    elif not hits:
        body = (
            f"{head}: no file {where} mentions {mention.term!r} ({len(files)} {NO_FILE_FOUND} it)."
        )
    else:
        shown = []
        for path, lines in hits[:MAX_FILES]:
            quoted = "; ".join(f"line {n}: {line}" for n, line in lines[:LINES_PER_FILE])
            more = len(lines) - LINES_PER_FILE
            shown.append(f"- {path} ({quoted}{f'; {more} more lines' if more > 0 else ''})")
        rest = len(hits) - MAX_FILES
        tail = [f"- and {rest} more files"] if rest > 0 else []
        body = "\n".join([f"{head}: {len(hits)} of {len(files)} files mention it:", *shown, *tail])
    return ContextItem(
        item_id=f"evidence:mentions:{mention.folder}:{mention.term}",
        kind="evidence",
        text=wrap_untrusted(body, source="workspace"),
        source="evidence:" + ",".join(path for path, _ in hits[:MAX_FILES]),
        trust="untrusted",
        retrieved_at=now,
        reference=Reference(uri="workspace://" + mention.folder, range=mention.term),
        features=Features(relevance=1.0),
        why=f"the question asks which files {where} mention {mention.term!r}: searched "
        f"{len(files)} files, {len(hits)} matched",
    )
