"""Typed context items: everything but the trajectory that may enter a request.

Memory records, evidence chunks, pinned rules, session notes, loaded skills and the status bar
all become :class:`ContextItem` candidates. The packer (``workset.context.packing``) filters
them by scope, scores them by utility and packs them under the budget; the assembler renders
the selected ones at the end of the request and lists every candidate in the manifest, either
as included or as omitted with a reason.

``text`` is exactly what the model sees for the item (already wrapped and tagged); everything
else is metadata for selection and for the manifest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from workset.context.manifest import ItemKind

Trust: TypeAlias = Literal["trusted", "untrusted"]


@dataclass(frozen=True, slots=True)
class Scope:
    """Who an item belongs to. An empty field means "any" (a global policy document)."""

    tenant: str = ""
    subject: str = ""

    def admits(self, item_scope: Scope) -> bool:
        """True when an item with ``item_scope`` may be seen in a request for this scope."""
        return (not item_scope.tenant or item_scope.tenant == self.tenant) and (
            not item_scope.subject or item_scope.subject == self.subject
        )


@dataclass(frozen=True, slots=True)
class Reference:
    """Where the original lives, so a manifest entry can be reproduced or read in full."""

    uri: str  # e.g. "doc://runbook-db@v3", "memory://m-12", "artifact://a1b2", "session://s/seq/38"
    range: str = ""  # e.g. "lines 480-510"
    hash: str = ""  # content hash of the original (or of the range)


@dataclass(frozen=True, slots=True)
class Features:
    """Utility features, each 0..1; the packer's weights turn them into one score."""

    relevance: float = 1.0
    authority: float = 1.0
    freshness: float = 1.0
    redundancy: float = 0.0
    injection_risk: float = 0.0


@dataclass(frozen=True, slots=True)
class ContextItem:
    item_id: str
    kind: ItemKind
    text: str
    source: str  # short provenance label: "memory:user_stated", "evidence:runbook.md", ...
    trust: Trust = "trusted"
    version: str = ""
    retrieved_at: float | None = None  # unix seconds
    expires_at: float | None = None  # unix seconds; expired items are omitted ("expired")
    scope: Scope = field(default_factory=Scope)
    reference: Reference | None = None
    features: Features = field(default_factory=Features)
    required: bool = False  # must be in the request; not fitting is a ContextBudgetError
    why: str = ""  # why this is a candidate, shown in the manifest ("standing rule, turn 2")
