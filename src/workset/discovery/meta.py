"""The ``tool_search`` meta-tool: the agent states a need, gets matching tools and their schemas.

Where the schemas go, and why: the stable prompt prefix (system prompt plus the tools block)
holds only the core tools and ``tool_search`` and never changes during a run, so the model
server's prefix (KV) cache stays valid. The full JSON schema of each discovered tool travels in
this tool's *result*, which the loop appends at the end of the conversation like any other tool
result; from then on it is ordinary history and stays where it landed (it is not moved to the
end again on later turns, which would defeat the cache). Discovered tool names are recorded in
``loaded`` (a set, or a callback receiving each :class:`Match`), so the loop can accept calls to
them and a status block can list them. A schema already recorded in a ``loaded`` set is not
sent again: the earlier result still holds it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TypeAlias

from workset.discovery.decision import why_rejected
from workset.discovery.results import Match, Searchable, SearchResult
from workset.discovery.verify import DEFAULT_CHECKING, Checking, Verify, checked_search
from workset.errors import ModelError, ToolError
from workset.loop.offer import SEARCH_TOOL
from workset.messages import ToolSpec
from workset.tools.base import Tool

LoadedTools: TypeAlias = set[str] | Callable[[Match], object]

NAME = SEARCH_TOOL  # the loop answers unknown tool names by calling it
DESCRIPTION = (
    "Find tools for a capability you need but do not have, and load them. State the need in "
    "plain words (the action and the object, e.g. 'weather forecast for a city' or 'convert a "
    "Word document to PDF'). The result lists matching tools by server with a one-line "
    "description and a score, and gives the full JSON schema of the best ones; those tools "
    "become callable by name right after.\n"
    "Use when: the task needs a capability none of your current tools offers, or you are "
    "unsure which tool fits.\n"
    "Do not use when: a tool you already have does the job, or a tool was already loaded by "
    "an earlier search (its schema is earlier in the conversation; call it directly)."
)
PARAMETERS = {
    "type": "object",
    "properties": {
        "query": {
            "type": "string",
            "description": "The capability you need, in a short sentence of plain words.",
        },
        "k": {
            "type": "integer",
            "minimum": 1,
            "maximum": 10,
            "default": 5,
            "description": "How many tools to list (default 5).",
        },
    },
    "required": ["query"],
    "additionalProperties": False,
}


Restate = Callable[[str], Awaitable[str]]  # a need as a catalog description (restate.py)


def tool_search_tool(
    index: Searchable,
    loaded: LoadedTools,
    *,
    schemas: int = 3,
    restate: Restate | None = None,
    verify: Verify | None = None,
    checking: Checking = DEFAULT_CHECKING,
) -> Tool:
    """The ``tool_search`` tool over ``index``; the best ``schemas`` matches get full schemas.

    ``restate`` (for example :meth:`Restatements.restate`) adds a model's restatement of each
    query as a second phrasing: one model call per new query. When it fails, the query is
    searched as stated. ``verify`` (for example :meth:`Verdicts.check`) asks a model whether
    the best candidates can do the need, one call per candidate until a "yes", and uses the
    verdicts as ``checking`` says (:func:`~workset.discovery.verify.checked_search`).
    """

    async def search(query: str, k: int, also: tuple[str, ...]) -> SearchResult:
        if verify is None:
            return index.search(query, k=k, also=also)
        return await checked_search(index, query, verify, k=k, also=also, checking=checking)

    def answer(result: SearchResult) -> str:
        if not result.found:
            return _not_found_text(result)
        fresh = [m for m in result.matches[:schemas] if not _is_loaded(loaded, m)]
        for match in fresh:
            _record(loaded, match)
        return _found_text(result, fresh, schemas)

    def tool_search(query: str, k: int = 5) -> str:
        _check_query(query)
        return answer(index.search(query, k=k))

    async def tool_search_with_models(query: str, k: int = 5) -> str:
        _check_query(query)
        also: tuple[str, ...] = ()
        if restate is not None:
            try:
                also = (await restate(query),)
            except ModelError:
                also = ()
        return answer(await search(query, k, also))

    spec = ToolSpec(NAME, DESCRIPTION, PARAMETERS)
    example = {"query": "weather forecast for a city"}
    return Tool(
        spec,
        tool_search if restate is None and verify is None else tool_search_with_models,
        read_only=True,
        idempotent=True,
        examples=(example,),
        wrap_output=False,
    )


def _check_query(query: str) -> None:
    if not query.strip():
        raise ToolError(
            "the query is empty",
            hint="describe the capability you need, e.g. 'weather forecast for a city'",
        )


def _is_loaded(loaded: LoadedTools, match: Match) -> bool:
    return isinstance(loaded, set) and match.tool in loaded


def _record(loaded: LoadedTools, match: Match) -> None:
    if isinstance(loaded, set):
        loaded.add(match.tool)
    else:
        loaded(match)


def _one_line(spec: ToolSpec, limit: int = 140) -> str:
    text = " ".join(spec.description.split())
    first = text.split(". ")[0]
    return first if len(first) <= limit else first[: limit - 1] + "…"


def _found_text(result: SearchResult, fresh: list[Match], schemas: int) -> str:
    lines = [f"Tools for {json.dumps(result.query, ensure_ascii=False)}, best first:"]
    for n, match in enumerate(result.matches, start=1):
        lines.append(
            f"{n}. {match.tool} (server {match.server}, score {match.score:.2f}): "
            f"{_one_line(match.spec)}"
        )
    if fresh:
        lines.append("")
        lines.append("Loaded now; call them by name with arguments matching these schemas:")
        lines.extend(json.dumps(m.spec.to_wire(), ensure_ascii=False) for m in fresh)
    shown = {m.tool for m in fresh}
    earlier = [m.tool for m in result.matches[:schemas] if m.tool not in shown]
    if earlier:
        lines.append(f"Already loaded (schema earlier in the conversation): {', '.join(earlier)}.")
    if len(result.matches) > schemas:
        lines.append(
            "The others are not loaded; search again naming one of them to load its schema."
        )
    return "\n".join(lines)


def _not_found_text(result: SearchResult) -> str:
    """What the model reads when nothing fits: the closest tools, why each was rejected, and
    what to do instead, in short plain lines (a 0.5B model must be able to act on it)."""
    need = json.dumps(result.query, ensure_ascii=False)
    lines = [f"Not found: no tool in the catalog does {need}."]
    if result.suggestions:
        lines.append("Closest tools, and why each is not a match:")
        for n, match in enumerate(result.suggestions, start=1):
            lines.append(
                f"{n}. {match.tool} (server {match.server}): {_one_line(match.spec)}. "
                f"Not a match: {_rejection(result, match)}."
            )
    lines.append(
        "Do not call these tools for this need. Instead: rephrase the need as an action and an "
        "object (e.g. 'convert a Word file to PDF') and search again, do it with the tools "
        "you already have, or tell the user that no available tool can do it."
    )
    return "\n".join(lines)


def _rejection(result: SearchResult, match: Match) -> str:
    if result.probed:
        return (
            "needs like this one are ones this catalog does not serve (a model fitted on "
            f"labelled needs of this catalog, probability {result.probed:.2f})"
        )
    if (match.server, match.tool, False) in result.verdicts:
        return "asked whether it can do this need, a model judged it cannot"
    if match.evidence is None or result.decision is None:
        return "it shares no word with the need" if "no shared" in match.why else match.why
    return why_rejected(match.evidence, result.decision.calibration)
