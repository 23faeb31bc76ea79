"""workset: context engineering runtime for AI agents.

For every model call, workset assembles the smallest working set that supports the decision
under a token budget, in a layout that keeps the KV-cache prefix stable, and records a manifest
of what went in and what was left out. Importing this package has no side effects: no model is
loaded, no file is opened, no optional dependency is imported.
"""

from workset.context.assemble import AssembledRequest, Assembler, BudgetConfig
from workset.context.manifest import Manifest
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
from workset.log.store import SessionLog
from workset.loop.agent import Agent, AgentConfig, RunResult, RunUsage
from workset.loop.events import (
    LoopEvent,
    ModelCalled,
    RunFailed,
    RunFinished,
    RunStarted,
    ToolFinished,
    ToolStarted,
)
from workset.loop.offer import ToolOffer
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
from workset.safety.gate import SafetyGate
from workset.tools.base import Tool, tool
from workset.tools.context import current_call
from workset.tools.execution import execution_tools
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace

__all__ = [
    "Agent",
    "AgentConfig",
    "AssembledRequest",
    "Assembler",
    "AssistantMessage",
    "BudgetConfig",
    "ContextBudgetError",
    "LoopEvent",
    "Manifest",
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
    "RunFailed",
    "RunFinished",
    "RunResult",
    "RunStarted",
    "RunUsage",
    "SafetyGate",
    "SessionLog",
    "SessionLogError",
    "SessionNotFoundError",
    "SystemMessage",
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
    "WorksetError",
    "Workspace",
    "create_model",
    "current_call",
    "execution_tools",
    "perception_tools",
    "tool",
]
