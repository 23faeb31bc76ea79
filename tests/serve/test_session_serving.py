"""What the service relies on from a session: it serves until idle, reports idleness, and a
model that is down fails a run once instead of again and again."""

from __future__ import annotations

from pathlib import Path

import anyio
import anyio.lowlevel
import pytest
from support import Records, make_agent, run

from workset.errors import ModelUnavailableError, UsageError
from workset.events import RunFailed, RunFinished, new_event
from workset.log.store import SessionLog
from workset.models.base import ModelRequest
from workset.testing import FunctionModel


def test_a_served_session_whose_model_is_down_fails_once_and_waits_for_the_next_event(
    tmp_path: Path,
) -> None:
    records = Records()
    calls: list[ModelRequest] = []

    async def down(request: ModelRequest) -> str:
        await anyio.lowlevel.checkpoint()
        calls.append(request)
        if len(calls) < 3:
            raise ModelUnavailableError("the endpoint is down")
        return "back up"

    agent = make_agent(tmp_path, FunctionModel(down), [], records)

    async def main() -> None:
        async with agent.session() as session, anyio.create_task_group() as group:
            group.start_soon(session.serve)
            await session.deliver(new_event("user.input", "hello"))
            await records.until(lambda e: isinstance(e, RunFailed))
            await anyio.wait_all_tasks_blocked()
            assert len(calls) == 1 and session.idle
            await session.deliver(new_event("user.input", "still there?"))
            await records.until(lambda e: len(records.of(RunFailed)) == 2)
            await session.deliver(new_event("user.input", "and now?"))
            await records.until(lambda e: isinstance(e, RunFinished))
            group.cancel_scope.cancel()
        assert len(calls) == 3

    run(main, timeout=10)


def test_a_session_is_idle_only_when_nothing_is_running_pending_or_owed(tmp_path: Path) -> None:
    release = anyio.Event()
    started = anyio.Event()

    async def slow(request: ModelRequest) -> str:
        started.set()
        await release.wait()
        return "done"

    records = Records()
    agent = make_agent(tmp_path, FunctionModel(slow), [], records)

    async def main() -> None:
        async with agent.session() as session, anyio.create_task_group() as group:
            assert session.idle  # a new session: nothing to do
            await session.deliver(new_event("user.input", "work"))
            assert not session.idle  # pending
            group.start_soon(session.serve)
            await started.wait()
            assert session.busy and not session.idle
            release.set()
            await records.until(lambda e: isinstance(e, RunFinished))
            assert session.idle
            group.cancel_scope.cancel()

    run(main)


def test_a_session_can_be_created_under_a_chosen_id_once(tmp_path: Path) -> None:
    with SessionLog(tmp_path / "log.db") as log:
        assert log.create_session(title="", workspace="", model="m", session_id="inbox") == "inbox"
        with pytest.raises(UsageError, match="already exists"):
            log.create_session(title="", workspace="", model="m", session_id="inbox")
        with pytest.raises(UsageError, match="letters, digits"):
            log.create_session(title="", workspace="", model="m", session_id="no spaces")
        assert log.get_session("inbox").id == "inbox"
