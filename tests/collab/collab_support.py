"""Shared parts for the collaboration tests: telling a subagent's requests from its parent's,
a noisy search tool, and a main agent wired with the subagent tools."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from support import Records, make_agent

from workset.collab import Collaboration, subagent_tools
from workset.collab.brief import LEGEND
from workset.messages import ToolMessage, UserMessage
from workset.models.base import Model, ModelRequest
from workset.session.agent import Agent
from workset.tools.base import Tool

NOISE = "def unrelated_helper(x):\n    return x * 2  # filler line of the code base\n" * 40
AGENT_ID = re.compile(r"agent-[0-9a-f]{6}")


def is_subagent(request: ModelRequest) -> bool:
    """True for a request of a subagent (its system prompt carries the labels' legend)."""
    first = request.messages[0].content or ""
    return LEGEND in first or any(
        isinstance(m, UserMessage) and LEGEND in m.content for m in request.messages
    )


def results(request: ModelRequest) -> list[ToolMessage]:
    return [m for m in request.messages if isinstance(m, ToolMessage)]


def agent_id_in(text: str) -> str:
    found = AGENT_ID.search(text)
    assert found is not None, text
    return found.group(0)


def result_json(**fields: Any) -> str:
    data = {
        "status": "completed",
        "summary": "done",
        "findings": [],
        "artifacts": [],
        "open_questions": [],
    }
    data.update(fields)
    return json.dumps(data)


def search_tool() -> Tool:
    def search_code(pattern: str) -> str:
        """Search the code base. Use when looking for code. Output: matching lines.

        Args:
            pattern: What to look for.
        """
        return f"src/payment/callbacks.py:42: def handle_callback(request):  # {pattern}\n{NOISE}"

    return Tool.from_function(search_code, read_only=True, examples=({"pattern": "callback"},))


def main_agent(
    tmp_path: Path,
    model: Model,
    records: Records,
    *,
    sub_tools: list[Tool] | None = None,
    extra: list[Tool] | None = None,
    **collab: Any,
) -> tuple[Agent, Collaboration]:
    """A main agent with the subagent tools; subagents get ``sub_tools`` (a search tool)."""
    team = Collaboration(
        sub_tools if sub_tools is not None else [search_tool()], subscribers=[records], **collab
    )
    tools = [*subagent_tools(team), *(extra or [])]
    return make_agent(tmp_path, model, tools, records), team
