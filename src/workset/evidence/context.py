"""Evidence as a source of context items: retrieve for the current task before each call."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from workset.context.items import ContextItem
from workset.context.sources import ContextRequest
from workset.evidence.items import EvidencePolicy, evidence_items
from workset.evidence.retriever import Access, EvidenceIndex


@dataclass
class EvidenceContext:
    """An item source over one :class:`EvidenceIndex` (see :mod:`workset.context.sources`).

    The query is the current task (the last user message); the request's scope is the access
    scope, with ``permissions`` the caller's permission groups: chunks outside them are never
    ranked. Results are cached per query, so the calls of one run retrieve once.
    """

    index: EvidenceIndex
    permissions: frozenset[str] = frozenset()
    policy: EvidencePolicy = field(default_factory=EvidencePolicy)
    _cache: dict[tuple[str, str, str], list[ContextItem]] = field(default_factory=dict)

    def __call__(self, request: ContextRequest) -> Sequence[ContextItem]:
        query = request.query
        if not query.strip():
            return []
        key = (query, request.scope.tenant, request.scope.subject)
        if key not in self._cache:
            access = Access(scope=request.scope, permissions=self.permissions)
            found = self.index.search(query, access)
            self._cache[key] = evidence_items(found, self.policy, now=request.now)
        return self._cache[key]
