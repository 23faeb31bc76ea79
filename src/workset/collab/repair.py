"""Holding a subagent to its result shape: one repair call, and the results of limits.

A final answer that is not the result object gets one more model call on the subagent's own
trajectory, constrained by the result's JSON schema where the backend enforces schemas
(llama.cpp does); if that fails too, the answer is quoted as the summary, marked unverified.
A subagent a limit stopped ends with a result that names the limit and what it had spent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from workset.collab.definitions import AgentLimits
from workset.collab.result import RESULT_SCHEMA, SubagentResult, parse_result, quoted_result
from workset.errors import ModelError
from workset.messages import Message, SystemMessage, UserMessage
from workset.models.base import Model, ModelRequest, Usage

REPAIR = (
    "[FROM_MAIN_AGENT] Your last answer was not the JSON object asked for ({problem}). Reply "
    "now with only that JSON object: status, summary, findings, artifacts, open_questions."
)


async def checked(
    model: Model, system: str, trajectory: Sequence[Message], answer: str
) -> tuple[SubagentResult, Usage | None]:
    """``answer`` in the result shape, and the repair call's usage when one was made."""
    parsed, problem = parse_result(answer)
    if parsed is not None:
        return parsed, None
    request = ModelRequest(
        (SystemMessage(system), *trajectory, UserMessage(REPAIR.format(problem=problem))),
        max_tokens=400,
        temperature=0.0,
        json_schema=RESULT_SCHEMA,
    )
    try:
        response = await model.complete(request)
    except ModelError as exc:
        return quoted_result(answer, f"{problem}; the repair call failed: {exc}"), None
    repaired, again = parse_result(response.message.content or "")
    if repaired is None:
        quoted = quoted_result(answer, f"{problem}; a repair call did not fix it: {again}")
        return quoted, response.usage
    note = f"restated in the result shape by one repair call ({problem})"
    return replace(repaired, note=note), response.usage


def stopped(limit: str, limits: AgentLimits, tokens: int, calls: int, why: str) -> SubagentResult:
    """The result of a subagent that ``limit`` stopped (empty: it was cancelled, ``why``)."""
    if limit == "wall_time":
        return SubagentResult(
            "failed",
            f"stopped: it reached its wall-time limit of {limits.wall_time_s:g} s after "
            f"{calls} model calls; give it a narrower task, a longer timeout_s, or mode async",
        )
    if limit == "token_budget":
        return SubagentResult(
            "failed",
            f"stopped: it used {tokens:,} tokens, over its budget of {limits.token_budget:,}, "
            f"after {calls} model calls; give it a narrower task or a larger budget",
        )
    return SubagentResult("cancelled", f"cancelled before it finished: {why}")
