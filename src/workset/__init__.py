"""workset: context engineering runtime for AI agents.

For every model call, workset assembles the smallest working set that supports the decision
under a token budget, in a layout that keeps the KV-cache prefix stable, and records a manifest
of what went in and what was left out. Importing this package has no side effects: no model is
loaded, no file is opened, no optional dependency is imported.
"""

from workset.config import WorksetConfig, load_config
from workset.context.assemble import AssembledRequest, Assembler, BudgetConfig
from workset.context.items import ContextItem, Features, Reference, Scope
from workset.context.manifest import Manifest
from workset.context.sources import ContextRequest
from workset.context.trust import Secrets
from workset.errors import (
    ContextBudgetError,
    ModelError,
    ModelResponseError,
    ModelUnavailableError,
    SessionLogError,
    SessionNotFoundError,
    ToolError,
    UsageError,
    WorksetError,
)
from workset.events import (
    Event,
    EventContext,
    EventReceived,
    InputAppended,
    LoopEvent,
    ModelCalled,
    RunFailed,
    RunFinished,
    RunStarted,
    StepInterrupted,
    TaskUpdated,
    ToolFinished,
    ToolStarted,
    event_from_json,
    new_event,
)
from workset.history.policies import make_policy, policy_names
from workset.log.store import SessionLog
from workset.loop.offer import ToolOffer
from workset.memory.context import MemoryContext
from workset.memory.store import MemoryStore
from workset.messages import (
    AssistantMessage,
    Message,
    ProtocolUnit,
    SystemMessage,
    ToolCall,
    ToolMessage,
    ToolSpec,
    UserMessage,
)
from workset.models.base import Model, ModelInfo, ModelRequest, ModelResponse, Usage
from workset.models.factory import create_model
from workset.runtime import ContextSetup, context_setup
from workset.safety.gate import SafetyGate
from workset.session.agent import Agent, AgentConfig, RunResult, RunUsage
from workset.session.engine import Session
from workset.session.router import Router
from workset.status.bar import StatusBar
from workset.stores import SessionStore, open_store
from workset.tools.background import background_tools
from workset.tools.base import Tool, tool
from workset.tools.context import current_call
from workset.tools.execution import execution_tools
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace
from workset.triggers.tools import timer_tools

__all__ = [
    "Agent",
    "AgentConfig",
    "AssembledRequest",
    "Assembler",
    "AssistantMessage",
    "BudgetConfig",
    "ContextBudgetError",
    "ContextItem",
    "ContextRequest",
    "ContextSetup",
    "Event",
    "EventContext",
    "EventReceived",
    "Features",
    "InputAppended",
    "LoopEvent",
    "Manifest",
    "MemoryContext",
    "MemoryStore",
    "Message",
    "Model",
    "ModelCalled",
    "ModelError",
    "ModelInfo",
    "ModelRequest",
    "ModelResponse",
    "ModelResponseError",
    "ModelUnavailableError",
    "ProtocolUnit",
    "Reference",
    "Router",
    "RunFailed",
    "RunFinished",
    "RunResult",
    "RunStarted",
    "RunUsage",
    "SafetyGate",
    "Scope",
    "Secrets",
    "Session",
    "SessionLog",
    "SessionLogError",
    "SessionNotFoundError",
    "SessionStore",
    "StatusBar",
    "StepInterrupted",
    "SystemMessage",
    "TaskUpdated",
    "Tool",
    "ToolCall",
    "ToolError",
    "ToolFinished",
    "ToolMessage",
    "ToolOffer",
    "ToolRegistry",
    "ToolSpec",
    "ToolStarted",
    "Usage",
    "UsageError",
    "UserMessage",
    "WorksetConfig",
    "WorksetError",
    "Workspace",
    "background_tools",
    "context_setup",
    "create_model",
    "current_call",
    "event_from_json",
    "execution_tools",
    "load_config",
    "make_policy",
    "new_event",
    "open_store",
    "perception_tools",
    "policy_names",
    "timer_tools",
    "tool",
]
