"""Retrieved evidence as context items: data with provenance, never instructions.

Each :class:`~workset.evidence.retriever.Evidence` becomes one ``kind="evidence"``,
``trust="untrusted"`` :class:`~workset.context.items.ContextItem` whose text is the quoted
chunk wrapped by :func:`~workset.context.trust.wrap_untrusted` with its document, version,
lines and heading. A chunk larger than :attr:`EvidencePolicy.max_tokens` enters as an excerpt
(its first lines) followed by a reference that says which lines were shown, of which range,
version and file, and how to read the rest; never as a bare "see the full document".

Features for the packer: ``relevance`` is the fused retrieval score (0..1); ``authority``
comes from the first :attr:`EvidencePolicy.authority` pattern matching the chunk's source or
document id; ``freshness`` is 0 for a superseded version or a document not yet in effect,
decays with :attr:`EvidencePolicy.half_life_days` from the effective date when both are given,
and is 1 otherwise. ``injection_risk`` is 0 unless a scorer is given
(:attr:`EvidencePolicy.injection_risk`).
"""

from __future__ import annotations

import fnmatch
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from workset.context.items import ContextItem, Features, Reference
from workset.context.trust import wrap_untrusted
from workset.evidence.ingest import Chunk, approx_tokens
from workset.evidence.retriever import Evidence

ReadHint = Callable[[Chunk, int, int], str]  # chunk, first and last unread line → instruction


def read_file_hint(chunk: Chunk, first: int, last: int) -> str:
    """How to read lines ``first..last`` of the chunk's file with the ``read_file`` tool."""
    path = chunk.source or chunk.doc_id
    return f'read_file path="{path}" offset={first} limit={last - first + 1}'


@dataclass(frozen=True, slots=True)
class EvidencePolicy:
    """How retrieved chunks become items; every field has a usable default."""

    authority: Mapping[str, float] = field(default_factory=dict)  # glob on source/doc id
    default_authority: float = 1.0
    latest_versions: Mapping[str, str] = field(default_factory=dict)  # doc id → current version
    half_life_days: float | None = None
    max_tokens: int = 300  # larger chunks enter as an excerpt plus a reference
    read_hint: ReadHint = read_file_hint
    injection_risk: Callable[[str], float] | None = None  # a scorer of the quoted text, 0..1


def evidence_items(
    results: Sequence[Evidence], policy: EvidencePolicy | None = None, *, now: float | None = None
) -> list[ContextItem]:
    """One untrusted evidence item per result, in the order given."""
    rules = policy or EvidencePolicy()
    at = time.time() if now is None else now
    return [_item(result, rules, at) for result in results]


def _item(result: Evidence, policy: EvidencePolicy, now: float) -> ContextItem:
    chunk = result.chunk
    shown, last_shown = _excerpt(chunk, policy.max_tokens)
    attributes = {
        "lines": f"{chunk.start_line}-{last_shown}",
        "heading": " > ".join(chunk.heading),
    }
    text = wrap_untrusted(shown, source=f"doc:{chunk.doc_id}@{chunk.version}", **attributes)
    if len(shown) < len(chunk.text):
        text += "\n" + _reference(chunk, last_shown, policy.read_hint)
    return ContextItem(
        item_id=f"evidence:{chunk.chunk_id}",
        kind="evidence",
        text=text,
        source=f"evidence:{chunk.doc_id}",
        trust="untrusted",
        version=chunk.version,
        retrieved_at=now,
        scope=chunk.scope,
        reference=Reference(
            uri=f"doc://{chunk.doc_id}@{chunk.version}",
            range=f"lines {chunk.start_line}-{chunk.end_line}",
            hash=f"sha256:{chunk.sha256}",
        ),
        features=Features(
            relevance=result.fused,
            authority=_authority(chunk, policy),
            freshness=_freshness(chunk, policy, now),
            injection_risk=policy.injection_risk(chunk.text) if policy.injection_risk else 0.0,
        ),
        why=(
            f"retrieved for {result.query!r}: rank {result.rank}, fused {result.fused:.2f} "
            f"(bm25 {result.bm25:.2f}, dense {result.dense:.2f})"
        ),
    )


def _excerpt(chunk: Chunk, max_tokens: int) -> tuple[str, int]:
    """The leading whole lines of the chunk that fit ``max_tokens``, and the last line shown.

    A first line that alone is too long is cut to the budget.
    """
    if approx_tokens(chunk.text) <= max_tokens:
        return chunk.text, chunk.end_line
    kept: list[str] = []
    size = 0
    for line in chunk.text.split("\n"):
        cost = approx_tokens(line) + 1
        if kept and size + cost > max_tokens:
            break
        kept.append(line)
        size += cost
    if len(kept) == 1 and approx_tokens(kept[0]) > max_tokens:
        kept[0] = kept[0][: max_tokens * 4]
    return "\n".join(kept), chunk.start_line + len(kept) - 1


def _reference(chunk: Chunk, last_shown: int, read_hint: ReadHint) -> str:
    where = f"{chunk.doc_id} {chunk.version}".strip()
    shown = f"lines {chunk.start_line}–{last_shown}"
    if last_shown == chunk.end_line:  # one long line, cut
        shown = f"the start of line {last_shown}"
        rest = read_hint(chunk, last_shown, chunk.end_line)
    else:
        rest = read_hint(chunk, last_shown + 1, chunk.end_line)
    return (
        f"[excerpt: {shown} of lines {chunk.start_line}–{chunk.end_line} of {where} "
        f"(sha256 {chunk.sha256[:12]}); for the rest: {rest}]"
    )


def _authority(chunk: Chunk, policy: EvidencePolicy) -> float:
    for pattern, value in policy.authority.items():
        if fnmatch.fnmatchcase(chunk.source, pattern) or fnmatch.fnmatchcase(chunk.doc_id, pattern):
            return value
    return policy.default_authority


def _freshness(chunk: Chunk, policy: EvidencePolicy, now: float) -> float:
    latest = policy.latest_versions.get(chunk.doc_id)
    if latest is not None and latest != chunk.version:
        return 0.0  # superseded
    if chunk.effective_date is None:
        return 1.0
    effective = datetime(*chunk.effective_date.timetuple()[:3], tzinfo=UTC).timestamp()
    if effective > now:
        return 0.0  # not in effect yet
    if policy.half_life_days is None:
        return 1.0
    age_days = (now - effective) / 86400.0
    return math.pow(0.5, age_days / policy.half_life_days)
