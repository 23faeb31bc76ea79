"""The notice queue: the one way harness text reaches the model (seed 001, "Los eventos del
harness se convierten en mensajes").

Everything workset itself adds to a request besides the recorded trajectory — the status
block, a policy's pinned notes, the "answer now" turn after a repeated call, batched events —
is a :class:`Notice`. Producers queue notices whenever they like; :meth:`NoticeQueue.flush`
hands them over at one defined point (right before a request is built, at a safe point) in
a stable order. ``trajectory`` notices are recorded as user-role messages and stay in the
trajectory; ``suffix`` notices are sent at the end of this one request only. Either way the
flush is recorded: the request's reference holds their text and ``ModelCalled.notices`` says
which notice it was, who queued it and when, so "why did the model think that?" has an
answer in the log.

A notice is a convention between workset and the model, not a trust boundary: text that
merely looks like one (inside a tool result or an email) is neutralised before it is sent.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from workset.context.items import ContextItem
from workset.events.records import NoticeRecord

Placement = Literal["trajectory", "suffix"]
# The order notices take within one flush: the same kinds always land in the same places.
KIND_ORDER = ("event", "status", "pinned", "answer_now")


@dataclass(frozen=True, slots=True)
class Notice:
    """One piece of harness text for the next request.

    A suffix notice is either a context item (``item``: packed under the budget with the
    other items, e.g. the status block or pinned notes) or a plain message (``text``).
    """

    id: str
    kind: str
    producer: str
    placement: Placement
    queued_at: float
    text: str = ""
    item: ContextItem | None = None

    def record(self) -> NoticeRecord:
        return NoticeRecord(self.id, self.kind, self.producer, self.placement, self.queued_at)


Producer = Callable[[float], Sequence[Notice]]


class NoticeQueue:
    """Queued notices plus per-round producers, drained together at the flush point."""

    def __init__(self) -> None:
        self._queued: list[Notice] = []
        self._producers: list[Producer] = []
        self._ids = itertools.count(1)

    def new_id(self, kind: str) -> str:
        return f"n{next(self._ids)}-{kind}"

    def push(
        self,
        kind: str,
        producer: str,
        placement: Placement,
        now: float,
        *,
        text: str = "",
        item: ContextItem | None = None,
    ) -> Notice:
        """Queue a notice for the next flush."""
        notice = Notice(self.new_id(kind), kind, producer, placement, now, text, item)
        self._queued.append(notice)
        return notice

    def produce_with(self, producer: Producer) -> None:
        """Ask ``producer`` for notices at every flush (the status bar renders each round)."""
        self._producers.append(producer)

    def holds(self, placement: Placement) -> bool:
        """Whether a notice of ``placement`` is queued (a trajectory notice owes a model call)."""
        return any(n.placement == placement for n in self._queued)

    def flush(self, now: float) -> tuple[Notice, ...]:
        """Every queued notice and what the producers give now, in the stable order."""
        drained = [*self._queued, *(n for p in self._producers for n in p(now))]
        self._queued.clear()
        rank = {kind: i for i, kind in enumerate(KIND_ORDER)}
        order = sorted(
            range(len(drained)),
            key=lambda i: (
                drained[i].placement != "trajectory",
                rank.get(drained[i].kind, len(rank)),
                i,
            ),
        )
        return tuple(drained[i] for i in order)
