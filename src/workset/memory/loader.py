"""Which memories may enter a request, and how they read there.

:func:`load_memory` applies the four checks before a memory is used: same subject and tenant,
purpose relevant to this decision, not expired, accepted source. Quarantined records and
unknown source labels never load; model-inferred records load apart, as hypotheses.
:func:`memory_items` turns what loads into context items: facts as ``<memory>``, hypotheses
as ``<hypothesis>`` labelled unverified, pinned standing rules as required items.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Literal, TypeAlias

from workset.context.items import ContextItem, Features, Reference, Scope
from workset.context.trust import neutralize
from workset.errors import UsageError
from workset.memory.store import ANY_PURPOSE, FACT_SOURCES, MemoryRecord

_Role: TypeAlias = Literal["rule", "fact", "hypothesis"]
HYPOTHESIS_AUTHORITY = 0.3  # a model's guess weighs less than what the user or a system said
_WORD = re.compile(r"\w+")
_STOPWORDS = frozenset(
    re.findall(
        r"\w+",
        "a an and are as at be by do does for from has have how i in is it its me my of on or "
        "our so that the this to was we what when where which who why with you your",
    )
)


def load_memory(
    records: Iterable[MemoryRecord], subject: str, tenant: str, purpose: str, now: float
) -> tuple[list[MemoryRecord], list[MemoryRecord]]:
    """``(facts, hypotheses)``: the records that pass the four checks, split by source.

    A record whose purpose is :data:`~workset.memory.store.ANY_PURPOSE` (a standing rule)
    is relevant to every decision. ``now`` is unix seconds.
    """
    facts: list[MemoryRecord] = []
    hypotheses: list[MemoryRecord] = []
    for m in records:
        if (m.subject, m.tenant) != (subject, tenant):
            continue  # 1. another subject or tenant
        if m.purpose not in (purpose, ANY_PURPOSE):
            continue  # 2. not for this decision
        if m.expires_at is not None and m.expires_at <= now:
            continue  # 3. expired
        if m.status != "active":
            continue  # quarantined until a human releases it
        # 4. Only accepted source labels load.
        if m.source in FACT_SOURCES:
            facts.append(m)
        elif m.source == "model_inferred":
            hypotheses.append(m)
    return facts, hypotheses


def memory_items(
    records: Iterable[MemoryRecord], scope: Scope, purpose: str, now: float, query: str = ""
) -> list[ContextItem]:
    """Context items for the memories of ``scope`` that may be used for ``purpose`` now.

    Pinned standing rules come first, as required items; then facts, then hypotheses.
    ``query`` (the current task) sets each item's relevance by word overlap.
    """
    if not scope.tenant or not scope.subject:
        raise UsageError(
            f"memory needs an authenticated tenant and subject, got {scope!r}: pass "
            "Scope(tenant=..., subject=...) for the user the request is for"
        )
    facts, hypotheses = load_memory(records, scope.subject, scope.tenant, purpose, now)
    pinned = [m for m in facts if m.pinned]
    plain = [m for m in facts if not m.pinned]
    items = [_item(m, purpose, now, query, "rule") for m in pinned]
    items += [_item(m, purpose, now, query, "fact") for m in plain]
    items += [_item(m, purpose, now, query, "hypothesis") for m in hypotheses]
    return items


def lexical_overlap(query: str, text: str) -> float:
    """The share of the query's distinct content words that occur in ``text`` (1.0 if none)."""
    wanted = {w for w in _WORD.findall(query.lower()) if len(w) > 1 and w not in _STOPWORDS}
    if not wanted:
        return 1.0
    present = set(_WORD.findall(text.lower()))
    return len(wanted & present) / len(wanted)


def iso_utc(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _item(m: MemoryRecord, purpose: str, now: float, query: str, role: _Role) -> ContextItem:
    created = iso_utc(m.created_at)
    body = neutralize(m.text)
    attrs = f'source="{m.source}" id="{m.memory_id}" created="{created}"'
    if role == "rule":
        text = f'<standing_rule {attrs} set_at="{_attr(m.provenance)}">{body}</standing_rule>'
        why = f"standing rule stated by the user at {m.provenance}"
    elif role == "fact":
        text = f"<memory {attrs}>{body}</memory>"
        why = f"{m.source} memory, purpose {purpose}"
    else:
        text = (
            f'<hypothesis {attrs} verified="false">Unverified hypothesis inferred by the '
            f"model, not stated by the user; confirm before relying on it: {body}</hypothesis>"
        )
        why = f"{m.source} memory (unverified hypothesis), purpose {purpose}"
    relevance = 1.0 if role == "rule" or not query else lexical_overlap(query, m.text)
    return ContextItem(
        item_id=f"memory:{m.memory_id}",
        kind="memory",
        text=text,
        source=f"memory:{m.source}",
        trust="trusted" if m.source in FACT_SOURCES else "untrusted",
        retrieved_at=now,
        expires_at=m.expires_at,
        scope=Scope(tenant=m.tenant, subject=m.subject),
        reference=Reference(
            uri=f"memory://{m.memory_id}",
            hash=hashlib.sha256(m.text.encode()).hexdigest()[:16],
        ),
        features=Features(
            relevance=relevance,
            authority=1.0 if m.source in FACT_SOURCES else HYPOTHESIS_AUTHORITY,
        ),
        required=role == "rule",
        why=why,
    )


def _attr(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
