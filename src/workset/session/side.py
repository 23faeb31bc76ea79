"""A light question answered in parallel with the main task (seed 004, "procesamiento paralelo").

The side session is a fork of the main session: its trajectory starts with the main
session's messages as of the last safe point, byte for byte, with the same system prompt and
tools, so its request reuses the prefix the serving engine has cached for the main session.
It may only run read-only tools and has a few model calls. Its answer reaches the user at once
(as its own run's answer, on the bus) and is delivered to the main session as a
``parallel.answered`` event: at the next safe point the main trajectory records the question
and the answer, marked as answered in parallel, so the model knows it was handled.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from workset.events.inputs import Event, EventContext, new_event
from workset.events.records import SessionForked
from workset.session.state import SessionState

if TYPE_CHECKING:
    from workset.session.engine import Session

SIDE_MAX_ITERATIONS = 3
SIDE_NOTE = (
    "(Asked while you work on the task above. Answer this question briefly and on its own; "
    "do not continue the task in this reply.)"
)


async def answer_in_parallel(main: Session, event: Event) -> Event:
    """Answer ``event`` in a side session; returns the ``parallel.answered`` event."""
    from workset.session.engine import Session

    agent = main.agent
    log = agent.log
    side_id = log.create_session(
        title=f"side: {event.text[:70]}",
        workspace="",
        model=agent.model.info.name,
        config={"side_of": main.id, "event_id": event.id},
    )
    through = main.state.seqs[-1] if main.state.seqs else 0
    log.append(SessionForked(side_id, main.id, through, "parallel", main.now()))
    settings = replace(agent.config, max_iterations=SIDE_MAX_ITERATIONS)
    side = Session(
        agent, SessionState.load(log, side_id), side_of=main.id, read_only=True, config=settings
    )
    question = new_event(
        "user.input",
        f"{event.text}\n\n{SIDE_NOTE}",
        source=event.source,
        channel=event.channel,
        sender=event.sender,
        trusted=event.trusted,
    )
    async with side.running():
        await side.deliver(question)
        result = await side.run_until_idle(wait_for_tasks=False)
    answer = result.answer if result.status == "finished" else f"(no answer: {result.error})"
    return new_event(
        "parallel.answered",
        f'The user asked: "{event.text}". Answered in parallel with the main task (side '
        f'session {side_id}): "{answer}"',
        source="agent",
        channel="side_session",
        content={"question": event.text, "answer": answer, "side_session": side_id},
        context=EventContext(relates_to=(event.id,)),
        trusted=True,
    )
