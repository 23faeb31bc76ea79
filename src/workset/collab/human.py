"""People in the loop: approvals and questions with a deadline, durable, answered anywhere.

Seed 004 ("El arte de la intervención humana"): some decisions need a person. A request is
recorded first (:class:`~workset.events.records.HumanAsked`, with its absolute deadline and
the default taken when nobody answers), then sent over the notification channels its urgency
calls for. It ends exactly once (:class:`~workset.events.records.HumanAnswered`) with one of
four outcomes kept apart — approved / denied (or answered, for a question), timed_out (the
default was taken), no_channel (nobody could be reached, so the default was taken at once).

An answer is an event delivered to the session like any other — from ``workset approvals
answer``, the local HTTP API, a webhook — and taken by the waiting request through the
session's claimers: it wakes the session and never enters the trajectory as a message. Its
content names the request: ``{"request_id": "hr-…", "decision": "approve" | "deny",
"reason": "…", "by": "ana"}`` (``"answer": "…"`` for a question). An answer from an
untrusted channel (a webhook) must also quote the request's ``code``, which only the
notification carried. A request whose process stopped is re-armed when its call runs again
after the restart, with the same id and the same absolute deadline; an answer that arrived
meanwhile is in the inbox and is taken at once, unless it arrived after the deadline: then
the request times out and the late answer reaches the model as an ordinary event.

Approvals, rejections and their reasons are evidence (``workset approvals`` lists them); they
are never turned into rules on their own.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import anyio

from workset.collab.notify import Notification, Notifier, delivered, describe
from workset.errors import UsageError
from workset.events import Event, HumanAnswered, HumanAsked, NotificationSent
from workset.events.records import HumanOutcome
from workset.session.engine import Session

Ask = Literal["approval", "input"]
ANSWER_TYPE = "human.answer"
_YES = frozenset({"approve", "approved", "yes", "y", "allow", "ok", "true"})
_NO = frozenset({"deny", "denied", "no", "n", "reject", "rejected", "false"})


@dataclass(frozen=True, slots=True)
class Reply:
    """How a request ended, as the tool or the approver reports it."""

    request_id: str
    outcome: HumanOutcome
    answer: str = ""
    reason: str = ""
    by: str = ""
    channel: str = ""

    @property
    def approved(self) -> bool:
        return self.outcome == "approved" or (
            self.outcome in ("timed_out", "no_channel") and self.answer == "approve"
        )


def request_id_for(session_id: str, call_id: str, purpose: str) -> str:
    """The same id for the same call after a restart, so the request is re-armed, not re-asked."""
    digest = hashlib.sha256(f"{session_id}\0{call_id}\0{purpose}".encode()).hexdigest()
    return f"hr-{digest[:10]}"


def answer_event_content(
    request_id: str,
    *,
    decision: str = "",
    answer: str = "",
    reason: str = "",
    by: str = "",
    code: str = "",
) -> dict[str, str]:
    """The content of a ``human.answer`` event (what ``workset approvals answer`` sends)."""
    content = {"request_id": request_id}
    for key, value in (("decision", decision), ("answer", answer), ("reason", reason)):
        if value:
            content[key] = value
    if by:
        content["by"] = by
    if code:
        content["code"] = code
    return content


def parse_answer(event: Event, asked: HumanAsked) -> Reply | None:
    """The reply ``event`` gives to ``asked``, or None when it is not a valid answer to it."""
    content: Mapping[str, Any] = event.content
    if content.get("request_id") != asked.request_id:
        return None
    if not (event.type == ANSWER_TYPE or event.type.startswith("webhook.")):
        return None
    if not event.trusted and not secrets.compare_digest(str(content.get("code", "")), asked.code):
        return None
    by = str(content.get("by") or event.sender or event.source)[:80]
    reason = str(content.get("reason", ""))[:500]
    if asked.ask == "approval":
        decision = str(content.get("decision", content.get("answer", ""))).strip().lower()
        if decision in _YES:
            return Reply(asked.request_id, "approved", "approve", reason, by, event.channel)
        if decision in _NO:
            return Reply(asked.request_id, "denied", "deny", reason, by, event.channel)
        return None
    text = content.get("answer")
    if not isinstance(text, str) or not text.strip():
        return None
    return Reply(asked.request_id, "answered", text.strip()[:2000], reason, by, event.channel)


class HumanDesk:
    """Asks people on behalf of the sessions of one agent, over ``notifier``'s channels."""

    def __init__(self, notifier: Notifier | None = None, *, max_timeout_s: float = 7 * 86400):
        self.notifier = notifier
        self.max_timeout_s = max_timeout_s

    async def ask(
        self,
        session: Session,
        *,
        ask: Ask,
        question: str,
        default: str,
        timeout_s: float,
        call_id: str,
        purpose: str = "tool",
        detail: str = "",
        urgency: str = "normal",
    ) -> Reply:
        """Ask, wait until an answer or the deadline, and record how it ended (once)."""
        if not 0 < timeout_s <= self.max_timeout_s:
            raise UsageError(
                f"timeout_s must be between 1 and {self.max_timeout_s:g} seconds, not {timeout_s:g}"
            )
        request_id = request_id_for(session.id, call_id, purpose)
        ended = session.state.human_answers.get(request_id)
        if ended is not None:  # answered before a restart: report it again
            return _reply(ended)
        asked = session.state.human_asks.get(request_id)
        if asked is None:
            asked = HumanAsked(
                session.id, request_id, ask, question, session.now(),
                session.now() + timeout_s, default, call_id, urgency,
                secrets.token_hex(4), detail,
            )  # fmt: skip
            session.record(asked)
            attempts = await self._notify(session, asked)
            if not delivered(attempts):
                why = describe(attempts)
                return self._end(session, asked, Reply(request_id, "no_channel", default, why))
        return await self._wait(session, asked)

    async def _notify(self, session: Session, asked: HumanAsked) -> list[NotificationSent]:
        if self.notifier is None:
            return []
        what = "Approval needed" if asked.ask == "approval" else "Question"
        how = (
            "approve or deny" if asked.ask == "approval" else "answer"
        ) + f": workset approvals answer {asked.request_id} …"
        text = (
            f"{asked.question}\n{asked.detail}\n\nRequest {asked.request_id} (code "
            f"{asked.code}), session {session.id}. If nobody answers within "
            f"{asked.deadline - asked.at:g} s the default is taken: {asked.default or '(none)'}."
            f"\nTo {how}"
        ).replace("\n\n\n", "\n\n")
        notification = Notification(
            f"{what}: {asked.question[:80]}", text, asked.urgency, session.id, asked.request_id
        )
        return await self.notifier.send(notification, session)

    async def _wait(self, session: Session, asked: HumanAsked) -> Reply:
        got: list[Reply] = []
        arrived = anyio.Event()

        def claim(event: Event) -> bool:
            reply = parse_answer(event, asked)
            if reply is None or got or event.at > asked.deadline:  # a late answer is data
                return False
            got.append(reply)
            self._end(session, asked, reply, event.id)
            arrived.set()
            return True

        for waiting in list(session.state.pending.values()):  # arrived while nothing waited
            if claim(waiting):
                return got[0]
        session.claimers.append(claim)
        try:
            async with anyio.create_task_group() as group:

                async def answered() -> None:
                    await arrived.wait()
                    group.cancel_scope.cancel()

                async def due() -> None:
                    await session.clock.sleep_until(asked.deadline)
                    group.cancel_scope.cancel()

                group.start_soon(answered)
                group.start_soon(due)
        finally:
            session.claimers.remove(claim)
        if got:
            return got[0]
        waited = asked.deadline - asked.at
        reason = f"no answer within {waited:g} s"
        return self._end(
            session, asked, Reply(asked.request_id, "timed_out", asked.default, reason)
        )

    def _end(self, session: Session, asked: HumanAsked, reply: Reply, event_id: str = "") -> Reply:
        session.record(
            HumanAnswered(
                session.id, asked.request_id, reply.outcome, session.now(), reply.answer,
                reply.reason, reply.by, reply.channel, (event_id,) if event_id else (),
            )
        )  # fmt: skip
        return reply


def _reply(ended: HumanAnswered) -> Reply:
    return Reply(
        ended.request_id, ended.outcome, ended.answer, ended.reason, ended.by, ended.channel
    )


def describe_reply(reply: Reply, asked_default: str) -> str:
    """The tool result for a request's end: the outcome first, then what to do with it."""
    who = f" by {reply.by}" if reply.by else ""
    over = f" over {reply.channel}" if reply.channel else ""
    why = f": {reply.reason}" if reply.reason else ""
    match reply.outcome:
        case "approved":
            return f"approved{who}{over}{why}. Go ahead."
        case "denied":
            return f"denied{who}{over}{why}. Do not do it; choose another way or ask the user."
        case "answered":
            return f"answered{who}{over}: {reply.answer}"
        case "timed_out":
            return (
                f"timed_out ({reply.reason}); the default was taken: {asked_default or '(none)'}. "
                "Act on the default; do not assume a person agreed."
            )
    return (
        f"no_channel: nobody could be reached ({reply.reason}); the default was taken at once: "
        f"{asked_default or '(none)'}. Do not assume a person agreed."
    )
