"""The one union of what a session's log records, in the order things happened.

The session engine appends these; the session log stores them (each durable before anyone
else sees it); the status bar, the CLI, the inspect page and the eval harness read them.
Every record is frozen and carries what a reader needs, so nothing reaches into the engine.

The trajectory the model sees is rebuilt from four of them: :class:`InputAppended` (a user
message, a batch of events, a harness notice — user role), :class:`ModelCalled` (the
assistant message, recorded at once), :class:`ToolFinished` (each result when done, or a
placeholder when interrupted) and, in logs written before the session engine, the task of
:class:`RunStarted`. :class:`ModelCalled` also carries a :class:`RequestRef`: the request as
sent, by reference to those records and to content-addressed blobs, so any call's request
can be rebuilt byte for byte from the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from workset.context.manifest import Manifest
from workset.events.inputs import Event
from workset.messages import AssistantMessage, ToolCall, ToolMessage
from workset.models.base import TokenLogprob, Usage

TaskState: TypeAlias = Literal["running", "progress", "completed", "failed", "cancelled", "lost"]
FINAL_TASK_STATES = frozenset({"completed", "failed", "cancelled", "lost"})
AgentStatus: TypeAlias = Literal[
    "pending", "running", "waiting_for_human", "completed", "failed", "cancelled"
]
FINAL_AGENT_STATES = frozenset({"completed", "failed", "cancelled"})
HumanOutcome: TypeAlias = Literal["approved", "denied", "answered", "timed_out", "no_channel"]


@dataclass(frozen=True, slots=True)
class MessageRef:
    """One message of a request: a recorded trajectory message (``seq``, the log record
    that holds it) or a message made for this call (``blob``, the hash of its wire JSON)."""

    seq: int = 0
    blob: str = ""


@dataclass(frozen=True, slots=True)
class RequestRef:
    """A request as sent, by reference: ``SessionLog.request(seq)`` rebuilds it exactly."""

    system: str  # blob hash of the system prompt
    tools: str  # blob hash of the tool definitions' wire JSON
    messages: tuple[MessageRef, ...]
    max_tokens: int | None = None
    temperature: float | None = None
    json_schema: str = ""  # blob hash, when the output was constrained
    seed: int | None = None  # the sampler's seed, when the request gave one


@dataclass(frozen=True, slots=True)
class NoticeRecord:
    """What the notice queue put into a request, who queued it and when (seed 001)."""

    id: str
    kind: str  # event, status, pinned, answer_now, task, approval, parallel_answer...
    producer: str
    placement: Literal["trajectory", "suffix"]
    queued_at: float


@dataclass(frozen=True, slots=True)
class RunStarted:
    run_id: str
    session_id: str
    task: str  # logs before the session engine: the user message that starts the run
    model: str
    at: float
    resumed: bool = False
    trigger: tuple[str, ...] = ()  # the ids of the events that woke the session
    title: str = ""  # what the run is about, for people (the first event's text)
    kind: Literal["run_started"] = "run_started"


@dataclass(frozen=True, slots=True)
class InputAppended:
    """A user-role message entered the trajectory at a safe point.

    ``origin`` is ``user`` for the user's own words (one message or a batch of them),
    ``events`` for a batch that holds other events (a webhook, a finished task), ``harness``
    for workset's own notices (an appended status block): never the user's words.
    """

    session_id: str
    run_id: str
    text: str
    at: float
    event_ids: tuple[str, ...] = ()
    notices: tuple[NoticeRecord, ...] = ()
    origin: Literal["user", "events", "harness"] = "user"
    kind: Literal["input_appended"] = "input_appended"


@dataclass(frozen=True, slots=True)
class ModelCalled:
    run_id: str
    session_id: str
    iteration: int
    manifest: Manifest
    message: AssistantMessage  # the assistant message as the loop records it (calls parsed)
    usage: Usage
    at: float
    finish_reason: str | None = None
    request: RequestRef | None = None
    notices: tuple[NoticeRecord, ...] = ()  # the per-call notices flushed into this request
    # A final answer's tokens with their log-probabilities, scored once after the call
    # (workset.loop.confidence); empty for calls, or when answers are not scored.
    answer_tokens: tuple[TokenLogprob, ...] = ()
    kind: Literal["model_called"] = "model_called"


@dataclass(frozen=True, slots=True)
class ToolStarted:
    run_id: str
    session_id: str
    call: ToolCall
    at: float
    kind: Literal["tool_started"] = "tool_started"


@dataclass(frozen=True, slots=True)
class ToolFinished:
    run_id: str
    session_id: str
    call: ToolCall
    result: ToolMessage
    duration_s: float
    at: float
    # The audit trail: who asked (the agent, a resume) and what the safety gate decided.
    actor: str = "agent"
    decision: str = "allowed"
    # A placeholder: the call was interrupted before it finished (seed 004, rule 3).
    interrupted: bool = False
    kind: Literal["tool_finished"] = "tool_finished"


@dataclass(frozen=True, slots=True)
class RunFinished:
    run_id: str
    session_id: str
    answer: str
    iterations: int
    at: float
    kind: Literal["run_finished"] = "run_finished"


@dataclass(frozen=True, slots=True)
class RunFailed:
    run_id: str
    session_id: str
    error: str  # what happened and what to do next
    error_type: str  # the exception class name, e.g. "ModelUnavailableError"
    at: float
    kind: Literal["run_failed"] = "run_failed"


@dataclass(frozen=True, slots=True)
class EventReceived:
    """An input event entered the session's inbox (durable before anything acts on it)."""

    session_id: str
    event: Event
    at: float
    strategy: str = ""  # what the router chose: cancel, queue, parallel
    kind: Literal["event_received"] = "event_received"


