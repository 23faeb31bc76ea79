"""Tool-result budget: a large result goes to the artifact store, the context gets a preview.

The preview is :func:`~workset.tools.output.clip_output`'s head and tail (with its exact line
and character counts, the saved file and the ``read_file`` hint) under a header that adds the
exact token count. It is computed once per (session, call id) and written to a
:class:`PreviewLedger` on disk; every later call, in this process or a resumed one, reads the
stored bytes back, so the decision and its bytes are frozen and the prompt stays cacheable
even if the thresholds or the counter change in between.

This layer applies to the current turn too: it decides how a result enters the context, the
first time and every time after.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from dataclasses import replace
from pathlib import Path

from workset.history.base import PolicyContext
from workset.history.draft import Draft, replace_results, text_tokens
from workset.messages import ToolMessage
from workset.tools.output import ArtifactStore, clip_output, split_lines

PREVIEWS_DIR = "previews"
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


class PreviewLedger:
    """Frozen previews on disk: one file per (session, call id), written once, read forever."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self._dir = Path(directory)

    @property
    def directory(self) -> Path:
        return self._dir

    def _path(self, session_id: str, call_id: str) -> Path:
        session = hashlib.sha256(session_id.encode()).hexdigest()[:16]
        call = hashlib.sha256(call_id.encode()).hexdigest()[:24]
        return self._dir / session / f"{call}.txt"

    def get(self, session_id: str, call_id: str) -> str | None:
        path = self._path(session_id, call_id)
        return path.read_bytes().decode("utf-8") if path.is_file() else None

    def put(self, session_id: str, call_id: str, text: str) -> str:
        """Store ``text`` unless a preview is already there; return the stored one."""
        path = self._path(session_id, call_id)
        if path.is_file():
            return path.read_bytes().decode("utf-8")
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
        try:
            os.link(temp, path)  # fails if another writer got there first: theirs wins
        except FileExistsError:
            pass
        finally:
            Path(temp).unlink()
        return path.read_bytes().decode("utf-8")


class ToolResultBudget:
    """Persist results over ``max_lines`` lines or ``max_chars`` characters; show a preview."""

    def __init__(
        self,
        artifacts: ArtifactStore,
        *,
        session_id: str,
        ledger: PreviewLedger | None = None,
        max_lines: int = 200,
        max_chars: int = 10_000,
        head: int = 50,
        tail: int = 50,
    ) -> None:
        self.artifacts = artifacts
        self.session_id = session_id
        self.ledger = ledger or PreviewLedger(artifacts.directory.parent / PREVIEWS_DIR)
        self.max_lines = max_lines
        self.max_chars = max_chars
        self.head = head
        self.tail = tail
        self._known: dict[str, str | None] = {}  # call id -> preview (None: fits the budget)

    def preview(self, result: ToolMessage, context: PolicyContext) -> str | None:
        """The frozen preview for ``result``, or None when it fits the budget."""
        if result.tool_call_id not in self._known:
            self._known[result.tool_call_id] = self._decide(result, context)
        return self._known[result.tool_call_id]

    def _decide(self, result: ToolMessage, context: PolicyContext) -> str | None:
        stored = self.ledger.get(self.session_id, result.tool_call_id)
        if stored is not None:
            return stored
        text = result.content
        lines = split_lines(text)
        if len(lines) <= self.max_lines and len(text) <= self.max_chars:
            return None
        name = _UNSAFE.sub("-", result.name or "tool-result")[:40] or "tool-result"
        path = self.artifacts.save(text, name)
        clipped = clip_output(
            text,
            artifacts=self.artifacts,
            name=name,
            max_lines=self.max_lines,
            max_chars=self.max_chars,
            head=self.head,
            tail=self.tail,
        )
        method = context.counter.method if context.counter is not None else "estimate:4-chars"
        header = (
            f"[tool result budget: this {result.name or 'tool'} result has {len(lines):,} "
            f"lines, {len(text):,} chars, {text_tokens(text, context):,} tokens ({method}); "
            f"the whole of it is saved at {path}; head and tail follow]"
        )
        return self.ledger.put(self.session_id, result.tool_call_id, f"{header}\n{clipped}")

    async def apply(self, draft: Draft, context: PolicyContext) -> Draft:
        blocks = []
        for block in draft.blocks:
            previews: dict[str, str] = {}
            for message in block.messages:
                if isinstance(message, ToolMessage):
                    preview = self.preview(message, context)
                    if preview is not None:
                        previews[message.tool_call_id] = preview
            blocks.append(replace_results(block, previews) if previews else block)
        return replace(draft, blocks=tuple(blocks))
