"""Long tool outputs: keep the head and the tail in context, save the whole to a file.

An execution tool's output can run to thousands of lines. Over a threshold (200 lines or
10,000 characters by default) :func:`clip_output` keeps the first and last 50 lines, puts a
marker with exact counts where the middle was, saves the full text under
``<workspace>/.workset/artifacts/`` and ends with how to read it with ``read_file``.

Artifact names are content hashes, so the same output always lands in the same file with the
same bytes and a resumed session renders the identical preview (the prompt prefix stays
cacheable). Lines are counted the way ``read_file`` counts them (split on ``"\\n"`` only), so
the offset in the hint points at the first omitted line.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

from workset.errors import UsageError
from workset.tools.workspace import Workspace

ARTIFACTS_DIR = ".workset/artifacts"
MAX_LINE_CHARS = 1_000
_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")


class ArtifactStore:
    """Files under ``<workspace>/.workset/artifacts/``, named by the hash of their content."""

    def __init__(self, workspace: Workspace) -> None:
        self._workspace = workspace
        self._dir = workspace.root / ARTIFACTS_DIR

    @property
    def directory(self) -> Path:
        return self._dir

    def save(self, text: str, name: str) -> str:
        """Save ``text`` as ``<name>-<hash>.txt``; return its workspace-relative path.

        Saving the same text under the same name again finds the file already there.
        """
        if not _NAME.fullmatch(name):
            raise UsageError(
                f"artifact name {name!r} is invalid: use 1-40 letters, digits, '_' or '-'"
            )
        data = text.encode("utf-8", errors="replace")
        digest = hashlib.sha256(data).hexdigest()[:16]
        target = self._dir / f"{name}-{digest}.txt"
        if not (target.is_file() and target.stat().st_size == len(data)):
            self._dir.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=self._dir, prefix=".tmp-")
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            Path(temp).replace(target)
        return self._workspace.relative(target)


def split_lines(text: str) -> list[str]:
    """Lines as ``read_file`` numbers them: split on ``"\\n"``, no empty last line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def clip_output(
    text: str,
    *,
    artifacts: ArtifactStore,
    name: str,
    max_lines: int = 200,
    max_chars: int = 10_000,
    head: int = 50,
    tail: int = 50,
) -> str:
    """``text`` itself when short; otherwise head + marker + tail + how to read the rest.

    The kept lines also fit ``max_chars`` (half for the head, half for the tail); a kept line
    longer than 1,000 characters is cut and says how many characters it lost.
    """
    lines = split_lines(text)
    if len(lines) <= max_lines and len(text) <= max_chars:
        return text
    path = artifacts.save(text, name)
    budget = max_chars // 2
    kept_head = _fit(lines[:head], budget)
    rest = lines[len(kept_head) :]
    kept_tail = list(reversed(_fit(list(reversed(rest[-tail:] if tail else [])), budget)))
    omitted = len(lines) - len(kept_head) - len(kept_tail)
    full = f"full output ({len(lines):,} lines, {len(text):,} chars) saved to {path}"
    if omitted:
        marker = f"... [{omitted:,} lines omitted; {full}] ..."
    else:
        marker = f"... [no lines omitted, but long lines were cut; {full}] ..."
    hint = f"To read the rest, call read_file with path='{path}' and offset={len(kept_head) + 1}."
    return "\n".join([*map(_cut, kept_head), marker, *map(_cut, kept_tail), "", hint])


def _fit(lines: list[str], budget: int) -> list[str]:
    """The leading lines whose (cut) lengths fit ``budget``; at least one line if any."""
    kept: list[str] = []
    used = 0
    for line in lines:
        size = min(len(line), MAX_LINE_CHARS) + 1
        if kept and used + size > budget:
            break
        kept.append(line)
        used += size
    return kept


def _cut(line: str) -> str:
    if len(line) <= MAX_LINE_CHARS:
        return line
    return f"{line[:MAX_LINE_CHARS]} … [line cut: {len(line) - MAX_LINE_CHARS:,} more characters]"
