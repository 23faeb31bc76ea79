"""Approvals: who says yes to a call the classifier would not allow alone, and the breaker.

An :class:`Approver` decides an :class:`ApprovalRequest`. Shipped approvers: a fixed answer
(:class:`AutoApprover`), a function (:class:`CallbackApprover`, e.g. a reviewer model or a UI),
a person at a terminal (:class:`TerminalApprover`), and the people of the session the call
runs in (:class:`SessionApprover`: a durable request answered on any channel, the same
mechanism as the ``request_human_approval`` tool). :func:`with_timeout` bounds any of them
and answers with a conservative default (deny) when time runs out.

The :class:`CircuitBreaker` counts consecutive rejections. A classifier that rejects call
after call is stuck, and so is the agent retrying; after ``threshold`` rejections in a row the
next call goes to a human whatever the verdict, instead of looping.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TextIO

import anyio
import anyio.to_thread

from workset.errors import UsageError
from workset.messages import ToolCall
from workset.tools.base import Risk

if TYPE_CHECKING:
    from workset.collab.human import HumanDesk


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    call: ToolCall
    tool_name: str
    reason: str
    risk: Risk | None = None


@dataclass(frozen=True, slots=True)
class ApprovalDecision:
    approved: bool
    by: str
    reason: str


class Approver(Protocol):
    async def decide(self, request: ApprovalRequest) -> ApprovalDecision: ...


@dataclass(frozen=True, slots=True)
class AutoApprover:
    """Always the same answer: for tests, and for unattended runs that must never block."""

    approve: bool

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
        verdict = "approves" if self.approve else "rejects"
        return ApprovalDecision(self.approve, "auto", f"the automatic approver {verdict} all")


CallbackResult = bool | ApprovalDecision


class CallbackApprover:
    """Delegates to ``fn(request)``, sync or async, returning a bool or a decision."""

    def __init__(
        self,
        fn: Callable[[ApprovalRequest], CallbackResult | Awaitable[CallbackResult]],
        *,
        name: str = "callback",
    ) -> None:
        self.fn = fn
        self.name = name

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
        result = self.fn(request)
        if inspect.isawaitable(result):
            result = await result
        if isinstance(result, ApprovalDecision):
            return result
        return ApprovalDecision(
            bool(result), self.name, "approved" if result else "rejected by the reviewer"
        )


class TerminalApprover:
    """Asks ``Allow? [y/N]`` on a terminal; anything but y/yes (or end of input) is no.

    The blocking read runs in a worker thread, so the event loop keeps going; give it other
    streams (a pipe) to drive it from tests or another process.
    """

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None) -> None:
        self.input = input if input is not None else sys.stdin
        self.output = output if output is not None else sys.stderr

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
        risk = f" ({request.risk} risk)" if request.risk else ""
        self.output.write(
            f"\nThe agent wants to call {request.tool_name}{risk}:\n"
            f"  {request.call.arguments}\n"
            f"Why approval is needed: {request.reason}\n"
            "Allow? [y/N] "
        )
        self.output.flush()
        line = await anyio.to_thread.run_sync(self.input.readline, abandon_on_cancel=True)
        answer = line.strip().lower()
        if answer in ("y", "yes"):
            return ApprovalDecision(True, "human", "approved at the terminal")
        why = "no answer (end of input)" if not line else f"answered {answer or 'nothing'!r}"
        return ApprovalDecision(False, "human", f"rejected at the terminal: {why}")


class SessionApprover:
    """Asks the people of the running session (:class:`workset.collab.human.HumanDesk`).

    The request is recorded in the session's log with its absolute deadline, notified over
    the desk's channels, and answered by an event on any channel (``workset approvals
    answer``, the HTTP API, a webhook); after a restart the same call re-arms the same
    request. Timed out and no channel reachable are told apart from a person's denial in
    ``by``; both take ``default`` (deny unless told).
    """

    def __init__(self, desk: HumanDesk, *, timeout_s: float = 300.0, default: bool = False):
        self.desk = desk
        self.timeout_s = timeout_s
        self.default = default

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
        from workset.session.engine import Session
        from workset.tools.context import current_call

        try:
            host = current_call().host
        except UsageError:
            host = None
        if not isinstance(host, Session):
            return ApprovalDecision(
                self.default, "no channel", "no running session to ask its people in"
            )
        risk = f" ({request.risk} risk)" if request.risk else ""
        reply = await self.desk.ask(
            host,
            ask="approval",
            question=f"Allow {request.tool_name}{risk}: {request.call.arguments[:300]}",
            detail=f"Why it needs approval: {request.reason}",
            default="approve" if self.default else "deny",
            timeout_s=self.timeout_s,
            call_id=request.call.id,
            purpose="gate",
            urgency="high" if request.risk == "high" else "normal",
        )
        if reply.outcome in ("approved", "denied"):
            by = f"{reply.by or 'a person'} over {reply.channel or 'a channel'}"
            why = reply.reason or reply.outcome
            return ApprovalDecision(reply.outcome == "approved", by, why)
        by = "timeout" if reply.outcome == "timed_out" else "no channel"
        taken = "approved" if self.default else "rejected"
        return ApprovalDecision(self.default, by, f"{reply.reason}; {taken} by default")


class _Timed:
    def __init__(self, approver: Approver, seconds: float, default: bool) -> None:
        self.approver = approver
        self.seconds = seconds
        self.default = default

    async def decide(self, request: ApprovalRequest) -> ApprovalDecision:
        with anyio.move_on_after(self.seconds):
            return await self.approver.decide(request)
        outcome = "approved" if self.default else "rejected"
        return ApprovalDecision(
            self.default, "timeout", f"no answer within {self.seconds:g} s; {outcome} by default"
        )


def with_timeout(approver: Approver, seconds: float, default: bool = False) -> Approver:
    """``approver``, but answering ``default`` (deny unless told) after ``seconds``."""
    return _Timed(approver, seconds, default)


class CircuitBreaker:
    """Escalates to a human after ``threshold`` consecutive rejections.

    Feed it every outcome with :meth:`record`; once :attr:`tripped`, the gate sends the next
    call to :attr:`human` (or its own approver) whatever the classifier said. An allowed call
    closes the breaker again.
    """

    def __init__(self, threshold: int = 3, human: Approver | None = None) -> None:
        if threshold < 1:
            raise UsageError(f"threshold must be at least 1, not {threshold}")
        self.threshold = threshold
        self.human = human
        self.rejections = 0

    @property
    def tripped(self) -> bool:
        return self.rejections >= self.threshold

    def record(self, allowed: bool) -> None:
        self.rejections = 0 if allowed else self.rejections + 1

    def message(self) -> str:
        return f"the classifier rejected {self.rejections} calls in a row"

    async def escalate(
        self, request: ApprovalRequest, approver: Approver | None
    ) -> ApprovalDecision | None:
        """The human's decision on ``request`` (None when no human approver is configured)."""
        human = self.human or approver
        if human is None:
            return None
        escalated = ApprovalRequest(
            request.call, request.tool_name, f"{self.message()}; {request.reason}", request.risk
        )
        return await human.decide(escalated)
