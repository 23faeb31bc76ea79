"""Tools and helpers for the status tests: a phone_call tool that can fail, a web search."""

from __future__ import annotations

from workset.errors import ToolError
from workset.tools.base import Tool, tool


@tool(examples=({"company": "Xfinity"},))
def phone_call(company: str, note: str = "") -> str:
    """Call a company's support line. Use when the user asks you to phone a company.

    Args:
        company: The company to call, e.g. "Xfinity".
        note: What to say.
    """
    if company == "Nowhere":
        raise ToolError(f"no phone number on file for {company}", hint="ask the user for it")
    return f"Called {company}: the agent said the request is being processed."


@tool(read_only=True, examples=({"query": "refund policy"},))
def web_search(query: str) -> str:
    """Search the web. Use when you need public information.

    Args:
        query: What to search for.
    """
    return f"3 results for {query}"


PHONE_TOOLS: list[Tool] = [phone_call, web_search]
