"""The record of what people were asked and what they decided, read from the session log.

Seed 004 ("Establecimiento del bucle de retroalimentación"): approvals, rejections and their
reasons are first of all feedback data with evidence. This module only reads them back — each
request with its question, deadline, default and how it ended — for ``workset approvals``
and for whoever studies them later. Nothing here turns a decision into a rule: a single human
decision is not generalised without being synthesised deliberately elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from workset.errors import UsageError
from workset.events import HumanAnswered, HumanAsked
from workset.stores.protocols import SessionStore


@dataclass(frozen=True, slots=True)
class HumanRequest:
    """A request and its end (``ended`` None while pending)."""

    asked: HumanAsked
    ended: HumanAnswered | None = None

    @property
    def status(self) -> str:
        return self.ended.outcome if self.ended is not None else "pending"

    def to_json(self) -> dict[str, Any]:
        a, e = self.asked, self.ended
        return {
            "request_id": a.request_id,
            "session": a.session_id,
            "ask": a.ask,
            "question": a.question,
            "detail": a.detail,
            "asked_at": a.at,
            "deadline": a.deadline,
            "default": a.default,
            "status": self.status,
            "answer": e.answer if e else "",
            "reason": e.reason if e else "",
            "by": e.by if e else "",
            "channel": e.channel if e else "",
            "answered_at": e.at if e else None,
        }


def human_requests(log: SessionStore, session_id: str | None = None) -> list[HumanRequest]:
    """Every request of ``session_id`` (of every session when None), oldest first."""
    ids = [log.resolve(session_id)] if session_id else [s.id for s in log.sessions(limit=None)]
    found: list[HumanRequest] = []
    for sid in ids:
        asked: dict[str, HumanAsked] = {}
        ended: dict[str, HumanAnswered] = {}
        for stored in log.events(sid, kinds=("human_asked", "human_answered")):
            if isinstance(stored.event, HumanAsked):
                asked[stored.event.request_id] = stored.event
            elif isinstance(stored.event, HumanAnswered):
                ended[stored.event.request_id] = stored.event
        found += [HumanRequest(a, ended.get(rid)) for rid, a in asked.items()]
    return sorted(found, key=lambda r: r.asked.at)


def find_request(log: SessionStore, request_id: str) -> HumanRequest:
    """The request ``request_id`` (in any session); a :class:`UsageError` if none."""
    for request in human_requests(log):
        if request.asked.request_id == request_id:
            return request
    raise UsageError(
        f"no request {request_id!r} in {log.where}; list them with `workset approvals --pending`"
    )