@dataclass(frozen=True, slots=True)
class StepInterrupted:
    """An urgent event cut the current step short (seed 004, rules 3 and 4)."""

    session_id: str
    run_id: str
    event_id: str
    during: Literal["model", "tools"]
    at: float
    discarded_chars: int = 0  # model output thrown away, never recorded (rule 4)
    cancelled: tuple[str, ...] = ()  # call ids given a placeholder and stopped
    detached: tuple[str, ...] = ()  # call ids left running in the background as tasks
    kind: Literal["step_interrupted"] = "step_interrupted"


@dataclass(frozen=True, slots=True)
class TaskUpdated:
    """A background task changed state: started (running), progress, or a final state."""

    session_id: str
    task_id: str
    state: TaskState
    at: float
    detail: str = ""
    tool: str = ""
    call_id: str = ""  # the call that started it
    kind: Literal["task_updated"] = "task_updated"

    @property
    def final(self) -> bool:
        return self.state in FINAL_TASK_STATES


@dataclass(frozen=True, slots=True)
class TimerSet:
    """A timer was set (or, with ``cancelled``, ended). Each occurrence fires as one
    ``timer.trigger`` event whose id names the timer and the occurrence, so the inbox's
    once-per-id rule makes it fire at most once, across restarts too."""

    session_id: str
    timer_id: str
    message: str
    due: float  # the next (or only) time it fires, unix seconds
    at: float
    cron: str = ""  # empty for a one-shot timer
    timezone: str = "UTC"
    cancelled: bool = False  # a later TimerSet with cancelled=True ends the timer
    kind: Literal["timer_set"] = "timer_set"


@dataclass(frozen=True, slots=True)
class ToolsLoaded:
    """Discovery loaded tools: calls to them run from now on (rebuilt on resume)."""

    session_id: str
    names: tuple[str, ...]
    at: float
    kind: Literal["tools_loaded"] = "tools_loaded"


@dataclass(frozen=True, slots=True)
class SessionForked:
    """This session starts from its parent's trajectory through ``through_seq``.

    Side sessions (a parallel question) and subagents that inherit context are forks: their
    requests begin with the parent's messages, byte for byte, so the prefix is reused.
    """

    session_id: str
    parent_id: str
    through_seq: int
    purpose: str
    at: float
    kind: Literal["session_forked"] = "session_forked"


@dataclass(frozen=True, slots=True)
class AgentUpdated:
    """A subagent of this session changed state (its own records are in session ``child_id``).

    ``result`` is the subagent's validated result (JSON text) once it ended; ``tokens`` what
    it billed so far (prompt + completion, its handoff call included); ``call_id`` the call
    that spawned it; ``parent_agent`` the agent id of the session that spawned it, when that
    session is itself a subagent (empty for the main agent).
    """

    session_id: str
    agent_id: str
    child_id: str
    name: str
    status: AgentStatus
    at: float
    detail: str = ""
    task: str = ""
    call_id: str = ""
    depth: int = 1
    handoff: str = ""
    tokens: int = 0
    result: str = ""
    kind: Literal["agent_updated"] = "agent_updated"

    @property
    def final(self) -> bool:
        return self.status in FINAL_AGENT_STATES


@dataclass(frozen=True, slots=True)
class HumanAsked:
    """A question for a person (an approval or an input), pending until answered or due.

    ``deadline`` is absolute (unix seconds), so a restarted process re-arms the same wait;
    ``default`` is what is taken when nobody answers in time; ``code`` is the secret an
    answer from an untrusted channel (a webhook) must quote.
    """

    session_id: str
    request_id: str
    ask: Literal["approval", "input"]
    question: str
    at: float
    deadline: float
    default: str
    call_id: str = ""
    urgency: str = "normal"
    code: str = ""
    detail: str = ""  # for an approval: the action and why it needs one
    kind: Literal["human_asked"] = "human_asked"


@dataclass(frozen=True, slots=True)
class HumanAnswered:
    """How a :class:`HumanAsked` ended (once per request): approved, denied, answered,
    timed_out (the default was taken) or no_channel (nobody could be reached). The answer
    event it took, if any, is consumed with it (``event_ids``)."""

    session_id: str
    request_id: str
    outcome: HumanOutcome
    at: float
    answer: str = ""
    reason: str = ""
    by: str = ""
    channel: str = ""
    event_ids: tuple[str, ...] = ()
    kind: Literal["human_answered"] = "human_answered"


@dataclass(frozen=True, slots=True)
class NotificationSent:
    """One delivery attempt of a notification over one channel, and its outcome."""

    session_id: str
    notification_id: str
    channel: str
    urgency: str
    ok: bool
    at: float
    subject: str = ""
    detail: str = ""  # the receiver's answer, or why delivery failed
    request_id: str = ""  # the human request it is about, if any
    kind: Literal["notification_sent"] = "notification_sent"


LoopEvent: TypeAlias = (
    RunStarted
    | InputAppended
    | ModelCalled
    | ToolStarted
    | ToolFinished
    | RunFinished
    | RunFailed
    | EventReceived
    | StepInterrupted
    | TaskUpdated
    | TimerSet
    | ToolsLoaded
    | SessionForked
    | AgentUpdated
    | HumanAsked
    | HumanAnswered
    | NotificationSent
)
