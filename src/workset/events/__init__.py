"""The vocabulary every part records and reads: input events and the loop's record union.

:mod:`.inputs` is what arrives from the world (a user line, a webhook, a timer, a finished
background task) as one structured :class:`~workset.events.inputs.Event`; :mod:`.records` is
the one union of what a session's log holds (a run started, a model was called, a tool
finished, events arrived and were consumed, a step was interrupted...). The session log, the
session engine, the status bar, the CLI, the inspect page and the eval harness all depend on
this package; it depends on none of them.
"""

from workset.events.inputs import (
    Event,
    EventContext,
    EventSource,
    Priority,
    event_from_json,
    new_event,
)
from workset.events.records import (
    EventReceived,
    InputAppended,
    LoopEvent,
    MessageRef,
    ModelCalled,
    NoticeRecord,
    RequestRef,
    RunFailed,
    RunFinished,
    RunStarted,
    SessionForked,
    StepInterrupted,
    TaskUpdated,
    TimerSet,
    ToolFinished,
    ToolsLoaded,
    ToolStarted,
)

__all__ = [
    "Event",
    "EventContext",
    "EventReceived",
    "EventSource",
    "InputAppended",
    "LoopEvent",
    "MessageRef",
    "ModelCalled",
    "NoticeRecord",
    "Priority",
    "RequestRef",
    "RunFailed",
    "RunFinished",
    "RunStarted",
    "SessionForked",
    "StepInterrupted",
    "TaskUpdated",
    "TimerSet",
    "ToolFinished",
    "ToolStarted",
    "ToolsLoaded",
    "event_from_json",
    "new_event",
]
