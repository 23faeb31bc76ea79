"""The safety gate: the one call the loop makes before running a tool.

``check`` puts a call through quotas, the classifier, the circuit breaker and, when needed, an
approver, and returns a :class:`GateDecision`. A refused call does not crash anything: its
``message`` becomes the tool's error result, so the model reads why and what to do instead,
as it would any tool failure. After the call ran (or was refused), ``record`` tells the gate,
which feeds the breaker and the quotas.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from workset.messages import ToolCall
from workset.safety.approval import ApprovalDecision, ApprovalRequest, Approver, CircuitBreaker
from workset.safety.classifier import Classifier, RuleClassifier, Verdict
from workset.safety.policy import PermissionPolicy, Quotas
from workset.tools.base import Tool


@dataclass(frozen=True, slots=True)
class GateDecision:
    """Whether the call may run; ``message`` is what the model sees when it may not."""

    allowed: bool
    message: str
    verdict: Verdict
    approval: ApprovalDecision | None = None


class SafetyGate:
    """Quotas → classifier → breaker → approver, for every tool call.

    Without a classifier, a :class:`RuleClassifier` over ``policy`` is used. ``ask``
    verdicts go to ``approver``; with none configured they are refused.
    """

    def __init__(
        self,
        classifier: Classifier | None = None,
        approver: Approver | None = None,
        breaker: CircuitBreaker | None = None,
        policy: PermissionPolicy | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.policy = policy or PermissionPolicy()
        self.classifier = classifier or RuleClassifier(self.policy)
        self.approver = approver
        self.breaker = breaker
        self.quotas = Quotas(self.policy, clock)

    async def check(self, call: ToolCall, tool: Tool | None) -> GateDecision:
        over = self.quotas.exceeded(call.name)
        verdict = (
            Verdict("deny", over, "quota")
            if over is not None
            else await self.classifier.classify(call, tool)
        )
        request = ApprovalRequest(call, call.name, verdict.reason, tool.risk if tool else None)
        if self.breaker is not None and self.breaker.tripped:
            return await self._escalate(self.breaker, request, verdict)
        if verdict.decision == "allow":
            return GateDecision(True, "", verdict)
        if verdict.decision == "deny":
            return GateDecision(
                False, f"Blocked by the safety policy ({verdict.rule}): {verdict.reason}", verdict
            )
        if self.approver is None:
            return GateDecision(
                False,
                "This call needs human approval; none is configured. "
                f"Why it needs approval: {verdict.reason}",
                verdict,
            )
        decision = await self.approver.decide(request)
        return _decided(verdict, decision)

    def record(self, call: ToolCall, allowed: bool) -> None:
        """Feed the outcome of ``call`` to the breaker, and count it against the quotas."""
        if self.breaker is not None:
            self.breaker.record(allowed)
        if allowed:
            self.quotas.record(call.name)

    async def _escalate(
        self, breaker: CircuitBreaker, request: ApprovalRequest, verdict: Verdict
    ) -> GateDecision:
        decision = await breaker.escalate(request, self.approver)
        if decision is None:
            return GateDecision(
                False,
                f"{breaker.message().capitalize()} and no human approver is configured; "
                "stop and ask the user how to proceed",
                verdict,
            )
        return _decided(verdict, decision, prefix=f"{breaker.message().capitalize()}. ")


def _decided(verdict: Verdict, decision: ApprovalDecision, prefix: str = "") -> GateDecision:
    if decision.approved:
        return GateDecision(
            True, f"{prefix}Approved by {decision.by}: {decision.reason}", verdict, decision
        )
    return GateDecision(
        False,
        f"{prefix}The call was not approved ({decision.by}: {decision.reason}). "
        f"Why it needed approval: {verdict.reason}. Do not retry it unchanged; choose a safer "
        "way or ask the user.",
        verdict,
        decision,
    )
