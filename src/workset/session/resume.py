"""Resuming a session after a crash: results for the calls a dead process left hanging.

A run that starts on a log whose last protocol unit is open (an assistant message with calls
that have no result) first finishes that unit. A call that was started but never finished is
re-run only when the tool is read-only or idempotent (with the same idempotency key); any
other gets a result saying it was interrupted, so nothing with side effects runs twice.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from workset.loop.calls import Interpreted
from workset.messages import ToolCall
from workset.tools.registry import error_message

if TYPE_CHECKING:
    from workset.session.engine import Session


async def recover(session: Session, run_id: str) -> None:
    """Finish the open unit of ``session``'s log: re-run what may run again, mark the rest
    interrupted."""
    open_unit = session.state.open_unit
    assert open_unit is not None
    to_run: list[ToolCall] = []
    for call in open_unit.pending:
        if call.id in session.state.started and not session.agent.tools.is_idempotent(call.name):
            text = (
                "interrupted: the process stopped while this tool was running. It was "
                "not run again because it may have side effects; check its effects "
                "before calling it again."
            )
            session.units.finish(
                run_id, call, error_message(call, text), 0.0,
                "refused: interrupted, not re-run", interrupted=True,
            )  # fmt: skip
        else:
            to_run.append(call)
    session.steps.phase = "tools"
    rest = replace(open_unit.call, tool_calls=tuple(to_run))
    await session.units.run(run_id, rest, Interpreted(open_unit.call))
    session.steps.phase = "prepare"
