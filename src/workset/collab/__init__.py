"""Collaboration: subagents, people in the loop, and notifications (seed 004, C14).

- :mod:`.definitions`: agent definitions as user-authored folders (``AGENT.md``), loaded
  with diagnostics, never crashing on what an author wrote;
- :mod:`.brief` and :mod:`.result`: what a subagent sees (a labelled, self-contained brief;
  minimal, extracted or inherited context) and the one result shape it returns;
- :mod:`.subagents` and :mod:`.agent_tools`: subagents as sessions of the engine, their
  limits, cancellation cascading to their own subagents, and the tools the model calls;
- :mod:`.human` and :mod:`.human_tools`: approvals and questions for people with a deadline
  and a conservative default, durable across restarts, answered on any channel;
- :mod:`.notify`: notifications over pluggable channels chosen by urgency, each delivery
  recorded with its outcome.
"""

from workset.collab.agent_tools import subagent_tools
from workset.collab.definitions import (
    GENERAL,
    AgentDefinition,
    AgentLimits,
    discover_agents,
    find_definition,
)
from workset.collab.result import SubagentResult, parse_result
from workset.collab.subagents import AgentNode, Collaboration

__all__ = [
    "GENERAL",
    "AgentDefinition",
    "AgentLimits",
    "AgentNode",
    "Collaboration",
    "SubagentResult",
    "discover_agents",
    "find_definition",
    "parse_result",
    "subagent_tools",
]
