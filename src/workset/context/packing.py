"""The candidate pipeline: scope filter → utility scoring → packing → layout order.

Scope is a filter, not a score: an item of another tenant or subject never becomes a
candidate, so it cannot appear in a request or in a manifest (only a count of them is kept).
Among the candidates:

- expired items are omitted (``expired``), exact duplicates after the first (``duplicate``);
- required items go first; if they do not fit, :class:`ContextBudgetError` says by how much;
- the rest are taken in order of utility
  ``relevance^w_r × authority^w_a × freshness^w_f − w_red·redundancy − w_inj·injection_risk``
  while they fit (a smaller item later in the order may still fit); an item whose utility is
  not positive is dropped (``negative_utility``) even when room remains;
- selection order is not serialization order: :func:`layout` orders what was selected by
  kind (instructions and task state, memory, evidence, skills, status last), then by the order
  the candidates were given.

Seed 001's ``pack_context`` example is a test of this module (``tests/context/test_packing.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from workset.context.items import ContextItem, Scope
from workset.context.manifest import OmitReason, OmittedItem
from workset.errors import ContextBudgetError

__all__ = ["Packing", "Weights", "layout", "pack", "utility"]

# Serialization order of kinds at the end of the request; the status bar is always last.
_KIND_ORDER = {
    "instruction": 0,
    "task_state": 1,
    "memory": 2,
    "trajectory": 3,
    "evidence": 4,
    "skill": 5,
    "tool": 6,
    "status": 9,
}


@dataclass(frozen=True, slots=True)
class Weights:
    """Exponents of the product terms and coefficients of the penalties (seed 001's form)."""

    relevance: float = 1.0
    authority: float = 1.0
    freshness: float = 1.0
    redundancy: float = 0.2
    injection_risk: float = 1.0


def utility(item: ContextItem, weights: Weights = Weights()) -> float:
    f = item.features
    gain = float(
        max(f.relevance, 0.0) ** weights.relevance
        * max(f.authority, 0.0) ** weights.authority
        * max(f.freshness, 0.0) ** weights.freshness
    )
    return gain - weights.redundancy * f.redundancy - weights.injection_risk * f.injection_risk


@dataclass(frozen=True, slots=True)
class Packing:
    selected: tuple[ContextItem, ...]  # in layout order
    omitted: tuple[OmittedItem, ...]
    used: int
    room: int
    tokens: Mapping[str, int] = field(default_factory=dict)  # item_id → tokens, candidates only
    utilities: Mapping[str, float] = field(default_factory=dict)
    out_of_scope: int = 0  # how many items the scope filter removed (never listed by id)


def pack(
    candidates: Sequence[ContextItem],
    *,
    scope: Scope,
    room: int,
    tokens: Callable[[ContextItem], int] | Mapping[str, int],
    weights: Weights = Weights(),
    now: float | None = None,
) -> Packing:
    """Select from ``candidates`` what fits ``room`` tokens, best utility first."""
    count = tokens if callable(tokens) else (lambda item: tokens[item.item_id])
    in_scope = [c for c in candidates if scope.admits(c.scope)]
    sizes: dict[str, int] = {}
    scores: dict[str, float] = {}
    omitted: list[OmittedItem] = []
    live: list[ContextItem] = []
    seen_ids: set[str] = set()
    seen_texts: set[str] = set()
    for item in in_scope:
        size = sizes[item.item_id] = count(item)
        scores[item.item_id] = utility(item, weights)
        if now is not None and item.expires_at is not None and item.expires_at <= now:
            omitted.append(_omit(item, size, "expired", "its expiry time has passed"))
        elif item.item_id in seen_ids or item.text in seen_texts:
            omitted.append(_omit(item, size, "duplicate", "same id or text as an earlier item"))
        else:
            seen_ids.add(item.item_id)
            seen_texts.add(item.text)
            live.append(item)

    required = [c for c in live if c.required]
    used = sum(sizes[c.item_id] for c in required)
    if used > room:
        names = ", ".join(f"{c.item_id} ({sizes[c.item_id]})" for c in required)
        raise ContextBudgetError(
            f"required context items need {used} tokens but only {room} are left after the "
            f"prompt, tools and current task: {names}. Raise the context window, unpin or "
            "shorten some of them, or lower the output reserve."
        )
    chosen = list(required)
    optional = sorted(
        (c for c in live if not c.required), key=lambda c: -scores[c.item_id]
    )  # stable: ties keep the given order
    for item in optional:
        size, score = sizes[item.item_id], scores[item.item_id]
        if score <= 0:
            omitted.append(
                _omit(item, size, "negative_utility", f"utility {score:.3f} is not positive")
            )
        elif used + size > room:
            omitted.append(
                _omit(item, size, "budget", f"utility {score:.3f}; {room - used} tokens left")
            )
        else:
            chosen.append(item)
            used += size
    return Packing(
        selected=layout(chosen, order=candidates),
        omitted=tuple(omitted),
        used=used,
        room=room,
        tokens=sizes,
        utilities=scores,
        out_of_scope=len(candidates) - len(in_scope),
    )


def layout(
    items: Sequence[ContextItem], order: Sequence[ContextItem] | None = None
) -> tuple[ContextItem, ...]:
    """Serialization order: by kind (status last), then by position in ``order``."""
    position = {id(c): i for i, c in enumerate(order if order is not None else items)}
    return tuple(sorted(items, key=lambda c: (_KIND_ORDER.get(c.kind, 7), position.get(id(c), 0))))


def _omit(item: ContextItem, tokens: int, reason: OmitReason, detail: str) -> OmittedItem:
    why = f"{detail}; {item.why}" if item.why else detail
    return OmittedItem(item.item_id, item.kind, item.source, tokens, reason, why)
