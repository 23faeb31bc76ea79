from __future__ import annotations

import io
import os
from collections.abc import Iterator
from typing import TextIO

import anyio
import pytest

from workset.errors import UsageError
from workset.messages import ToolCall
from workset.safety.approval import (
    ApprovalDecision,
    ApprovalRequest,
    AutoApprover,
    CallbackApprover,
    CircuitBreaker,
    TerminalApprover,
    with_timeout,
)

REQUEST = ApprovalRequest(
    ToolCall("c1", "shell", '{"command": "pip install x"}'), "shell", "installs packages", "high"
)


@pytest.fixture
def pipe() -> Iterator[tuple[TextIO, TextIO]]:
    """A real pipe: (the approver's input, the writer standing in for the person)."""
    read_fd, write_fd = os.pipe()
    reader, writer = os.fdopen(read_fd, "r"), os.fdopen(write_fd, "w")
    yield reader, writer
    if not writer.closed:
        writer.close()
    reader.close()


def decide(approver: object) -> ApprovalDecision:
    return anyio.run(approver.decide, REQUEST)  # type: ignore[attr-defined]


def test_the_auto_approver_gives_its_fixed_answer() -> None:
    assert decide(AutoApprover(True)).approved
    assert not decide(AutoApprover(False)).approved


def test_a_callback_approver_accepts_sync_and_async_functions() -> None:
    seen: list[ApprovalRequest] = []

    def reviewer(request: ApprovalRequest) -> bool:
        seen.append(request)
        return "pip" not in request.call.arguments

    async def reviewer_async(request: ApprovalRequest) -> ApprovalDecision:
        return ApprovalDecision(True, "reviewer-model", "looks fine")

    assert not decide(CallbackApprover(reviewer)).approved
    assert seen == [REQUEST]
    assert decide(CallbackApprover(reviewer_async)).by == "reviewer-model"


def test_the_terminal_approver_reads_the_answer_from_its_input(
    pipe: tuple[TextIO, TextIO],
) -> None:
    reader, writer = pipe
    shown = io.StringIO()
    writer.write("y\n")
    writer.flush()
    decision = decide(TerminalApprover(input=reader, output=shown))
    assert decision == ApprovalDecision(True, "human", "approved at the terminal")
    assert "pip install x" in shown.getvalue() and "[y/N]" in shown.getvalue()
    writer.write("maybe\n")
    writer.flush()
    assert not decide(TerminalApprover(input=reader, output=shown)).approved
    writer.close()
    assert "end of input" in decide(TerminalApprover(input=reader, output=shown)).reason


def test_an_unanswered_approval_times_out_to_a_conservative_no(
    pipe: tuple[TextIO, TextIO],
) -> None:
    reader, writer = pipe
    approver = with_timeout(TerminalApprover(input=reader, output=io.StringIO()), 0.05)
    decision = decide(approver)
    writer.close()  # lets the abandoned read finish
    assert decision == ApprovalDecision(
        False, "timeout", "no answer within 0.05 s; rejected by default"
    )


def test_the_circuit_breaker_trips_after_consecutive_rejections_and_closes_on_success() -> None:
    breaker = CircuitBreaker(threshold=3)
    for _ in range(2):
        breaker.record(False)
    assert not breaker.tripped
    breaker.record(False)
    assert breaker.tripped
    assert breaker.message() == "the classifier rejected 3 calls in a row"
    breaker.record(True)
    assert not breaker.tripped
    with pytest.raises(UsageError):
        CircuitBreaker(threshold=0)
