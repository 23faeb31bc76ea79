"""The agent: the parts every session shares, and the simple ways to use them.

An :class:`Agent` holds the model, the tools, the log and what shapes each request (system
prompt, budget, history policy, memory and evidence sources, status bar, safety gate). Its
sessions do the work (:class:`workset.session.engine.Session`): each is a long-lived actor
whose state is its log, moved one step at a time, taking events at safe points.

- :meth:`Agent.run` is request/response on top of that: deliver the task as a ``user.input``
  event to a new (or the given) session and run until the session is idle;
- :meth:`Agent.resume` finishes what a crashed process left and goes on;
- ``async with agent.session(id) as session`` gives the session itself, for event-driven use:
  ``await session.deliver(event)`` at any time, ``await session.run_until_idle()``.

Everything that happens is recorded in the log first and then announced on the event bus;
the CLI, metrics and the status bar subscribe there.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager

from workset.context.assemble import BudgetConfig
from workset.context.items import Scope
from workset.context.sources import ItemSource
from workset.context.trust import Secrets
from workset.errors import UsageError
from workset.events.inputs import new_event
from workset.history.base import HistoryPolicy
from workset.loop.bus import EventBus, Subscriber
from workset.loop.offer import ToolOffer
from workset.loop.settings import (
    ANSWER_NOW,
    DEFAULT_SYSTEM_PROMPT,
    AgentConfig,
    RunResult,
    RunUsage,
)
from workset.models.base import Model
from workset.safety.gate import SafetyGate
from workset.session.clock import Clock, as_clock
from workset.session.context import RequestMaker, RequestSettings
from workset.session.engine import Session
from workset.session.router import Router
from workset.session.state import SessionState
from workset.status.bar import StatusBar
from workset.stores.protocols import SessionStore
from workset.tools.registry import ToolRegistry

__all__ = ["ANSWER_NOW", "DEFAULT_SYSTEM_PROMPT", "Agent", "AgentConfig", "RunResult", "RunUsage"]


class Agent:
    """Runs sessions with one model and one tool registry, recording into a session log."""

    def __init__(
        self,
        model: Model,
        tools: ToolRegistry,
        log: SessionStore,
        config: AgentConfig | None = None,
        *,
        subscribers: Sequence[Subscriber] = (),
        clock: Callable[[], float] | Clock = time.time,
        offer: ToolOffer | None = None,
        gate: SafetyGate | None = None,
        sources: Sequence[ItemSource] = (),
        scope: Scope | None = None,
        history_policy: Callable[[], HistoryPolicy] | None = None,
        summarizer: Model | None = None,
        secrets: Secrets | None = None,
        status: StatusBar | None = None,
        router: Router | None = None,
        coder: Model | None = None,
    ) -> None:
        """``sources`` give context items (memory, evidence...) before each call; ``scope``
        is the tenant and subject the agent serves (items of any other never enter);
        ``history_policy`` makes one policy per session (default: the whole history, cut
        to the budget); ``summarizer`` is the model policies use for summaries (default: this
        model); ``secrets`` are redacted from tasks, tool results and errors before anything
        is recorded or sent; ``status`` keeps an ``<agent_status>`` block at the end of every
        request (or appended each round, by its strategy) and annotates tool results;
        ``router`` picks the strategy for events that arrive while a session is busy;
        ``coder`` answers the requests made alone (default: this model): the function a guided
        edit chose, written as code (the function and the task alone,
        :mod:`workset.loop.rewrite`), and a question asked again over the lines that bear on
        it (:mod:`workset.loop.second_look`): a larger tier for the short requests where a
        small model's code and reading matter most.
        """
        self.model = model
        self.coder = coder or model
        self.tools = tools
        self.log = log
        self.config = config or AgentConfig()
        self.offer = offer or ToolOffer(tools)
        self.gate = gate
        self.secrets = secrets or Secrets()
        self.status = status
        self.router = router or Router()
        self.clock = as_clock(clock)
        extra = (status.tracker,) if status is not None else ()
        self.bus = EventBus(*extra, *subscribers)
        self._policy_factory = history_policy
        c = self.config
        self.request_settings = RequestSettings(
            system_prompt=c.system_prompt,
            counter=model.token_counter(),
            budget=BudgetConfig(
                model.info.context_window, c.output_reserve, c.margin, c.items_share
            ),
            max_tokens=c.max_tokens,
            temperature=c.temperature,
            constrained=c.constrained_decisions,
            scope=scope or Scope(),
            sources=tuple(sources),
            summarizer=summarizer or model,
            timeout_s=c.model_stall_s,
        )
        self._makers: dict[str, RequestMaker] = {}

    @property
    def scope(self) -> Scope:
        return self.request_settings.scope

    def maker(self, session_id: str) -> RequestMaker:
        """The request maker of a session: its history policy's state and its last request
        live there, so a second run of a session measures prefix reuse against the first."""
        found = self._makers.get(session_id)
        if found is None:
            policy = self._policy_factory() if self._policy_factory is not None else None
            found = self._makers[session_id] = RequestMaker(
                self.request_settings, session_id, policy=policy
            )
        return found

    def new_session(
        self, *, title: str = "", workspace: str = "", session_id: str | None = None
    ) -> str:
        """Record a new session of this agent (named ``session_id``, or a fresh id)."""
        return self.log.create_session(
            title=title.strip()[:80],
            workspace=workspace,
            model=self.model.info.name,
            config={"system_prompt": self.config.system_prompt, "tools": list(self.tools.names())},
            session_id=session_id,
        )

    @asynccontextmanager
    async def session(
        self, session_id: str | None = None, *, title: str = "", workspace: str = ""
    ) -> AsyncIterator[Session]:
        """Open a session (a new one when ``session_id`` is None) with its background
        machinery running: timers, background tasks, side sessions."""
        if session_id is None:
            session_id = self.new_session(title=title, workspace=workspace)
        state = SessionState.load(self.log, session_id)
        session = Session(self, state)
        async with session.running():
            yield session

    async def run(
        self, task: str, *, session_id: str | None = None, workspace: str = ""
    ) -> RunResult:
        """Run ``task`` in a new session, or as the next turn of ``session_id``."""
        if not task.strip():
            raise UsageError(
                'the task is empty; say what the agent should do, e.g. workset run "…"'
            )
        task = self.secrets.redact(task)
        if session_id is not None:
            state = self.log.resume_state(session_id)
            if state.open_unit is not None:
                raise UsageError(
                    f"session {session_id} has tool calls without results; "
                    f"resume it first with `workset resume {session_id}`"
                )
        async with self.session(session_id, title=task, workspace=workspace) as session:
            await session.deliver(new_event("user.input", task, source="user", channel="cli"))
            return await session.run_until_idle()

    async def resume(self, session_id: str) -> RunResult:
        """Continue a session after a crash or interrupt without re-running finished tools.

        Calls that were started but never finished are re-run only when the tool is read-only
        or idempotent (it gets the same idempotency key as the first attempt); any other gets an
        error result saying it was interrupted, so nothing with side effects runs twice.
        Events that arrived and were never consumed are taken now.
        """
        async with self.session(session_id) as session:
            return await session.run_until_idle()
