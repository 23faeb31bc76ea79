"""Memory as a source of context items for the agent loop.

Before each model call, :class:`MemoryContext` pins the standing rules found in the session's
user messages (idempotent), then offers every loadable record of the run's tenant and subject
(facts, hypotheses, pinned rules) and the session's notes as candidate items; the packer
decides what fits and the manifest says why each is there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from workset.context.items import ContextItem
from workset.context.sources import ContextRequest
from workset.memory.loader import memory_items
from workset.memory.notes import SessionNotes, note_items
from workset.memory.rules import pin_standing_rules
from workset.memory.store import ANY_PURPOSE, MemoryStore


@dataclass
class MemoryContext:
    """An item source over one :class:`MemoryStore` (see :mod:`workset.context.sources`).

    ``purpose`` is the decision the agent serves ("support", "billing"); records for another
    purpose do not load. With ``pin_rules`` (and a scope naming tenant and subject), standing
    rules stated by the user are stored as pinned memories the first time they are seen.
    """

    store: MemoryStore
    purpose: str = ANY_PURPOSE
    pin_rules: bool = True
    notes: bool = True
    _scanned: dict[str, int] = field(default_factory=dict)  # session → messages already read

    def __call__(self, request: ContextRequest) -> Sequence[ContextItem]:
        scope = request.scope
        if self.pin_rules and scope.tenant and scope.subject:
            start = self._scanned.get(request.session_id, 0)
            new = request.history[start:]
            pin_standing_rules(self.store, new, scope, request.session_id, first_seq=start)
            self._scanned[request.session_id] = start + len(new)
        records = self.store.records(scope.tenant, scope.subject)
        items = memory_items(records, scope, self.purpose, request.now, request.query)
        if self.notes:
            notes = SessionNotes(self.store, request.session_id).notes()
            items.extend(note_items(notes, scope, request.query))
        return items
